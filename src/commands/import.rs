//! `wadforge import`: a WAD, Wad2 or level → a manifest directory of glTF files and YAML manifests;
//! the files of folders → a manifest directory each; a glTF no wadforge wrote (`--slot`) → a
//! manifest directory of one new object.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use anyhow::{bail, Context};
use wadforge_exporter::foreign::{self, ForeignOptions, Slot};
use wadforge_format::catalog::Game;
use wadforge_format::{Opened, Wad};
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
#[command(
    after_help = "Examples:\n  wadforge import tut1.wad -o tut1 --only LARA_SKIN,CROCODILE\n  \
                         wadforge import walker.glb --slot CROCODILE -o walker"
)]
pub struct Args {
    /// The .wad, .wad2 or TR1–TR4 level (.phd, .tr2, .tr4) to import (never modified); several
    /// files, or folders (walked, files known by their first bytes), give a manifest directory
    /// each under OUT, the folders' tree mirrored. Or one .glb/.gltf made by another tool, with
    /// --slot.
    #[arg(required = true)]
    files: Vec<PathBuf>,
    /// The manifest directory to write (of several files: the folder of their directories):
    /// new or empty (see --force).
    #[arg(short, long)]
    out: PathBuf,
    /// Import only these objects: slot names or ids, comma-separated.
    #[arg(long, value_delimiter = ',')]
    only: Option<Vec<String>>,
    /// Of a .glb/.gltf no wadforge wrote: the TR4 slot its one new object takes (a moveable's or
    /// a static's name, or a moveable's id). A skinned model becomes a moveable (a static in a
    /// static's slot), a model without a skin a static (a moveable of one mesh in a moveable's).
    #[arg(long, value_name = "NAME")]
    slot: Option<String>,
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
        if args.slot.is_some() {
            bail!("--slot makes one new object of one .glb/.gltf; import the files one at a time");
        }
        return run_collection(args);
    }
    let file = &args.files[0];
    let imported = if is_gltf(file) {
        import_foreign(file, args)?
    } else {
        if args.slot.is_some() {
            bail!(
                "--slot names the slot of a new object read from a .glb/.gltf; {} is not one (its \
                 objects keep their own slots: leave --slot out)",
                file.display()
            );
        }
        let objects = crate::input::read(file)?;
        prepare_output_dir(&args.out, args.force)?;
        import_objects(file, objects, &args.out, args, args.only.clone())?
    };
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

/// Whether `file` is a glTF: named .glb or .gltf, or starting as a GLB does.
fn is_gltf(file: &Path) -> bool {
    let named = (file.extension().and_then(|e| e.to_str()))
        .is_some_and(|e| e.eq_ignore_ascii_case("glb") || e.eq_ignore_ascii_case("gltf"));
    let mut magic = [0u8; 4];
    let glb = std::fs::File::open(file)
        .and_then(|mut f| std::io::Read::read_exact(&mut f, &mut magic))
        .is_ok_and(|()| &magic == b"glTF");
    named || glb
}

/// Imports the one object of a glTF no wadforge wrote into the slot `--slot` names: read as a
/// model (`wadforge_exporter::foreign`), then written as import writes a WAD's objects, so that
/// `build` takes the directory at once.
fn import_foreign(file: &Path, args: &Args) -> anyhow::Result<Imported> {
    let Some(slot) = &args.slot else {
        bail!(
            "{} is a glTF: name the slot its new object takes with --slot NAME (a TR4 moveable's or \
             static's name, or a moveable's id), e.g. `wadforge import {} --slot CROCODILE -o DIR`",
            file.display(),
            file.display()
        );
    };
    if args.only.is_some() {
        bail!("--only chooses among a file's objects; a glTF with --slot gives one: leave --only out");
    }
    let game = Game::Tr4;
    let options = ForeignOptions {
        slot: Slot::named(game, slot).map_err(anyhow::Error::msg)?,
        game,
        tr_units_per_metre: args.scale,
    };
    let read =
        foreign::read_gltf(file, &options).with_context(|| format!("cannot import {}", file.display()))?;
    prepare_output_dir(&args.out, args.force)?;
    let named = |names: &Vec<String>| {
        (read.wad.moveables.iter())
            .map(|m| (m.id, names.clone()))
            .collect()
    };
    let options = ImportOptions {
        game,
        source: wadforge_manifests::Source {
            file: file_name(file),
            format: "gltf".into(),
            version: 0,
        },
        tr_units_per_metre: args.scale,
        format: gltf_format(args),
        input_bytes: std::fs::metadata(file).map_or(0, |m| m.len()),
        animation_names: named(&read.animation_names),
        bone_names: named(&read.bone_names),
        ..ImportOptions::wad("", 0)
    };
    import_model(file, &read.wad, &options, &args.out, args, read.notes)
}

/// The file name of `file`, as the project file records its source.
fn file_name(file: &Path) -> String {
    (file.file_name())
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default()
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
        format: gltf_format(args),
        only,
        source: wadforge_manifests::Source {
            file: file_name(file),
            format: objects.kind.short_name().into(),
            version: objects.version,
        },
        skewed,
        input_bytes: objects.file_bytes,
        wad2_detail: objects.wad2.as_ref().map(wadforge_format::wad2::detail_file),
        animation_starts: Some(objects.animation_starts()),
        animation_names: HashMap::new(),
        bone_names: HashMap::new(),
    };
    let mut imported = import_model(file, model, &options, out, args, notes)?;
    let only = options.only.as_deref();
    imported.notes.extend(crate::sound_files::import_sounds(
        (file, objects.sounds.as_ref()),
        model,
        objects.game,
        only,
        out,
    )?);
    // The WAVs of the sounds sounds.yaml names, from the level (TR2/TR3: its MAIN.SFX).
    imported.notes.extend(wadforge_importer::samples::import_samples(
        file,
        objects.sounds.as_ref(),
        out,
    )?);
    Ok(imported)
}

/// The glTF files `--gltf` asks for.
fn gltf_format(args: &Args) -> GltfFormat {
    if args.gltf {
        GltfFormat::Separate
    } else {
        GltfFormat::Glb
    }
}

/// Writes the objects of `model` (read from `file`) that `options` choose into the manifest
/// directory `out`, ready to write into.
fn import_model(
    file: &Path,
    model: &Wad,
    options: &ImportOptions,
    out: &Path,
    args: &Args,
    notes: Vec<String>,
) -> anyhow::Result<Imported> {
    let count = model.moveables.len() + model.statics.len();
    // Over a collection the files go without a bar of their own.
    let progress = Progress::new(
        count as u64,
        "importing",
        args.quiet || is_collection(&args.files),
    );
    // Each object's files are written as soon as it is made: memory holds only the objects in hand.
    let (files, _) = wadforge_importer::import_into(model, options, out, &mut |done, _, slot| {
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
