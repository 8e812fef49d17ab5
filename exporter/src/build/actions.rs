//! The glTF's actions → the moveable's list of animations, as build makes it: each manifest
//! animation takes its length from its action (and any wadforge properties the action sets), an
//! action that names no manifest animation becomes a new animation, appended in the order of
//! the actions' names, and a manifest animation with no action is an error. An action import
//! wrote (the scene extras list them) whose animation was deleted from the manifest is left out.
//!
//! Build never writes into its input directory, so what a new action brings lives in the glTF
//! (its animation and the action's custom properties in its `extras`), which the extension's
//! export writes and build reads at every build; importing the built file writes it into the
//! manifest like any other animation.

use std::collections::{BTreeMap, HashSet};

use wadforge_format::Limits;
use wadforge_manifests::{
    AnimationManifest, AnimationName, AnimationTarget, CommandManifest, KeptExactly, MoveableManifest,
    SoundPlace, StateRef,
};

use super::action_properties::{self, ActionProperties, SoundMarker, States};
use crate::error::{BuildError, Place};
use crate::input::{Animation, Scene};
use crate::keyframes::{frames_of_action, keyframe_count};

/// Where an object's errors point, and what build may sample for its input's size.
pub(super) struct Context<'a> {
    /// The manifest file (an animation it names) and the glTF file (an action's properties).
    pub manifest: &'a Place,
    pub gltf: &'a Place,
    pub states: States,
    pub input_bytes: u64,
}

/// `m` as the glTF's actions make it, and what build tells of it.
pub(super) fn with_actions(
    m: &MoveableManifest,
    scene: &Scene,
    cx: &Context,
) -> Result<(MoveableManifest, Vec<String>), BuildError> {
    let mut actions: BTreeMap<&str, &Animation> = BTreeMap::new();
    for a in &scene.animations {
        actions.entry(a.name.as_str()).or_insert(a);
    }
    let mut out = m.clone();
    let mut notes = Vec::new();
    for a in &mut out.animations {
        match actions.remove(a.name.as_str()) {
            Some(action) => notes.extend(follow_action(a, action, cx)?),
            None if a.kept_exactly.undecodable_keyframes.is_some() || a.kept_exactly.no_keyframes => {}
            None => return Err(without_action(m, a, cx)),
        }
    }
    // An action import wrote whose animation the manifest no longer names was deleted there.
    let (deleted, new): (Vec<&Animation>, Vec<&Animation>) = actions
        .into_values()
        .partition(|a| scene.imported_actions.contains(&a.name));
    notes.extend(deleted.iter().map(|a| {
        format!(
            "{}: action {} is left out: its animation was deleted from the manifest (delete the action \
             in Blender too; to keep it as a new animation, rename the action)",
            cx.manifest.object, a.name
        )
    }));
    let first_new = out.animations.len();
    for action in new {
        let a = new_animation(&out, action, cx)?;
        out.animations.push(a);
    }
    check_targets(&out, first_new, cx)?;
    check_budget(&out, scene, cx)?;
    notes.extend(new_notes(&out, first_new, &cx.manifest.object));
    Ok((out, notes))
}

/// The error for manifest animation `a`, which no action of the glTF names.
fn without_action(m: &MoveableManifest, a: &AnimationManifest, cx: &Context) -> BuildError {
    cx.gltf.error(
        Some(format!("animation {}", a.name)),
        format!(
            "the glTF has no animation of this name (no action `{name}` on {slot}'s armature), so it would \
             build with no keyframes; delete it from the animations of {manifest}, or make an action named \
             `{name}` in Blender (keep an imported action's name)",
            name = a.name,
            slot = m.slot,
            manifest = cx.manifest.file.display(),
        ),
    )
}

