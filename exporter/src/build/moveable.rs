//! One moveable from its manifest and glTF: the skeleton (bones in TR order, links), the
//! geometry (one TR mesh per bone, or the same as another object's), and the animations (the
//! state machine from the manifest, keyframes sampled from the glTF's actions).

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use wadforge_format::{Animation, Link, ObjectKind, ObjectName, UndecodableKeyframes};
use wadforge_manifests::{MeshInfo, MoveableManifest};

use super::action_properties::States;
use super::actions;
use super::object::ObjectWork;
use super::{dressing, MeshSlot, PendingMesh, PendingMoveable};
use crate::bone_meshes::BoneMeshes;
use crate::error::{BuildError, Place};
use crate::input::{MeshNode, Scene};
use crate::skeleton::{skeleton, Skeleton};
use crate::{keyframes, states};

/// A moveable's manifest, its glTF scene, and the places errors name.
struct MoveableFiles<'a> {
    manifest: &'a MoveableManifest,
    /// The manifest file: the state machine's errors.
    place: Place,
    /// The glTF file: errors in what is read from it.
    gltf_place: Place,
    scene: Scene,
}

/// Builds the moveable of manifest `m` (at `manifest_path`) from its glTF.
pub(super) fn build_moveable(
    work: &mut ObjectWork,
    m: &MoveableManifest,
    manifest_path: PathBuf,
    gltf_path: &Path,
) -> Result<PendingMoveable, BuildError> {
    let place = Place {
        file: manifest_path,
        object: ObjectName::with_slot(&m.slot, ObjectKind::Moveable, m.id).to_string(),
    };
    let gltf_place = Place {
        file: gltf_path.to_path_buf(),
        object: place.object.clone(),
    };
    let scene = work.read(gltf_path).map_err(|e| gltf_place.error(None, e))?;
    let files = MoveableFiles {
        manifest: m,
        place,
        gltf_place,
        scene,
    };
    let (skeleton, links) = build_skeleton(work, &files)?;
    let meshes = build_geometry(work, &files, &skeleton)?;
    let context = actions::Context {
        manifest: &files.place,
        gltf: &files.gltf_place,
        states: States {
            game: super::game(&work.dir.project.game),
            moveable: m.id,
        },
        input_bytes: work.input_bytes,
    };
    // The manifest's animations as the glTF's actions make them: lengths, properties, new ones.
    let (m, notes) = actions::with_actions(m, &files.scene, &context)?;
    work.notes.extend(notes);
    let files = MoveableFiles {
        manifest: &m,
        ..files
    };
    let (animations, other_targets) = build_animations(&files, &skeleton, work.tr_units_per_metre)?;
    Ok(PendingMoveable {
        id: m.id,
        slot: m.slot.clone(),
        bones: skeleton.names,
        meshes,
        links,
        boxes: m
            .animations
            .iter()
            .map(|a| a.kept_exactly.keyframe_boxes.clone())
            .collect(),
        fingerprints: m
            .animations
            .iter()
            .map(|a| a.kept_exactly.pose_fingerprint.clone())
            .collect(),
        animations,
        other_targets,
        dressed_by: m.dressed_by.as_ref().map(|d| d.body),
        place: files.place,
    })
}

/// Skeleton: the glTF's joints matched to the manifest's bones (reordered depth-first, with a
/// note, when needed), and the links from the bind pose.
fn build_skeleton(work: &mut ObjectWork, files: &MoveableFiles) -> Result<(Skeleton, Vec<Link>), BuildError> {
    let fail = |e: String| files.gltf_place.error(None, e);
    let skinned: Vec<&MeshNode> = files.scene.meshes.iter().filter(|n| n.skin.is_some()).collect();
    let names: Vec<String> = files.manifest.bones.iter().map(|b| b.name.clone()).collect();
    let (skeleton, note) = skeleton(&files.scene, &skinned, &names).map_err(fail)?;
    work.notes
        .extend(note.map(|n| format!("{}: {n}", files.place.object)));
    let links = skeleton.links(work.tr_units_per_metre).map_err(fail)?;
    Ok((skeleton, links))
}

