//! A bound on the keyframes build samples, checked before any object is read.
//!
//! Each animation of a manifest is sampled once per keyframe its frame range plays, for every
//! bone, whatever its glTF action holds: two keys an hour apart are 65536 keyframes. A manifest
//! line or two and a glTF animation of a few hundred bytes (sharing one time accessor) can so ask
//! for millions: a 63 kB directory of 20 such animations took build 213 MB. Real objects ask for
//! far less than their files' size (Lara's 445 animations: some 210 000 keyframe bones, from
//! files of several MB), so a build may sample at most [`Limits::keyframe_bones`] for the size of
//! its manifests and glTF files.

use wadforge_format::{Limits, ObjectKind, ObjectName};
use wadforge_manifests::{ManifestDir, ObjectManifest};

use crate::error::{BuildError, Place};

/// Checks the keyframes `dir`'s animations ask for, in object and animation order, for a build
/// of `input_bytes` bytes of manifests and glTF files.
pub(crate) fn check(dir: &ManifestDir, input_bytes: u64) -> Result<(), BuildError> {
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
            if let Err(too_much) = Limits::DEFAULT.keyframe_bones.check(asked, input_bytes) {
                let place = Place {
                    file: dir.root.join(&object.path),
                    object: ObjectName::with_slot(&m.slot, ObjectKind::Moveable, m.id).to_string(),
                };
                return Err(place.error(
                    Some(format!("animation {}", a.name)),
                    format!("the animations up to this one ask for {too_much}"),
                ));
            }
        }
    }
    Ok(())
}
