//! Helpers shared by the edit tests.
#![allow(dead_code)]

use wadforge_diff::{diff, ObjectKind, Options};
use wadforge_format::catalog::Game;
use wadforge_format::{wad, Wad};

pub const REAL_LEVEL: &str = "../../shared/real/LEVEL2_DEMO.PHD";

/// The real TR1 level's objects, or `None` (with a message) where the file is absent.
pub fn real_level() -> Option<Wad> {
    match std::fs::read(REAL_LEVEL) {
        Ok(bytes) => Some(
            wadforge_format::level::read(&bytes)
                .expect("the real level reads")
                .wad,
        ),
        Err(_) => {
            eprintln!("skipped: {REAL_LEVEL} is absent");
            None
        }
    }
}

/// Written canonically and read back, as the CLI writes its outputs.
pub fn written(wad: &Wad) -> Wad {
    wad::read(&wad::write(wad, None).expect("the output writes"))
        .expect("the output reads")
        .0
}

/// The objects of `a` that differ from `b`'s (or that `b` lacks), among those `keep` selects.
pub fn differing(a: &Wad, b: &Wad, keep: impl Fn(ObjectKind, u32) -> bool) -> Vec<String> {
    diff(a, b, &Options::default())
        .objects
        .iter()
        .filter(|o| has(a, o.kind, o.id) && keep(o.kind, o.id) && !o.differences.is_empty())
        .map(|o| {
            format!(
                "{:?} {}: {}",
                o.kind,
                o.id,
                o.differences
                    .iter()
                    .take(3)
                    .map(|d| format!("{} {:?} {} vs {}", d.place, d.what, d.a, d.b))
                    .collect::<Vec<_>>()
                    .join("; ")
            )
        })
        .collect()
}

pub fn has(wad: &Wad, kind: ObjectKind, id: u32) -> bool {
    match kind {
        ObjectKind::Moveable => wad.moveables.iter().any(|m| m.id == id),
        _ => wad.statics.iter().any(|s| s.id == id),
    }
}

pub fn names(list: &[u32]) -> Vec<String> {
    list.iter().map(|id| id.to_string()).collect()
}

pub const TR4: Game = Game::Tr4;
