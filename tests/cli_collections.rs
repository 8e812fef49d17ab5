//! Commands over folders of object files (issue 31's first slice: `check`): every file under a
//! folder that holds objects (known by its first bytes) is checked, a damaged one is reported
//! with its path while the run goes on, and the exit code speaks for the whole.

mod common;

use std::path::Path;

use common::{s, stdout, wadforge};

/// A folder of object files as builders keep them: a WAD, a quirky WAD in a subfolder, a Wad2
/// further down, a damaged WAD, and a file that holds no objects.
fn collection(dir: &Path) {
    std::fs::create_dir_all(dir.join("enemies/old")).unwrap();
    common::files::write_wad(&dir.join("standard.wad"), &wadforge_fixtures::standard());
    let (name, quirky) = wadforge_fixtures::quirky_files()
        .into_iter()
        .find(|(n, _)| *n == "keyframes_shared_as_core_tools_wrote_them")
        .unwrap();
    std::fs::write(dir.join(format!("enemies/{name}.wad")), &quirky).unwrap();
    let wad2 = dir.join("enemies/old/standard.wad2");
    common::succeeds(&["convert", "-q", s(&dir.join("standard.wad")), s(&wad2)]);
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
        out.contains("4 files checked: 0 with errors, 1 cannot be read ("),
        "{out}"
    );
    // The same as JSON, a record per file.
    let json: serde_json::Value =
        serde_json::from_str(&stdout(&wadforge(&["check", "--json", s(&dir)]))).unwrap();
    let files = json.as_array().unwrap();
    assert_eq!(files.len(), 4);
    assert_eq!(files.iter().filter(|f| f.get("unreadable").is_some()).count(), 1);
    // Without the damaged file, warnings only: exit 0, as for one file.
    std::fs::remove_file(dir.join("enemies/damaged.wad")).unwrap();
    let o = wadforge(&["check", s(&dir), s(&dir.join("standard.wad"))]);
    assert_eq!(o.status.code(), Some(0), "{}", stdout(&o));
    assert!(
        stdout(&o).contains("4 files checked"),
        "a folder and a file named: {}",
        stdout(&o)
    );
    let fix = wadforge(&["check", s(&dir), "--fix", "-o", s(&tmp.path().join("x.wad"))]);
    assert_eq!(fix.status.code(), Some(2), "--fix takes one file");
}