/// Geometry: one TR mesh per bone from the skinned meshes (one or several) and the meshes
/// parented to bones; a bone whose manifest says `same_as` takes that mesh instead. A dressed
/// skeleton shows other objects' meshes: its own come from `same_as`, or from its placeholders
/// glTF when no other object shows them.
fn build_geometry(
    work: &mut ObjectWork,
    files: &MoveableFiles,
    skeleton: &Skeleton,
) -> Result<Vec<MeshSlot>, BuildError> {
    let fail = |e: String| files.gltf_place.error(None, e);
    let shown = BoneMeshes::new(&files.scene, skeleton, work.tr_units_per_metre, &mut work.images);
    let gathered = shown.gather(&shown.shown()).map_err(fail)?;
    let gathered = match &files.manifest.dressed_by {
        None => {
            let mut own = gathered;
            dressing::carry_dressed_edits(work, &files.place, files.manifest, &mut own)?;
            own
        }
        Some(dressing) => dressing::dressed_meshes(work, &files.place, skeleton, dressing, &gathered)?,
    };
    let bone_info: HashMap<&str, &MeshInfo> = (files.manifest.bones.iter())
        .map(|b| (b.name.as_str(), &b.mesh))
        .collect();
    let mut meshes = Vec::with_capacity(gathered.len());
    for (j, raw) in gathered.into_iter().enumerate() {
        let bone = &skeleton.names[j];
        let info = (*bone_info[bone.as_str()]).clone();
        let what = format!("bone {bone}");
        work.notes.extend(raw.removed_note(&files.place.object, &what));
        meshes.push(match info.same_as.clone() {
            Some(r) => MeshSlot::Same(r),
            None => work.add_mesh(PendingMesh {
                raw,
                info,
                place: files.gltf_place.clone(),
                what,
            }),
        });
    }
    Ok(meshes)
}

/// Animations: the state machine from the manifest (as the actions make it, `actions`), each
/// animation's keyframes sampled from the glTF animation of its name (keyframe boxes and references to other objects' animations are
/// left to the assembly). Animations are sampled in parallel (Lara's are most of a build's); an
/// error is the first in animation order.
fn build_animations(
    files: &MoveableFiles,
    skeleton: &Skeleton,
    tr_units_per_metre: f64,
) -> Result<(Vec<Animation>, Vec<states::OtherTarget>), BuildError> {
    use rayon::prelude::*;
    let m = files.manifest;
    let (mut animations, other_targets) = states::animations(m, &files.place)?;
    let sampled: Vec<Result<(), BuildError>> = animations
        .par_iter_mut()
        .zip(&m.animations)
        .map(|(a, manifest_a)| {
            let place = || Some(format!("animation {}", manifest_a.name));
            match files.scene.animations.iter().find(|x| x.name == manifest_a.name) {
                Some(gltf_a) => {
                    a.keyframes = keyframes::keyframes(
                        &files.scene,
                        skeleton,
                        gltf_a,
                        a,
                        tr_units_per_metre,
                        manifest_a,
                    )
                    .map_err(|e| files.gltf_place.error(place(), e))?;
                }
                None if manifest_a.kept_exactly.undecodable_keyframes.is_some() => {
                    // Words the game reads as they are; only an animation of its own replaces them.
                    let stored = manifest_a.kept_exactly.undecodable_keyframes.as_ref();
                    a.undecodable_keyframes = stored.map(|stored| UndecodableKeyframes {
                        size: stored.size,
                        words: stored.words.0.clone(),
                    });
                    if stored.is_some_and(|s| s.size == 0) {
                        return Err(files.place.error(
                            place(),
                            "kept_exactly.undecodable_keyframes.size is 0; a keyframe size is 1 to 255 words",
                        ));
                    }
                }
                // No action and no stored words: `actions` let it through (the file had no keyframes).
                None => {}
            }
            Ok(())
        })
        .collect();
    sampled.into_iter().collect::<Result<(), _>>()?;
    Ok((animations, other_targets))
}
