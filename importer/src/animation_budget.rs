//! How many glTF animation channels an import may make, checked before any object is made.
//!
//! Each TR animation with keyframes becomes a glTF animation of one channel per joint (its
//! rotation) and one for the root's translation, whatever its keyframes hold: a channel costs
//! some 350 bytes while the file is made (its accessor, sampler and JSON), and a WAD can name one
//! with two bytes (one rotation word) or none (a keyframe without rotations). A 1.3 MB WAD of
//! 2000 one-keyframe animations of a 240-joint moveable made 482 000 channels, a 102 MB glTF,
//! and took import 191 MB. Game files and the fixtures make one channel per 199 bytes of the
//! file or more (a TR1 level: 4081 channels; the TR4-shaped fixture: 11 798): an import may
//! make what [`Limits::animation_channels`] allows for its file.

use wadforge_format::{Limits, Moveable, TooMuchAt};

/// The channels the glTF of `m` holds (see [`crate::object::moveable`]).
pub(crate) fn channels(m: &Moveable) -> usize {
    let animated = m.animations.iter().filter(|a| !a.keyframes.is_empty()).count();
    match m.meshes.len() {
        0 => 0,
        joints => animated.saturating_mul(joints + 1),
    }
}

/// Checks the channels of `objects` (each object's name and channels), in order, against what a
/// file of `input_bytes` allows.
pub(crate) fn check(
    objects: impl IntoIterator<Item = (String, usize)>,
    input_bytes: u64,
) -> Result<(), TooMuchAt> {
    let mut channels = 0usize;
    for (object, made) in objects {
        channels = channels.saturating_add(made);
        if let Err(too_much) = Limits::DEFAULT
            .animation_channels
            .check(channels as u64, input_bytes)
        {
            return Err(TooMuchAt { object, too_much });
        }
    }
    Ok(())
}
