//! `wadforge build`: a manifest directory → a WAD that TRLE loads, optionally patching a base WAD.

use std::path::{Path, PathBuf};

use anyhow::{bail, Context};
use wadforge_files::resolved;
use wadforge_format::catalog::Game;
use wadforge_format::level::SkewedCorners;
use wadforge_format::{wad, wad2, FileKind, Opened, OutputKind, Wad, PAGE_SIZE};
use wadforge_render::pages;

use crate::output::{
    copy_companions, kept_note, refuse_companion_extension, same_file, write_atomically,
    write_wad_atomically, written_kind,
};
use crate::progress::Progress;

mod new_objects;
mod slots;

/// Turn a manifest directory back into a WAD that TRLE loads (and OUT.was with the names), or
/// into a Tomb Editor Wad2 (OUT.wad2).
#[derive(clap::Args)]
#[command(after_help = "Example: wadforge build tut1 -o tut1_outfit.wad --base tut1.wad")]
pub struct Args {
    /// The manifest directory (made by `wadforge import`, edited in Blender).
    dir: PathBuf,
    /// The file to write: a Wad2 when it ends in .wad2, else a WAD; never one of the inputs.
    #[arg(short, long)]
    out: PathBuf,
    /// Start from this WAD or Wad2: the directory's objects replace the same ids or are added,
    /// every other object keeps its exact content; its .swd, .sam and .sfx are copied beside OUT.
    #[arg(long)]
    base: Option<PathBuf>,
    /// Also write every packed texture page as PNG, and a copy with each sample outlined.
    #[arg(long, value_name = "DIR")]
    pages: Option<PathBuf>,
    /// Also a new object: a glTF no wadforge wrote (a rigged model, a new armature or mesh from
    /// Blender) in the catalogue slot SLOT (e.g. ANIMATING1); repeatable. A slot the directory
    /// holds is refused; one only the base holds is replaced.
    #[arg(long = "new", value_name = "FILE.glb=SLOT", value_parser = new_objects::parse)]
    new: Vec<new_objects::NewObject>,
    /// NAME=SLOT: the slot an object takes in OUT (names or ids; repeat or separate with commas).
    /// A WAD holds TR4's slots: a directory of another game's objects (a TR1 level's) moves to
    /// them by the catalogue, and one TR4 has no slot for is left out unless placed so, e.g. --as
    /// WOLF=DOG.
    #[arg(long = "as", value_delimiter = ',', value_name = "NAME=SLOT")]
    as_slots: Vec<String>,
    /// Write nothing, and fail, when an object has no slot in OUT's game.
    #[arg(long)]
    strict: bool,
    /// No progress bar and no summary.
    #[arg(short, long)]
    quiet: bool,
}

pub fn run(args: &Args) -> anyhow::Result<()> {
    refuse_non_manifest_dir(&args.dir)?;
    let manifests = wadforge_manifests::load(&args.dir)?;
    let dir_game = Game::from_name(&manifests.project.game).unwrap_or(Game::Tr4);
    let out_game = slots::output_game(dir_game, written_kind(&args.out));
    let base = match args.base.as_deref() {
        Some(path) => {
            refuse_overwrite(&args.out, path)?;
            let base = read_base(path)?;
            slots::refuse_base_of_other_game(dir_game, base.game, path)?;
            Some(base)
        }
        None => None,
    };
    refuse_companion_extension(&args.out)?;
    refuse_writing_into(&args.dir, &args.out, args.pages.as_deref())?;
    new_objects::refuse_missing(&args.new, &args.out)?;
    let mut built = built_objects(args, &manifests, base.as_ref(), (dir_game, out_game))?;
    // Everything is validated and built before anything is written.
    let size = if written_kind(&args.out) == OutputKind::Wad2 {
        let detail = Detail {
            dir: dir_detail(&manifests)?,
            base: base.as_ref().and_then(|b| b.wad2.as_ref()),
        };
        write_wad2(&built.wad, &manifests.project.game, &detail, args)?
    } else {
        let encoded = wad::encode(&built.wad, None).context("the built model cannot be written as a WAD")?;
        write_wad_atomically(&args.out, &encoded)?;
        let was: String = built.names.iter().map(|n| format!("{n}\r\n")).collect();
        write_atomically(&args.out.with_extension("was"), was.as_bytes())?;
        if let Some(base) = &args.base {
            copy_companions(base, &args.out)?;
        }
        encoded.size()
    };
    built.notes.extend(crate::sound_files::build_sounds(
        &args.dir,
        args.base.as_deref(),
        (&args.out, out_game),
        (dir_game, &built.wad),
    )?);
    // The WAVs the directory's samples/ holds for its sounds, into samples/ beside the output.
    built
        .notes
        .extend(wadforge_importer::samples::build_samples(&args.dir, &args.out)?);
    if let Some(dir) = &args.pages {
        write_pages(dir, &built.wad)?;
    }
    // Warnings whatever --quiet says: each is a reference the output lost.
    for warning in &built.warnings {
        eprintln!("warning: {warning}");
    }
    if !args.quiet {
        for note in &built.notes {
            eprintln!("note: {note}");
        }
        eprintln!(
            "built {}: {} moveables, {} statics, {} pages, {} samples, {} bytes",
            args.out.display(),
            built.wad.moveables.len(),
            built.wad.statics.len(),
            built.wad.pages.len(),
            built.wad.samples.len(),
            size
        );
    }
    Ok(())
}

