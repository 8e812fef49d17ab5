//! Outputs are written through a temporary file and a rename: a write that fails midway leaves
//! the old file as it was and no temporary file behind.

use std::io::Write;

use wadforge_files::{write_atomically, write_atomically_with};

#[test]
fn a_write_that_fails_midway_leaves_the_old_file_and_no_temporary() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("out.wad");
    write_atomically(&path, b"the old file").unwrap();
    let e = write_atomically_with(&path, |file| {
        file.write_all(&[7; 100_000])?;
        Err(std::io::Error::new(std::io::ErrorKind::StorageFull, "disk full"))
    })
    .unwrap_err();
    assert_eq!(e.kind(), std::io::ErrorKind::StorageFull);
    assert_eq!(std::fs::read(&path).unwrap(), b"the old file");
    let names: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(names, ["out.wad"], "a temporary file was left behind");
}

#[test]
fn a_write_that_succeeds_replaces_the_file_with_all_that_was_written() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("sub/out.wad");
    write_atomically(&path, b"old").unwrap();
    write_atomically_with(&path, |file| {
        (0..100u8).try_for_each(|i| file.write_all(&[i; 1000]))
    })
    .unwrap();
    let bytes = std::fs::read(&path).unwrap();
    assert_eq!(bytes.len(), 100_000);
    assert!(bytes
        .chunks(1000)
        .enumerate()
        .all(|(i, c)| c.iter().all(|&b| b == i as u8)));
}
