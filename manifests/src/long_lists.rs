//! The text of an animation whose lists are long, made a piece at a time: the value tree of one
//! animation of 100 000 exact angle sets took 160 MB (1.6 kB an entry), of 65 535 dispatches 60
//! MB, while its file names an entry with a few bytes. The same text as the whole tree gives.
//!
//! A list of more than [`LONG`] items never fits on one line, so the compact writer puts it in
//! block style, one item after another under its key at the key's indent, each item laid out on
//! its own: its text is the text of its items, made a few at a time. The animation is written
//! with each long list cut to its first item (so that its key stays where it is), and the block
//! of that key is then replaced by the text of the whole list.

use crate::emit;
use crate::schema::{AnimationManifest, BoxBounds, StateChangeManifest};

/// Lists longer than this are made a piece at a time (and in pieces of this many items): 64
/// items take at least 190 characters on one line, past the writer's width.
const LONG: usize = 64;

/// The text of `animation` as an item of a moveable's animations (at indent 2).
pub(crate) fn animation(animation: &AnimationManifest) -> Option<String> {
    let kept = &animation.kept_exactly;
    let long_changes = animation.state_changes.len() > LONG
        || animation.state_changes.iter().any(|c| c.dispatches.len() > LONG);
    let long_commands = animation.commands.len() > LONG;
    let long_angles = kept.exact_angles.len() > LONG;
    // Keyframe boxes (most of a manifest's text) are written straight, not through the value tree,
    // whenever they take lines of their own.
    let long_boxes = !boxes_fit_on_a_line(&kept.keyframe_boxes);
    if !(long_changes || long_commands || long_angles || long_boxes) {
        return emit::sequence(&super::value_tree(std::slice::from_ref(animation)), 2);
    }
    // Each long list cut to its first item.
    let cut = |long: bool, len: usize| if long { len.min(1) } else { len };
    let mut shell = animation_without_lists(animation);
    shell.commands = animation.commands[..cut(long_commands, animation.commands.len())].to_vec();
    shell.kept_exactly = crate::schema::KeptExactly {
        pose_fingerprint: kept.pose_fingerprint.clone(),
        exact_angles: kept.exact_angles[..cut(long_angles, kept.exact_angles.len())].to_vec(),
        keyframe_boxes: kept.keyframe_boxes[..cut(long_boxes, kept.keyframe_boxes.len())].to_vec(),
        undecodable_keyframes: kept.undecodable_keyframes.clone(),
        no_keyframes: kept.no_keyframes,
    };
    shell.state_changes = match long_changes {
        true => animation
            .state_changes
            .iter()
            .take(1)
            .map(|change| StateChangeManifest {
                state: change.state.clone(),
                dispatches: change.dispatches.iter().take(1).cloned().collect(),
            })
            .collect(),
        false => animation.state_changes.clone(),
    };
    let mut text = emit::sequence(&super::value_tree(std::slice::from_ref(&shell)), 2)?;
    if long_changes {
        let changes: Option<String> = animation.state_changes.iter().map(state_change).collect();
        text = with_list(&text, 4, "state_changes", &changes?)?;
    }
    if long_commands {
        text = with_list(&text, 4, "commands", &in_pieces(&animation.commands, 4)?)?;
    }
    if long_angles {
        text = with_list(&text, 6, "exact_angles", &in_pieces(&kept.exact_angles, 6)?)?;
    }
    if long_boxes {
        text = with_list(&text, 6, "keyframe_boxes", &boxes_block(&kept.keyframe_boxes, 6))?;
    }
    Some(text)
}

/// `animation`'s scalars, without its lists.
fn animation_without_lists(animation: &AnimationManifest) -> AnimationManifest {
    AnimationManifest {
        name: animation.name.clone(),
        state: animation.state.clone(),
        frame_duration: animation.frame_duration,
        first_frame: animation.first_frame,
        frames: animation.frames,
        speed: animation.speed,
        acceleration: animation.acceleration,
        lateral_speed: animation.lateral_speed,
        lateral_acceleration: animation.lateral_acceleration,
        next: animation.next.clone(),
        state_changes: Vec::new(),
        commands: Vec::new(),
        undecodable: animation.undecodable.clone(),
        kept_exactly: Default::default(),
    }
}

/// The text of `change` as an item of an animation's state changes (at indent 4).
fn state_change(change: &StateChangeManifest) -> Option<String> {
    if change.dispatches.len() <= LONG {
        return emit::sequence(&super::value_tree(std::slice::from_ref(change)), 4);
    }
    let shell = StateChangeManifest {
        state: change.state.clone(),
        dispatches: change.dispatches[..1].to_vec(),
    };
    let text = emit::sequence(&super::value_tree(std::slice::from_ref(&shell)), 4)?;
    with_list(&text, 6, "dispatches", &in_pieces(&change.dispatches, 6)?)
}