/// The directory's objects built (on the base's, when given), the `--new` ones added, all in
/// `out_game`'s ids.
fn built_objects(
    args: &Args,
    manifests: &wadforge_manifests::ManifestDir,
    base: Option<&Opened>,
    (dir_game, out_game): (Game, Game),
) -> anyhow::Result<wadforge_exporter::BuildOutput> {
    let progress = Progress::new(manifests.objects.len() as u64, "building", args.quiet);
    // The base's references to other objects' animations count from its own table.
    let base_starts = base.map(|b| wadforge_exporter::Base {
        model: &b.model,
        starts: b.animation_starts(),
    });
    let mut built = wadforge_exporter::build_on(manifests, base_starts.as_ref(), &mut |done, _, slot| {
        progress.set(done as u64, slot)
    })?;
    progress.finish();
    if !args.new.is_empty() {
        let added = new_objects::add(
            std::mem::take(&mut built.wad),
            std::mem::take(&mut built.names),
            &args.new,
            &new_objects::DirIds::of(manifests),
            (dir_game, manifests.project.units.tr_units_per_metre),
        )?;
        (built.wad, built.names) = (added.wad, added.names);
        built.notes.extend(added.notes);
    }
    if dir_game != out_game || !args.as_slots.is_empty() {
        let moved = slots::move_built(&mut built, (dir_game, out_game), &args.as_slots, args.strict)?;
        built.warnings.extend(moved.left_out);
        built.notes.extend(moved.reshaped);
    }
    Ok(built)
}

/// The file a build patches: a classic WAD or a Wad2 (whose detail a Wad2 build keeps).
fn read_base(path: &Path) -> anyhow::Result<Opened> {
    let base = crate::input::read(path)?;
    if matches!(base.kind, FileKind::Level(_)) {
        bail!(
            "{} is a {}; a base is a WAD or a Wad2 (convert the level first: wadforge convert LEVEL BASE.wad)",
            path.display(),
            base.description()
        );
    }
    Ok(base)
}

/// The Wad2 documents whose detail a Wad2 build keeps: the manifest directory's (imported from a
/// Wad2) and the base's.
struct Detail<'a> {
    dir: Option<wad2::Document>,
    base: Option<&'a wad2::Document>,
}

/// Refuses a `dir` that is no manifest directory (missing, a file, a folder without the project
/// file), saying what makes one, rather than letting the loader say a file is not found.
fn refuse_non_manifest_dir(dir: &Path) -> anyhow::Result<()> {
    let project = wadforge_manifests::PROJECT_FILE;
    let make = "make one with `wadforge import FILE.wad -o DIR`, or of a model made elsewhere with \
                `wadforge import MODEL.glb --slot NAME -o DIR`";
    if !dir.exists() {
        bail!(
            "{} does not exist; build takes a manifest directory: {make}",
            dir.display()
        );
    }
    if !dir.is_dir() {
        bail!("{} is a file, not a manifest directory; {make}", dir.display());
    }
    if !dir.join(project).exists() {
        bail!(
            "{} has no {project}, so it is not a manifest directory (import writes {project} beside the \
             objects' folders): {make}",
            dir.display()
        );
    }
    Ok(())
}

