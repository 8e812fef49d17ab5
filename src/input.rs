//! Reading the objects of an input file, whatever it is: a TRLE WAD or a Tomb Raider level,
//! recognised from its version word rather than its name.

use std::path::Path;

use anyhow::Context;
use wadforge_format::catalog::Game;
use wadforge_format::{level, references, wad, Wad};

/// The objects of a file and what it was.
pub struct Objects {
    pub model: Wad,
    pub game: Game,
    /// `wad`, `tr1`, `tr2`, `tr3` or `tr4`.
    pub format: &'static str,
    /// What the file calls itself, for people.
    pub description: String,
    pub version: u32,
    /// Things worth telling the user about the conversion.
    pub notes: Vec<String>,
    /// Polygons of a level whose texture is skewed on its sample: their exact UV corners.
    pub skewed: wadforge_importer::SkewedCorners,
    /// Where a WAD's records sat (its animation table's order, for references across objects).
    pub layout: Option<wad::Layout>,
    /// The file's size.
    pub bytes: u64,
}

impl Objects {
    /// Where each moveable's animations start in the file's animation table, which references
    /// into another object's animations count in.
    pub fn animation_starts(&self) -> Vec<usize> {
        match &self.layout {
            Some(layout) => references::layout_starts(&self.model, layout),
            None => references::canonical_starts(&self.model.moveables),
        }
    }
}

pub fn read(path: &Path) -> anyhow::Result<Objects> {
    let bytes =
        wadforge_files::input::read(path).with_context(|| format!("cannot read {}", path.display()))?;
    let version = bytes
        .get(..4)
        .map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]));
    if matches!(version, Some(129 | 130)) {
        let (model, layout) =
            wad::read(&bytes).with_context(|| format!("{} is not a valid WAD", path.display()))?;
        return Ok(Objects {
            version: model.version,
            model,
            game: Game::Tr4,
            format: "wad",
            description: "TRLE WAD".into(),
            notes: Vec::new(),
            skewed: Default::default(),
            layout: Some(layout),
            bytes: bytes.len() as u64,
        });
    }
    let level = level::read(&bytes)
        .with_context(|| format!("{} is neither a valid WAD nor a supported level", path.display()))?;
    let mut notes = Vec::new();
    if level.approximate_mappings() > 0 {
        notes.push(format!(
            "{} polygons map their texture skewed: their glTF UVs are the level's own, and build resamples them",
            level.approximate_mappings()
        ));
    }
    let (format, name) = match level.game {
        Game::Tr1 => ("tr1", "TR1"),
        Game::Tr2 => ("tr2", "TR2"),
        Game::Tr3 => ("tr3", "TR3"),
        Game::Tr4 => ("tr4", "TR4"),
    };
    Ok(Objects {
        model: level.wad,
        game: level.game,
        format,
        description: format!("{name} level"),
        version: level.version,
        notes,
        // Consumed, so that the two lists are not held at once (a level may skew a million).
        skewed: level
            .approximate
            .into_iter()
            .map(|a| ((a.mesh, a.polygon), a.corners))
            .collect(),
        layout: None,
        bytes: bytes.len() as u64,
    })
}
