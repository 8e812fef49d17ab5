//! `wadforge build` end to end: the bundled example, patching a base WAD, refusals.

use std::path::{Path, PathBuf};

use wadforge_fixtures::compare::{differences, Tolerance};
use wadforge_format::Wad;

use crate::common::files::{example, example_copy, files_under, read, write_wad};
use crate::common::forge::find;
use crate::common::{s, stderr, wadforge, wadforge_command};

/// The standard fixture as a base WAD with the files TRLE opens beside it.
fn base(dir: &Path) -> PathBuf {
    let path = write_wad(&dir.join("base.wad"), &wadforge_fixtures::standard());
    for (ext, bytes) in [
        ("swd", &b"sprites"[..]),
        ("sam", b"sounds list"),
        ("sfx", b"sound data"),
    ] {
        std::fs::write(path.with_extension(ext), bytes).unwrap();
    }
    path
}

#[test]
fn the_bundled_example_builds_into_the_objects_it_was_made_from() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("example.wad");
    let o = wadforge(&["build", "-q", s(&example()), "-o", s(&out)]);
    assert!(o.status.success(), "{}", stderr(&o));
    let built = read(&out);
    let mut source = wadforge_fixtures::standard();
    source.moveables.retain(|m| m.id == 306);
    source.statics.retain(|s| s.id == 0);
    let d = differences(&source, &built, Tolerance::default());
    assert!(
        d.is_empty(),
        "examples/ drifted from the fixture it was made from (regenerate it): {d:#?}"
    );
    assert_eq!(
        std::fs::read_to_string(out.with_extension("was")).unwrap(),
        "SWITCH_TYPE1\r\nPLANT0\r\n"
    );
}

