//! Commands over folders of object files (`info`, `check`, `diff`, `import`, `convert`,
//! `gallery`): every file under a folder that holds objects (known by its first bytes) is
//! handled, a damaged one is reported with its path while the run goes on, and the exit code
//! speaks for the whole. The gallery's index page is opened in headless Chromium.

use std::path::{Path, PathBuf};
use std::process::Output;

use crate::common::{s, stderr, stdout, wadforge};

/// A folder of object files as builders keep them: a WAD, a quirky WAD in a subfolder, a Wad2
/// further down, a TR1 level (WOLF, BAT), a damaged WAD, and a file that holds no objects.
fn collection(dir: &Path) {
    std::fs::create_dir_all(dir.join("enemies/old")).unwrap();
    std::fs::create_dir_all(dir.join("levels")).unwrap();
    std::fs::write(dir.join("levels/tr1.phd"), wadforge_fixtures::levels::tr1_level()).unwrap();
    crate::common::files::write_wad(&dir.join("standard.wad"), &wadforge_fixtures::standard());
    let (name, quirky) = wadforge_fixtures::quirky_files()
        .into_iter()
        .find(|(n, _)| *n == "keyframes_shared_as_core_tools_wrote_them")
        .unwrap();
    std::fs::write(dir.join(format!("enemies/{name}.wad")), &quirky).unwrap();
    let wad2 = dir.join("enemies/old/standard.wad2");
    crate::common::succeeds(&["convert", "-q", s(&dir.join("standard.wad")), s(&wad2)]);
    std::fs::write(dir.join("enemies/damaged.wad"), &quirky[..3000]).unwrap();
    std::fs::write(dir.join("readme.txt"), "objects for my level\n").unwrap();
}

#[test]
fn check_of_a_folder_checks_every_object_file_and_reports_the_damaged_one() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("objects");
    collection(&dir);
    let o = wadforge(&["check", s(&dir)]);
    let out = stdout(&o);
    assert_eq!(o.status.code(), Some(2), "a file could not be read:\n{out}");
    // A summary row: the file's path, then its counts.
    let row = |file: &str| {
        let ends = format!("/{file}");
        out.lines()
            .find(|l| l.split_whitespace().next().is_some_and(|p| p.ends_with(&ends)) && !l.contains(": "))
            .unwrap_or_else(|| panic!("no summary row for {file}:\n{out}"))
            .split_whitespace()
            .skip(1)
            .collect::<Vec<_>>()
            .join(" ")
    };
    assert_eq!(row("standard.wad"), "0 0 0");
    assert_eq!(row("keyframes_shared_as_core_tools_wrote_them.wad"), "0 12 0");
    // The Wad2's spheres are its own (a Wad2 keeps no sphere flag): check notes them.
    let wad2 = row("old/standard.wad2");
    assert!(wad2.starts_with("0 0 "), "{wad2}");
    assert_eq!(row("damaged.wad"), "cannot be read");
    assert!(
        !out.contains("readme.txt"),
        "a file of no objects is not one to check:\n{out}"
    );
    assert!(out.contains("enemies/damaged.wad: cannot be read: "), "{out}");
    assert!(
        out.contains("5 files checked: 0 with errors, 1 cannot be read ("),
        "{out}"
    );
    // The same as JSON, a record per file.
    let json: serde_json::Value =
        serde_json::from_str(&stdout(&wadforge(&["check", "--json", s(&dir)]))).unwrap();
    let files = json.as_array().unwrap();
    assert_eq!(files.len(), 5);
    assert_eq!(files.iter().filter(|f| f.get("unreadable").is_some()).count(), 1);
    // Without the damaged file, warnings only: exit 0, as for one file.
    std::fs::remove_file(dir.join("enemies/damaged.wad")).unwrap();
    let o = wadforge(&["check", s(&dir), s(&dir.join("standard.wad"))]);
    assert_eq!(o.status.code(), Some(0), "{}", stdout(&o));
    assert!(
        stdout(&o).contains("5 files checked"),
        "a folder and a file named: {}",
        stdout(&o)
    );
    let fix = wadforge(&["check", s(&dir), "--fix", "-o", s(&tmp.path().join("x.wad"))]);
    assert_eq!(fix.status.code(), Some(2), "--fix takes one file");
}

