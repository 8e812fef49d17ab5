//! Reading the objects of an input file, whatever it is ([`wadforge_format::open`]: a TRLE WAD,
//! a Tomb Raider level or a Tomb Editor Wad2, known by its first bytes rather than its name), with
//! the file named in errors.

use std::path::Path;

use anyhow::Context;
use wadforge_format::{OpenError, Opened};

pub fn read(path: &Path) -> anyhow::Result<Opened> {
    let bytes =
        wadforge_files::input::read(path).with_context(|| format!("cannot read {}", path.display()))?;
    open(path, &bytes)
}

/// The objects of `bytes`, read from `path`.
pub fn open(path: &Path, bytes: &[u8]) -> anyhow::Result<Opened> {
    wadforge_format::open(bytes).map_err(|e| {
        let what = match e {
            OpenError::Wad(_) => "is not a valid WAD",
            OpenError::Level(_) | OpenError::Unknown(_) => "is neither a valid WAD nor a supported level",
            OpenError::Wad2(_) | OpenError::Wad2Objects(_) => "is not a valid Wad2",
        };
        anyhow::Error::new(e).context(format!("{} {what}", path.display()))
    })
}

/// Things worth telling the user about importing `objects`.
pub fn notes(objects: &Opened) -> Vec<String> {
    let mut notes = Vec::new();
    if !objects.losses.is_empty() {
        let lost: Vec<String> = objects.losses.iter().map(ToString::to_string).collect();
        notes.push(format!(
            "{} keeps what this {} holds beyond glTF and YAML for `build -o OUT.wad2`; a classic WAD \
             built from the directory cannot hold:\n  {}",
            wadforge_manifests::WAD2_DETAIL_FILE,
            objects.description(),
            lost.join("\n  ")
        ));
    }
    if !objects.skewed.is_empty() {
        notes.push(format!(
            "{} polygons map their texture skewed: their glTF UVs are the level's own, and build resamples them",
            objects.skewed.len()
        ));
    }
    notes
}
