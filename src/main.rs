//! `wadforge`: moves Tomb Raider objects between TRLE WADs and glTF + YAML manifest directories.
//!
//! This file is the command line's map: the parser, the commands (each one module under
//! [`commands`], with its arguments and its work) and what their exit codes mean.

#![warn(clippy::too_many_lines)]

mod collection;
mod commands;
mod edited;
mod input;
mod output;
mod porting;
mod progress;
mod sound_files;

use std::process::ExitCode;

use clap::{Parser, Subcommand};

#[derive(Parser)]
#[command(name = "wadforge", version, about = "Tomb Raider objects between TRLE WADs, Tomb Editor Wad2 files, TR1–TR4 levels and glTF", long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

/// The commands; each one's help is its `Args`'s.
#[derive(Subcommand)]
enum Command {
    Info(commands::info::Args),
    Import(commands::import::Args),
    Build(commands::build::Args),
    Copy(commands::copy::Args),
    Animations(commands::animations::Args),
    Remove(commands::remove::Args),
    Retarget(commands::retarget::Args),
    Check(commands::check::Args),
    Gallery(commands::gallery::Args),
    Diff(commands::diff::Args),
    Convert(commands::convert::Args),
}

fn main() -> ExitCode {
    Cli::parse().command.run()
}

impl Command {
    /// Runs the command; the exit code says how it went.
    fn run(self) -> ExitCode {
        use commands::*;
        match self {
            Command::Info(args) => finished(info::run(&args)),
            Command::Import(args) => finished(import::run(&args)),
            Command::Build(args) => finished(build::run(&args)),
            Command::Copy(args) => finished(copy::run(&args)),
            Command::Animations(args) => finished(animations::run(&args)),
            Command::Remove(args) => finished(remove::run(&args)),
            Command::Retarget(args) => finished(retarget::run(&args)),
            // Exit code 1 when an error is found, 2 when a file cannot be read.
            Command::Check(args) => check::run(&args),
            Command::Gallery(args) => finished(gallery::run(&args)),
            // Exit code 0 when the objects are the same, 1 when they differ, 2 on an error.
            Command::Diff(args) => answered(diff::run(&args).map(|same| !same)),
            Command::Convert(args) => finished(convert::run(&args)),
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

fn is_broken_pipe(e: &anyhow::Error) -> bool {
    e.chain().any(|cause| {
        cause
            .downcast_ref::<std::io::Error>()
            .is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe)
    })
}