/// The collection in `tmp/objects`.
fn collection_in(tmp: &Path) -> PathBuf {
    let dir = tmp.join("objects");
    collection(&dir);
    dir
}

/// The line of standard error naming the damaged file, which every command reports.
fn reports_the_damaged_file(o: &Output) {
    assert_eq!(o.status.code(), Some(1), "some file failed: {}", stderr(o));
    let (out, err) = (stdout(o), stderr(o));
    let said = |line: &str| line.contains("enemies/damaged.wad") && line.contains("is not a valid WAD");
    assert!(out.lines().chain(err.lines()).any(said), "{out}{err}");
    assert!(err.contains("1 of 5 files failed: "), "{err}");
}

#[test]
fn info_of_a_folder_gives_a_row_per_file() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = collection_in(tmp.path());
    let o = wadforge(&["info", s(&dir)]);
    reports_the_damaged_file(&o);
    let out = stdout(&o);
    let row = |file: &str| {
        out.lines()
            .find(|l| l.starts_with(s(&dir.join(file))))
            .unwrap_or_else(|| panic!("no row for {file}:\n{out}"))
            .to_string()
    };
    let standard = wadforge_fixtures::standard();
    let counts = format!("{}  {}", standard.moveables.len(), standard.statics.len());
    assert!(row("standard.wad").contains("TRLE WAD"), "{out}");
    assert!(row("standard.wad")
        .split_whitespace()
        .collect::<Vec<_>>()
        .join("  ")
        .contains(&counts));
    assert!(
        row("enemies/old/standard.wad2").contains("Tomb Editor Wad2"),
        "{out}"
    );
    assert!(row("levels/tr1.phd").contains("TR1 level"), "{out}");
    assert!(row("enemies/damaged.wad").contains("cannot be read"), "{out}");
    assert!(out.contains("5 files: 4 read"), "{out}");
    let json: serde_json::Value =
        serde_json::from_str(&stdout(&wadforge(&["info", "--json", s(&dir)]))).unwrap();
    let records = json.as_array().unwrap();
    assert_eq!(records.len(), 5);
    let level = records
        .iter()
        .find(|r| r["file"].as_str().unwrap().ends_with("tr1.phd"))
        .unwrap();
    let slots: Vec<&str> = level["moveables"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["slot"].as_str().unwrap())
        .collect();
    assert_eq!(slots, ["WOLF", "BAT"]);
}

