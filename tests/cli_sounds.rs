//! Sounds travel with objects: `import` writes `sounds.yaml` from the sound files beside the
//! input, `build` writes them beside the output, `copy` carries the copied objects' sounds.

use std::collections::BTreeSet;
use std::path::Path;

use wadforge_fixtures::sounds::{played, played_by, sound_files, UNPLAYED};
use wadforge_format::sounds::{sfx, xml, Sounds};
use wadforge_format::Wad;

use crate::common::files::write_wad;
use crate::common::{s, stderr, succeeds, wadforge};

/// `model` written as the WAD `path`, with the fixture's sound files for `ids` beside it.
fn wad_with_sounds(path: &Path, model: &Wad, ids: &BTreeSet<u16>) -> Sounds {
    write_wad(path, model);
    let files = sound_files(ids);
    std::fs::write(path.with_extension("sfx"), &files.sfx).unwrap();
    std::fs::write(path.with_extension("sam"), &files.sam).unwrap();
    sfx::read(&files.sfx, &files.sam).unwrap()
}

fn sounds_beside(wad: &Path) -> Sounds {
    let sam = std::fs::read_to_string(wad.with_extension("sam")).unwrap();
    sfx::read(&std::fs::read(wad.with_extension("sfx")).unwrap(), &sam).unwrap()
}

#[test]
fn import_then_build_gives_the_same_sound_map_and_infos() {
    let tmp = tempfile::tempdir().unwrap();
    let fixture = wadforge_fixtures::standard();
    let src = tmp.path().join("src.wad");
    let mut ids = played(&fixture);
    ids.extend(UNPLAYED);
    let source = wad_with_sounds(&src, &fixture, &ids);
    let dir = tmp.path().join("dir");
    succeeds(&["import", s(&src), "-o", s(&dir), "-q"]);
    let yaml = std::fs::read_to_string(dir.join("sounds.yaml")).unwrap();
    let played = played(&fixture);
    assert!(played.len() >= 5, "the fixture plays sounds: {played:?}");
    for id in &played {
        assert!(yaml.contains(&format!("\n  id: {id}\n")), "{id}: {yaml}");
    }
    for id in UNPLAYED {
        assert!(!yaml.contains(&format!("\n  id: {id}\n")), "{id}: {yaml}");
    }
    let named = wadforge_format::catalog::sound_name(
        wadforge_format::catalog::Game::Tr4,
        u32::from(*played.first().unwrap()),
    );
    assert!(yaml.contains(named.unwrap()), "named by the catalogue: {yaml}");

    let out = tmp.path().join("out.wad");
    succeeds(&["build", s(&dir), "-o", s(&out), "-q"]);
    assert_eq!(
        sounds_beside(&out),
        source.only(&played),
        "the played sounds, as the source has them"
    );

    let patched = tmp.path().join("patched.wad");
    succeeds(&["build", s(&dir), "-o", s(&patched), "--base", s(&src), "-q"]);
    assert_eq!(
        sounds_beside(&patched),
        source,
        "--base keeps the base's other sounds"
    );

    let wad2 = tmp.path().join("out.wad2");
    succeeds(&["build", s(&dir), "-o", s(&wad2), "-q"]);
    let catalogue = xml::read(&std::fs::read_to_string(wad2.with_extension("xml")).unwrap()).unwrap();
    let samples = |sounds: &Sounds| -> Vec<(u16, Vec<String>, u16)> {
        sounds
            .sounds
            .iter()
            .map(|(&id, i)| (id, i.samples.clone(), i.flags))
            .collect()
    };
    assert_eq!(
        samples(&catalogue),
        samples(&source.only(&played)),
        "the XML beside a Wad2"
    );
}

