//! `wadforge`: moves Tomb Raider objects between TRLE WADs and glTF + YAML manifest directories.

mod build;
mod import;
mod info;
mod input;
mod output;
mod progress;

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};

#[derive(Parser)]
#[command(name = "wadforge", version, about = "Tomb Raider objects between TRLE WADs and glTF", long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Summarise a WAD or level: version, texture pages, samples, meshes, every moveable and static.
    Info {
        /// The .wad (or TR1 .phd level) file to read (never modified).
        file: PathBuf,
        /// Print the summary as JSON instead of text.
        #[arg(long)]
        json: bool,
    },
    /// Turn every moveable and static of a WAD (or a TR1 level) into a manifest directory:
    /// rigged, animated, textured glTF files that Blender opens as they are, plus YAML manifests.
    Import {
        /// The .wad or TR1 .phd file to import (never modified).
        file: PathBuf,
        /// The manifest directory to write: new or empty (see --force).
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
    },
    /// Turn a manifest directory back into a WAD that TRLE loads (and OUT.was with the names).
    Build {
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
    },
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Info { file, json } => info::run(&file, json),
        Command::Build {
            dir,
            out,
            base,
            pages,
            quiet,
        } => build::run(build::BuildArgs {
            dir: &dir,
            out: &out,
            base: base.as_deref(),
            pages: pages.as_deref(),
            quiet,
        }),
        Command::Import {
            file,
            out,
            only,
            scale,
            gltf,
            quiet,
            force,
        } => import::run(import::ImportArgs {
            file: &file,
            out: &out,
            only,
            tr_units_per_metre: scale,
            separate_gltf: gltf,
            quiet,
            force,
        }),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("wadforge: error: {e:#}");
            ExitCode::FAILURE
        }
    }
}
