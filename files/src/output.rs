//! Writing outputs: every file is written beside its target and renamed into place, so a reader
//! never sees half a file and a failed write leaves the old file as it was.

use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

/// One file to write under a directory (see [`write_directory`]).
#[derive(Debug, Clone)]
pub struct OutputFile {
    /// Path relative to the directory, `/`-separated.
    pub path: String,
    pub bytes: Vec<u8>,
}

/// Writes `files` under `dir`, each atomically (see [`write_atomically`]).
pub fn write_directory(files: &[OutputFile], dir: &Path) -> std::io::Result<()> {
    files
        .iter()
        .try_for_each(|f| write_atomically(&dir.join(&f.path), &f.bytes))
}

/// Writes `bytes` to `path` through a temporary file in the same directory and a rename, so a
/// reader never sees half a file and a failed write leaves the old file in place.
pub fn write_atomically(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    write_atomically_with(path, |file| file.write_all(bytes))
}

/// Writes `path` as [`write_atomically`] does, with what `write` puts in the (buffered) file; on
/// any error the temporary file is removed and `path` is left as it was.
pub fn write_atomically_with(
    path: &Path,
    write: impl FnOnce(&mut BufWriter<std::fs::File>) -> std::io::Result<()>,
) -> std::io::Result<()> {
    let dir = path
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let temp = dir.join(format!(".{name}.wadforge-tmp"));
    // The folder is made only when it is missing: an import writes hundreds of files into a few
    // folders, and asking for each folder first took two more calls into the file system a file.
    let created = match std::fs::File::create(&temp) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            std::fs::create_dir_all(dir).and_then(|()| std::fs::File::create(&temp))
        }
        created => created,
    };
    let written = created.and_then(|file| {
        let mut file = BufWriter::new(file);
        write(&mut file)?;
        file.flush()
    });
    written
        .and_then(|()| std::fs::rename(&temp, path))
        .inspect_err(|_| {
            let _ = std::fs::remove_file(&temp);
        })
}

/// `path` with its folder resolved (links, `.` and `..`), for comparing where outputs go with
/// where inputs are; the file itself need not exist. `None` when the folder does not exist.
pub fn resolved(path: &Path) -> Option<PathBuf> {
    let folder = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    Some(std::fs::canonicalize(folder).ok()?.join(path.file_name()?))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_directory_is_written_file_by_file_into_its_subfolders() {
        let dir = tempfile::tempdir().unwrap();
        let files = [
            OutputFile {
                path: "wadforge.yaml".into(),
                bytes: b"wadforge: 2".to_vec(),
            },
            OutputFile {
                path: "moveables/000_LARA.glb".into(),
                bytes: vec![1, 2, 3],
            },
        ];
        write_directory(&files, dir.path()).unwrap();
        for f in &files {
            assert_eq!(std::fs::read(dir.path().join(&f.path)).unwrap(), f.bytes);
        }
    }

    #[test]
    fn resolved_names_the_file_in_its_real_folder_and_nothing_in_a_missing_one() {
        let dir = tempfile::tempdir().unwrap();
        let real = std::fs::canonicalize(dir.path()).unwrap();
        std::fs::create_dir(dir.path().join("sub")).unwrap();
        let through_dots = dir.path().join("sub/../out.wad");
        assert_eq!(resolved(&through_dots), Some(real.join("out.wad")));
        assert_eq!(resolved(&dir.path().join("missing/out.wad")), None);
    }
}
