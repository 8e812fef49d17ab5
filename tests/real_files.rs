//! Real game files, which cannot be committed: point `WADFORGE_REAL_FILES` at a directory of
//! `.wad` files and TR1–TR4 levels and run
//! `WADFORGE_REAL_FILES=DIR cargo test --release --test tests real_files -- --ignored`.
//! Every WAD must read and write back byte for byte; every file must import and build back to
//! the same content. Ignored by default so that it never passes without files.

use std::path::PathBuf;

use wadforge_fixtures::compare::{differences_except_resampled, Tolerance};
use wadforge_format::catalog::Game;
use wadforge_format::level::SkewedCorners;
use wadforge_format::{wad, OpenError, Opened, Wad};

fn files() -> Vec<PathBuf> {
    let dir = std::env::var_os("WADFORGE_REAL_FILES")
        .expect("set WADFORGE_REAL_FILES to a directory of real files");
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_file())
        .collect();
    files.sort();
    assert!(!files.is_empty(), "no files in WADFORGE_REAL_FILES");
    files
}

/// Import → build; a level's skewed textures are imported with their exact UVs (as the command
/// does) and so come back resampled (a skewed quad stays a quad): their texels are not
/// compared.
fn round_trip(model: &Wad, game: Game, name: &str, skewed: SkewedCorners) -> Vec<String> {
    let dir = tempfile::tempdir().unwrap();
    let mut options = wadforge_importer::ImportOptions::wad(name, 129);
    options.game = game;
    let places: Vec<(usize, usize)> = skewed.iter().map(|(at, _)| at).collect();
    options.skewed = skewed;
    let files = wadforge_importer::import(model, &options, &mut |_, _, _| {}).unwrap();
    wadforge_files::write_directory(&files, dir.path()).unwrap();
    let manifests = wadforge_manifests::load(dir.path()).unwrap();
    let built = wadforge_exporter::build(&manifests, None, &mut |_, _, _| {})
        .unwrap_or_else(|e| panic!("{name}: {e}"));
    differences_except_resampled(model, &built.wad, Tolerance { normal: 1, angle: 0 }, &places)
}

#[test]
#[ignore = "needs real game files: set WADFORGE_REAL_FILES"]
fn real_files_survive_read_write_import_and_build() {
    let mut report = Vec::new();
    for path in files() {
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let bytes = std::fs::read(&path).unwrap();
        let opened = match wadforge_format::open(&bytes) {
            Ok(opened) => opened,
            Err(e @ OpenError::Wad(_)) => panic!("{name}: {e}"),
            Err(e) => {
                report.push(format!("{name}: skipped ({e})"));
                continue;
            }
        };
        let Opened {
            model,
            game,
            layout,
            skewed,
            ..
        } = opened;
        if let Some(layout) = layout {
            assert!(
                wad::write(&model, Some(&layout)).unwrap() == bytes,
                "{name}: not rewritten byte for byte"
            );
        }
        let d = round_trip(&model, game, &name, skewed);
        report.push(format!(
            "{name}: {} moveables, {} statics, {} differences",
            model.moveables.len(),
            model.statics.len(),
            d.len()
        ));
        assert!(d.is_empty(), "{name}: {:#?}", &d[..d.len().min(10)]);
    }
    eprintln!("{}", report.join("\n"));
}
