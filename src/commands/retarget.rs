//! `wadforge retarget`: a rigged glTF's animations (Mixamo, VRM, a Blender rig) given to an
//! object of a WAD, Wad2, level or manifest directory, appended after its own, written as a WAD,
//! a Wad2 or a manifest directory.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use anyhow::{bail, Context};
use wadforge_exporter::retarget::{self, BoneMap, Report, Request};
use wadforge_format::catalog::Game;
use wadforge_format::level::SkewedCorners;
use wadforge_format::selection::ObjectRef;
use wadforge_format::{wad, wad2, Opened, OutputKind, Wad};
use wadforge_importer::{GltfFormat, ImportOptions, DEFAULT_TR_UNITS_PER_METRE};

use crate::edited::{refuse_overwrite, Edited};
use crate::output::{
    kept_note, prepare_output_dir, same_file, write_atomically, write_slot_names, write_wad_atomically,
};

/// Give an object the animations of a rigged glTF of another skeleton: each bone turns in world
/// space as the source joint it follows turns from its rest pose, the root's motion is scaled to
/// the object's legs and becomes its offsets and speed, 30 keyframes a second, each animation
/// appended after the object's own (a state of its own, itself next). Joints are mapped to bones
/// by MAP or by the built-in Mixamo and common humanoid names; bones without a joint stay at
/// rest. Prints what was mapped, what was left at rest and each animation added.
#[derive(clap::Args)]
#[command(
    after_help = "Example: wadforge retarget walk.glb --onto lara.wad --object LARA -o lara_walks.wad\n\
                  The map format and the built-in names: docs/retargeting.md"
)]
pub struct Args {
    /// The rigged glTF (.glb, or .gltf with its files) whose animations are brought (never modified).
    source: PathBuf,
    /// The WAD, Wad2, TR1–TR4 level or manifest directory whose object receives them (never modified).
    #[arg(long, value_name = "TARGET")]
    onto: PathBuf,
    /// The object: a slot name of TARGET's game, or an id.
    #[arg(long, value_name = "SLOT")]
    object: String,
    /// What to write: a WAD, or a Wad2 when it ends in .wad2; a manifest directory when it has
    /// neither extension.
    #[arg(short, long)]
    out: PathBuf,
    /// A YAML map of source joints to TR bones (`mixamorig:Hips: HIPS`, a line each), in place
    /// of the built-in names.
    #[arg(long, value_name = "MAP.yaml")]
    map: Option<PathBuf>,
    /// The source's animations to bring, by name, comma-separated; all without it.
    #[arg(long, value_delimiter = ',', value_name = "NAMES")]
    only: Option<Vec<String>>,
    /// Write into a manifest directory OUT that already holds files.
    #[arg(long)]
    force: bool,
    /// No report.
    #[arg(short, long)]
    quiet: bool,
}

/// TARGET as read: a file's objects, or a manifest directory built.
enum Target {
    File(Box<Opened>),
    Directory { wad: Wad, game: Game, units: f64 },
}

impl Target {
    fn read(path: &Path) -> anyhow::Result<Target> {
        if !path.is_dir() {
            return crate::input::read(path).map(|o| Target::File(Box::new(o)));
        }
        let manifests = wadforge_manifests::load(path)
            .with_context(|| format!("cannot read the manifest directory {}", path.display()))?;
        let built = wadforge_exporter::build_on(&manifests, None, &mut |_, _, _| {})
            .with_context(|| format!("cannot build {}", path.display()))?;
        Ok(Target::Directory {
            wad: built.wad,
            game: Game::from_name(&manifests.project.game).unwrap_or(Game::Tr4),
            units: manifests.project.units.tr_units_per_metre,
        })
    }

    fn model(&mut self) -> &mut Wad {
        match self {
            Target::File(o) => &mut o.model,
            Target::Directory { wad, .. } => wad,
        }
    }

    fn game(&self) -> Game {
        match self {
            Target::File(o) => o.game,
            Target::Directory { game, .. } => *game,
        }
    }
}

