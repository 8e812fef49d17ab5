//! Manifests a level builder reads at a glance: one line per keyframe box, and a bounded number
//! of lines for everything else of an animation (name, state, timing, speeds, next, state changes
//! with their dispatches, commands, what is kept for exactness).

use wadforge_importer::{import, ImportOptions};

/// Lines of an animation beside its keyframe boxes: with the boxes, a 445-animation TR4 Lara of
/// 4,013 keyframes stays within 4,013 + 17 × 445 = 11,578 lines (the goal: 12,000).
const LINES_PER_ANIMATION: usize = 17;

#[test]
fn a_tr4_laras_manifest_takes_a_line_per_keyframe_and_a_few_per_animation() {
    let model = wadforge_fixtures::tr4_shaped();
    let lara = model.moveables.iter().find(|m| m.id == 0).unwrap();
    let animations = lara.animations.len();
    let keyframes: usize = lara.animations.iter().map(|a| a.keyframes.len()).sum();
    assert_eq!(animations, 445, "the fixture has a TR4 Lara's animations");
    let mut options = ImportOptions::wad("tr4_shaped.wad", 129);
    options.only = Some(vec!["LARA".into()]);
    let files = import(&model, &options, &mut |_, _, _| {}).unwrap();
    let manifest = files
        .iter()
        .find(|f| f.path == "moveables/000_LARA.yaml")
        .expect("LARA's manifest");
    let lines = String::from_utf8_lossy(&manifest.bytes).lines().count();
    eprintln!("LARA: {animations} animations, {keyframes} keyframes, {lines} lines");
    assert!(
        lines <= keyframes + LINES_PER_ANIMATION * animations,
        "{lines} lines for {keyframes} keyframes in {animations} animations"
    );
}
