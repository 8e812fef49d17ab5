//! The files under a folder, for commands that take folders: every regular file, depth first in
//! name order; links are not followed (one could lead out of the folder, or round in a loop).

use std::path::{Path, PathBuf};

/// Every regular file under `folder`, in path order.
pub fn files_under(folder: &Path) -> std::io::Result<Vec<PathBuf>> {
    let mut found = Vec::new();
    let mut folders = vec![folder.to_path_buf()];
    while let Some(dir) = folders.pop() {
        for entry in std::fs::read_dir(&dir)? {
            let entry = entry?;
            let kind = entry.file_type()?;
            if kind.is_dir() {
                folders.push(entry.path());
            } else if kind.is_file() {
                found.push(entry.path());
            }
        }
    }
    found.sort();
    Ok(found)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn files_of_nested_folders_come_in_path_order_without_folders() {
        let tmp = tempfile::tempdir().unwrap();
        for path in ["b/inner/z.wad", "a.wad2", "b/c.wad"] {
            let path = tmp.path().join(path);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(&path, b"x").unwrap();
        }
        let found: Vec<PathBuf> = files_under(tmp.path())
            .unwrap()
            .into_iter()
            .map(|p| p.strip_prefix(tmp.path()).unwrap().to_path_buf())
            .collect();
        let expected: Vec<PathBuf> = ["a.wad2", "b/c.wad", "b/inner/z.wad"]
            .iter()
            .map(PathBuf::from)
            .collect();
        assert_eq!(found, expected);
    }
}
