//! A bound on the keyframes build samples, checked before any object is read.
//!
//! Each animation of a manifest is sampled once per keyframe its frame range plays, for every
//! bone, whatever its glTF action holds: two keys an hour apart are 65536 keyframes. A manifest
//! line or two and a glTF animation of a few hundred bytes (sharing one time accessor) can so ask
//! for millions: a 63 kB directory of 20 such animations took build 213 MB. Real objects ask for
//! far less than their files' size (Lara's 445 animations: some 210 000 keyframe bones, from
//! files of several MB), so a build may sample at most [`KEYFRAME_BONES_SLACK`] keyframe bones
//! plus [`KEYFRAME_BONES_PER_INPUT_BYTE`] per byte of its manifests and glTF files.

use wadforge_format::{ObjectKind, ObjectName};
use wadforge_manifests::{ManifestDir, ObjectManifest};

use crate::error::{BuildError, Place};

/// Keyframe bones (a keyframe's header counts as one more bone) any build may sample.
pub(crate) const KEYFRAME_BONES_SLACK: u64 = 1 << 19;
/// Keyframe bones a build may sample per byte of its input files.
pub(crate) const KEYFRAME_BONES_PER_INPUT_BYTE: u64 = 1;

/// Checks the keyframes `dir`'s animations ask for, in object and animation order, for a build
/// of `input_bytes` bytes of manifests and glTF files.
pub(crate) fn check(dir: &ManifestDir, input_bytes: u64) -> Result<(), BuildError> {
    let allowed = input_bytes
        .saturating_mul(KEYFRAME_BONES_PER_INPUT_BYTE)
        .saturating_add(KEYFRAME_BONES_SLACK);
    let mut asked = 0u64;
    for object in &dir.objects {
        let ObjectManifest::Moveable(m) = &object.manifest else {
            continue;
        };
        let per_keyframe = m.bones.len() as u64 + 1;
        for a in &m.animations {
            // At most what the engine plays: its frame numbers are signed, so a range of more
            // than 32 768 frames ends before it starts and plays one keyframe.
            let span = (a.frames.wrapping_sub(1) as i16).max(0) as u64;
            let keyframes = span.div_ceil(u64::from(a.frame_duration.max(1))) + 1;
            asked = asked.saturating_add(keyframes * per_keyframe);
            if asked > allowed {
                let place = Place {
                    file: dir.root.join(&object.path),
                    object: ObjectName::with_slot(&m.slot, ObjectKind::Moveable, m.id).to_string(),
                };
                return Err(place.error(
                    Some(format!("animation {}", a.name)),
                    format!(
                        "the animations up to this one ask for {asked} keyframe bones, more than the \
                         {allowed} a build of {input_bytes} bytes of manifests and glTF may sample \
                         ({KEYFRAME_BONES_SLACK} plus {KEYFRAME_BONES_PER_INPUT_BYTE} per byte); \
                         shorten its frame range (`frames`) or raise its `frame_duration`"
                    ),
                ));
            }
        }
    }
    Ok(())
}
