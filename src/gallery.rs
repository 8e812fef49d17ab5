//! `wadforge gallery`: a WAD or level → a static page with a picture of every object and its
//! animations, and the texture pages (see `wadforge_render::gallery`).

use std::path::Path;

use anyhow::Context;

use crate::output::prepare_output_dir;

pub struct GalleryArgs<'a> {
    pub file: &'a Path,
    pub out: &'a Path,
    pub quiet: bool,
    pub force: bool,
}

pub fn run(args: GalleryArgs) -> anyhow::Result<()> {
    let objects = crate::input::read(args.file)?;
    prepare_output_dir(args.out, args.force)?;
    let file_name = args
        .file
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let source = wadforge_render::gallery::Source {
        wad: &objects.model,
        game: objects.game,
        skewed: &objects.skewed,
        file_name: &file_name,
        description: objects.description(),
    };
    // Each picture is written as soon as it is drawn; index.html comes last: a page that exists
    // has its pictures.
    let write = |file: wadforge_files::OutputFile| {
        let path = args.out.join(&file.path);
        wadforge_files::write_atomically(&path, &file.bytes)
            .map_err(|e| std::io::Error::new(e.kind(), format!("cannot write {}: {e}", path.display())))
    };
    let files = wadforge_render::gallery::gallery_into(&source, &Default::default(), &write)
        .with_context(|| format!("cannot make the gallery of {}", args.file.display()))?;
    if !args.quiet {
        let bytes: usize = files.iter().map(|f| f.bytes).sum();
        eprintln!(
            "gallery of {} ({} moveables, {} statics): {} ({} files, {:.1} MB); open it in a browser",
            args.file.display(),
            objects.model.moveables.len(),
            objects.model.statics.len(),
            args.out.join(wadforge_render::gallery::INDEX).display(),
            files.len(),
            bytes as f64 / 1e6
        );
    }
    Ok(())
}
