//! `wadforge`: moves Tomb Raider objects between TRLE WADs and glTF + YAML manifest directories.

#![warn(clippy::too_many_lines)]

mod build;
mod check_collection;
mod collection;
mod convert;
mod diff;
mod diff_collection;
mod edit;
mod edited;
mod gallery;
mod gallery_collection;
mod import;
mod info;
mod input;
mod output;
mod progress;

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Args, Parser, Subcommand};

#[derive(Parser)]
#[command(name = "wadforge", version, about = "Tomb Raider objects between TRLE WADs and glTF", long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Summarise a WAD or level: version, texture pages, samples, meshes, every moveable and static.
    #[command(after_help = "Example: wadforge info tut1.wad --json > tut1.json")]
    Info(InfoCommand),
    /// Turn every moveable and static of a WAD or a TR1–TR4 level into a manifest directory:
    /// rigged, animated, textured glTF files that Blender opens as they are, plus YAML manifests.
    #[command(after_help = "Example: wadforge import tut1.wad -o tut1 --only LARA_SKIN,CROCODILE")]
    Import(ImportCommand),
    /// Turn a manifest directory back into a WAD that TRLE loads (and OUT.was with the names).
    #[command(after_help = "Example: wadforge build tut1 -o tut1_outfit.wad --base tut1.wad")]
    Build(BuildCommand),
    /// Copy objects (meshes, links, animations, keyframes, texels; statics' boxes and flags) from
    /// a WAD, Wad2 or TR1–TR4 level into a WAD or Wad2, exactly: each replaces the object of the
    /// same id or joins. Only the samples they use come along, reusing texels DEST has; beside a
    /// WAD written, DEST's .swd, .sam and .sfx are copied.
    #[command(
        after_help = "Example: wadforge copy enemies.wad mylevel.wad -o mylevel_new.wad --only CROCODILE"
    )]
    Copy(CopyCommand),
    /// Remove objects from a WAD or Wad2; meshes, samples and pages nothing uses any more go too,
    /// and the other objects keep their exact content.
    Remove(RemoveCommand),
    /// Check a WAD or level against the rules TRLE and the TR4 engine depend on; each finding
    /// names the object, animation, mesh or polygon and what to do. Exit code 1 when an error is
    /// found, 0 when only warnings and notes (or nothing), 2 when the file cannot be read.
    Check(CheckCommand),
    /// Write a page that shows what a WAD or level holds: a picture of every moveable and static
    /// (Lara dressed), every animation playing, every texture page with its samples outlined.
    /// Open DIR/index.html in any browser; no server needed.
    #[command(
        after_help = "Example: wadforge gallery tut1.wad -o tut1_gallery && xdg-open tut1_gallery/index.html"
    )]
    Gallery(GalleryCommand),
    /// Compare the objects of two WADs or levels, value by value, whatever the file layout: per
    /// object `identical` or each difference (mesh, vertex, normal, polygon, texel, link, animation,
    /// state change, dispatch, command, keyframe, angle) with both values, then a summary line.
    /// Exit code 0 when the objects are the same, 1 when they differ, 2 on an error.
    #[command(after_help = "Example: wadforge diff LEVEL2.PHD rebuilt.wad | tail -n 1")]
    Diff(DiffCommand),
    /// Convert a WAD, TR1–TR4 level or Wad2 into a classic WAD (OUT.wad) or a Tomb Editor Wad2
    /// (OUT.wad2) in one step; what OUT cannot hold is listed (`lost: ...`), or with --strict
    /// refused. A Tomb Engine Wad2's objects move to the TR4 slots of the same names in a WAD.
    #[command(after_help = "Example: wadforge convert TEN_Pulley.wad2 pulley.wad")]
    Convert(ConvertCommand),
}