#[test]
fn diff_of_two_folders_matches_files_by_their_paths() {
    let tmp = tempfile::tempdir().unwrap();
    let a = collection_in(tmp.path());
    std::fs::remove_file(a.join("enemies/damaged.wad")).unwrap();
    let b = tmp.path().join("copy");
    let o = wadforge(&["convert", "-q", s(&a), "-o", s(&b), "--to", "wad"]);
    assert!(o.status.success(), "{}", stderr(&o));
    // The same objects in other files: a WAD written again, a Wad2 and a level as WADs.
    for (from, to) in [
        ("enemies/old/standard.wad", "enemies/old/standard.wad2"),
        ("levels/tr1.wad", "levels/tr1.phd"),
    ] {
        std::fs::rename(b.join(from), b.join(to)).unwrap();
    }
    std::fs::remove_file(b.join("levels/tr1.was")).unwrap();
    // The level's WOLF is left out of its WAD (TR4 has no WOLF slot), the only difference.
    let o = wadforge(&["diff", s(&a), s(&b)]);
    assert_eq!(o.status.code(), Some(1), "{}", stdout(&o));
    assert!(
        stdout(&o).contains("4 files: 3 identical, 1 differ or are in one folder only"),
        "{}",
        stdout(&o)
    );
    assert!(
        stdout(&o).contains("WOLF (moveable 7): only in A: TR4 has no moveable slot for TR1's WOLF"),
        "{}",
        stdout(&o)
    );

    // One object changed, a file only in B, a damaged file in A.
    let mut changed = wadforge_fixtures::standard();
    changed.statics[0].flags ^= 1;
    crate::common::files::write_wad(&b.join("standard.wad"), &changed);
    std::fs::copy(b.join("levels/tr1.phd"), b.join("levels/extra.wad")).unwrap();
    let o = wadforge(&["diff", s(&a), s(&b)]);
    assert_eq!(o.status.code(), Some(1), "{}", stdout(&o));
    let out = stdout(&o);
    assert!(
        out.contains("standard.wad:\nPLANT0 (static 0): 1 difference"),
        "{out}"
    );
    let row = |file: &str| {
        out.lines()
            .find(|l| l.starts_with(&format!("{file} ")))
            .unwrap_or_else(|| panic!("no row for {file}:\n{out}"))
            .to_string()
    };
    assert!(row("standard.wad").ends_with("(1 differs)"), "{out}");
    assert!(row("levels/extra.wad").ends_with("only in B"), "{out}");
    assert!(
        row("levels/tr1.phd")
            .ends_with("2 of 3 objects identical (1 differs: 1 with no slot in the other's game)"),
        "{out}"
    );
    let whole = std::fs::read(a.join("standard.wad")).unwrap();
    std::fs::write(a.join("enemies/damaged.wad"), &whole[..3000]).unwrap();
    std::fs::copy(a.join("enemies/damaged.wad"), b.join("enemies/damaged.wad")).unwrap();
    let o = wadforge(&["diff", "--json", s(&a), s(&b)]);
    assert_eq!(
        o.status.code(),
        Some(2),
        "a file could not be read: {}",
        stderr(&o)
    );
    assert!(stderr(&o).contains("enemies/damaged.wad"), "{}", stderr(&o));
    let json: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    let files = json["files"].as_array().unwrap();
    assert_eq!(files.len(), 6);
    assert_eq!(files.iter().filter(|f| f.get("unreadable").is_some()).count(), 1);
    let o = wadforge(&["diff", s(&a), s(&b.join("standard.wad"))]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("compare a folder with a folder"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn import_of_a_folder_mirrors_its_tree_and_each_directory_builds() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = collection_in(tmp.path());
    let out = tmp.path().join("imported");
    let o = wadforge(&["import", s(&dir), "-o", s(&out)]);
    reports_the_damaged_file(&o);
    for manifests in [
        "standard",
        "enemies/keyframes_shared_as_core_tools_wrote_them",
        "enemies/old/standard",
        "levels/tr1",
    ] {
        assert!(out.join(manifests).join("wadforge.yaml").is_file(), "{manifests}");
    }
    assert!(!out.join("enemies/damaged").exists());
    assert!(!out.join("readme").exists());
    // Each directory is a manifest directory as one file's import makes it.
    let built = tmp.path().join("standard.wad");
    crate::common::succeeds(&["build", "-q", s(&out.join("standard")), "-o", s(&built)]);
    crate::common::assert_same_objects(&dir.join("standard.wad"), &built);
    let again = wadforge(&["import", s(&dir), "-o", s(&out)]);
    assert!(stderr(&again).contains("--force"), "{}", stderr(&again));
    // --only takes the named objects from the files that hold them.
    let crocodiles = tmp.path().join("crocodiles");
    let o = wadforge(&["import", s(&dir), "-o", s(&crocodiles), "--only", "CROCODILE,51"]);
    reports_the_damaged_file(&o);
    assert!(
        stderr(&o).contains("; 1 files hold none of the objects --only names"),
        "the level: {}",
        stderr(&o)
    );
    let manifests: Vec<String> = crate::common::files::files_under(&crocodiles)
        .iter()
        .filter(|p| p.extension().is_some_and(|e| e == "yaml") && !p.ends_with("wadforge.yaml"))
        .map(|p| p.strip_prefix(&crocodiles).unwrap().display().to_string())
        .collect();
    assert_eq!(
        manifests,
        [
            "enemies/keyframes_shared_as_core_tools_wrote_them/moveables/051_CROCODILE.yaml",
            "enemies/old/standard/moveables/051_CROCODILE.yaml",
            "standard/moveables/051_CROCODILE.yaml",
        ]
    );
    assert!(
        !crocodiles.join("levels").exists(),
        "nothing made for a file without them"
    );
    let inside = wadforge(&["import", s(&dir), "-o", s(&dir.join("imported"))]);
    assert!(
        stderr(&inside).contains("inside the input folder"),
        "{}",
        stderr(&inside)
    );
    assert!(
        !dir.join("imported").exists(),
        "nothing written into the input folder"
    );
}

#[test]
fn convert_of_a_folder_writes_a_file_each_the_tree_mirrored() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = collection_in(tmp.path());
    let out = tmp.path().join("as_wad2");
    let o = wadforge(&["convert", s(&dir), "-o", s(&out), "--to", "wad2"]);
    reports_the_damaged_file(&o);
    let written: Vec<String> = crate::common::files::files_under(&out)
        .iter()
        .map(|p| p.strip_prefix(&out).unwrap().display().to_string())
        .collect();
    assert_eq!(
        written,
        [
            "enemies/keyframes_shared_as_core_tools_wrote_them.wad2",
            "enemies/old/standard.wad2",
            // The samples of those sounds, from the level, in samples/ beside its Wad2.
            "levels/samples/tr1_0.wav",
            "levels/samples/tr1_1.wav",
            "levels/tr1.wad2",
            // The TR1 level's own sounds its objects play, in the catalogue beside its Wad2.
            "levels/tr1.xml",
            "standard.wad2"
        ]
    );
    // A Wad2 into a Wad2 loses nothing.
    let wad2 = "enemies/old/standard.wad2";
    crate::common::assert_same_objects(&dir.join(wad2), &out.join(wad2));
    let o = wadforge(&["convert", s(&dir), "-o", s(&tmp.path().join("x"))]);
    assert!(stderr(&o).contains("--to wad"), "{}", stderr(&o));
}

/// The gallery of the collection in `tmp/gallery`, and how the run went.
fn collection_gallery(dir: &Path, out: &Path) -> Output {
    wadforge(&["gallery", s(dir), "-o", s(out)])
}

/// The modification times of every file under `dir`.
fn times_under(dir: &Path) -> Vec<(PathBuf, std::time::SystemTime)> {
    crate::common::files::files_under(dir)
        .into_iter()
        .map(|p| {
            let t = std::fs::metadata(&p).unwrap().modified().unwrap();
            (p, t)
        })
        .collect()
}

#[test]
fn gallery_of_a_folder_has_an_index_and_redraws_only_what_changed() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = collection_in(tmp.path());
    let out = tmp.path().join("gallery");
    let o = collection_gallery(&dir, &out);
    reports_the_damaged_file(&o);
    assert!(
        stderr(&o).contains("4 drawn, 0 unchanged, 1 failed"),
        "{}",
        stderr(&o)
    );
    let page = std::fs::read_to_string(out.join("index.html")).unwrap();
    assert_eq!(page.matches("<article class=\"card file\"").count(), 4);
    for gallery in ["standard", "enemies/old/standard", "levels/tr1"] {
        let own = out.join("files").join(gallery).join("index.html");
        assert!(own.is_file(), "{}", own.display());
        assert!(
            page.contains(&format!("href=\"files/{gallery}/index.html\"")),
            "{gallery}"
        );
    }
    assert!(
        page.contains("<b>enemies/damaged.wad</b>: "),
        "the damaged file is listed"
    );
    let standard = wadforge_fixtures::standard();
    let rows = page.matches("<tr data-card=").count();
    assert_eq!(
        rows,
        3 * (standard.moveables.len() + standard.statics.len()) + 3,
        "every object"
    );

    // Run again: nothing changed, nothing drawn (no --force needed: the folder is its gallery).
    std::fs::remove_file(dir.join("enemies/damaged.wad")).unwrap();
    let drawn = times_under(&out.join("files"));
    let o = collection_gallery(&dir, &out);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("0 drawn, 4 unchanged, 0 failed"),
        "{}",
        stderr(&o)
    );
    assert_eq!(times_under(&out.join("files")), drawn, "no picture written again");
    // Touched but the same bytes: not drawn either.
    let wad = dir.join("standard.wad");
    std::fs::write(&wad, std::fs::read(&wad).unwrap()).unwrap();
    let o = collection_gallery(&dir, &out);
    assert!(stderr(&o).contains("0 drawn, 4 unchanged"), "{}", stderr(&o));

    // One file changed, one gone: that one drawn, the other's gallery removed.
    let mut fewer = standard.clone();
    fewer.statics.truncate(2);
    crate::common::files::write_wad(&wad, &fewer);
    std::fs::remove_file(dir.join("levels/tr1.phd")).unwrap();
    let o = collection_gallery(&dir, &out);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stderr(&o).contains("1 drawn, 2 unchanged"), "{}", stderr(&o));
    assert!(
        !out.join("files/levels/tr1").exists(),
        "the gone file's gallery is removed"
    );
    let statics = crate::common::files::files_under(&out.join("files/standard/statics"));
    assert_eq!(
        statics.len(),
        2,
        "the changed file's old pictures are gone: {statics:?}"
    );
    let unchanged = times_under(&out.join("files/enemies"));
    assert!(drawn
        .iter()
        .filter(|(p, _)| p.starts_with(out.join("files/enemies")))
        .eq(unchanged.iter()));

    // A state file naming a folder outside the gallery is refused, nothing removed.
    let state = out.join("wadforge-gallery.json");
    let text = std::fs::read_to_string(&state).unwrap();
    std::fs::write(
        &state,
        text.replace("\"files/enemies/old/standard\"", "\"../objects\""),
    )
    .unwrap();
    std::fs::remove_file(dir.join("enemies/old/standard.wad2")).unwrap();
    let o = collection_gallery(&dir, &out);
    assert!(!o.status.success());
    assert!(stderr(&o).contains("outside files/"), "{}", stderr(&o));
    assert!(
        dir.join("standard.wad").is_file(),
        "the input folder is untouched"
    );
}

