//! `wadforge copy` and `wadforge remove` end to end: outputs, the files beside them, refusals.

use std::collections::BTreeSet;
use std::path::Path;

use wadforge_format::{Command as AnimCommand, Wad};

use crate::common::files::{read, write_wad};
use crate::common::{assert_same_objects, s, stderr, stdout, succeeds, wadforge};

/// A TRLE sound map (370 ids) defining `ids`, each with one sample of a one-line `.sam`.
fn sound_files(wad: &Path, ids: &[u16]) {
    let mut map = vec![-1i16; 370];
    for &id in ids {
        map[id as usize] = 0;
    }
    let mut sfx: Vec<u8> = map.iter().flat_map(|w| w.to_le_bytes()).collect();
    sfx.extend(1u32.to_le_bytes());
    sfx.extend([0, 0, 200, 10, 0, 0]);
    sfx.extend((1u16 << 2).to_le_bytes());
    std::fs::write(wad.with_extension("sfx"), sfx).unwrap();
    std::fs::write(wad.with_extension("sam"), "step.wav\r\n").unwrap();
    std::fs::write(wad.with_extension("swd"), b"sprites").unwrap();
}

fn sounds_of(wad: &Wad, id: u32) -> BTreeSet<u16> {
    let m = wad.moveables.iter().find(|m| m.id == id).unwrap();
    m.animations
        .iter()
        .flat_map(|a| &a.commands)
        .filter_map(|c| match *c {
            AnimCommand::PlaySound { sound, .. } => Some(sound),
            _ => None,
        })
        .collect()
}