/// The text of `items` as a list under a key at `indent`, made [`LONG`] items at a time.
fn in_pieces<T: serde::Serialize>(items: &[T], indent: usize) -> Option<String> {
    items
        .chunks(LONG)
        .map(|piece| emit::sequence(&super::value_tree(piece), indent))
        .collect()
}

/// A keyframe box as the compact writer writes it in flow style.
fn box_text(b: &BoxBounds) -> String {
    let [a, c, e] = b.min;
    let [f, g, h] = b.max;
    format!("{{min: [{a}, {c}, {e}], max: [{f}, {g}, {h}]}}")
}

/// Whether the compact writer puts `boxes` on the line of their key (at indent 6, under
/// `kept_exactly:`), as `[{min: …}, …]`.
fn boxes_fit_on_a_line(boxes: &[BoxBounds]) -> bool {
    let mut text = String::from("[");
    for (i, b) in boxes.iter().enumerate() {
        if i > 0 {
            text.push_str(", ");
        }
        text.push_str(&box_text(b));
        if text.len() > emit::WIDTH {
            return false;
        }
    }
    text.push(']');
    emit::fits_beside("      keyframe_boxes:", &text)
}

/// `boxes` as the compact writer writes them in block style at `indent`: an item a line (a box
/// always fits on one).
fn boxes_block(boxes: &[BoxBounds], indent: usize) -> String {
    let pad = " ".repeat(indent);
    boxes
        .iter()
        .map(|b| format!("{pad}- {}\n", box_text(b)))
        .collect()
}

/// `text` with the block of `key` (at `indent` spaces: its line and the lines under it, deeper or
/// items of its list) replaced by the key over `items`; `None` when `text` has no such key.
fn with_list(text: &str, indent: usize, key: &str, items: &str) -> Option<String> {
    let pad = " ".repeat(indent);
    let start = text.find(&format!("\n{pad}{key}:"))? + 1;
    let mut end = start + text[start..].find('\n')? + 1;
    while end < text.len() {
        let line = &text[end..];
        let deeper = line.starts_with(&format!("{pad} "));
        let item = line.starts_with(&format!("{pad}- "));
        if !(deeper || item) {
            break;
        }
        end += line.find('\n')? + 1;
    }
    Some(format!("{}{pad}{key}:\n{items}{}", &text[..start], &text[end..]))
}

#[cfg(test)]
mod tests {
    use crate::{write_object_manifest, write_yaml, ObjectManifest};

    /// A moveable manifest of one animation whose lists hold `n` items each.
    fn manifest(n: usize) -> ObjectManifest {
        let list = |item: &dyn Fn(usize) -> String| (0..n).map(item).collect::<Vec<_>>().join(", ");
        let dispatches = list(&|i| format!("{{frames: [0, {i}], animation: 000_RUN, frame: {}}}", i % 3));
        let commands = list(&|i| format!("{{sound: {{frame: {i}, id: 1, on: land}}}}"));
        let angles = list(&|i| format!("{{keyframe: {i}, mesh: 0, x: 1024, y: 4, z: 200}}"));
        let boxes = list(&|i| format!("{{min: [-{i}, -893, -123], max: [91, {i}, 146]}}"));
        let yaml = format!(
            "moveable:
  id: 1
  slot: PISTOLS_ANIM
  gltf: 001_PISTOLS_ANIM.glb
  bones:
  - {{name: mesh_00, sphere: {{center: [0, 95, 0], radius: 104, flag: 0}}, lighting: normals}}
  - {{name: mesh_01, sphere: {{center: [0, 95, 0], radius: 104, flag: 0}}, lighting: normals}}
  animations:
  - name: 000_RUN
    state: {{id: 1, name: RUN_FORWARD}}
    frame_duration: 1
    frames: 21
    speed: 50.0
    acceleration: 0.0
    next: {{animation: 000_RUN, frame: 0}}
    state_changes:
    - state: {{id: 0, name: WALK_FORWARD}}
      dispatches: [{dispatches}]
    - state: {{id: 2}}
      dispatches: [{{frames: [0, 1], animation: 000_RUN, frame: 0}}]
    commands: [{commands}]
    kept_exactly:
      pose_fingerprint: 3578e7410376a9a5
      exact_angles: [{angles}]
      keyframe_boxes: [{boxes}]
"
        );
        serde_yaml::with::singleton_map_recursive::deserialize(serde_yaml::Deserializer::from_str(&yaml))
            .unwrap()
    }

    #[test]
    fn an_animation_of_long_lists_made_a_piece_at_a_time_reads_as_the_whole() {
        for n in [1, 2, 64, 65, 200] {
            let manifest = manifest(n);
            let ObjectManifest::Moveable(m) = &manifest else {
                unreachable!()
            };
            assert!(
                super::animation(&m.animations[0]).is_some(),
                "{n} items: the compact writer writes it"
            );
            assert_eq!(
                write_object_manifest(&manifest, "header"),
                write_yaml(&manifest, "header"),
                "{n} items"
            );
        }
    }
}
