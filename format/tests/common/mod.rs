//! Helpers shared by format's test crates.

pub mod wad2_built;
pub mod wad2_walk;
