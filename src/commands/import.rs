//! `wadforge import`: a WAD, Wad2 or level → a manifest directory of glTF files and YAML manifests;
//! the files of folders → a manifest directory each.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use anyhow::{bail, Context};
use wadforge_format::Opened;
use wadforge_importer::{GltfFormat, ImportOptions};

use crate::collection::{
    each_file, failed_files, is_collection, mirrored, names_held, object_files, refuse_output_inside_inputs,
    report_failures,
};
use crate::output::prepare_output_dir;
use crate::progress::Progress;

/// Turn every moveable and static of a WAD, Wad2 or TR1–TR4 level into a manifest directory:
/// rigged, animated, textured glTF files that Blender opens as they are, plus YAML manifests;
/// of several files or folders, a manifest directory each.
#[derive(clap::Args)]
#[command(after_help = "Example: wadforge import tut1.wad -o tut1 --only LARA_SKIN,CROCODILE")]
pub struct Args {
    /// The .wad, .wad2 or TR1–TR4 level (.phd, .tr2, .tr4) to import (never modified); several
    /// files, or folders (walked, files known by their first bytes), give a manifest directory
    /// each under OUT, the folders' tree mirrored.
    #[arg(required = true)]
    files: Vec<PathBuf>,
    /// The manifest directory to write (of several files: the folder of their directories):
    /// new or empty (see --force).
    #[arg(short, long)]
    out: PathBuf,
    /// Import only these objects: slot names or ids, comma-separated.
    #[arg(long, value_delimiter = ',')]
    only: Option<Vec<String>>,
    /// TR units per glTF metre (a sector is 1024 units).
    #[arg(long, default_value_t = wadforge_importer::DEFAULT_TR_UNITS_PER_METRE, allow_negative_numbers = true)]
    scale: f64,
    /// Write .gltf + .bin + .png files instead of one .glb per object.
    #[arg(long)]
    gltf: bool,
    /// No progress bar and no summary.
    #[arg(short, long)]
    quiet: bool,
    /// Write into a directory that already holds files (same-named files are replaced).
    #[arg(long)]
    force: bool,
}

pub fn run(args: &Args) -> anyhow::Result<()> {
    if !(args.scale.is_finite() && args.scale > 0.0) {
        bail!(
            "--scale must be a positive number of TR units per metre, not {}",
            args.scale
        );
    }
    if is_collection(&args.files) {
        return run_collection(args);
    }
    let file = &args.files[0];
    let objects = crate::input::read(file)?;
    prepare_output_dir(&args.out, args.force)?;
    let imported = import_objects(file, objects, &args.out, args, args.only.clone())?;
    if !args.quiet {
        for note in &imported.notes {
            eprintln!("note: {note}");
        }
        eprintln!(
            "imported {} objects from {} into {} ({} files, {:.1} MB)",
            imported.objects,
            file.display(),
            args.out.display(),
            imported.files,
            imported.bytes as f64 / 1e6
        );
    }
    Ok(())
}

/// What importing one file gave.
struct Imported {
    objects: usize,
    files: usize,
    bytes: usize,
    notes: Vec<String>,
}

/// Imports the `objects` of `file` (those `only` names, or all) into the manifest directory
/// `out` (ready to write into).
fn import_objects(
    file: &Path,
    mut objects: Opened,
    out: &Path,
    args: &Args,
    only: Option<Vec<String>>,
) -> anyhow::Result<Imported> {
    let notes = crate::input::notes(&objects);
    let skewed = std::mem::take(&mut objects.skewed);
    let model = &objects.model;
    let options = ImportOptions {
        game: objects.game,
        tr_units_per_metre: args.scale,
        format: if args.gltf {
            GltfFormat::Separate
        } else {
            GltfFormat::Glb
        },
        only,
        source: wadforge_manifests::Source {
            file: file
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default(),
            format: objects.kind.short_name().into(),
            version: objects.version,
        },
        skewed,
        input_bytes: objects.file_bytes,
        wad2_detail: objects.wad2.as_ref().map(wadforge_format::wad2::detail_file),
        animation_starts: Some(objects.animation_starts()),
    };
    let count = model.moveables.len() + model.statics.len();
    // Over a collection the files go without a bar of their own.
    let progress = Progress::new(
        count as u64,
        "importing",
        args.quiet || is_collection(&args.files),
    );
    // Each object's files are written as soon as it is made: memory holds only the objects in hand.
    let (files, _) = wadforge_importer::import_into(model, &options, out, &mut |done, _, slot| {
        progress.set(done as u64, slot)
    })
    .with_context(|| format!("cannot import {}", file.display()))?;
    progress.finish();
    Ok(Imported {
        objects: files
            .iter()
            .filter(|f| f.path.ends_with(".yaml"))
            .count()
            .saturating_sub(1),
        files: files.len(),
        bytes: files.iter().map(|f| f.bytes).sum(),
        notes,
    })
}

/// Imports every object file of the folders and files named, each into its own manifest
/// directory under `out`, the folders' tree mirrored (`enemies/croc.wad` → `OUT/enemies/croc/`).
fn run_collection(args: &Args) -> anyhow::Result<()> {
    let files = object_files(&args.files)?;
    refuse_output_inside_inputs(&args.out, &args.files)?;
    prepare_output_dir(&args.out, args.force)?;
    let dirs = mirrored(&files, None)?;
    let dir_of: HashMap<PathBuf, PathBuf> = files
        .iter()
        .zip(dirs)
        .map(|(f, d)| (f.relative.clone(), args.out.join(d)))
        .collect();
    let outcomes = each_file(files, "importing", args.quiet, |file| {
        let objects = crate::input::read(&file.path)?;
        let only = match &args.only {
            Some(only) => match names_held(&objects.model, objects.game, only) {
                held if held.is_empty() => return Ok(None),
                held => Some(held),
            },
            None => None,
        };
        let dir = &dir_of[&file.relative];
        prepare_output_dir(dir, args.force)?;
        import_objects(&file.path, objects, dir, args, only).map(Some)
    });
    report_failures(&outcomes);
    if !args.quiet {
        for o in &outcomes {
            if let Ok(Some(imported)) = &o.result {
                for note in &imported.notes {
                    eprintln!("note: {}: {note}", o.file.path.display());
                }
            }
        }
        let imported: Vec<&Imported> = outcomes
            .iter()
            .filter_map(|o| o.result.as_ref().ok()?.as_ref())
            .collect();
        let without = outcomes.iter().filter(|o| matches!(o.result, Ok(None))).count();
        eprintln!(
            "imported {} objects from {} files into {} ({} files, {:.1} MB){}",
            imported.iter().map(|i| i.objects).sum::<usize>(),
            imported.len(),
            args.out.display(),
            imported.iter().map(|i| i.files).sum::<usize>(),
            imported.iter().map(|i| i.bytes).sum::<usize>() as f64 / 1e6,
            if without == 0 {
                String::new()
            } else {
                format!("; {without} files hold none of the objects --only names")
            }
        );
    }
    failed_files(&outcomes)
}
