//! Writing outputs safely: every file is written beside its target and renamed into place, and a
//! directory that already holds files is only written into when the user says so.

use std::path::Path;

use anyhow::{bail, Context};

/// Writes `bytes` to `path` atomically (temp file in the same directory, then rename).
pub fn write_atomically(path: &Path, bytes: &[u8]) -> anyhow::Result<()> {
    wadforge_importer::write_atomically(path, bytes)
        .with_context(|| format!("cannot write {}", path.display()))
}

/// Writes the WAD `encoded` to `path` atomically, part by part (never whole in memory again).
pub fn write_wad_atomically(path: &Path, encoded: &wadforge_format::wad::EncodedWad) -> anyhow::Result<()> {
    wadforge_importer::write_atomically_with(path, |file| encoded.write_to(file))
        .with_context(|| format!("cannot write {}", path.display()))
}

/// Checks that `dir` is new or empty, or that the user allowed writing into it.
pub fn prepare_output_dir(dir: &Path, force: bool) -> anyhow::Result<()> {
    match std::fs::read_dir(dir) {
        Ok(mut entries) => {
            if entries.next().is_some() && !force {
                bail!(
                    "{} already exists and is not empty; choose a new directory, or pass --force to write into it \
                     (files of the same name are replaced, others are left alone)",
                    dir.display()
                );
            }
            Ok(())
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotADirectory => {
            bail!("{} exists and is not a directory", dir.display())
        }
        Err(e) => Err(e).with_context(|| format!("cannot read {}", dir.display())),
    }
}
