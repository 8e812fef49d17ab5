//! How many glTF animation channels an import may make, checked before any object is made.
//!
//! Each TR animation with keyframes becomes a glTF animation of one channel per joint (its
//! rotation) and one for the root's translation, whatever its keyframes hold: a channel costs
//! some 350 bytes while the file is made (its accessor, sampler and JSON), and a WAD can name one
//! with two bytes (one rotation word) or none (a keyframe without rotations). A 1.3 MB WAD of
//! 2000 one-keyframe animations of a 240-joint moveable made 482 000 channels, a 102 MB glTF,
//! and took import 191 MB. Game files and the fixtures make one channel per 199 bytes of the
//! file or more (a TR1 level: 4081 channels; the TR4-shaped fixture: 11 798).

use wadforge_format::Moveable;

/// Channels any import may make.
pub(crate) const BASE_CHANNELS: usize = 65_536;
/// Bytes of the input file per channel past [`BASE_CHANNELS`].
pub(crate) const INPUT_BYTES_PER_CHANNEL: u64 = 32;

/// An import whose animations would make more channels than its file allows.
#[derive(Debug, thiserror::Error)]
#[error(
    "{object}: the animations of the objects up to this one would make {channels} glTF animation channels \
     (one per joint of each animation with keyframes, plus the root's translation), more than the {allowed} \
     a file of {input_bytes} bytes allows ({BASE_CHANNELS} plus one per {INPUT_BYTES_PER_CHANNEL} bytes; game \
     files make one per 200 bytes or more): the file is corrupt or made to cost far more than its size \
     (leave the object out with --only)"
)]
pub struct AnimationsTooLarge {
    pub object: String,
    pub channels: usize,
    pub allowed: usize,
    pub input_bytes: u64,
}

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
) -> Result<(), AnimationsTooLarge> {
    let per_byte = usize::try_from(input_bytes / INPUT_BYTES_PER_CHANNEL).unwrap_or(usize::MAX);
    let allowed = BASE_CHANNELS.saturating_add(per_byte);
    let mut channels = 0usize;
    for (object, made) in objects {
        channels = channels.saturating_add(made);
        if channels > allowed {
            return Err(AnimationsTooLarge {
                object,
                channels,
                allowed,
                input_bytes,
            });
        }
    }
    Ok(())
}