/// The file cards of a dumped page: each card's `data-text` and whether it is hidden.
fn cards_of(dom: &str) -> Vec<(String, bool)> {
    dom.split("<article class=\"card file\"")
        .skip(1)
        .map(|rest| {
            let tag = &rest[..rest.find('>').unwrap()];
            let text = tag.split("data-text=\"").nth(1).unwrap();
            (
                text[..text.find('"').unwrap()].to_string(),
                tag.contains("hidden"),
            )
        })
        .collect()
}

#[test]
fn the_index_page_loads_every_image_and_filters_in_headless_chromium() {
    let Some(chromium) = crate::common::browser::chromium() else {
        eprintln!("{}", crate::common::browser::CHROMIUM_ABSENT);
        return;
    };
    let tmp = tempfile::tempdir().unwrap();
    let dir = collection_in(tmp.path());
    let out = tmp.path().join("gallery");
    collection_gallery(&dir, &out);
    let page = out.join("index.html").canonicalize().unwrap();
    let images = std::fs::read_to_string(&page)
        .unwrap()
        .matches("<img src=")
        .count();
    assert!(images >= 4, "each card shows pictures");
    let open = |filter: &str, profile: &str| {
        let url = format!("file://{}#filter={filter}", page.display());
        let o = crate::common::browser::run_chromium_at(
            &chromium,
            &tmp.path().join(profile),
            &url,
            &["--dump-dom".into()],
        );
        assert!(o.status.success(), "chromium failed: {}", stderr(&o));
        let console: Vec<String> = stderr(&o)
            .lines()
            .filter(|l| l.contains(":CONSOLE"))
            .map(String::from)
            .collect();
        assert!(console.is_empty(), "console messages: {console:#?}");
        stdout(&o)
    };
    let dom = open("", "profile-all");
    assert!(
        dom.contains(&format!("data-image-count=\"{images}\"")),
        "{}",
        &dom[..dom.len().min(400)]
    );
    assert!(dom.contains("data-images=\"loaded\""), "every image loaded");
    assert!(cards_of(&dom).iter().all(|(_, hidden)| !hidden));

    // A slot name: the cards of the files holding it stay, the others are hidden.
    let dom = open("WOLF", "profile-wolf");
    let shown: Vec<String> = cards_of(&dom)
        .into_iter()
        .filter(|(_, h)| !h)
        .map(|(t, _)| t)
        .collect();
    assert_eq!(shown.len(), 1, "{shown:?}");
    assert!(shown[0].starts_with("levels/tr1.phd"), "{shown:?}");
    assert!(dom.contains("data-shown-cards=\"1\""));
    let dom = open("crocodile", "profile-crocodile");
    let hidden: Vec<String> = cards_of(&dom)
        .into_iter()
        .filter(|(_, h)| *h)
        .map(|(t, _)| t)
        .collect();
    assert_eq!(hidden.len(), 1, "only the level has no crocodile: {hidden:?}");
    assert!(hidden[0].starts_with("levels/tr1.phd"));
    assert!(
        dom.contains("data-shown-objects=\"3\""),
        "one CROCODILE row per file"
    );
}
