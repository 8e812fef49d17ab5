//! `wadforge`: moves Tomb Raider objects between TRLE WADs and glTF + YAML manifest directories.

mod info;

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
    /// Summarise a WAD: version, texture pages, samples, meshes, and every moveable and static.
    Info {
        /// The .wad file to read (never modified).
        file: PathBuf,
        /// Print the summary as JSON instead of text.
        #[arg(long)]
        json: bool,
    },
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Info { file, json } => info::run(&file, json),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("wadforge: error: {e:#}");
            ExitCode::FAILURE
        }
    }
}