/// The manifest directory's [`wadforge_manifests::Project::wad2_detail`], read.
fn dir_detail(manifests: &wadforge_manifests::ManifestDir) -> anyhow::Result<Option<wad2::Document>> {
    let Some(relative) = &manifests.project.wad2_detail else {
        return Ok(None);
    };
    let path = manifests.root.join(relative);
    let bytes = wadforge_files::input::read(&path).with_context(|| {
        format!(
            "cannot read {}, which wadforge.yaml names as wad2_detail; import the Wad2 again, or remove \
             the line to build without its detail",
            path.display()
        )
    })?;
    let document = wad2::read_document(&bytes).with_context(|| {
        format!(
            "{} (wadforge.yaml's wad2_detail) is not a valid Wad2; import the Wad2 again",
            path.display()
        )
    })?;
    Ok(Some(document))
}

/// Writes the built objects as a Tomb Editor Wad2 for the directory's game, with the detail of
/// the base and of the directory kept; returns its size.
fn write_wad2(model: &Wad, game: &str, detail: &Detail, args: &Args) -> anyhow::Result<u64> {
    let game = Game::from_name(game).unwrap_or(Game::Tr4);
    let mut made = wad2::from_model(model, &SkewedCorners::new(), game)?;
    let mut kept = Vec::new();
    if let Some(base) = detail.base {
        kept.push((wad2::keep_detail(&mut made.document, base), "the base"));
    }
    // The directory knows its objects better than the file it patches.
    if let Some(dir) = &detail.dir {
        let from_dir = match detail.base {
            Some(_) => wad2::keep_object_detail(&mut made.document, dir),
            None => wad2::keep_detail(&mut made.document, dir),
        };
        kept.push((from_dir, "the manifest directory"));
    }
    let bytes = wad2::write_document(&made.document);
    write_atomically(&args.out, &bytes)?;
    if !args.quiet {
        for loss in &made.losses {
            eprintln!("note: {loss}");
        }
        for (kept, from) in &kept {
            eprintln!("note: {}", kept_note(kept, from));
        }
    }
    Ok(bytes.len() as u64)
}

/// Refuses outputs that could replace a file of the manifest directory `dir`: the WAD named as
/// a file build reads (manifests, glTF files and the buffers and images beside them), or the
/// pages written into the directory. Paths are compared resolved (`./DIR/x.glb`, links).
fn refuse_writing_into(dir: &Path, out: &Path, pages: Option<&Path>) -> anyhow::Result<()> {
    const READ_BY_BUILD: [&str; 9] = ["yaml", "yml", "glb", "gltf", "bin", "png", "jpg", "jpeg", "webp"];
    let Ok(dir) = std::fs::canonicalize(dir) else {
        return Ok(()); // load has read it; a directory gone since cannot be written over
    };
    let ext = out.extension().map(|e| e.to_string_lossy().to_ascii_lowercase());
    let read_by_build = ext.is_some_and(|e| READ_BY_BUILD.contains(&e.as_str()));
    if read_by_build && resolved(out).is_some_and(|o| o.starts_with(&dir)) {
        bail!(
            "{} would overwrite a file of the manifest directory; choose another output",
            out.display()
        );
    }
    if let Some(pages) = pages {
        let inside = std::fs::canonicalize(pages).map_or_else(|_| resolved(pages), Some);
        if inside.is_some_and(|p| p.starts_with(&dir)) {
            bail!(
                "--pages {} is inside the manifest directory, whose images its pages could replace; choose a \
                 folder outside it",
                pages.display()
            );
        }
    }
    Ok(())
}

fn refuse_overwrite(out: &Path, input: &Path) -> anyhow::Result<()> {
    let stems = |p: &Path| -> PathBuf { p.with_extension("") };
    if same_file(out, input) || (out.exists() && same_file(&stems(out), &stems(input))) || out == input {
        bail!(
            "{} is the base WAD; build into another file (wadforge never writes over its inputs)",
            out.display()
        );
    }
    Ok(())
}

/// Every page as PNG, and a copy with each sample outlined, so a builder sees how space was used.
fn write_pages(dir: &Path, model: &Wad) -> anyhow::Result<()> {
    let size = PAGE_SIZE as u32;
    for (i, page) in model.pages.iter().enumerate() {
        let outlined = pages::outlined(model, i).unwrap_or_default();
        write_atomically(
            &dir.join(format!("page_{i:03}.png")),
            &pages::png(page.rgb(), size, size),
        )?;
        write_atomically(
            &dir.join(format!("page_{i:03}_samples.png")),
            &pages::png(&outlined, size, size),
        )?;
    }
    Ok(())
}
