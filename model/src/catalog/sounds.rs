//! Sound catalogues: what the sound ids of animation commands mean, per game, and which sound
//! of one game is which of another's.
//!
//! The facts are Tomb Editor's (`TombLib/TombLib/Catalogs/Engines/<game>/Sounds.xml`), written
//! down in `{tr1..tr5,ten}_sounds.tsv` beside the slot tables, each documenting its format and
//! its source's version in a `#` header. Each classic game's sound names the Tomb Engine sound it
//! is (the catalogue's `ten=`, or `t5m=` in the TR3 and TR5 catalogues, the same ids): TR1's
//! T-Rex roar, 71, is TEN's 394. TEN's catalogue names TR4's sounds by their TR4 ids and gives
//! every other game's sounds ids of their own, so that one game's id means another game's sound.

use super::{checked_name, number, parse, tables, Game, Parsed, Tables};

/// One catalogued sound.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Sound {
    name: &'static str,
    /// The Tomb Engine sound this one is: `None` where the table has no such column (TEN's),
    /// `Some(None)` where the sound has none.
    ten: Option<Option<u32>>,
}

impl Tables {
    pub(super) fn parsed_sounds(&self) -> &Parsed<u32, Sound> {
        self.sounds.get_or_init(|| {
            parse(self.sources.sounds, "sounds", |f| {
                let (id, name, ten) = match f {
                    [id, name] => (id, name, None),
                    [id, name, ten] => (id, name, Some(ten)),
                    _ => return Err(format!("expected 2 or 3 fields, found {}", f.len())),
                };
                let ten = match ten {
                    None => None,
                    Some(&"-") => Some(None),
                    Some(ten) => Some(Some(number::<u32>(ten)?)),
                };
                let sound = Sound {
                    name: checked_name(name)?,
                    ten,
                };
                Ok((number::<u32>(id)?, sound))
            })
        })
    }
}

fn sound(game: Game, id: u32) -> Option<&'static Sound> {
    tables(game).parsed_sounds().map.get(&id)
}

/// The name of sound `id` of `game` (TR1's 71 is `T_REX_ROAR`, TEN's 394 `TR1_T_REX_ROAR`), if
/// the catalogue knows it.
pub fn sound_name(game: Game, id: u32) -> Option<&'static str> {
    sound(game, id).map(|s| s.name)
}

/// The id of the sound of `game` named `name` (upper case, as the tables spell names); where a
/// game repeats a name (TR4's METAL_SCRAPE_LOOP, 12 and 20), the lowest id.
pub fn sound_id(game: Game, name: &str) -> Option<u32> {
    let sounds = &tables(game).parsed_sounds().map;
    sounds
        .iter()
        .filter(|(_, s)| s.name == name)
        .map(|(&id, _)| id)
        .min()
}

/// The sound of game `to` for sound `id` of game `from`, the one mapping `convert` and `copy`
/// move animations' sound commands by: the same id within a game; a classic sound to TEN by its
/// `ten=`; a TEN sound to a classic game by the lowest sound whose `ten=` names it; classic to
/// classic by the lowest sound of `to` whose `ten=` names the same TEN sound (TR1's T_REX_ROAR,
/// 71, and TR3's, 87, are both TEN's 394). Where that finds none, the sound of the same name.
/// `None` where `to` has no such sound, or `from`'s catalogue does not know `id`.
pub fn sound_in(from: Game, id: u32, to: Game) -> Option<u32> {
    if from == to {
        return Some(id);
    }
    let source = sound(from, id)?;
    let ten = match (from, source.ten) {
        (Game::Ten, _) => Some(id),
        (_, Some(ten)) => ten,
        (_, None) => None,
    };
    let by_ten = ten.and_then(|ten| match to {
        Game::Ten => sound(Game::Ten, ten).map(|_| ten),
        _ => lowest_whose_ten_is(to, ten),
    });
    by_ten.or_else(|| sound_id(to, source.name))
}