/// Manifest animation `a` with what its action sets: its properties, and `frames` after the
/// action's length; a note for what changed.
fn follow_action(
    a: &mut AnimationManifest,
    action: &Animation,
    cx: &Context,
) -> Result<Vec<String>, BuildError> {
    let name = a.name.clone();
    let at = || Some(format!("animation {name}"));
    let properties = action_properties::read(&action.name, &action.properties, cx.states)
        .map_err(|e| cx.gltf.error(at(), e))?;
    let mut notes = Vec::new();
    if properties.any() {
        notes.push(format!(
            "{}: animation {} takes the wadforge properties its action sets over the manifest's",
            cx.manifest.object, a.name
        ));
        apply(a, properties);
    }
    let count = keyframe_count(action, a.frame_duration).map_err(|e| cx.gltf.error(at(), e))?;
    let imported = a.kept_exactly.keyframe_boxes.len();
    let frames =
        frames_of_action(count, a.frame_duration, a.frames, imported).map_err(|e| cx.gltf.error(at(), e))?;
    if frames != a.frames {
        notes.push(format!(
            "{}: animation {} follows its action's length: {count} keyframes, frames {} → {frames}",
            cx.manifest.object, a.name, a.frames
        ));
        a.frames = frames;
    }
    Ok(notes)
}

/// The properties an action sets over `a`'s; its state changes are added to `a`'s.
fn apply(a: &mut AnimationManifest, p: ActionProperties) {
    if let Some(state) = p.state {
        a.state = state;
    }
    a.frame_duration = p.frame_duration.unwrap_or(a.frame_duration);
    a.speed = p.speed.unwrap_or(a.speed);
    a.acceleration = p.acceleration.unwrap_or(a.acceleration);
    a.lateral_speed = p.lateral_speed.unwrap_or(a.lateral_speed);
    a.lateral_acceleration = p.lateral_acceleration.unwrap_or(a.lateral_acceleration);
    if let Some(next) = p.next {
        a.next = AnimationTarget {
            animation: AnimationName::Name(next),
            frame: p.next_frame.unwrap_or(0),
        };
    } else if let Some(frame) = p.next_frame {
        a.next.frame = frame;
    }
    for change in p.state_changes {
        match a.state_changes.iter_mut().find(|c| c.state.id == change.state.id) {
            Some(c) => c.dispatches.extend(change.dispatches),
            None => a.state_changes.push(change),
        }
    }
    if let Some(markers) = p.sounds {
        a.commands = with_sounds(&a.commands, &markers);
    }
}

/// `commands` with their sound commands replaced by `markers`' sounds, where the first sound
/// command was (so an unmoved marker leaves the list as it was). Each takes the land/water place
/// of a replaced command of the same sound, in order (a marker moved in Blender keeps it), else
/// plays anywhere.
fn with_sounds(commands: &[CommandManifest], markers: &[SoundMarker]) -> Vec<CommandManifest> {
    let mut places: Vec<(u16, SoundPlace)> = commands
        .iter()
        .filter_map(|c| match *c {
            CommandManifest::Sound { id, on, .. } => Some((id, on)),
            _ => None,
        })
        .collect();
    let sounds: Vec<CommandManifest> = markers
        .iter()
        .map(|m| {
            let on = match places.iter().position(|&(id, _)| id == m.id) {
                Some(i) => places.remove(i).1,
                None => SoundPlace::Anywhere,
            };
            CommandManifest::Sound {
                frame: m.frame,
                id: m.id,
                on,
            }
        })
        .collect();
    let is_sound = |c: &CommandManifest| matches!(c, CommandManifest::Sound { .. });
    let at = commands.iter().position(is_sound).unwrap_or(commands.len());
    let mut out: Vec<CommandManifest> = commands[..at].iter().filter(|c| !is_sound(c)).cloned().collect();
    out.extend(sounds);
    out.extend(commands[at..].iter().filter(|c| !is_sound(c)).cloned());
    out
}