#[test]
fn copy_writes_the_wad_its_names_and_the_destinations_sound_files_and_lists_undefined_sounds() {
    let tmp = tempfile::tempdir().unwrap();
    let fixture = wadforge_fixtures::standard();
    let src = write_wad(&tmp.path().join("src.wad"), &fixture);
    let mut dest_model = fixture.clone();
    dest_model.moveables.retain(|m| m.id != 51);
    let dest = write_wad(&tmp.path().join("dest.wad"), &dest_model);
    let sounds = sounds_of(&fixture, 51);
    assert!(sounds.len() >= 2, "the crocodile plays sounds");
    let defined = *sounds.iter().next().unwrap();
    sound_files(&dest, &[defined]);
    let out = tmp.path().join("out.wad");
    let o = wadforge(&["copy", s(&src), s(&dest), "-o", s(&out), "--only", "CROCODILE"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let err = stderr(&o);
    assert!(
        err.contains("copied CROCODILE (moveable 51) -> CROCODILE (moveable 51) (added)"),
        "{err}"
    );
    let missing: Vec<String> = sounds
        .iter()
        .skip(1)
        .map(|id| format!("{id} (CROCODILE (moveable 51))"))
        .collect();
    assert!(
        err.contains(&format!(
            "does not define (add them to the level's sounds): {}",
            missing.join(", ")
        )),
        "{err}"
    );
    assert!(
        !err.contains(&format!(" {defined} (CROCODILE")),
        "{defined} is defined: {err}"
    );
    assert_same_objects(&src, &out);
    for ext in ["sfx", "sam", "swd"] {
        assert_eq!(
            std::fs::read(out.with_extension(ext)).unwrap(),
            std::fs::read(dest.with_extension(ext)).unwrap(),
            "{ext}"
        );
    }
    let was = std::fs::read_to_string(out.with_extension("was")).unwrap();
    assert_eq!(
        was.lines().count(),
        fixture.moveables.len() + fixture.statics.len()
    );
    assert!(was.contains("CROCODILE\r\n"));
}

#[test]
fn copy_without_sound_files_lists_the_sounds_played_and_says_they_were_not_checked() {
    let tmp = tempfile::tempdir().unwrap();
    let src = write_wad(&tmp.path().join("src.wad"), &wadforge_fixtures::standard());
    let dest = write_wad(&tmp.path().join("dest.wad"), &wadforge_fixtures::standard());
    let out = tmp.path().join("out.wad");
    let o = wadforge(&[
        "copy",
        s(&src),
        s(&dest),
        "-o",
        s(&out),
        "--only",
        "CROCODILE",
        "--as",
        "BADDY_1",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("(not checked: the destination has no"),
        "{}",
        stderr(&o)
    );
    assert!(stderr(&o).contains("-> BADDY_1 (moveable"), "{}", stderr(&o));
    assert_eq!(
        read(&out).moveables.len(),
        wadforge_fixtures::standard().moveables.len() + 1
    );
}

#[test]
fn remove_drops_the_objects_and_writes_nothing_over_its_input() {
    let tmp = tempfile::tempdir().unwrap();
    let fixture = wadforge_fixtures::standard();
    let input = write_wad(&tmp.path().join("in.wad"), &fixture);
    let before = std::fs::read(&input).unwrap();
    let out = tmp.path().join("out.wad");
    let o = wadforge(&["remove", s(&input), "-o", s(&out), "--only", "CROCODILE,PLANT0"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let removed = read(&out);
    assert!(removed.moveables.iter().all(|m| m.id != 51) && removed.statics.iter().all(|s| s.id != 0));
    assert_eq!(
        removed.moveables.len() + removed.statics.len(),
        fixture.moveables.len() + fixture.statics.len() - 2
    );
    let o = wadforge(&["diff", s(&input), s(&out)]);
    let text = stdout(&o);
    assert!(
        text.trim_end().ends_with("12 of 14 objects identical (2 differ)"),
        "{text}"
    );

    // Over its own input: refused, the input untouched.
    let o = wadforge(&["remove", s(&input), "-o", s(&input), "--only", "CROCODILE"]);
    assert!(!o.status.success());
    assert!(
        stderr(&o).contains("never writes over its inputs"),
        "{}",
        stderr(&o)
    );
    assert_eq!(std::fs::read(&input).unwrap(), before);
}

#[test]
fn bad_input_is_refused_with_a_clear_message_and_nothing_is_written() {
    let tmp = tempfile::tempdir().unwrap();
    let src = write_wad(&tmp.path().join("src.wad"), &wadforge_fixtures::standard());
    let dest = write_wad(&tmp.path().join("dest.wad"), &wadforge_fixtures::standard());
    let level = tmp.path().join("level.phd");
    std::fs::write(&level, wadforge_fixtures::levels::tr1_level()).unwrap();
    let garbage = tmp.path().join("garbage.wad");
    std::fs::write(&garbage, b"\x81\0\0\0 not a wad").unwrap();
    let out = tmp.path().join("out.wad");
    let sounds = tmp.path().join("out.sfx");
    let cases: [(&[&str], &str); 7] = [
        (
            &["copy", s(&src), s(&dest), "-o", s(&out), "--only", "NO_SUCH_SLOT"],
            "--only names NO_SUCH_SLOT",
        ),
        (
            &[
                "copy",
                s(&src),
                s(&dest),
                "-o",
                s(&out),
                "--only",
                "CROCODILE,DOOR_TYPE1",
                "--as",
                "BADDY_1",
            ],
            "one at a time",
        ),
        (
            &[
                "copy",
                s(&src),
                s(&dest),
                "-o",
                s(&out),
                "--only",
                "CROCODILE",
                "--as",
                "NOT_A_SLOT",
            ],
            "NOT_A_SLOT is neither an id",
        ),
        (
            &["copy", s(&src), s(&level), "-o", s(&out), "--only", "CROCODILE"],
            "only a WAD or a Wad2 can be edited",
        ),
        (
            &[
                "copy",
                s(&garbage),
                s(&dest),
                "-o",
                s(&out),
                "--only",
                "CROCODILE",
            ],
            "is not a valid WAD",
        ),
        (
            &["copy", s(&src), s(&dest), "-o", s(&dest), "--only", "CROCODILE"],
            "never writes over its inputs",
        ),
        // The destination's sounds, copied beside the output, would replace it.
        (
            &["copy", s(&src), s(&dest), "-o", s(&sounds), "--only", "CROCODILE"],
            "name the WAD .wad",
        ),
    ];
    let before = std::fs::read(&dest).unwrap();
    for (args, message) in cases {
        let o = wadforge(args);
        assert_eq!(o.status.code(), Some(1), "{args:?}");
        assert!(stderr(&o).contains(message), "{args:?}: {}", stderr(&o));
        assert!(
            !out.exists() && !out.with_extension("was").exists() && !sounds.exists(),
            "{args:?} wrote something"
        );
    }
    assert_eq!(std::fs::read(&dest).unwrap(), before);
}

#[test]
fn check_exits_0_on_a_sound_file_1_on_an_error_and_fix_writes_a_wad_that_passes() {
    let tmp = tempfile::tempdir().unwrap();
    let good = write_wad(&tmp.path().join("good.wad"), &wadforge_fixtures::standard());
    let o = wadforge(&["check", s(&good)]);
    assert_eq!(o.status.code(), Some(0), "{}", stdout(&o));
    assert!(stdout(&o).contains("0 errors, 0 warnings, 0 notes"));

    let mut broken = wadforge_fixtures::standard();
    let croc = broken.moveables.iter_mut().find(|m| m.id == 51).unwrap();
    croc.animations[0].next_frame = 9_999;
    let bad = write_wad(&tmp.path().join("bad.wad"), &broken);
    let o = wadforge(&["check", s(&bad), "--json"]);
    assert_eq!(o.status.code(), Some(1));
    let json: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(json[0]["rule"], "next-frame");
    assert_eq!(json[0]["place"], "CROCODILE (moveable 51), animation 0");

    let mut off = wadforge_fixtures::standard();
    let k = off.moveables.iter().find(|m| m.id == 51).unwrap().meshes[0];
    off.meshes[k].sphere.radius = 1;
    let off = write_wad(&tmp.path().join("off.wad"), &off);
    let o = wadforge(&["check", s(&off)]);
    assert_eq!(o.status.code(), Some(0), "a note is not an error");
    let fixed = tmp.path().join("fixed.wad");
    let o = wadforge(&["check", s(&off), "--fix", "-o", s(&fixed)]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let o = wadforge(&["check", s(&fixed)]);
    assert!(stdout(&o).contains("0 errors, 0 warnings, 0 notes"));
    // Only the repaired sphere differs.
    let o = wadforge(&["diff", s(&off), s(&fixed)]);
    let text = stdout(&o);
    assert!(
        text.contains("13 of 14 objects identical (1 differs)") && text.contains("sphere"),
        "{text}"
    );
    // Unreadable input: exit 2, nothing written.
    let garbage = tmp.path().join("garbage.wad");
    std::fs::write(&garbage, b"\x81\0\0\0 not a wad").unwrap();
    let out = tmp.path().join("never.wad");
    let o = wadforge(&["check", s(&garbage), "--fix", "-o", s(&out)]);
    assert_eq!(o.status.code(), Some(2));
    assert!(!out.exists());
}

#[test]
fn check_lists_the_first_findings_of_a_rule_and_counts_the_rest() {
    // A file may break a rule once every few bytes; each finding held took some 300 bytes.
    let tmp = tempfile::tempdir().unwrap();
    let mut wad = wadforge_fixtures::standard();
    let unknown = |id| wadforge_format::Moveable {
        id,
        ..Default::default()
    };
    wad.moveables.extend((0..300).map(|i| unknown(100_000 + i)));
    let path = write_wad(&tmp.path().join("unknown.wad"), &wad);
    let o = wadforge(&["check", s(&path), "--json"]);
    let json: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let of_rule: Vec<&serde_json::Value> = json
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| f["rule"] == "unknown-slot")
        .collect();
    assert_eq!(of_rule.len(), 201, "200 listed and one that counts the rest");
    let last = of_rule.last().unwrap();
    assert!(
        last["message"]
            .as_str()
            .unwrap()
            .starts_with("100 more findings of this rule"),
        "{last}"
    );
    assert_eq!(last["severity"], of_rule[0]["severity"]);
    assert_eq!(last["more"], 100);
    // The summary counts every finding, listed or not.
    let warnings: u64 = json
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| f["severity"] == "warning")
        .map(|f| f["more"].as_u64().unwrap_or(1))
        .sum();
    assert!(warnings >= 300, "{warnings}");
    let o = wadforge(&["check", s(&path)]);
    let text = stdout(&o);
    assert!(text.contains(&format!(" {warnings} warnings")), "{text}");
}

/// `model` written as a WAD and converted into `NAME.wad2` in `dir`; its path.
fn wad2_of(dir: &Path, name: &str, model: &Wad) -> std::path::PathBuf {
    let wad = write_wad(&dir.join(format!("{name}.wad")), model);
    let wad2 = dir.join(format!("{name}.wad2"));
    succeeds(&["convert", "-q", s(&wad), s(&wad2)]);
    wad2
}

#[test]
fn wad2_files_are_edited_into_wad2_files_keeping_every_other_object() {
    let tmp = tempfile::tempdir().unwrap();
    let wad = write_wad(&tmp.path().join("src.wad"), &wadforge_fixtures::standard());
    let wad2 = wad2_of(tmp.path(), "standard", &wadforge_fixtures::standard());

    // remove: a Wad2 without CROCODILE, every other object as it was.
    let without = tmp.path().join("without.wad2");
    let o = wadforge(&["remove", s(&wad2), "-o", s(&without), "--only", "CROCODILE"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        std::fs::read(&without).unwrap().starts_with(b"WAD2"),
        "a Wad2 is written"
    );
    assert!(
        !without.with_extension("was").exists(),
        "a Wad2 has no slot-name file"
    );
    assert!(
        stderr(&o).contains("kept the Tomb Editor detail of 13 objects"),
        "{}",
        stderr(&o)
    );
    let text = stdout(&wadforge(&["diff", s(&wad2), s(&without)]));
    assert!(
        text.contains("CROCODILE (moveable 51): only in A")
            && text.ends_with("13 of 14 objects identical (1 differs)\n"),
        "{text}"
    );

    // copy: CROCODILE from the WAD into it gives back the first Wad2's objects.
    let again = tmp.path().join("again.wad2");
    let o = wadforge(&[
        "copy",
        s(&wad),
        s(&without),
        "-o",
        s(&again),
        "--only",
        "CROCODILE",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stderr(&o).contains("CROCODILE (moveable 51) -> CROCODILE (moveable 51) (added)"));
    assert_same_objects(&wad2, &again);

    // A classic WAD from a Wad2: OUT.wad.
    let classic = tmp.path().join("without.wad");
    succeeds(&["remove", s(&wad2), "-o", s(&classic), "--only", "CROCODILE"]);
    assert!(classic.with_extension("was").exists());
    assert_same_objects(&without, &classic);
    wadforge_fixtures::assert_other_tools_read_as_the_game("without.wad", &std::fs::read(&classic).unwrap());

    // check --fix: a Wad2 repaired into a Wad2, only the repaired sphere changed.
    let mut off = wadforge_fixtures::standard();
    let k = off.moveables.iter().find(|m| m.id == 51).unwrap().meshes[0];
    off.meshes[k].sphere.radius = 1;
    let off = wad2_of(tmp.path(), "off", &off);
    assert!(stdout(&wadforge(&["check", s(&off)])).contains("[bounding-sphere]"));
    let fixed = tmp.path().join("fixed.wad2");
    let o = wadforge(&["check", s(&off), "--fix", "-o", s(&fixed)]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(std::fs::read(&fixed).unwrap().starts_with(b"WAD2"));
    assert!(stdout(&wadforge(&["check", s(&fixed)])).contains("0 errors, 0 warnings, 0 notes"));
    let text = stdout(&wadforge(&["diff", s(&off), s(&fixed)]));
    assert!(
        text.contains("13 of 14 objects identical (1 differs)") && text.contains("sphere"),
        "{text}"
    );
    // A level is still refused, naming what to do.
    let level = tmp.path().join("level.phd");
    std::fs::write(&level, wadforge_fixtures::levels::tr1_level()).unwrap();
    let out = tmp.path().join("never.wad2");
    let o = wadforge(&["remove", s(&level), "-o", s(&out), "--only", "0"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("wadforge convert"), "{}", stderr(&o));
    assert!(!out.exists());
}

/// Removing objects from a real Wad2 keeps what Tomb Editor holds of the others that the classic
/// model has no place for (names, blend modes, colours…), as its own Python reader summarises
/// each object.
#[test]
fn removing_from_a_real_wad2_keeps_the_tomb_editor_detail_of_the_other_objects() {
    let files = wadforge_fixtures::harness::real_wad2_files();
    let Some(file) = files.iter().find(|p| p.ends_with("TombEngine_Weapons.wad2")) else {
        return;
    };
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("out.wad2");
    succeeds(&["remove", "-q", s(file), "-o", s(&out), "--only", "UZI_ITEM,951"]);
    let (Some(before), Some(after)) = (
        crate::common::files::python_wad2_summary(file),
        crate::common::files::python_wad2_summary(&out),
    ) else {
        return;
    };
    let moveables = |summary: &serde_json::Value| summary["moveables"].as_array().unwrap().clone();
    let kept: Vec<serde_json::Value> = moveables(&before)
        .into_iter()
        .filter(|m| m["id"] != 951 && m["id"] != 952)
        .collect();
    assert_eq!(kept.len() + 2, moveables(&before).len());
    // Meshes and textures are the model's (pages, shared meshes); everything else is the file's.
    let without_geometry = |m: &serde_json::Value| {
        let mut m = m.clone();
        m.as_object_mut().unwrap().remove("meshes");
        m
    };
    let after_summary = after.clone();
    let after: Vec<_> = moveables(&after).iter().map(without_geometry).collect();
    let kept: Vec<_> = kept.iter().map(without_geometry).collect();
    assert_eq!(after, kept);
    // Copied back from the Wad2, UZI_ITEM brings its own detail.
    let back = tmp.path().join("back.wad2");
    succeeds(&[
        "copy",
        "-q",
        s(file),
        s(&out),
        "-o",
        s(&back),
        "--only",
        "UZI_ITEM",
    ]);
    let uzi = |summary: &serde_json::Value| {
        moveables(summary)
            .iter()
            .find(|m| m["id"] == 952)
            .map(without_geometry)
    };
    let Some(back) = crate::common::files::python_wad2_summary(&back) else {
        return;
    };
    assert!(uzi(&back).is_some());
    assert_eq!(uzi(&back), uzi(&before));
    // Its polygons took their own textures back: no page was needed.
    let sizes = |summary: &serde_json::Value| summary["textures"].as_array().unwrap().clone();
    assert!(
        !sizes(&back).contains(&serde_json::json!([256, 256])),
        "{:?}",
        sizes(&back)
    );
    assert!(!sizes(&after_summary).contains(&serde_json::json!([256, 256])));
}

/// The standard fixture with a vertex inside LARA_SKIN_JOINTS' mesh `k` (its first triangle
/// split in three around a point in its middle) that no LARA_SKIN vertex meets.
fn with_a_vertex_inside_joint(k: usize) -> Wad {
    let mut wad = wadforge_fixtures::standard();
    let joints = wad.moveables.iter().position(|m| m.id == 9).unwrap();
    let mut mesh = wad.meshes[wad.moveables[joints].meshes[k]].clone();
    let p = mesh.polygons[0];
    let corners = [0, 1, 2].map(|i| mesh.vertices[usize::from(p.vertices[i])]);
    let middle = [0, 1, 2].map(|i| (corners.iter().map(|c| i32::from(c[i])).sum::<i32>() / 3) as i16);
    let m = mesh.vertices.len() as u16;
    mesh.vertices.push(middle);
    if let wadforge_format::Shading::Normals(n) = &mut mesh.shading {
        n.push(n[0]);
    }
    let [a, b, c] = [p.vertices[0], p.vertices[1], p.vertices[2]];
    for (i, corners) in [[a, b, m], [b, c, m], [c, a, m]].into_iter().enumerate() {
        let mut q = p;
        q.vertices[..3].copy_from_slice(&corners);
        if i == 0 {
            mesh.polygons[0] = q;
        } else {
            mesh.polygons.push(q);
        }
    }
    wad.meshes.push(mesh);
    wad.moveables[joints].meshes[k] = wad.meshes.len() - 1;
    wad
}

#[test]
fn check_warns_of_a_joint_vertex_joined_to_no_body_vertex_only_where_the_game_shows_a_seam() {
    let tmp = tempfile::tempdir().unwrap();
    // A knee: TR4 draws it halfway between thigh and shin, bending the vertex inside with it.
    let knee = write_wad(&tmp.path().join("knee.wad"), &with_a_vertex_inside_joint(2));
    let o = wadforge(&["check", s(&knee)]);
    assert!(
        stdout(&o).contains("0 errors, 0 warnings, 0 notes"),
        "{}",
        stdout(&o)
    );
    // An ankle: drawn by a matrix that is not the joint's, the seam tears.
    let ankle = write_wad(&tmp.path().join("ankle.wad"), &with_a_vertex_inside_joint(3));
    let o = wadforge(&["check", s(&ankle)]);
    let report = stdout(&o);
    assert_eq!(o.status.code(), Some(0), "a warning: {report}");
    assert!(
        report.contains("0 errors, 1 warnings, 0 notes")
            && report.contains("warning [skin-joints] LARA_SKIN_JOINTS (moveable 9), mesh 3"),
        "{report}"
    );
}
