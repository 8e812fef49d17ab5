//! Reading a file that came from a stranger: only a regular file is read. A pipe would make the
//! reader wait forever and a device such as `/dev/zero` would fill memory, and either can sit in a
//! downloaded folder under any name (or behind a symbolic link).

use std::io;
use std::path::{Component, Path, PathBuf};

/// The bytes of the regular file at `path` (symbolic links followed).
pub fn read(path: &Path) -> io::Result<Vec<u8>> {
    regular(path)?;
    std::fs::read(path)
}

/// The text of the regular file at `path` (symbolic links followed).
pub fn read_to_string(path: &Path) -> io::Result<String> {
    regular(path)?;
    std::fs::read_to_string(path)
}

/// Whether `path` names a regular file; an error that says what it is otherwise.
pub fn regular(path: &Path) -> io::Result<()> {
    let kind = std::fs::metadata(path)?.file_type();
    if kind.is_file() {
        return Ok(());
    }
    let what = if kind.is_dir() {
        "a directory"
    } else {
        "not a regular file (a pipe, a socket or a device)"
    };
    Err(io::Error::new(
        io::ErrorKind::InvalidInput,
        format!("it is {what}; wadforge reads only files"),
    ))
}

/// `relative` with `.` and `..` resolved, when it stays inside the folder it is relative to (no
/// root, no drive, no `..` above it); `None` when it leaves it.
pub fn relative_inside(relative: &Path) -> Option<PathBuf> {
    let mut out = PathBuf::new();
    for c in relative.components() {
        match c {
            Component::Normal(part) => out.push(part),
            Component::CurDir => {}
            Component::ParentDir => {
                if !out.pop() {
                    return None;
                }
            }
            Component::RootDir | Component::Prefix(_) => return None,
        }
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn regular_files_are_read_and_devices_and_directories_are_not() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("a.yaml");
        std::fs::write(&file, "wadforge: 2").unwrap();
        assert_eq!(read_to_string(&file).unwrap(), "wadforge: 2");
        let e = read(dir.path()).unwrap_err();
        assert_eq!(e.kind(), io::ErrorKind::InvalidInput);
        assert!(e.to_string().contains("a directory"), "{e}");
        #[cfg(unix)]
        {
            let e = read(Path::new("/dev/zero")).unwrap_err();
            assert!(e.to_string().contains("not a regular file"), "{e}");
        }
    }

    #[test]
    fn relative_paths_resolve_only_while_they_stay_inside() {
        assert_eq!(
            relative_inside(Path::new("./a/../b/c.png")),
            Some(PathBuf::from("b/c.png"))
        );
        assert_eq!(relative_inside(Path::new("a/../../c.png")), None);
        assert_eq!(relative_inside(Path::new("/etc/passwd")), None);
    }
}