pub fn run(args: &Args) -> anyhow::Result<()> {
    let writes_file = OutputKind::from_path(&args.out).is_some();
    if writes_file {
        // SOURCE has no companions: a WAD written beside it under its name (walk.glb → walk.wad)
        // is fine, the file itself never.
        refuse_overwrite(&args.out, &[args.onto.as_path()])?;
        if args.out == args.source || same_file(&args.out, &args.source) {
            bail!(
                "{} is the source; write into another file (wadforge never writes over its inputs)",
                args.out.display()
            );
        }
    } else {
        prepare_output_dir(&args.out, args.force)?;
    }
    let map = match &args.map {
        Some(path) => BoneMap::read(path).map_err(anyhow::Error::msg)?,
        None => BoneMap::BuiltIn,
    };
    let mut target = Target::read(&args.onto)?;
    let game = target.game();
    let moveable = moveable(target.model(), game, &args.onto, &args.object)?;
    let units = match &target {
        Target::Directory { units, .. } => *units,
        Target::File(_) => DEFAULT_TR_UNITS_PER_METRE,
    };
    let object_name = ObjectRef::Moveable(wadforge_format::MoveableIndex(moveable))
        .name(target.model(), game)
        .to_string();
    let m = &target.model().moveables[moveable];
    let (id, own) = (m.id, m.animations.len());
    let bones = wadforge_importer::names::bone_names(game, id, m.meshes.len());
    let starts = match &target {
        Target::File(o) => Some(o.animation_starts()),
        Target::Directory { .. } => None,
    };
    let report = retarget::retarget(
        &Request {
            source: &args.source,
            map: &map,
            only: args.only.as_deref(),
            bones: &bones,
            object: object_name.clone(),
            tr_units_per_metre: units,
            starts: starts.as_deref(),
        },
        target.model(),
        moveable,
    )?;
    let written = write(&mut target, args, moveable, &report)?;
    if !args.quiet {
        print_report(&report, &object_name, target.model(), game);
        eprintln!(
            "wrote {}: {object_name} has {} animations ({} its own, {} retargeted){written}",
            args.out.display(),
            own + report.added.len(),
            own,
            report.added.len()
        );
    }
    Ok(())
}

/// The moveable of `model` (read from `path`) that `slot` names.
fn moveable(model: &Wad, game: Game, path: &Path, slot: &str) -> anyhow::Result<usize> {
    let selected = wadforge_edit::select(model, game, &[slot.to_string()])
        .with_context(|| format!("--object {slot} in {}", path.display()))?;
    match selected.first() {
        Some(&ObjectRef::Moveable(m)) => Ok(m.0),
        _ => bail!(
            "--object {slot} names a static of {}, which has no animations; name a moveable",
            path.display()
        ),
    }
}

/// Writes the retargeted model as OUT asks; what was written, for the summary.
fn write(target: &mut Target, args: &Args, moveable: usize, report: &Report) -> anyhow::Result<String> {
    let Some(kind) = OutputKind::from_path(&args.out) else {
        return write_directory(target, args, moveable, report);
    };
    match (kind, &*target) {
        (OutputKind::Wad2, Target::File(opened)) => write_wad2(
            &opened.model,
            opened.game,
            opened.wad2.as_ref(),
            args,
            moveable,
            report,
        ),
        (OutputKind::Wad2, Target::Directory { wad, game, .. }) => {
            write_wad2(wad, *game, None, args, moveable, report)
        }
        (_, Target::File(opened)) => {
            let size = Edited {
                out: &args.out,
                base: (&args.onto, opened),
                copied_detail: None,
                model_losses: opened.losses.iter().map(ToString::to_string).collect(),
                quiet: args.quiet,
            }
            .write(&opened.model)?;
            Ok(format!(", {size} bytes"))
        }
        (_, Target::Directory { wad, .. }) => {
            let encoded = wad::encode(wad, None).context("the result cannot be written as a WAD")?;
            write_wad_atomically(&args.out, &encoded)?;
            write_slot_names(&args.out, wad)?;
            Ok(format!(", {} bytes", encoded.size()))
        }
    }
}

/// Writes `model` as the Wad2 OUT, keeping the Tomb Editor detail of `base` (TARGET's, when a
/// Wad2) as `copy` does, the new animations named after their sources (a Wad2 has names).
fn write_wad2(
    model: &Wad,
    game: Game,
    base: Option<&wad2::Document>,
    args: &Args,
    moveable: usize,
    report: &Report,
) -> anyhow::Result<String> {
    let mut made = wad2::from_model(model, &SkewedCorners::new(), game)
        .context("the result cannot be written as a Wad2")?;
    let kept = base.map(|document| wad2::keep_detail(&mut made.document, document));
    let id = i64::from(model.moveables[moveable].id);
    if let Some(m) = made.document.moveables.iter_mut().find(|m| m.id == id) {
        for added in &report.added {
            if let Some(a) = m.animations.get_mut(added.index) {
                a.name = Some(added.name.clone());
            }
        }
    }
    let bytes = wad2::write_document(&made.document);
    write_atomically(&args.out, &bytes)?;
    if !args.quiet {
        for loss in &made.losses {
            eprintln!("lost: {loss}");
        }
        if let Some(kept) = kept.filter(|k| k.objects > 0) {
            eprintln!("note: {}", kept_note(&kept, &args.onto.display().to_string()));
        }
    }
    Ok(format!(", {} bytes", bytes.len()))
}

