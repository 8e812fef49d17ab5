//! Writing outputs safely: every file is written atomically (`wadforge_files`), errors name the
//! file, a directory that already holds files is only written into when the user says so, and
//! what is written beside a WAD (its slot names, the base's sprites and sounds) never replaces it.

use std::path::Path;

use anyhow::{bail, Context};
use wadforge_format::{wad2, OutputKind};

/// Writes `bytes` to `path` atomically (temp file in the same directory, then rename).
pub fn write_atomically(path: &Path, bytes: &[u8]) -> anyhow::Result<()> {
    wadforge_files::write_atomically(path, bytes).with_context(|| format!("cannot write {}", path.display()))
}

/// Writes the WAD `encoded` to `path` atomically, part by part (never whole in memory again).
pub fn write_wad_atomically(path: &Path, encoded: &wadforge_format::wad::EncodedWad) -> anyhow::Result<()> {
    wadforge_files::write_atomically_with(path, |file| encoded.write_to(file))
        .with_context(|| format!("cannot write {}", path.display()))
}

/// Writes `OUT.was` beside the WAD `out`: its objects' TR4 slot names, a line each, as TRLE
/// reads them.
pub fn write_slot_names(out: &Path, model: &wadforge_format::Wad) -> anyhow::Result<()> {
    use wadforge_format::catalog::{moveable_slot, static_slot, Game};
    let names: String = model
        .moveables
        .iter()
        .map(|m| moveable_slot(Game::Tr4, m.id))
        .chain(model.statics.iter().map(|s| static_slot(Game::Tr4, s.id)))
        .map(|n| format!("{n}\r\n"))
        .collect();
    write_atomically(&out.with_extension("was"), names.as_bytes())
}

/// The kind of file `out` is written as by `build`, `copy`, `remove` and `check --fix`: a Wad2
/// when it ends in .wad2, else a classic WAD.
pub fn written_kind(out: &Path) -> OutputKind {
    OutputKind::from_path(out).unwrap_or(OutputKind::Wad)
}

/// Checks that `dir` is new or empty, or that the user allowed writing into it.
pub fn prepare_output_dir(dir: &Path, force: bool) -> anyhow::Result<()> {
    match std::fs::read_dir(dir) {
        Ok(mut entries) => {
            if entries.next().is_some() && !force {
                bail!(
                    "{} already exists and is not empty; choose a new directory, or pass --force to write into it \
                     (files of the same name are replaced, others are left alone)",
                    dir.display()
                );
            }
            Ok(())
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotADirectory => {
            bail!("{} exists and is not a directory", dir.display())
        }
        Err(e) => Err(e).with_context(|| format!("cannot read {}", dir.display())),
    }
}

/// Extensions of the files written beside an output WAD (its slot names; the base's sprites and
/// sounds).
const BESIDE_THE_WAD: [&str; 4] = ["was", "swd", "sam", "sfx"];

/// Refuses an output WAD named with the extension of a file written beside it: `-o out.sfx`
/// would have the WAD written, then the sounds written over it.
pub fn refuse_companion_extension(out: &Path) -> anyhow::Result<()> {
    let ext = out.extension().map(|e| e.to_string_lossy().to_ascii_lowercase());
    if let Some(ext) = ext.filter(|e| BESIDE_THE_WAD.contains(&e.as_str())) {
        bail!(
            "{} ends in .{ext}, the name of a file wadforge writes beside the WAD (.was, .swd, .sam, .sfx); \
             name the WAD .wad",
            out.display()
        );
    }
    Ok(())
}

/// Whether `a` and `b` name the same existing file (through links, `./`, `..`).
pub fn same_file(a: &Path, b: &Path) -> bool {
    match (a.canonicalize(), b.canonicalize()) {
        (Ok(a), Ok(b)) => a == b,
        _ => false,
    }
}

/// Copies `base`'s sprite and sound files (`.swd`, `.sam`, `.sfx` beside a WAD; a Wad2's `.xml`
/// beside a Wad2), where it has them, beside `out`
/// so that TRLE finds them.
pub fn copy_companions(base: &Path, out: &Path) -> anyhow::Result<()> {
    // A Wad2's sounds are Tomb Editor's XML catalogue beside it; a WAD's, TRLE's files.
    let exts: &[&str] = match (written_kind(base), written_kind(out)) {
        (OutputKind::Wad2, OutputKind::Wad2) => &["xml"],
        (_, OutputKind::Wad2) => &[],
        _ => &["swd", "sam", "sfx"],
    };
    for &ext in exts {
        let from = base.with_extension(ext);
        let to = out.with_extension(ext);
        if from.is_file() && !same_file(&from, &to) {
            let data = wadforge_files::input::read(&from)
                .with_context(|| format!("cannot read {}", from.display()))?;
            write_atomically(&to, &data)?;
        }
    }
    Ok(())
}

/// What a Wad2 written kept of the Tomb Editor detail of `from`.
pub fn kept_note(kept: &wad2::KeptDetail, from: &str) -> String {
    let mut note = format!(
        "kept the Tomb Editor detail of {} objects from {from}",
        kept.objects
    );
    if kept.edited_meshes + kept.edited_animations > 0 {
        note.push_str(&format!(
            " ({} edited meshes and {} edited animations keep it where the edit left them as they were)",
            kept.edited_meshes, kept.edited_animations
        ));
    }
    for dropped in &kept.dropped {
        note.push_str(&format!("; dropped: {dropped}"));
    }
    note
}