/// The arguments of `wadforge convert`.
#[derive(Args)]
struct ConvertCommand {
    /// IN OUT: the .wad, TR1–TR4 level or .wad2 to convert (never modified) and the file to write
    /// (.wad or .wad2; never the input). With -o DIR --to KIND: files and folders to convert
    /// (folders walked, files known by their first bytes), each into DIR, the tree mirrored.
    #[arg(required = true, value_name = "PATHS")]
    paths: Vec<PathBuf>,
    /// The file to write, or the folder to write the files of a collection into (new or empty,
    /// see --force).
    #[arg(short, long)]
    out: Option<PathBuf>,
    /// The kind of file to write of each file of a collection.
    #[arg(long, value_parser = convert::output_kinds())]
    to: Option<wadforge_format::OutputKind>,
    /// Write into an output folder that already holds files (same-named files are replaced).
    #[arg(long)]
    force: bool,
    /// Convert only these objects: slot names or ids, comma-separated.
    #[arg(long, value_delimiter = ',')]
    only: Option<Vec<String>>,
    /// The game of a Wad2 written (its ids and W2SuggestedGameVersion), and of a Wad2 read that
    /// names none. Tomb Engine's ids differ from TRLE's and TRNG's: objects move by slot name.
    #[arg(long, value_enum)]
    game: Option<convert::TargetGame>,
    /// NAME=SLOT: the slot an object takes in OUT where its slot name finds none there (names
    /// or ids; repeat or separate with commas), e.g. --as LASER_BEAM=ANIMATING1.
    #[arg(long = "as", value_delimiter = ',', value_name = "NAME=SLOT")]
    as_slots: Vec<String>,
    /// Write nothing, and fail, when OUT cannot hold everything of the input.
    #[arg(long)]
    strict: bool,
    /// No summary and no list of what was lost.
    #[arg(short, long)]
    quiet: bool,
}

/// The arguments of `wadforge info`.
#[derive(Args)]
struct InfoCommand {
    /// The .wad, .wad2 or TR1–TR4 level (.phd, .tr2, .tr4) to read (never modified); several
    /// files, or folders (walked, files known by their first bytes), give a row per file.
    #[arg(required = true)]
    files: Vec<PathBuf>,
    /// Print the summary as JSON instead of text.
    #[arg(long)]
    json: bool,
}

