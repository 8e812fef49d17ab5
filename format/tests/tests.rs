//! The crate's integration tests as one binary (one link of the workspace, not one per file):
//! each file of this folder is a module.

mod common;
mod level_appended;
mod level_samples;
mod level_tr1;
mod level_tr2;
mod level_tr4;
mod level_tr5;
mod wad2_container;
mod wad2_detail;
mod wad2_document;
mod wad2_dressing;
mod wad2_large_textures;
mod wad2_second_reader;
mod wad_encode;
mod wad_errors;
mod wad_mutation;
mod wad_shared_keyframes;
