//! `wadforge gallery`: a WAD or level → a static page with a picture of every object and its
//! animations, and the texture pages (see `wadforge_render::gallery`).

use std::path::{Path, PathBuf};

use anyhow::Context;

use wadforge_render::gallery::{Options, Source, WrittenFile};

use crate::output::prepare_output_dir;

pub struct GalleryArgs<'a> {
    /// One file, or the files and folders of a collection.
    pub files: &'a [PathBuf],
    pub out: &'a Path,
    pub quiet: bool,
    pub force: bool,
}

pub fn run(args: GalleryArgs) -> anyhow::Result<()> {
    if crate::collection::is_collection(args.files) {
        return crate::gallery_collection::run(&args);
    }
    let file = &args.files[0];
    let objects = crate::input::read(file)?;
    prepare_output_dir(args.out, args.force)?;
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
    let files = draw_into(&source, &Default::default(), args.out)
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
pub fn draw_into(source: &Source, options: &Options, out: &Path) -> std::io::Result<Vec<WrittenFile>> {
    let write = |file: wadforge_files::OutputFile| {
        let path = out.join(&file.path);
        wadforge_files::write_atomically(&path, &file.bytes)
            .map_err(|e| std::io::Error::new(e.kind(), format!("cannot write {}: {e}", path.display())))
    };
    wadforge_render::gallery::gallery_into(source, options, &write)
}