/// The arguments of `wadforge import`.
#[derive(Args)]
struct ImportCommand {
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

/// The arguments of `wadforge build`.
#[derive(Args)]
struct BuildCommand {
    /// The manifest directory (made by `wadforge import`, edited in Blender).
    dir: PathBuf,
    /// The WAD to write; never one of the inputs.
    #[arg(short, long)]
    out: PathBuf,
    /// Start from this WAD: the directory's objects replace the same ids or are added, every
    /// other object keeps its exact content; its .swd, .sam and .sfx are copied beside OUT.
    #[arg(long)]
    base: Option<PathBuf>,
    /// Also write every packed texture page as PNG, and a copy with each sample outlined.
    #[arg(long, value_name = "DIR")]
    pages: Option<PathBuf>,
    /// No progress bar and no summary.
    #[arg(short, long)]
    quiet: bool,
}

/// The arguments of `wadforge copy`.
#[derive(Args)]
struct CopyCommand {
    /// The .wad, .wad2 or TR1–TR4 level to copy from (never modified).
    src: PathBuf,
    /// The WAD or Wad2 to copy into (never modified).
    dest: PathBuf,
    /// The file to write: a Wad2 when it ends in .wad2, else a WAD; never one of the inputs.
    #[arg(short, long)]
    out: PathBuf,
    /// The objects to copy: slot names (of SRC's game) or ids, comma-separated.
    #[arg(long, value_delimiter = ',', required = true)]
    only: Vec<String>,
    /// Put the (single) object into this slot of DEST instead: a TR4 slot name or an id.
    #[arg(long = "as", value_name = "SLOT")]
    as_slot: Option<String>,
    /// No summary.
    #[arg(short, long)]
    quiet: bool,
}

/// The arguments of `wadforge remove`.
#[derive(Args)]
struct RemoveCommand {
    /// The WAD or Wad2 to remove from (never modified).
    wad: PathBuf,
    /// The file to write: a Wad2 when it ends in .wad2, else a WAD; never the input.
    #[arg(short, long)]
    out: PathBuf,
    /// The objects to remove: slot names or ids, comma-separated.
    #[arg(long, value_delimiter = ',', required = true)]
    only: Vec<String>,
    /// No summary.
    #[arg(short, long)]
    quiet: bool,
}

/// The arguments of `wadforge check`.
#[derive(Args)]
struct CheckCommand {
    /// The .wad, TR1–TR4 level or .wad2 to check (never modified); several files, or folders
    /// (walked, files known by their first bytes), give each file's findings and a summary table.
    #[arg(required = true)]
    files: Vec<PathBuf>,
    /// Print the findings as JSON.
    #[arg(long)]
    json: bool,
    /// Recompute what can be recomputed (bounding spheres, keyframe boxes, normal lengths) and
    /// write the result to OUT; nothing else changes.
    #[arg(long, requires = "out")]
    fix: bool,
    /// The repaired file (with --fix): a Wad2 when it ends in .wad2, else a WAD; never the input.
    #[arg(short, long)]
    out: Option<PathBuf>,
}

/// The arguments of `wadforge gallery`.
#[derive(Args)]
struct GalleryCommand {
    /// The .wad, .wad2 or TR1–TR4 level to show (never modified); several files, or folders
    /// (walked, files known by their first bytes), give a gallery each and one index page over
    /// them all, with a filter box.
    #[arg(required = true)]
    files: Vec<PathBuf>,
    /// The directory to write: new or empty (see --force); the gallery of a folder may be
    /// written again into its own directory, and then draws only the files that changed.
    #[arg(short, long)]
    out: PathBuf,
    /// No summary.
    #[arg(short, long)]
    quiet: bool,
    /// Write into a directory that already holds files (same-named files are replaced).
    #[arg(long)]
    force: bool,
}

/// The arguments of `wadforge diff`.
#[derive(Args)]
struct DiffCommand {
    /// The first .wad or TR1–TR4 level (never modified).
    a: PathBuf,
    /// The second .wad or TR1–TR4 level (never modified).
    b: PathBuf,
    /// Print the report as JSON, every difference listed (up to 100 000; more are counted).
    #[arg(long)]
    json: bool,
    /// Normals still equal when each component differs by at most this (16300 = unit length).
    #[arg(long, default_value_t = 0, value_parser = clap::value_parser!(i32).range(0..))]
    normal_tolerance: i32,
    /// Keyframe angles still equal when each differs by at most this (4096 = a turn).
    #[arg(long, default_value_t = 0, value_parser = clap::value_parser!(i32).range(0..))]
    angle_tolerance: i32,
    /// Compare only geometry: meshes (positions, lighting, polygons, textures) and statics' boxes.
    #[arg(long, conflicts_with = "animation")]
    geometry: bool,
    /// Compare only links and animations.
    #[arg(long)]
    animation: bool,
}

fn main() -> ExitCode {
    Cli::parse().command.run()
}

impl Command {
    /// Runs the command; the exit code says how it went.
    fn run(self) -> ExitCode {
        match self {
            Command::Info(c) => finished(info::run(&c.files, c.json)),
            Command::Import(c) => finished(c.run()),
            Command::Build(c) => finished(c.run()),
            Command::Copy(c) => finished(c.run()),
            Command::Remove(c) => finished(c.run()),
            Command::Check(c) => c.run(),
            Command::Gallery(c) => finished(c.run()),
            Command::Diff(c) => c.run(),
            Command::Convert(c) => finished(convert::run(convert::ConvertArgs {
                paths: &c.paths,
                out: c.out.as_deref(),
                to: c.to,
                force: c.force,
                only: c.only,
                game: c.game,
                as_slots: c.as_slots,
                strict: c.strict,
                quiet: c.quiet,
            })),
        }
    }
}

/// The exit code of a command that succeeds or fails.
fn finished(result: anyhow::Result<()>) -> ExitCode {
    match result {
        Ok(()) => ExitCode::SUCCESS,
        // `wadforge info FILE | head`: the reader has what it wanted; end quietly, as Unix tools do.
        Err(e) if is_broken_pipe(&e) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("wadforge: error: {e:#}");
            ExitCode::FAILURE
        }
    }
}

