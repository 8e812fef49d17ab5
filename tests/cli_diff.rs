//! `wadforge diff` end to end: exit codes 0 (same objects), 1 (different), 2 (cannot compare),
//! the named difference in text and JSON, options, levels, and a reader that stops early.

use std::io::Read;
use std::process::Stdio;

use wadforge_format::catalog::{self, Game};
use wadforge_format::Wad;

use crate::common::files::{standard_wad, write_wad};
use crate::common::{s, stderr, stdout, wadforge, wadforge_command};

const CROCODILE: u32 = 51;

/// The standard fixture with the crocodile's third mesh's first vertex moved one unit.
fn moved_vertex() -> (Wad, usize) {
    let mut model = wadforge_fixtures::standard();
    let croc = model.moveables.iter().find(|m| m.id == CROCODILE).unwrap();
    let mesh = croc.meshes[2];
    model.meshes[mesh].vertices[0][0] += 1;
    (model, mesh)
}

#[test]
fn the_same_objects_in_another_layout_exit_0_with_a_summary() {
    let tmp = tempfile::tempdir().unwrap();
    let standard = standard_wad(tmp.path());
    let quirk = wadforge_fixtures::quirks()
        .into_iter()
        .find(|q| q.name == "shared_and_unused_mesh_pointers")
        .unwrap();
    let quirky = tmp.path().join("quirky.wad");
    std::fs::write(&quirky, &quirk.bytes).unwrap();
    assert_ne!(std::fs::read(&standard).unwrap(), quirk.bytes);
    let o = wadforge(&["diff", s(&standard), s(&quirky)]);
    assert_eq!(o.status.code(), Some(0), "{}{}", stdout(&o), stderr(&o));
    let out = stdout(&o);
    let model = wadforge_fixtures::standard();
    let total = model.moveables.len() + model.statics.len();
    assert_eq!(
        out.lines().last(),
        Some(&*format!("{total} of {total} objects identical")),
        "{out}"
    );
    assert!(out.contains("CROCODILE (moveable 51): identical"), "{out}");
    assert!(out.contains("PLANT0 (static 0): identical"), "{out}");
    assert_eq!(out.lines().count(), total + 1, "{out}");
}