/// The animation of an action no manifest animation names: its properties, or the defaults (a
/// state no other animation of the object has, itself next, no speed, one keyframe a tick), its
/// frames after its length, first on the timeline after every animation before it.
fn new_animation(
    m: &MoveableManifest,
    action: &Animation,
    cx: &Context,
) -> Result<AnimationManifest, BuildError> {
    let at = || Some(format!("animation {} (a new action)", action.name));
    if action.name.trim().is_empty() {
        return Err(cx.gltf.error(
            None,
            "an animation of the glTF has no name; name its action in Blender",
        ));
    }
    let p = action_properties::read(&action.name, &action.properties, cx.states)
        .map_err(|e| cx.gltf.error(at(), e))?;
    let frame_duration = p.frame_duration.unwrap_or(1);
    let count = keyframe_count(action, frame_duration).map_err(|e| cx.gltf.error(at(), e))?;
    let frames = frames_of_action(count, frame_duration, 1, 0).map_err(|e| cx.gltf.error(at(), e))?;
    let end = timeline_end(m);
    let first_frame = u16::try_from(end).map_err(|_| {
        cx.gltf.error(
            at(),
            format!("the animations before it end at frame {end}, past the timeline's 65535; shorten them"),
        )
    })?;
    let state = p.state.unwrap_or_else(|| StateRef {
        id: own_state(m),
        name: None,
    });
    Ok(AnimationManifest {
        name: action.name.clone(),
        state,
        frame_duration,
        first_frame: Some(first_frame),
        frames,
        speed: p.speed.unwrap_or(0.0),
        acceleration: p.acceleration.unwrap_or(0.0),
        lateral_speed: p.lateral_speed.unwrap_or(0.0),
        lateral_acceleration: p.lateral_acceleration.unwrap_or(0.0),
        next: AnimationTarget {
            animation: AnimationName::Name(p.next.unwrap_or_else(|| action.name.clone())),
            frame: p.next_frame.unwrap_or(0),
        },
        state_changes: p.state_changes,
        commands: with_sounds(&[], p.sounds.as_deref().unwrap_or_default()),
        undecodable: None,
        kept_exactly: KeptExactly::default(),
    })
}

/// The first frame after every animation of `m` on its timeline (first frames as `states`
/// numbers them: given, or after the previous animation).
fn timeline_end(m: &MoveableManifest) -> u32 {
    let (mut follow, mut end) = (0u32, 0u32);
    for a in &m.animations {
        let start = a.first_frame.map_or(follow, u32::from);
        follow = start + u32::from(a.frames);
        end = end.max(follow);
    }
    end
}

/// A state none of `m`'s animations has: one past the largest (a state an engine routine may
/// know by number is less likely there than in a gap).
fn own_state(m: &MoveableManifest) -> u16 {
    let largest = m.animations.iter().map(|a| a.state.id).max();
    largest.map_or(0, |s| s.saturating_add(1))
}

/// Every animation name an action's properties give (next, dispatches) names an animation of
/// `m`, for the animations from `first_new` on and those whose actions set properties.
fn check_targets(m: &MoveableManifest, first_new: usize, cx: &Context) -> Result<(), BuildError> {
    let names: HashSet<&str> = m.animations.iter().map(|a| a.name.as_str()).collect();
    for a in &m.animations[first_new..] {
        let targets = std::iter::once(&a.next.animation).chain(
            a.state_changes
                .iter()
                .flat_map(|c| c.dispatches.iter().map(|d| &d.animation)),
        );
        for target in targets {
            if let AnimationName::Name(name) = target {
                if !names.contains(name.as_str()) {
                    return Err(cx.gltf.error(
                        Some(format!("animation {} (a new action)", a.name)),
                        format!(
                            "action `{}` names animation `{name}` ({} or {}), which {} has not; name one of its \
                             animations or actions, e.g. `{}`",
                            a.name,
                            action_properties::NEXT,
                            action_properties::STATE_CHANGES,
                            cx.manifest.object,
                            m.animations[0].name
                        ),
                    ));
                }
            }
        }
    }
    Ok(())
}

