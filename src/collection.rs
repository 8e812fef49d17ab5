//! Commands over collections of object files: the files of folders (walked, recognised by their
//! first bytes) and of paths named, each read on its own, a damaged one reported and the run
//! going on.

use std::io::Read;
use std::path::{Path, PathBuf};

use anyhow::Context;

/// The object files `paths` name: a file as named, a folder's files whose first bytes are a
/// kind wadforge reads (a WAD, a level, a Wad2), in path order.
pub fn object_files(paths: &[PathBuf]) -> anyhow::Result<Vec<PathBuf>> {
    let mut files = Vec::new();
    for path in paths {
        if path.is_dir() {
            let found = wadforge_files::files_under(path)
                .with_context(|| format!("cannot walk the folder {}", path.display()))?;
            files.extend(found.into_iter().filter(|f| holds_objects(f)));
        } else {
            files.push(path.clone());
        }
    }
    Ok(files)
}

/// Whether the file's first bytes are a kind wadforge reads.
fn holds_objects(path: &Path) -> bool {
    let mut first = [0u8; 16];
    let Ok(mut file) = std::fs::File::open(path) else {
        return false;
    };
    let mut read = 0;
    while read < first.len() {
        match file.read(&mut first[read..]) {
            Ok(0) | Err(_) => break,
            Ok(n) => read += n,
        }
    }
    wadforge_format::kind_of(&first[..read]).is_some()
}

/// Whether `paths` ask for a collection (a folder, or several paths) rather than one file.
pub fn is_collection(paths: &[PathBuf]) -> bool {
    paths.len() != 1 || paths[0].is_dir()
}
