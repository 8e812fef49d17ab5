//! What `copy`, `remove` and `check --fix` share about the file they edit: reading it (a WAD or
//! a Wad2, not a level), refusing an output that would replace an input, and writing what they
//! made: a classic WAD (OUT.was with the slot names, the edited file's .swd, .sam and .sfx beside
//! it) or, for `-o OUT.wad2`, a Tomb Editor Wad2 that keeps the Tomb Editor detail of every object
//! it came with.

use std::path::Path;

use anyhow::{bail, Context};
use wadforge_edit::Input;
use wadforge_format::level::SkewedCorners;
use wadforge_format::{wad, wad2, FileKind, Opened, OutputKind, Wad};

use crate::output::{
    copy_companions, kept_note, same_file, write_atomically, write_slot_names, write_wad_atomically,
    written_kind,
};

/// A WAD or a Wad2, refusing levels: a level's objects are edited by converting them first.
pub fn read_editable(path: &Path) -> anyhow::Result<Opened> {
    let objects = crate::input::read(path)?;
    if !editable(&objects) {
        bail!(
            "{} is a {}; only a WAD or a Wad2 can be edited (a level can be the source of `wadforge \
             copy`, or `wadforge convert` makes a WAD of it)",
            path.display(),
            objects.description()
        );
    }
    Ok(objects)
}

/// Whether `objects` can be edited: a WAD's or a Wad2's.
pub fn editable(objects: &Opened) -> bool {
    matches!(objects.kind, FileKind::Wad | FileKind::Wad2)
}

/// The objects of a file as the edit crate takes them.
pub fn edit_input(o: &Opened) -> Input<'_> {
    Input {
        wad: &o.model,
        game: o.game,
        starts: o.animation_starts(),
    }
}

/// Refuses an output that is an input, or that shares a name (and so the `.was`, `.swd`, `.sam`
/// and `.sfx`) with one.
pub fn refuse_overwrite(out: &Path, inputs: &[&Path]) -> anyhow::Result<()> {
    crate::output::refuse_companion_extension(out)?;
    for input in inputs {
        let stem = |p: &Path| p.with_extension("");
        if out == *input
            || same_file(out, input)
            || stem(out) == stem(input)
            || (out.exists() && same_file(&stem(out), &stem(input)))
            || same_file(&out.with_extension("was"), &input.with_extension("was"))
        {
            bail!(
                "{} would overwrite the input {} (or the files beside it); write into another file \
                 (wadforge never writes over its inputs)",
                out.display(),
                input.display()
            );
        }
    }
    Ok(())
}

/// How the edited model is written.
pub struct Edited<'a> {
    pub out: &'a Path,
    /// The file that was edited (`copy`'s destination): a WAD's companions go beside a WAD
    /// written, a Wad2's detail into a Wad2 written, and its game names the objects.
    pub base: (&'a Path, &'a Opened),
    /// The Tomb Editor detail of objects copied from a Wad2, under their ids in the output.
    pub copied_detail: Option<wad2::Document>,
    /// What the model could not hold of the objects written, from Wad2 inputs: a classic WAD
    /// lists it as lost.
    pub model_losses: Vec<String>,
    pub quiet: bool,
}

impl Edited<'_> {
    /// Writes `model` (everything checked and assembled before anything is written); returns the
    /// size of the file written.
    pub fn write(&self, model: &Wad) -> anyhow::Result<u64> {
        if written_kind(self.out) == OutputKind::Wad2 {
            return self.write_wad2(model);
        }
        let encoded = wad::encode(model, None).context("the result cannot be written as a WAD")?;
        write_wad_atomically(self.out, &encoded)?;
        write_slot_names(self.out, model)?;
        copy_companions(self.base.0, self.out)?;
        if !self.quiet {
            for loss in &self.model_losses {
                eprintln!("lost: {loss}");
            }
        }
        Ok(encoded.size())
    }

    fn write_wad2(&self, model: &Wad) -> anyhow::Result<u64> {
        let (base_path, base) = self.base;
        // Skewed corners are kept by mesh number, which editing changes: a Wad2 base gives
        // back the exact UVs of every polygon it still holds as it was.
        let mut made = wad2::from_model(model, &SkewedCorners::new(), base.game)
            .context("the result cannot be written as a Wad2")?;
        let mut kept = Vec::new();
        let base_name = base_path.display().to_string();
        if let Some(document) = &base.wad2 {
            kept.push((
                wad2::keep_detail(&mut made.document, document),
                base_name.as_str(),
            ));
        }
        if let Some(copied) = &self.copied_detail {
            kept.push((
                wad2::keep_object_detail(&mut made.document, copied),
                "the Wad2 copied from",
            ));
        }
        // The exact UVs the passes did not give back stay as the model rounded them.
        let rounded = wad2::uvs_rounded(kept.iter().map(|(k, _)| k.uv_rounding.as_slice()));
        let bytes = wad2::write_document(&made.document);
        write_atomically(self.out, &bytes)?;
        // The base's sounds (its XML catalogue, when both are Wad2s) stay beside it.
        copy_companions(base_path, self.out)?;
        if !self.quiet {
            for loss in &made.losses {
                eprintln!("lost: {loss}");
            }
            for (kept, from) in kept.iter().filter(|(k, _)| k.objects > 0) {
                eprintln!("note: {}", kept_note(kept, from));
            }
            for object in &rounded {
                eprintln!("changed: {}", object.line(base.game));
            }
        }
        Ok(bytes.len() as u64)
    }
}