/// The keyframe bones the object's actions ask for, within what its input's size allows (an
/// action's length is the glTF's word now, as the manifest's `frames` are for the whole build in
/// `keyframe_budget`).
fn check_budget(m: &MoveableManifest, scene: &Scene, cx: &Context) -> Result<(), BuildError> {
    let per_keyframe = m.bones.len() as u64 + 1;
    let mut asked = 0u64;
    for a in &m.animations {
        let Some(action) = scene.animations.iter().find(|x| x.name == a.name) else {
            continue;
        };
        let count = keyframe_count(action, a.frame_duration).unwrap_or(0) as u64;
        asked = asked.saturating_add(count.saturating_mul(per_keyframe));
        if let Err(too_much) = Limits::DEFAULT.keyframe_bones.check(asked, cx.input_bytes) {
            return Err(cx.gltf.error(
                Some(format!("animation {}", a.name)),
                format!("the actions up to this one ask for {too_much}"),
            ));
        }
    }
    Ok(())
}

/// What build tells of the new animations from `first_new` on: each, and those no other
/// animation's next animation or state change leads to (the game never plays them).
fn new_notes(m: &MoveableManifest, first_new: usize, object: &str) -> Vec<String> {
    let mut notes = Vec::new();
    for a in &m.animations[first_new..] {
        notes.push(format!(
            "{object}: new animation {} from its action: animation {} of the object, state {}, {} frames",
            a.name,
            m.animations.iter().position(|x| x.name == a.name).unwrap_or(0),
            a.state.id,
            a.frames
        ));
        let named = |t: &AnimationName| matches!(t, AnimationName::Name(n) if *n == a.name);
        let reached = m.animations.iter().filter(|o| o.name != a.name).any(|o| {
            named(&o.next.animation)
                || o.state_changes
                    .iter()
                    .any(|c| c.dispatches.iter().any(|d| named(&d.animation)))
        });
        if !reached {
            notes.push(format!(
                "{object}: new animation {} is reached by no other animation (no next animation or state \
                 change leads to it), so the game never plays it; give an action a `{}` dispatch to it, e.g. \
                 `{}: 0-10 > {}`",
                a.name,
                action_properties::STATE_CHANGES,
                a.state.id,
                a.name
            ));
        }
    }
    notes
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sound(frame: i32, id: u16, on: SoundPlace) -> CommandManifest {
        CommandManifest::Sound { frame, id, on }
    }

    #[test]
    fn markers_replace_the_sound_commands_in_place_keeping_each_sounds_land_or_water_place() {
        let commands = vec![
            CommandManifest::Kill,
            sound(4, 7, SoundPlace::Land),
            CommandManifest::EmptyHands,
            sound(9, 7, SoundPlace::Water),
        ];
        let markers = [
            SoundMarker { id: 7, frame: 6 },
            SoundMarker { id: 7, frame: 9 },
            SoundMarker { id: 3, frame: 1 },
        ];
        assert_eq!(
            with_sounds(&commands, &markers),
            vec![
                CommandManifest::Kill,
                sound(6, 7, SoundPlace::Land),
                sound(9, 7, SoundPlace::Water),
                sound(1, 3, SoundPlace::Anywhere),
                CommandManifest::EmptyHands,
            ]
        );
        let unmoved = [SoundMarker { id: 7, frame: 4 }, SoundMarker { id: 7, frame: 9 }];
        let mut expected = commands.clone();
        expected.swap(2, 3);
        assert_eq!(
            with_sounds(&commands, &unmoved),
            expected,
            "sounds go where the first one was"
        );
        assert_eq!(
            with_sounds(&commands, &[]),
            vec![CommandManifest::Kill, CommandManifest::EmptyHands],
            "no markers: no sounds"
        );
    }
}
