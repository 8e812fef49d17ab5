//! TR2 (version 0x2D) and TR3 (0xFF080038, 0xFF180038) levels: what differs from TR1 (the
//! shared reader is [`super::tr123`]).
//!
//! - pages: the 16-bit ARGB1555 textiles ([`super::pages`]); the 8-bit textiles and the 8-bit
//!   palette are walked and skipped;
//! - coloured faces index the 16-bit palette with the high byte of their texture word;
//! - frames are the animation's FrameSize words each, with one-axis angle sets
//!   ([`super::frames`]).

use wadforge_model::catalog::Game;

use super::build::{self, Level};
use super::error::LevelError;
use super::tr123;

pub(crate) fn read(bytes: &[u8], game: Game) -> Result<Level, LevelError> {
    build::build(&tr123::walk(bytes, game, false)?)
}
