//! Animations' detail from the base's: an animation the model holds as the base had it is the
//! base's whole (exact angles, velocities, blend curves, Tomb Engine's commands); an edited one
//! keeps its name, curve and blend frames, and each keyframe, dispatch and the commands the model
//! still holds as they were.

use wadforge_model as model;

use crate::wad2::document::{Animation, AnimationVersion};
use crate::wad2::from_model::animations::animations as written;
use crate::wad2::objects::animations::{self as terms, command};
use crate::wad2::objects::losses::Losses;

/// Takes the detail of `base` (a moveable's animations) into `made`, animation by animation;
/// returns how many were edited.
pub(super) fn keep_animations(made: &mut [Animation], base: &[Animation]) -> usize {
    let mut losses = Losses::default();
    let made_terms = terms::animations(made, &mut losses);
    // The base as the model holds it and a Wad2 made from the model says it (a one-keyframe
    // animation's acceleration, say, is not said): what an unedited made animation reads as.
    let base_terms = terms::animations(base, &mut losses);
    let base_terms = terms::animations(&written(&base_terms), &mut losses);
    let mut edited = 0;
    for (i, animation) in made.iter_mut().enumerate() {
        let (Some(old), Some(made_term), Some(base_term)) =
            (base.get(i), made_terms.get(i), base_terms.get(i))
        else {
            continue;
        };
        if made_term == base_term {
            animation.clone_from(old);
        } else {
            edited += 1;
            keep_part(animation, old, (made_term, base_term));
        }
    }
    edited
}

/// The detail of an edited animation: what the edit left as it was.
fn keep_part(
    made: &mut Animation,
    base: &Animation,
    (made_term, base_term): (&model::Animation, &model::Animation),
) {
    made.name.clone_from(&base.name);
    made.curve = base.curve;
    made.unknown = base.unknown.clone();
    if let (AnimationVersion::Current, AnimationVersion::Blended { .. }) = (made.version, base.version) {
        made.version = base.version;
    }
    let keyframes = made.keyframes.iter_mut().zip(&base.keyframes);
    for ((keyframe, old), (a, b)) in keyframes.zip(made_term.keyframes.iter().zip(&base_term.keyframes)) {
        if a == b {
            keyframe.clone_from(old);
        }
    }
    let speeds = |a: &model::Animation| [a.speed, a.acceleration, a.lateral_speed, a.lateral_acceleration];
    if speeds(made_term) == speeds(base_term) && made.velocities.is_some() && base.velocities.is_some() {
        made.velocities = base.velocities;
    }
    let changes = made.state_changes.iter_mut().zip(&base.state_changes);
    for ((change, old), (a, b)) in changes.zip(made_term.state_changes.iter().zip(&base_term.state_changes)) {
        if a.state != b.state {
            continue;
        }
        change.unknown = old.unknown.clone();
        let dispatches = change.dispatches.iter_mut().zip(&old.dispatches);
        for ((dispatch, old), (a, b)) in dispatches.zip(a.dispatches.iter().zip(&b.dispatches)) {
            if a == b {
                dispatch.blend.clone_from(&old.blend);
            }
        }
    }
    // Commands the model holds as the base's: the base's, with those the model cannot hold.
    let classic = |animation: &Animation| -> Vec<model::Command> {
        let mut losses = Losses::default();
        let commands = animation.commands.iter();
        commands.filter_map(|c| command(c, 0, &mut losses)).collect()
    };
    if classic(made) == classic(base) {
        made.commands.clone_from(&base.commands);
    }
}