#[test]
fn an_edited_sounds_yaml_is_what_build_writes() {
    let tmp = tempfile::tempdir().unwrap();
    let fixture = wadforge_fixtures::standard();
    let src = tmp.path().join("src.wad");
    let source = wad_with_sounds(&src, &fixture, &played(&fixture));
    let dir = tmp.path().join("dir");
    succeeds(&["import", s(&src), "-o", s(&dir), "-q"]);
    let first = *source.sounds.keys().next().unwrap();
    let path = dir.join("sounds.yaml");
    let yaml = std::fs::read_to_string(&path).unwrap();
    let volume = source.sounds[&first].volume;
    let edited = yaml.replacen(&format!("\n  volume: {volume}\n"), "\n  volume: 7\n", 1);
    assert_ne!(edited, yaml, "{yaml}");
    std::fs::write(&path, edited).unwrap();
    let out = tmp.path().join("out.wad");
    succeeds(&["build", s(&dir), "-o", s(&out), "-q"]);
    assert_eq!(sounds_beside(&out).sounds[&first].volume, 7);
    std::fs::write(&path, "map: 370\nsounds:\n- {id: 1, volume: 1, range: 1, chance: 1, pitch: 0, loop: Sometimes, samples: []}\n").unwrap();
    let o = wadforge(&["build", s(&dir), "-o", s(&out), "-q"]);
    assert!(
        !o.status.success() && stderr(&o).contains("sound 1: loop"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn an_enemy_copied_into_a_wad_without_side_files_brings_every_sound_it_plays() {
    let tmp = tempfile::tempdir().unwrap();
    let fixture = wadforge_fixtures::standard();
    let crocodile = played_by(&fixture, 51);
    assert!(crocodile.len() >= 3, "{crocodile:?}");
    let src = tmp.path().join("src.wad");
    let source = wad_with_sounds(&src, &fixture, &played(&fixture));
    let mut dest_model = fixture.clone();
    dest_model.moveables.retain(|m| m.id != 51);
    let dest = write_wad(&tmp.path().join("dest.wad"), &dest_model);
    let out = tmp.path().join("out.wad");
    let o = wadforge(&["copy", s(&src), s(&dest), "-o", s(&out), "--only", "CROCODILE"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(sounds_beside(&out), source.only(&crocodile));
    assert!(stderr(&o).contains("sounds added beside"), "{}", stderr(&o));
}

#[test]
fn copy_keeps_the_destinations_sounds_and_lists_those_neither_file_defines() {
    let tmp = tempfile::tempdir().unwrap();
    let fixture = wadforge_fixtures::standard();
    let crocodile = played_by(&fixture, 51);
    let mut ids = crocodile.iter();
    let (in_dest, missing) = (*ids.next().unwrap(), *ids.next().unwrap());
    let src = tmp.path().join("src.wad");
    let src_ids: BTreeSet<u16> = crocodile.iter().copied().filter(|&id| id != missing).collect();
    let source = wad_with_sounds(&src, &fixture, &src_ids);
    let mut dest_model = fixture.clone();
    dest_model.moveables.retain(|m| m.id != 51);
    let dest = tmp.path().join("dest.wad");
    // DEST defines one of the sounds its own way (another set of ids makes other infos).
    let dest_sounds = wad_with_sounds(&dest, &dest_model, &BTreeSet::from([1, in_dest]));
    assert_ne!(dest_sounds.sounds[&in_dest], source.sounds[&in_dest]);
    let out = tmp.path().join("out.wad");
    let o = wadforge(&["copy", s(&src), s(&dest), "-o", s(&out), "--only", "CROCODILE"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let written = sounds_beside(&out);
    assert_eq!(
        written.sounds[&in_dest], dest_sounds.sounds[&in_dest],
        "DEST's own kept"
    );
    assert_eq!(written.sounds[&1], dest_sounds.sounds[&1]);
    assert!(!written.sounds.contains_key(&missing));
    for id in src_ids.iter().filter(|&&id| id != in_dest) {
        assert_eq!(written.sounds[id], source.sounds[id], "{id} brought from SRC");
    }
    let err = stderr(&o);
    assert!(
        err.contains("neither file's sounds define") && err.contains(&format!("({missing})")),
        "{err}"
    );
    assert!(
        std::fs::read(dest.with_extension("sfx")).unwrap() == sound_files(&BTreeSet::from([1, in_dest])).sfx,
        "DEST untouched"
    );
}

#[test]
fn import_of_a_wad_without_sound_files_writes_no_sounds_yaml_and_builds_as_before() {
    let tmp = tempfile::tempdir().unwrap();
    let fixture = wadforge_fixtures::standard();
    let src = write_wad(&tmp.path().join("src.wad"), &fixture);
    let dir = tmp.path().join("dir");
    succeeds(&["import", s(&src), "-o", s(&dir), "-q"]);
    assert!(!dir.join("sounds.yaml").exists());
    let out = tmp.path().join("out.wad");
    succeeds(&["build", s(&dir), "-o", s(&out), "-q"]);
    assert!(!out.with_extension("sfx").exists());
}

#[test]
fn check_warns_of_a_sound_played_but_not_defined_only_when_the_file_has_sound_files() {
    let tmp = tempfile::tempdir().unwrap();
    let fixture = wadforge_fixtures::standard();
    let crocodile = played_by(&fixture, 51);
    let undefined = *crocodile.iter().next().unwrap();
    let plain = write_wad(&tmp.path().join("plain.wad"), &fixture);
    let o = wadforge(&["check", s(&plain)]);
    assert!(
        !crate::common::stdout(&o).contains("undefined-sound"),
        "{}",
        crate::common::stdout(&o)
    );
    let with_sounds = tmp.path().join("sounds.wad");
    let mut ids = played(&fixture);
    ids.remove(&undefined);
    wad_with_sounds(&with_sounds, &fixture, &ids);
    let out = crate::common::stdout(&wadforge(&["check", s(&with_sounds)]));
    let line = out
        .lines()
        .find(|l| l.contains("[undefined-sound] CROCODILE (moveable 51)"))
        .unwrap_or_else(|| panic!("{out}"));
    assert!(
        line.starts_with("warning") && line.contains(&format!("({undefined}, animations")),
        "{line}"
    );
    assert_eq!(
        out.matches("[undefined-sound]").count(),
        1,
        "only the crocodile plays {undefined}: {out}"
    );
}

#[test]
fn sound_files_that_do_not_read_are_named_and_leave_import_copy_and_check_working() {
    let tmp = tempfile::tempdir().unwrap();
    let fixture = wadforge_fixtures::standard();
    let src = write_wad(&tmp.path().join("src.wad"), &fixture);
    std::fs::write(src.with_extension("sfx"), b"not sounds").unwrap();
    std::fs::write(src.with_extension("sam"), "a.wav\r\n").unwrap();
    let dir = tmp.path().join("dir");
    let o = wadforge(&["import", s(&src), "-o", s(&dir)]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("no sounds.yaml written") && stderr(&o).contains("src.sfx"),
        "{}",
        stderr(&o)
    );
    assert!(!dir.join("sounds.yaml").exists());
    let out = crate::common::stdout(&wadforge(&["check", s(&src)]));
    assert!(
        out.contains("note [undefined-sound] the file: its sounds were not checked"),
        "{out}"
    );
    let mut dest_model = fixture.clone();
    dest_model.moveables.retain(|m| m.id != 51);
    let dest = write_wad(&tmp.path().join("dest.wad"), &dest_model);
    let copied = tmp.path().join("out.wad");
    let o = wadforge(&["copy", s(&src), s(&dest), "-o", s(&copied), "--only", "CROCODILE"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        !copied.with_extension("sfx").exists(),
        "nothing carried from an unreadable .sfx"
    );
}

#[test]
fn convert_writes_the_sounds_the_objects_play_beside_the_output_under_its_games_ids() {
    use wadforge_format::catalog::{sound_in, Game};
    let tmp = tempfile::tempdir().unwrap();
    let fixture = wadforge_fixtures::standard();
    let src = tmp.path().join("src.wad");
    let mut ids = played(&fixture);
    ids.extend(UNPLAYED);
    let source = wad_with_sounds(&src, &fixture, &ids);
    let out = tmp.path().join("out.wad2");
    let o = wadforge(&["convert", s(&src), s(&out), "--game", "ten"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("under Tomb Engine's ids") || stderr(&o).contains("under TEN's ids"),
        "{}",
        stderr(&o)
    );
    let catalogue = xml::read(&std::fs::read_to_string(out.with_extension("xml")).unwrap()).unwrap();
    let converted = wadforge_format::open(&std::fs::read(&out).unwrap())
        .unwrap()
        .model;
    let played_out = played(&converted);
    assert!(
        played_out.iter().all(|id| catalogue.sounds.contains_key(id)),
        "every sound played is defined"
    );
    for (&id, info) in &source.sounds {
        match sound_in(Game::Tr4, u32::from(id), Game::Ten) {
            Some(ten) if played_out.contains(&(ten as u16)) => {
                assert_eq!(
                    catalogue.sounds[&(ten as u16)].samples,
                    info.samples,
                    "{id} -> {ten}"
                )
            }
            _ => assert!(
                !played(&fixture).contains(&id) || sound_in(Game::Tr4, u32::from(id), Game::Ten).is_none()
            ),
        }
    }
}

#[test]
fn a_windows_1252_sam_imports_by_its_names_and_builds_back_to_the_same_bytes() {
    // TRLE's .sam files are in the Windows code page: a French builder's "écho" is byte 0xE9.
    let tmp = tempfile::tempdir().unwrap();
    let fixture = wadforge_fixtures::standard();
    let src = tmp.path().join("src.wad");
    let played = played(&fixture);
    wad_with_sounds(&src, &fixture, &played);
    let sam = std::fs::read_to_string(src.with_extension("sam")).unwrap();
    let first = sam.lines().next().unwrap().to_string();
    let renamed = sam.replacen(&first, "\u{e9}cho_\u{20ac}.wav", 1);
    let windows_1252: Vec<u8> = renamed
        .chars()
        .map(|c| match c {
            '\u{e9}' => 0xE9,
            '\u{20ac}' => 0x80,
            c => u8::try_from(c).unwrap(),
        })
        .collect();
    assert!(std::str::from_utf8(&windows_1252).is_err(), "not UTF-8");
    std::fs::write(src.with_extension("sam"), &windows_1252).unwrap();
    let dir = tmp.path().join("dir");
    succeeds(&["import", s(&src), "-o", s(&dir), "-q"]);
    let yaml = std::fs::read_to_string(dir.join("sounds.yaml")).unwrap();
    assert!(yaml.contains("\u{e9}cho_\u{20ac}.wav"), "{yaml}");
    let out = tmp.path().join("out.wad");
    succeeds(&["build", s(&dir), "-o", s(&out), "-q"]);
    assert_eq!(std::fs::read(out.with_extension("sam")).unwrap(), windows_1252);
}
