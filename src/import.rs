//! `wadforge import`: a WAD or level → a manifest directory of glTF files and YAML manifests.

use std::path::Path;

use anyhow::{bail, Context};
use wadforge_importer::{GltfFormat, ImportOptions};

use crate::output::prepare_output_dir;
use crate::progress::Progress;

pub struct ImportArgs<'a> {
    pub file: &'a Path,
    pub out: &'a Path,
    pub only: Option<Vec<String>>,
    pub tr_units_per_metre: f64,
    pub separate_gltf: bool,
    pub quiet: bool,
    pub force: bool,
}

pub fn run(args: ImportArgs) -> anyhow::Result<()> {
    if !(args.tr_units_per_metre.is_finite() && args.tr_units_per_metre > 0.0) {
        bail!(
            "--scale must be a positive number of TR units per metre, not {}",
            args.tr_units_per_metre
        );
    }
    let mut objects = crate::input::read(args.file)?;
    let notes = crate::input::notes(&objects);
    let skewed = std::mem::take(&mut objects.skewed);
    let model = &objects.model;
    prepare_output_dir(args.out, args.force)?;

    let options = ImportOptions {
        game: objects.game,
        tr_units_per_metre: args.tr_units_per_metre,
        format: if args.separate_gltf {
            GltfFormat::Separate
        } else {
            GltfFormat::Glb
        },
        only: args.only,
        source: wadforge_manifests::Source {
            file: args
                .file
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default(),
            format: objects.kind.short_name().into(),
            version: objects.version,
        },
        skewed,
        input_bytes: objects.file_bytes,
        wad2_detail: objects.wad2.as_ref().map(wadforge_format::wad2::detail_file),
    };
    let count = model.moveables.len() + model.statics.len();
    let progress = Progress::new(count as u64, "importing", args.quiet);
    // Each object's files are written as soon as it is made: memory holds only the objects in hand.
    let (files, _) = wadforge_importer::import_into(model, &options, args.out, &mut |done, _, slot| {
        progress.set(done as u64, slot)
    })
    .with_context(|| format!("cannot import {}", args.file.display()))?;
    progress.finish();
    if !args.quiet {
        for note in &notes {
            eprintln!("note: {note}");
        }
        let bytes: usize = files.iter().map(|f| f.bytes).sum();
        eprintln!(
            "imported {} objects from {} into {} ({} files, {:.1} MB)",
            files
                .iter()
                .filter(|f| f.path.ends_with(".yaml"))
                .count()
                .saturating_sub(1),
            args.file.display(),
            args.out.display(),
            files.len(),
            bytes as f64 / 1e6
        );
    }
    Ok(())
}
