//! `wadforge info`: a readable (or JSON) summary of a WAD.

use std::io::Write;
use std::path::Path;

use serde::Serialize;
use wadforge_format::catalog;

use wadforge_format::Opened;

#[derive(Serialize)]
struct Summary {
    file: String,
    format: String,
    version: u32,
    pages: usize,
    samples: usize,
    meshes: usize,
    polygons: usize,
    moveables: Vec<MoveableSummary>,
    statics: Vec<StaticSummary>,
}

#[derive(Serialize)]
struct MoveableSummary {
    id: u32,
    slot: String,
    meshes: usize,
    animations: usize,
    keyframes: usize,
}

#[derive(Serialize)]
struct StaticSummary {
    id: u32,
    slot: String,
    polygons: usize,
}

pub fn run(path: &Path, json: bool) -> anyhow::Result<()> {
    let objects = crate::input::read(path)?;
    let summary = summarise(path, &objects);
    let mut out = std::io::stdout().lock();
    if json {
        // As an io::Error, so that a closed pipe is told apart from other failures.
        serde_json::to_writer_pretty(&mut out, &summary).map_err(std::io::Error::from)?;
        writeln!(out)?;
    } else {
        print_text(&mut out, &summary)?;
    }
    Ok(())
}

fn summarise(path: &Path, objects: &Opened) -> Summary {
    // Object ids keep their game's meaning (TRLE WADs hold TR4 objects).
    let (model, game) = (&objects.model, objects.game);
    Summary {
        file: path.display().to_string(),
        format: objects.description().to_string(),
        version: objects.version,
        pages: model.pages.len(),
        samples: model.samples.len(),
        meshes: model.meshes.len(),
        polygons: model.polygon_count(),
        moveables: model
            .moveables
            .iter()
            .map(|m| MoveableSummary {
                id: m.id,
                slot: catalog::moveable_slot(game, m.id),
                meshes: m.meshes.len(),
                animations: m.animations.len(),
                keyframes: m.animations.iter().map(|a| a.keyframes.len()).sum(),
            })
            .collect(),
        statics: model
            .statics
            .iter()
            .map(|s| StaticSummary {
                id: s.id,
                slot: catalog::static_slot(game, s.id),
                polygons: model.meshes.get(s.mesh).map_or(0, |m| m.polygons.len()),
            })
            .collect(),
    }
}

fn print_text(out: &mut impl Write, s: &Summary) -> std::io::Result<()> {
    // Level version words read best in hex (TR3's 0xFF180038, TR4's "TR4\0" = 0x00345254).
    let version = if s.format.ends_with("level") {
        format!("{:#010x}", s.version)
    } else {
        s.version.to_string()
    };
    writeln!(out, "{}: {} version {version}", s.file, s.format)?;
    writeln!(
        out,
        "  {} texture pages, {} samples, {} unique meshes, {} polygons",
        s.pages, s.samples, s.meshes, s.polygons
    )?;
    writeln!(out, "\nMoveables ({}):", s.moveables.len())?;
    let slot_width = s
        .moveables
        .iter()
        .map(|m| m.slot.len())
        .chain(s.statics.iter().map(|t| t.slot.len()))
        .max();
    let w = slot_width.unwrap_or(4).max(4);
    writeln!(
        out,
        "  {:>5}  {:<w$}  {:>6}  {:>10}  {:>9}",
        "id", "slot", "meshes", "animations", "keyframes"
    )?;
    for m in &s.moveables {
        writeln!(
            out,
            "  {:>5}  {:<w$}  {:>6}  {:>10}  {:>9}",
            m.id, m.slot, m.meshes, m.animations, m.keyframes
        )?;
    }
    writeln!(out, "\nStatics ({}):", s.statics.len())?;
    writeln!(out, "  {:>5}  {:<w$}  {:>8}", "id", "slot", "polygons")?;
    for t in &s.statics {
        writeln!(out, "  {:>5}  {:<w$}  {:>8}", t.id, t.slot, t.polygons)?;
    }
    Ok(())
}
