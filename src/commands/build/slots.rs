//! The game whose slots a built file's ids are: TRLE reads every classic WAD with TR4's
//! catalogue, so a directory imported from a TR1–TR3 level, a TR5 level or a Tomb Engine Wad2
//! is built into a WAD with its objects moved to TR4's slots by the catalogue (`convert`'s move),
//! never under its own game's ids, which name other objects there (TR1's WOLF is 7, TR4's
//! FLARE_ANIM).

use anyhow::bail;
use wadforge_format::catalog::{self, Game};
use wadforge_format::{FileKind, OutputKind};

/// The game whose ids the written file holds: TR4's in a classic WAD, the directory's in a Wad2.
pub fn output_game(dir_game: Game, written: OutputKind) -> Game {
    match written {
        OutputKind::Wad => FileKind::Wad.game(),
        OutputKind::Wad2 => dir_game,
    }
}

/// A base whose objects are numbered by another game than the directory's cannot be patched by
/// id: the same id is another object there.
pub fn refuse_base_of_other_game(
    dir_game: Game,
    base_game: Game,
    base: &std::path::Path,
) -> anyhow::Result<()> {
    if dir_game != base_game {
        bail!(
            "the directory holds {}'s ids and {} {}'s, where the same id is another object; build the \
             directory on its own (wadforge build DIR -o OBJECTS.wad), then put the objects you want into \
             the base with `wadforge copy OBJECTS.wad {} -o OUT --only NAMES`, which moves them by the catalogue",
            dir_game.name(),
            base.display(),
            base_game.name(),
            base.display()
        );
    }
    Ok(())
}

/// Moves the built objects from `from`'s ids into `to`'s (`--as` rules first, then the
/// catalogue; those `to` has no slot for left out) and names them by `to`'s catalogue. Returns
/// the lines of what was left out and what was reshaped; with `strict`, a left-out object fails.
pub fn move_built(
    built: &mut wadforge_exporter::BuildOutput,
    (from, to): (Game, Game),
    as_slots: &[String],
    strict: bool,
) -> anyhow::Result<crate::porting::Moved> {
    let mut model = built.wad.clone();
    let moved = crate::porting::move_to_game(&mut model, from, to, as_slots)?;
    if strict && !moved.left_out.is_empty() {
        bail!(
            "{} cannot hold everything the directory has (--strict):\n  {}",
            to.name(),
            moved.left_out.join("\n  ")
        );
    }
    built.wad = model;
    built.names = built
        .wad
        .moveables
        .iter()
        .map(|m| catalog::moveable_slot(to, m.id))
        .chain(built.wad.statics.iter().map(|s| catalog::static_slot(to, s.id)))
        .collect();
    Ok(moved)
}