#[test]
fn a_changed_value_exits_1_and_is_named() {
    let tmp = tempfile::tempdir().unwrap();
    let standard = standard_wad(tmp.path());
    let (model, mesh) = moved_vertex();
    let changed = write_wad(&tmp.path().join("changed.wad"), &model);
    let o = wadforge(&["diff", s(&standard), s(&changed)]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let out = stdout(&o);
    let v = model.meshes[mesh].vertices[0];
    assert!(out.contains("CROCODILE (moveable 51): 1 difference\n"), "{out}");
    assert!(
        out.contains(&format!(
            "    mesh 2, vertex 0: vertex ({}, {}, {}) vs ({}, {}, {})\n",
            v[0] - 1,
            v[1],
            v[2],
            v[0],
            v[1],
            v[2]
        )),
        "{out}"
    );
    let total = model.moveables.len() + model.statics.len();
    assert_eq!(
        out.lines().last(),
        Some(&*format!(
            "{} of {total} objects identical (1 differs)",
            total - 1
        ))
    );

    let o = wadforge(&["diff", "--json", s(&standard), s(&changed)]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let json: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(json["identical"], false);
    let objects = json["objects"].as_array().unwrap();
    assert_eq!(objects.len(), total);
    let croc = objects.iter().find(|o| o["id"] == CROCODILE).unwrap();
    assert_eq!(croc["slot"], "CROCODILE");
    assert_eq!(croc["kind"], "moveable");
    assert_eq!(croc["identical"], false);
    let differences = croc["differences"].as_array().unwrap();
    assert_eq!(differences.len(), 1);
    assert_eq!(differences[0]["place"], "mesh 2, vertex 0");
    assert_eq!(differences[0]["what"], "vertex");
    assert!(objects
        .iter()
        .filter(|o| o["id"] != CROCODILE)
        .all(|o| o["identical"] == true));
}

#[test]
fn options_choose_tolerance_and_scope() {
    let tmp = tempfile::tempdir().unwrap();
    let standard = standard_wad(tmp.path());
    let changed = write_wad(&tmp.path().join("changed.wad"), &moved_vertex().0);
    let code = |args: &[&str]| {
        let mut all = vec!["diff"];
        all.extend(args);
        all.extend([s(&standard), s(&changed)]);
        let o = wadforge(&all);
        (o.status.code(), stderr(&o))
    };
    assert_eq!(code(&["--animation"]).0, Some(0));
    assert_eq!(code(&["--geometry"]).0, Some(1));
    assert_eq!(
        code(&["--normal-tolerance", "100", "--angle-tolerance", "8"]).0,
        Some(1)
    );
    // A bad option is an error, not a difference.
    let (status, stderr) = code(&["--angle-tolerance", "-1"]);
    assert_eq!(status, Some(2), "{stderr}");
    assert_eq!(code(&["--geometry", "--animation"]).0, Some(2));
}

#[test]
fn a_level_and_its_objects_converted_to_a_wad_compare_in_tr4_slots() {
    let tmp = tempfile::tempdir().unwrap();
    let fixture = wadforge_fixtures::levels::tr1_fixture();
    let level = tmp.path().join("LEVEL1.PHD");
    std::fs::write(&level, &fixture.bytes).unwrap();
    let converted = tmp.path().join("level1.wad");
    let o = wadforge(&["convert", "-q", s(&level), s(&converted)]);
    assert!(o.status.success(), "{}", stderr(&o));
    // Each object of the level against the WAD's object in the TR4 slot the catalogue gives it;
    // one TR4 has no slot for is in the level only, and says why.
    let placed = |id| catalog::moveable_in(Game::Tr1, id, Game::Tr4);
    let (wolf, bat) = (7, 9);
    assert_eq!(placed(wolf), None, "TR4 has no WOLF");
    let bat_in_tr4 = placed(bat).expect("TR4 has a BAT");
    for (a, b, side) in [(&level, &converted, "A"), (&converted, &level, "B")] {
        let o = wadforge(&["diff", s(a), s(b)]);
        assert_eq!(o.status.code(), Some(1), "{}{}", stdout(&o), stderr(&o));
        let out = stdout(&o);
        assert!(
            out.contains(&format!("BAT (moveable {bat_in_tr4}): identical")),
            "{out}"
        );
        assert!(
            out.contains(&format!(
                "WOLF (moveable {wolf}): only in {side}: TR4 has no moveable slot for TR1's WOLF"
            )),
            "{out}"
        );
        let objects = fixture.model.moveables.len() + fixture.model.statics.len();
        let last = out.lines().last().unwrap();
        assert_eq!(
            last,
            format!(
                "{} of {objects} objects identical (1 differs: 1 with no slot in the other's game)",
                objects - 1
            )
        );
    }
    // The level's objects written under TR1's ids are other objects in a WAD (TR4's 7 is
    // FLARE_ANIM): never the same.
    let raw = write_wad(&tmp.path().join("raw.wad"), &fixture.model);
    let o = wadforge(&["diff", s(&level), s(&raw)]);
    assert_eq!(o.status.code(), Some(1), "{}", stdout(&o));
    let flare = catalog::moveable_slot(Game::Tr4, wolf);
    assert!(
        stdout(&o).contains(&format!("{flare} (moveable {wolf}): only in B")),
        "{}",
        stdout(&o)
    );
}

#[test]
fn an_unreadable_file_exits_2_naming_it() {
    let tmp = tempfile::tempdir().unwrap();
    let standard = standard_wad(tmp.path());
    let missing = tmp.path().join("missing.wad");
    let broken = tmp.path().join("broken.wad");
    let mut bytes = std::fs::read(&standard).unwrap();
    bytes.truncate(bytes.len() / 2);
    std::fs::write(&broken, bytes).unwrap();
    for (a, b, named) in [
        (&missing, &standard, &missing),
        (&standard, &missing, &missing),
        (&standard, &broken, &broken),
        (&broken, &standard, &broken),
    ] {
        let o = wadforge(&["diff", s(a), s(b)]);
        assert_eq!(o.status.code(), Some(2), "{a:?} {b:?}");
        let stderr = stderr(&o);
        assert!(stderr.contains(s(named)), "{stderr}");
        assert!(o.stdout.is_empty(), "{}", stdout(&o));
    }
}

#[test]
fn a_reader_that_stops_early_ends_the_command_quietly() {
    // Every vertex of the largest fixture moved: far more output than a pipe holds.
    let tmp = tempfile::tempdir().unwrap();
    let largest = wadforge_fixtures::largest();
    let mut moved = largest.clone();
    moved
        .meshes
        .iter_mut()
        .flat_map(|m| &mut m.vertices)
        .for_each(|v| v[1] += 1);
    let (a, b) = (
        write_wad(&tmp.path().join("a.wad"), &largest),
        write_wad(&tmp.path().join("b.wad"), &moved),
    );
    for json in [false, true] {
        let mut command = wadforge_command();
        command.arg("diff");
        if json {
            command.arg("--json");
        }
        let mut child = command
            .args([&a, &b])
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut head = [0u8; 100];
        child.stdout.take().unwrap().read_exact(&mut head).unwrap(); // then closed
        let o = child.wait_with_output().unwrap();
        let stderr = stderr(&o);
        assert!(stderr.is_empty(), "json {json}: {stderr}");
        assert_eq!(o.status.code(), Some(1), "json {json}: the objects differ");
    }
}