#[test]
fn patching_a_base_changes_only_the_replaced_object() {
    let tmp = tempfile::tempdir().unwrap();
    let base_path = base(tmp.path());
    let base_bytes = std::fs::read(&base_path).unwrap();
    let dir = tmp.path().join("outfit");
    let o = wadforge(&[
        "import",
        "-q",
        s(&base_path),
        "-o",
        s(&dir),
        "--only",
        "LARA_SKIN",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    // The outfit's change: the head mesh's sphere flag flipped (kept from the manifest as it is).
    let manifest = dir.join("moveables/008_LARA_SKIN.yaml");
    let text = std::fs::read_to_string(&manifest).unwrap();
    let head = text.find("- name: HEAD").unwrap();
    let flag = head + text[head..].find("flag: ").unwrap() + "flag: ".len();
    let flipped = if &text[flag..flag + 1] == "0" { "1" } else { "0" };
    std::fs::write(
        &manifest,
        format!("{}{flipped}{}", &text[..flag], &text[flag + 1..]),
    )
    .unwrap();

    let out = tmp.path().join("out").join("patched.wad");
    let o = wadforge(&["build", "-q", s(&dir), "-o", s(&out), "--base", s(&base_path)]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(
        std::fs::read(&base_path).unwrap(),
        base_bytes,
        "the base is never modified"
    );

    let (old, new) = (wadforge_fixtures::standard(), read(&out));
    assert_eq!(
        new.pages[..old.pages.len()],
        old.pages[..],
        "the base's texture pages are kept as they were"
    );
    let ids = |w: &Wad| {
        (
            w.moveables.iter().map(|m| m.id).collect::<Vec<_>>(),
            w.statics.iter().map(|s| s.id).collect::<Vec<_>>(),
        )
    };
    assert_eq!(ids(&old), ids(&new), "same objects in the same order");
    // Every other object keeps its exact content: same meshes, samples and texels.
    for (a, b) in old
        .moveables
        .iter()
        .zip(&new.moveables)
        .filter(|(a, _)| a.id != 8)
    {
        assert_eq!(
            (&a.links, &a.animations),
            (&b.links, &b.animations),
            "moveable {} changed",
            a.id
        );
        for (&x, &y) in a.meshes.iter().zip(&b.meshes) {
            assert_eq!(old.meshes[x], new.meshes[y], "moveable {}: mesh changed", a.id);
        }
    }
    for (a, b) in old.statics.iter().zip(&new.statics) {
        assert_eq!(old.meshes[a.mesh], new.meshes[b.mesh], "static {} changed", a.id);
    }
    assert_eq!(new.samples[..old.samples.len()], old.samples[..]);
    // The replaced object has the change and nothing else.
    let d = differences(&old, &new, Tolerance::default());
    assert_eq!(d.len(), 1, "{d:#?}");
    assert!(d[0].contains("moveable 8 mesh 14: sphere"), "{d:#?}");
    // TRLE finds the base's sprites and sounds beside the new WAD.
    for ext in ["swd", "sam", "sfx"] {
        assert_eq!(
            std::fs::read(out.with_extension(ext)).unwrap(),
            std::fs::read(base_path.with_extension(ext)).unwrap()
        );
    }
    let was = std::fs::read_to_string(out.with_extension("was")).unwrap();
    assert!(was.starts_with("LARA\r\nLARA_SKIN\r\n"), "{was}");
}

#[test]
fn an_unedited_patch_gives_the_base_back_with_its_pages_and_samples() {
    let tmp = tempfile::tempdir().unwrap();
    let base_path = base(tmp.path());
    let dir = tmp.path().join("outfit");
    let o = wadforge(&[
        "import",
        "-q",
        s(&base_path),
        "-o",
        s(&dir),
        "--only",
        "LARA_SKIN,CROCODILE,PLANT0",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = tmp.path().join("patched.wad");
    let o = wadforge(&["build", "-q", s(&dir), "-o", s(&out), "--base", s(&base_path)]);
    assert!(o.status.success(), "{}", stderr(&o));
    let (old, new) = (read(&base_path), read(&out));
    // The objects' texels are all in the base already: no sample or page is added.
    assert_eq!(new.samples.len(), old.samples.len(), "sample count");
    assert_eq!(new.pages, old.pages, "pages");
    let d = differences(&old, &new, Tolerance::default());
    assert!(d.is_empty(), "{d:#?}");
}

#[test]
fn build_never_writes_over_its_base() {
    let tmp = tempfile::tempdir().unwrap();
    let base_path = base(tmp.path());
    let before = std::fs::read(&base_path).unwrap();
    let o = wadforge(&[
        "build",
        "-q",
        s(&example()),
        "-o",
        s(&base_path),
        "--base",
        s(&base_path),
    ]);
    assert!(!o.status.success());
    assert!(stderr(&o).contains("is the base WAD"), "{}", stderr(&o));
    assert_eq!(std::fs::read(&base_path).unwrap(), before);
}

/// The standard fixture's CROCODILE imported into `tmp`/dir; returns the directory.
fn crocodile_directory(tmp: &Path) -> PathBuf {
    let dir = tmp.join("dir");
    let o = wadforge(&[
        "import",
        "-q",
        s(&base(tmp)),
        "-o",
        s(&dir),
        "--only",
        "CROCODILE",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    dir
}

#[test]
fn a_bone_the_gltf_lacks_is_named_with_its_file() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = crocodile_directory(tmp.path());
    let manifest = dir.join("moveables/051_CROCODILE.yaml");
    let text = std::fs::read_to_string(&manifest)
        .unwrap()
        .replace("name: mesh_07", "name: TAIL_TIP");
    std::fs::write(&manifest, text).unwrap();
    let out = tmp.path().join("x.wad");
    let o = wadforge(&["build", "-q", s(&dir), "-o", s(&out)]);
    assert!(!o.status.success());
    let e = stderr(&o);
    assert!(
        e.contains("051_CROCODILE.glb")
            && e.contains("CROCODILE (moveable 51)")
            && e.contains("bone TAIL_TIP"),
        "{e}"
    );
    assert!(!out.exists(), "nothing is written when the build fails");
}

#[test]
fn of_several_animations_the_gltf_lacks_the_first_is_named_on_any_thread_count() {
    // Animations are sampled in parallel; the error must still be the first in manifest order.
    let tmp = tempfile::tempdir().unwrap();
    let dir = crocodile_directory(tmp.path());
    let glb = dir.join("moveables/051_CROCODILE.glb");
    let mut bytes = std::fs::read(&glb).unwrap();
    // Renamed in the glTF only, each to a name of the same length (the JSON keeps its size).
    for (from, to) in [
        (&b"\"002_RUN\""[..], &b"\"002_RUM\""[..]),
        (b"\"006_SWIM\"", b"\"006_SWIN\""),
    ] {
        let at = find(&bytes, from);
        bytes[at..at + to.len()].copy_from_slice(to);
    }
    std::fs::write(&glb, bytes).unwrap();
    for threads in ["1", "2"] {
        let o = wadforge_command()
            .args(["build", "-q", s(&dir), "-o", s(&tmp.path().join("x.wad"))])
            .env("RAYON_NUM_THREADS", threads)
            .output()
            .unwrap();
        let e = stderr(&o);
        assert!(!o.status.success(), "{threads} threads: built");
        assert!(
            e.contains("animation 002_RUN") && e.contains("the glTF has no animation of this name"),
            "{threads} threads: {e}"
        );
        assert!(!e.contains("006_SWIM"), "{threads} threads: {e}");
    }
}

#[test]
fn pages_are_written_on_request() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("example.wad");
    let pages = tmp.path().join("pages");
    let o = wadforge(&["build", "-q", s(&example()), "-o", s(&out), "--pages", s(&pages)]);
    assert!(o.status.success(), "{}", stderr(&o));
    let count = read(&out).pages.len();
    assert!(count > 0);
    for i in 0..count {
        for name in [format!("page_{i:03}.png"), format!("page_{i:03}_samples.png")] {
            let png = std::fs::read(pages.join(&name)).unwrap();
            assert_eq!(&png[1..4], b"PNG", "{name}");
        }
    }
}

#[test]
fn build_never_writes_over_a_file_of_its_directory_however_the_output_is_named() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("dir");
    example_copy(&dir);
    let contents = |dir: &Path| -> Vec<(PathBuf, Vec<u8>)> {
        files_under(dir)
            .into_iter()
            .map(|f| (f.clone(), std::fs::read(&f).unwrap()))
            .collect()
    };
    let before = contents(&dir);
    let glb = "moveables/306_SWITCH_TYPE1.glb";
    for (args, message) in [
        // The directory's own glTF, named from elsewhere (`./dir`, not `dir`).
        (
            vec!["-o", "./dir/moveables/306_SWITCH_TYPE1.glb"],
            "would overwrite a file of the manifest directory",
        ),
        (
            vec!["-o", "out.wad", "--pages", "./dir/moveables"],
            "is inside the manifest directory",
        ),
        // The sounds written beside the WAD would replace it.
        (vec!["-o", "out.sfx"], "name the WAD .wad"),
    ] {
        let o = wadforge_command()
            .current_dir(tmp.path())
            .args(["build", "-q", "dir"])
            .args(&args)
            .output()
            .unwrap();
        assert!(!o.status.success(), "{args:?} was accepted");
        assert!(stderr(&o).contains(message), "{args:?}: {}", stderr(&o));
    }
    assert_eq!(
        contents(&dir),
        before,
        "{glb} and every other file are as they were"
    );
    assert!(!tmp.path().join("out.sfx").exists() && !tmp.path().join("out.wad").exists());
}
