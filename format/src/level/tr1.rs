//! TR1 level (`.PHD`, version 0x20): what differs from TR2/TR3 (the shared reader is
//! [`super::tr123`]).
//!
//! - pages: the 8-bit textiles through the palette ([`super::pages`]);
//! - frames: box, root offset, NumValues, then NumValues angle sets ([`super::frames`]);
//! - the demo levels' palette after the sprite sequences is recognised too.

use wadforge_model::catalog::Game;

use super::build::{self, Level};
use super::error::LevelError;
use super::tr123;

pub(crate) fn read(bytes: &[u8]) -> Result<Level, LevelError> {
    // The demo levels put the palette after the sprite sequences; try that order only when the
    // ordinary one fails, and report the ordinary order's error if both do.
    let tables = match tr123::walk(bytes, Game::Tr1, false) {
        Ok(t) => t,
        Err(e) => tr123::walk(bytes, Game::Tr1, true).map_err(|_| e)?,
    };
    build::build(&tables)
}
