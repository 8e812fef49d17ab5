//! Keyframe boxes: each keyframe's box is kept from the manifest while the pose is unedited or
//! the box lies within [`KEYFRAME_BOX_TOLERANCE`] of the posed body's box, otherwise it is the
//! posed box. The body is the one the game poses: a dressed skeleton's dressing body.

use wadforge_format::pose::posed_bounding_box;
use wadforge_format::{Animation, BoundingBox, Link, Mesh, MeshIndex, Moveable, Wad, KEYFRAME_BOX_TOLERANCE};

use super::PendingMoveable;
use crate::error::BuildError;

// How many vertices a build may pose: the bound `check --fix` keeps too.
use wadforge_format::Limits;

/// Each moveable with its meshes (`resolved`, the model's) and keyframe boxes, and how many
/// boxes were recomputed. `wad` holds the built meshes, and the base's moveables that may
/// dress a skeleton; the posing is refused, before any is done, past the bound for a build of
/// `input_bytes`.
pub(super) fn with_keyframe_boxes(
    wad: &Wad,
    resolved: &[(&PendingMoveable, Vec<MeshIndex>)],
    input_bytes: u64,
) -> Result<(Vec<Moveable>, usize), BuildError> {
    use rayon::prelude::*;
    let bodies: Vec<Vec<&Mesh>> = resolved
        .iter()
        .map(|(m, meshes)| {
            let body_indices = m
                .dressed_by
                .map_or_else(|| meshes.clone(), |id| body_of(id, meshes, resolved, wad));
            body_indices.iter().map(|&i| &wad.meshes[i]).collect()
        })
        .collect();
    check_posing(resolved, &bodies, input_bytes)?;
    // Posing every keyframe is the assembly's largest step; moveables are independent.
    let finished: Vec<(Moveable, usize)> = resolved
        .par_iter()
        .zip(&bodies)
        .map(|((m, meshes), body)| {
            let mut recomputed = 0;
            let animations = boxed_animations(m, body, &mut recomputed);
            let moveable = Moveable {
                id: m.id,
                meshes: meshes.clone(),
                links: m.links.clone(),
                animations,
            };
            (moveable, recomputed)
        })
        .collect();
    let recomputed = finished.iter().map(|(_, n)| n).sum();
    Ok((finished.into_iter().map(|(m, _)| m).collect(), recomputed))
}

/// Refuses posing more vertices than [`Limits::posing`] allows, naming the animation at which
/// the count, in moveable and animation order, goes past.
fn check_posing(
    resolved: &[(&PendingMoveable, Vec<MeshIndex>)],
    bodies: &[Vec<&Mesh>],
    input_bytes: u64,
) -> Result<(), BuildError> {
    let mut posed = 0u64;
    for ((m, _), body) in resolved.iter().zip(bodies) {
        let vertices: u64 = body.iter().map(|mesh| mesh.vertices.len() as u64).sum();
        let animations = m.animations.iter().zip(&m.boxes).zip(&m.fingerprints);
        for (index, ((a, boxes), fingerprint)) in animations.enumerate() {
            if unedited(a, boxes, fingerprint.as_deref()) {
                continue;
            }
            posed = posed.saturating_add((a.keyframes.len() as u64).saturating_mul(vertices));
            if let Err(too_much) = Limits::DEFAULT.posing.check(posed, input_bytes) {
                return Err(m.place.error(
                    Some(format!("animation {index} (in the manifest's order)")),
                    format!("the edited animations up to this one would pose {too_much}"),
                ));
            }
        }
    }
    Ok(())
}

/// Whether `a`'s poses are those the manifest's `boxes` were made for (its `fingerprint`).
fn unedited(a: &Animation, boxes: &[wadforge_manifests::BoxBounds], fingerprint: Option<&str>) -> bool {
    boxes.len() == a.keyframes.len() && fingerprint == Some(&format!("{:016x}", a.poses_fingerprint()))
}

/// The meshes of moveable `id`, the body dressing a skeleton: from the directory, else from
/// the base, else the skeleton's `own`.
fn body_of(
    id: u32,
    own: &[MeshIndex],
    resolved: &[(&PendingMoveable, Vec<MeshIndex>)],
    wad: &Wad,
) -> Vec<MeshIndex> {
    resolved
        .iter()
        .find(|(m, _)| m.id == id)
        .map(|(_, meshes)| meshes.clone())
        .or_else(|| {
            wad.moveables
                .iter()
                .find(|m| m.id == id)
                .map(|m| m.meshes.clone())
        })
        .unwrap_or_else(|| own.to_vec())
}

/// `m`'s animations with each keyframe's box, `body` posed by its links; counts the boxes
/// recomputed. Animations are posed in parallel: one moveable (Lara) can hold most of them.
fn boxed_animations(m: &PendingMoveable, body: &[&Mesh], recomputed: &mut usize) -> Vec<Animation> {
    use rayon::prelude::*;
    let mut animations = m.animations.clone();
    *recomputed += animations
        .par_iter_mut()
        .zip(&m.boxes)
        .zip(&m.fingerprints)
        .map(|((a, boxes), fingerprint)| boxed_keyframes(&m.links, a, boxes, fingerprint.as_deref(), body))
        .sum::<usize>();
    animations
}

/// Gives `a`'s keyframes their boxes (`boxes` from the manifest, `fingerprint` of its poses
/// there); returns how many were recomputed.
fn boxed_keyframes(
    links: &[Link],
    a: &mut Animation,
    boxes: &[wadforge_manifests::BoxBounds],
    fingerprint: Option<&str>,
    body: &[&Mesh],
) -> usize {
    // Unedited poses keep their stored boxes exactly, whatever the pose rule gives: no posing.
    if unedited(a, boxes, fingerprint) {
        for (keyframe, b) in a.keyframes.iter_mut().zip(boxes) {
            keyframe.bounding_box = BoundingBox {
                min: b.min,
                max: b.max,
            };
        }
        return 0;
    }
    let mut recomputed = 0;
    for (k, keyframe) in a.keyframes.iter_mut().enumerate() {
        let posed = posed_bounding_box(links, keyframe, body);
        keyframe.bounding_box = match boxes.get(k) {
            Some(b) if close(posed, b) => BoundingBox {
                min: b.min,
                max: b.max,
            },
            _ => {
                recomputed += 1;
                posed
            }
        };
    }
    recomputed
}

/// Whether a manifest box is within [`KEYFRAME_BOX_TOLERANCE`] of the posed box on every side.
fn close(posed: BoundingBox, kept: &wadforge_manifests::BoxBounds) -> bool {
    let kept = BoundingBox {
        min: kept.min,
        max: kept.max,
    };
    posed.distance(kept) <= KEYFRAME_BOX_TOLERANCE
}