/// The exit code of a command that answers yes or no: 1 yes (an error found, the objects
/// differ), 0 no, 2 could not answer (as `diff` and `cmp` do).
fn answered(result: anyhow::Result<bool>) -> ExitCode {
    match result {
        Ok(true) => ExitCode::from(1),
        Ok(false) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("wadforge: error: {e:#}");
            ExitCode::from(2)
        }
    }
}

impl ImportCommand {
    fn run(self) -> anyhow::Result<()> {
        import::run(import::ImportArgs {
            files: &self.files,
            out: &self.out,
            only: self.only,
            tr_units_per_metre: self.scale,
            separate_gltf: self.gltf,
            quiet: self.quiet,
            force: self.force,
        })
    }
}

impl BuildCommand {
    fn run(self) -> anyhow::Result<()> {
        build::run(build::BuildArgs {
            dir: &self.dir,
            out: &self.out,
            base: self.base.as_deref(),
            pages: self.pages.as_deref(),
            quiet: self.quiet,
        })
    }
}

impl CopyCommand {
    fn run(self) -> anyhow::Result<()> {
        edit::copy(edit::CopyArgs {
            src: &self.src,
            dest: &self.dest,
            out: &self.out,
            only: self.only,
            as_slot: self.as_slot,
            quiet: self.quiet,
        })
    }
}

impl RemoveCommand {
    fn run(self) -> anyhow::Result<()> {
        edit::remove(edit::RemoveArgs {
            wad: &self.wad,
            out: &self.out,
            only: self.only,
            quiet: self.quiet,
        })
    }
}

impl CheckCommand {
    /// Exit code 1 when an error is found, 2 when the file cannot be read.
    fn run(self) -> ExitCode {
        if collection::is_collection(&self.files) {
            if self.fix {
                eprintln!("wadforge: error: --fix repairs one file; name one WAD");
                return ExitCode::from(2);
            }
            return check_collection::run(&self.files, self.json).unwrap_or_else(|e| {
                eprintln!("wadforge: error: {e:#}");
                ExitCode::from(2)
            });
        }
        let found_error = edit::check(edit::CheckArgs {
            file: &self.files[0],
            json: self.json,
            fix: self.fix,
            out: self.out.as_deref(),
        });
        answered(found_error)
    }
}

impl GalleryCommand {
    fn run(self) -> anyhow::Result<()> {
        gallery::run(gallery::GalleryArgs {
            files: &self.files,
            out: &self.out,
            quiet: self.quiet,
            force: self.force,
        })
    }
}

impl DiffCommand {
    /// Exit code 0 when the objects are the same, 1 when they differ, 2 on an error.
    fn run(self) -> ExitCode {
        let scope = match (self.geometry, self.animation) {
            (true, _) => wadforge_diff::Scope::Geometry,
            (_, true) => wadforge_diff::Scope::Animation,
            _ => wadforge_diff::Scope::All,
        };
        let options = wadforge_diff::Options {
            normal_tolerance: self.normal_tolerance,
            angle_tolerance: self.angle_tolerance,
            scope,
        };
        let same = diff::run(diff::DiffArgs {
            a: &self.a,
            b: &self.b,
            json: self.json,
            options,
        });
        answered(same.map(|same| !same))
    }
}

fn is_broken_pipe(e: &anyhow::Error) -> bool {
    e.chain().any(|cause| {
        cause
            .downcast_ref::<std::io::Error>()
            .is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe)
    })
}