/// Imports the retargeted model into the manifest directory OUT, the new animations named after
/// their sources.
fn write_directory(
    target: &mut Target,
    args: &Args,
    moveable: usize,
    report: &Report,
) -> anyhow::Result<String> {
    let game = target.game();
    let (units, source, skewed, input_bytes, wad2_detail, starts) = match target {
        Target::File(o) => (
            DEFAULT_TR_UNITS_PER_METRE,
            wadforge_manifests::Source {
                file: file_name(&args.onto),
                format: o.kind.short_name().into(),
                version: o.version,
            },
            std::mem::take(&mut o.skewed),
            o.file_bytes,
            o.wad2.as_ref().map(wad2::detail_file),
            // The model is laid out one object's animations after another's now (`retarget`).
            None,
        ),
        Target::Directory { units, .. } => (
            *units,
            wadforge_manifests::Source {
                file: file_name(&args.onto),
                format: "manifest".into(),
                version: 0,
            },
            SkewedCorners::new(),
            0,
            None,
            None,
        ),
    };
    let model = target.model();
    let m = &model.moveables[moveable];
    let mut names = wadforge_importer::names::animation_names(
        game,
        m.id,
        &m.animations.iter().map(|a| a.state).collect::<Vec<_>>(),
    );
    for added in &report.added {
        let numbered = &names[added.index];
        let number = numbered.split('_').next().unwrap_or_default().to_string();
        names[added.index] = format!("{number}_{}", clean(&added.name));
    }
    let options = ImportOptions {
        game,
        tr_units_per_metre: units,
        format: GltfFormat::Glb,
        only: None,
        source,
        skewed,
        input_bytes,
        wad2_detail,
        animation_starts: starts,
        animation_names: HashMap::from([(m.id, names)]),
        ..ImportOptions::wad("", 0)
    };
    let (files, _) = wadforge_importer::import_into(model, &options, &args.out, &mut |_, _, _| {})
        .with_context(|| format!("cannot write the manifest directory {}", args.out.display()))?;
    Ok(format!(", {} files", files.len()))
}

/// An animation name as the manifest takes it: letters, digits, `_` and `-`, others made `_`.
fn clean(name: &str) -> String {
    let cleaned: String = (name.trim().chars().take(48))
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' {
                c
            } else {
                '_'
            }
        })
        .collect();
    if cleaned.is_empty() {
        "ANIM".into()
    } else {
        cleaned
    }
}

fn file_name(path: &Path) -> String {
    path.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default()
}

/// What was mapped, left at rest, added and renumbered, one a line.
fn print_report(report: &Report, object: &str, model: &Wad, game: Game) {
    for (bone, joint) in &report.mapped {
        println!("mapped: {bone} <- {joint}");
    }
    if !report.at_rest.is_empty() {
        println!("at rest: {}", report.at_rest.join(", "));
    }
    println!(
        "proportion: the root's motion scaled by {:.3} (the target's legs over the source's)",
        report.proportion
    );
    for a in &report.added {
        println!(
            "added: {object} #{} ({}): {} keyframes, speed {:.2}, state {}",
            a.index, a.name, a.keyframes, a.speed, a.state
        );
        println!("link: #{} next -> #{} (itself, first frame)", a.index, a.index);
    }
    for r in &report.renumbered {
        let owner = ObjectRef::Moveable(wadforge_format::MoveableIndex(r.moveable)).name(model, game);
        println!(
            "renumbered: {owner} #{} {}: {} -> {} (the same animation, the table grew before it)",
            r.animation, r.reference, r.from, r.to
        );
    }
    if report.renumbered.is_empty() {
        println!("renumbered: none (every other reference keeps its number)");
    }
    for note in &report.notes {
        println!("note: {note}");
    }
}
