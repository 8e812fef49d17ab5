//! `wadforge gallery`: a WAD, Wad2 or level → a static page with a picture of every object and its
//! animations, and the texture pages (see `wadforge_render::gallery`); of folders or several
//! files, a gallery each and one index page over them (`folder`).

mod folder;

use std::path::{Path, PathBuf};

use anyhow::Context;

use wadforge_render::gallery::{Options, Source, WrittenFile};

use crate::output::prepare_output_dir;

/// Write a page that shows what a WAD, Wad2 or TR1–TR4 level holds: a picture of every
/// moveable and static (Lara dressed), every animation playing, every texture page with its
/// samples outlined; of several files or folders, a page each and one index page over them.
/// Open DIR/index.html in any browser; no server needed.
#[derive(clap::Args)]
#[command(
    after_help = "Example: wadforge gallery tut1.wad -o tut1_gallery && xdg-open tut1_gallery/index.html"
)]
pub struct Args {
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

pub fn run(args: &Args) -> anyhow::Result<()> {
    if crate::collection::is_collection(&args.files) {
        return folder::run(args);
    }
    let file = &args.files[0];
    let objects = crate::input::read(file)?;
    prepare_output_dir(&args.out, args.force)?;
    let file_name = file
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let source = Source {
        wad: &objects.model,
        game: objects.game,
        skewed: &objects.skewed,
        file_name: &file_name,
        description: objects.description(),
    };
    let files = draw_into(&source, &Default::default(), &args.out)
        .with_context(|| format!("cannot make the gallery of {}", file.display()))?;
    if !args.quiet {
        let bytes: usize = files.iter().map(|f| f.bytes).sum();
        eprintln!(
            "gallery of {} ({} moveables, {} statics): {} ({} files, {:.1} MB); open it in a browser",
            file.display(),
            objects.model.moveables.len(),
            objects.model.statics.len(),
            args.out.join(wadforge_render::gallery::INDEX).display(),
            files.len(),
            bytes as f64 / 1e6
        );
    }
    Ok(())
}

/// Draws the gallery of `source` into the folder `out`. Each picture is written as soon as it is
/// drawn; index.html comes last: a page that exists has its pictures.
fn draw_into(source: &Source, options: &Options, out: &Path) -> std::io::Result<Vec<WrittenFile>> {
    let write = |file: wadforge_files::OutputFile| {
        let path = out.join(&file.path);
        wadforge_files::write_atomically(&path, &file.bytes)
            .map_err(|e| std::io::Error::new(e.kind(), format!("cannot write {}: {e}", path.display())))
    };
    wadforge_render::gallery::gallery_into(source, options, &write)
}