/// The lowest sound of classic game `game` whose `ten=` is TEN sound `ten`.
fn lowest_whose_ten_is(game: Game, ten: u32) -> Option<u32> {
    (tables(game).parsed_sounds().map.iter())
        .filter(|(_, s)| s.ten == Some(Some(ten)))
        .map(|(&id, _)| id)
        .min()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The data lines of a table, for counting them apart from the parser.
    fn data_lines(text: &str) -> usize {
        text.lines()
            .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
            .count()
    }

    #[test]
    fn every_sound_line_parses_and_is_counted() {
        for game in Game::ALL {
            let parsed = tables(game).parsed_sounds();
            assert!(
                parsed.problems.is_empty(),
                "{}: {:#?}",
                game.name(),
                parsed.problems
            );
            let lines = data_lines(super::super::sources(game).sounds);
            assert_eq!(parsed.map.len(), lines, "{}", game.name());
            assert!(lines > 0, "{}: an empty table", game.name());
        }
    }

    #[test]
    fn sound_tables_ascend_by_id() {
        // So that a reader finds a sound by scanning, and no id hides a second line.
        for game in Game::ALL {
            let text = super::super::sources(game).sounds;
            let ids: Vec<u32> = (text.lines())
                .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
                .filter_map(|l| l.split('\t').next()?.parse().ok())
                .collect();
            assert!(ids.windows(2).all(|w| w[0] < w[1]), "{}", game.name());
        }
    }

    #[test]
    fn every_ten_id_of_a_classic_sound_is_a_ten_sound() {
        for game in Game::ALL {
            for (id, s) in &tables(game).parsed_sounds().map {
                if let Some(Some(ten)) = s.ten {
                    assert!(
                        sound_name(Game::Ten, ten).is_some(),
                        "{} {id}: {ten}",
                        game.name()
                    );
                }
                assert_eq!(s.ten.is_none(), game == Game::Ten, "{} {id}", game.name());
            }
        }
    }

    #[test]
    fn the_t_rex_roar_of_tr1_is_ten_394() {
        // TR1/Sounds.xml: `<sound id="71" name="T-REX_ROAR" ten="394" />`; TombEngine/Sounds.xml:
        // `<sound id="394" name="TR1_T-REX_ROAR" ten="394" />`.
        assert_eq!(sound_name(Game::Tr1, 71), Some("T_REX_ROAR"));
        assert_eq!(sound_in(Game::Tr1, 71, Game::Ten), Some(394));
        assert_eq!(sound_name(Game::Ten, 394), Some("TR1_T_REX_ROAR"));
        assert_eq!(sound_in(Game::Ten, 394, Game::Tr1), Some(71));
        // TR3/Sounds.xml: `<sound id="87" name="T-REX_ROAR" t5m="394" />`: TR1's roar is TR3's 87.
        assert_eq!(sound_in(Game::Tr1, 71, Game::Tr3), Some(87));
        assert_eq!(sound_in(Game::Tr3, 87, Game::Tr1), Some(71));
        // TR4 has no T-Rex: nothing of TR4's is TEN's 394, and no TR4 sound is named T_REX_ROAR.
        assert_eq!(sound_in(Game::Tr1, 71, Game::Tr4), None);
    }

    #[test]
    fn classic_sounds_move_by_their_ten_ids() {
        // TR1's LARSON_FIRE (77, ten="1132") is TR5's LARSON_GUNS (97, t5m="1132").
        assert_eq!(sound_in(Game::Tr1, 77, Game::Ten), Some(1132));
        assert_eq!(sound_in(Game::Tr1, 77, Game::Tr5), Some(97));
        // TR2's SKIDOO_START (152, ten="622") is TEN's TR2_VEHICLE_SNOWMOBILE_START.
        assert_eq!(sound_in(Game::Tr2, 152, Game::Ten), Some(622));
        assert_eq!(sound_name(Game::Ten, 622), Some("TR2_VEHICLE_SNOWMOBILE_START"));
        // TR4's sounds are TEN's of the same id.
        for id in [0, 12, 181, 369] {
            assert_eq!(sound_in(Game::Tr4, id, Game::Ten), Some(id));
            assert_eq!(sound_in(Game::Ten, id, Game::Tr4), Some(id));
        }
        // Two TR1 sounds are TEN's 423 (EXPLOSION_TNT 99, EXPLOSION 104): back to the lowest.
        assert_eq!(sound_in(Game::Tr1, 104, Game::Ten), Some(423));
        assert_eq!(sound_in(Game::Ten, 423, Game::Tr1), Some(99));
        // TR5's SMASH_GLASS (12, t5m="1092") is no TR4 sound, though TR4 has a sound 12.
        assert_eq!(sound_in(Game::Tr5, 12, Game::Tr4), None);
        assert_eq!(sound_in(Game::Tr5, 12, Game::Ten), Some(1092));
        // Within a game, a sound keeps its id.
        assert_eq!(sound_in(Game::Tr2, 5000, Game::Tr2), Some(5000));
    }

    #[test]
    fn sounds_with_no_ten_id_go_by_name_or_nowhere() {
        // TR5's PIERRE_HIT (92) has no t5m=, and no other game names a sound PIERRE_HIT.
        assert_eq!(sound_name(Game::Tr5, 92), Some("PIERRE_HIT"));
        assert_eq!(sound_in(Game::Tr5, 92, Game::Ten), None);
        // TR5's LARA_NO_FRENCH (348) has none either, but TR4's 348 has that name.
        assert_eq!(sound_in(Game::Tr5, 348, Game::Tr4), Some(348));
        // TR3's WOOD_GATE says t5m="0", a placeholder wadforge reads as none.
        assert_eq!(sound_name(Game::Tr3, 213), Some("WOOD_GATE"));
        assert_eq!(sound_in(Game::Tr3, 213, Game::Ten), None);
        // TEN's own sounds have no classic counterpart.
        assert_eq!(sound_in(Game::Ten, 1150, Game::Tr4), None);
        // Ids no catalogue knows.
        assert_eq!(sound_in(Game::Tr1, 15, Game::Ten), None);
        assert_eq!(sound_in(Game::Ten, 5000, Game::Tr4), None);
    }

    #[test]
    fn sounds_by_name() {
        assert_eq!(sound_id(Game::Tr1, "T_REX_ROAR"), Some(71));
        assert_eq!(
            sound_id(Game::Tr4, "METAL_SCRAPE_LOOP"),
            Some(12),
            "12 and 20: the lowest"
        );
        assert_eq!(sound_name(Game::Tr4, 20), Some("METAL_SCRAPE_LOOP"));
        assert_eq!(
            sound_name(Game::Tr4, 78),
            Some("HECKLER_KOCH_FIRE"),
            "HECKLER&amp;KOCH_FIRE"
        );
        assert_eq!(sound_id(Game::Ten, "TR4_LARA_FOOTSTEPS"), Some(0));
        assert_eq!(sound_id(Game::Tr4, "t_rex_roar"), None, "names are upper case");
        assert_eq!(sound_name(Game::Tr1, 15), None, "TR1 has no sound 15");
    }

    #[test]
    fn sound_counts() {
        let counts: Vec<_> = (Game::ALL.iter())
            .map(|&g| (g.name(), tables(g).parsed_sounds().map.len()))
            .collect();
        assert_eq!(
            counts,
            [
                ("TR1", 197),
                ("TR2", 333),
                ("TR3", 337),
                ("TR4", 370),
                ("TR5", 411),
                ("TEN", 1199),
            ]
        );
    }
}
