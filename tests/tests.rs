//! The command-line program's end-to-end tests as one binary (one link of the workspace, not one per file):
//! each file of this folder is a module.

mod common;

/// Not a test: `common::measure::measured` runs this binary again as this test (by its exact name,
/// `common::measure::HELPER_TEST`) to run wadforge alone and measure it.
#[test]
fn measure_helper() {
    common::measure::run_as_helper();
}
mod blender_extension;
mod blender_new_animations;
mod blender_new_objects;
mod blender_sound_markers;
mod cli_animations;
mod cli_build;
mod cli_build_games;
mod cli_build_new;
mod cli_check_for;
mod cli_collections;
mod cli_convert_changes;
mod cli_copy_engines;
mod cli_cross_references;
mod cli_diff;
mod cli_edit;
mod cli_engines;
mod cli_foreign_gltf;
mod cli_gallery;
mod cli_import;
mod cli_info;
mod cli_keyframe_layout;
mod cli_level;
mod cli_level_samples;
mod cli_level_sounds;
mod cli_retarget;
mod cli_slots;
mod cli_sound_carry;
mod cli_sounds;
mod cli_tr5;
mod cli_wad2;
mod hostile_copy;
mod hostile_gallery;
mod hostile_gltf_and_images;
mod hostile_manifests;
mod hostile_wad_and_levels;
mod outfit_vertex_order;
mod real_files;
mod real_level;
mod threads;
