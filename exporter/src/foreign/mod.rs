//! A glTF no wadforge wrote (another tool's rigged model, a new armature from Blender) → a model
//! of one new object in a slot the caller names, which import then writes as a manifest
//! directory exactly as it writes a WAD's objects ([`read_gltf`]).
//!
//! - `rest`: the skin brought to build's shape: vertices at their rest-pose places with the
//!   nodes above the skeleton applied (Y up, metres), each joint bound at its rest transform.
//! - `moveable`: the skeleton (joints named, depth-first, links), a mesh per bone, and every
//!   animation sampled at 30 keyframes a second, with the exporter's own skeleton, bone-mesh
//!   and keyframe code.
//! - `finish`: textures cut and packed into pages as build packs them; spheres and lighting.
//!
//! A skinned glTF becomes a moveable; a glTF without a skin becomes a static, or a moveable of
//! one mesh when the slot is a moveable's; a skinned glTF in a static's slot becomes its rest
//! pose. Reading is bounded as build's is: a hostile file gives an error, never a panic.

mod finish;
mod moveable;
mod rest;

use std::path::Path;

use wadforge_format::catalog::{self, Game};
use wadforge_format::pose::posed_bounding_box;
use wadforge_format::{
    Animation, Keyframe, Limits, Link, Mesh, Moveable, ObjectKind, ObjectName, Rotation, Static, Wad,
};

use crate::bone_meshes::add_images;
use crate::decoded_images::DecodedImages;
use crate::error::{BuildError, Place};
use crate::geometry::{gather, RawMesh, Target};
use crate::input::{self, MeshNode, Scene};
use crate::skeleton::world_rest;
use finish::{finish, mesh_box, Finished, Lit};

pub use moveable::MOST_BONES;

/// The slot a new object takes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Slot {
    Moveable(u32),
    Static(u32),
}

impl Slot {
    /// The slot `name` names in `game`'s catalogue: a moveable's or a static's name, or a number
    /// (a moveable's id).
    pub fn named(game: Game, name: &str) -> Result<Slot, String> {
        let name = name.trim();
        if let Ok(id) = name.parse::<u32>() {
            return Ok(Slot::Moveable(id));
        }
        if let Some(id) = catalog::moveable_id(game, name) {
            return Ok(Slot::Moveable(id));
        }
        if let Some(id) = catalog::static_id(game, name) {
            return Ok(Slot::Static(id));
        }
        let near = catalog::nearest_slots(game, name, false, 3);
        Err(format!(
            "{name} is no slot of {}'s catalogue (moveables' and statics' names, or a moveable's id){}",
            game.name(),
            if near.is_empty() {
                String::new()
            } else {
                format!("; did you mean {}?", near.join(", "))
            }
        ))
    }

    /// The object as messages name it: `CROCODILE (moveable 51)`.
    pub fn object_name(self, game: Game) -> ObjectName {
        match self {
            Slot::Moveable(id) => {
                ObjectName::with_slot(catalog::moveable_slot(game, id), ObjectKind::Moveable, id)
            }
            Slot::Static(id) => ObjectName::with_slot(catalog::static_slot(game, id), ObjectKind::Static, id),
        }
    }
}

/// What [`read_gltf`] makes of a glTF, and how.
#[derive(Debug, Clone, Copy)]
pub struct ForeignOptions {
    pub slot: Slot,
    /// The game whose catalogue names the slot.
    pub game: Game,
    /// TR units per glTF metre.
    pub tr_units_per_metre: f64,
}

/// The model of one new object read from a foreign glTF.
#[derive(Debug, Clone)]
pub struct Foreign {
    /// One moveable or one static, with its meshes, samples and pages.
    pub wad: Wad,
    /// The moveable's animations' names, in order: the index then the glTF's name
    /// (`000_Walk`), `ANIM` for an animation without one (`000_ANIM`).
    pub animation_names: Vec<String>,
    /// The moveable's bones' names in TR mesh order: the joints' own, unique and at most 63 bytes
    /// (`bone_NN` for a joint without one); empty for a moveable of one mesh or a static.
    pub bone_names: Vec<String>,
    /// What the reader did that the user may want to know.
    pub notes: Vec<String>,
}

/// Reads the glTF (`.glb`, or `.gltf` with its files) at `path` as one new object in
/// `options.slot`; see the module documentation.
pub fn read_gltf(path: &Path, options: &ForeignOptions) -> Result<Foreign, BuildError> {
    let place = Place {
        file: path.to_path_buf(),
        object: options.slot.object_name(options.game).to_string(),
    };
    let fail = |e: String| place.error(None, e);
    let input_bytes = std::fs::metadata(path).map(|m| m.len()).unwrap_or(0);
    let mut scene = input::read(path, &DecodedImages::default()).map_err(fail)?;
    // Meshes stored beside the glTF are import's, for its own files: never a foreign file's.
    scene.stored.clear();
    if scene.meshes.is_empty() {
        return Err(fail(
            "the glTF has no mesh; export the model with its meshes".into(),
        ));
    }
    let skin = rest::the_skin(&scene).map_err(fail)?;
    if let (Slot::Moveable(_), Some(joints)) = (options.slot, &skin) {
        moveable::bones_fit(joints).map_err(fail)?;
    }
    if skin.is_some() {
        rest::to_rest_pose(&mut scene).map_err(fail)?;
    }
    let scale = options.tr_units_per_metre;
    match (options.slot, skin) {
        (Slot::Moveable(id), Some(joints)) => {
            let parts = moveable::skinned_parts(&mut scene, &joints, scale, input_bytes).map_err(fail)?;
            let (notes, animations) = (parts.notes, parts.animations);
            let finished = finish(parts.meshes, &parts.images, Lit::ByNormals, input_bytes).map_err(fail)?;
            let model = moveable_model(id, finished, parts.links, animations, notes, input_bytes);
            Ok(Foreign {
                bone_names: parts.bones,
                ..model.map_err(fail)?
            })
        }
        (Slot::Moveable(id), None) => {
            let (raw, images) = one_mesh(&scene, scale).map_err(fail)?;
            let finished = finish(vec![raw], &images, Lit::ByNormals, input_bytes).map_err(fail)?;
            let notes = left_out(
                &scene,
                "a glTF without a skin becomes a moveable of one unanimated mesh",
            );
            moveable_model(id, finished, Vec::new(), Vec::new(), notes, input_bytes).map_err(fail)
        }
        (Slot::Static(id), _) => {
            let (raw, images) = one_mesh(&scene, scale).map_err(fail)?;
            let finished = finish(vec![raw], &images, Lit::ByShades, input_bytes).map_err(fail)?;
            Ok(static_model(
                id,
                finished,
                left_out(&scene, "a static is not animated"),
            ))
        }
    }
}

/// The joint nodes of the one skin of `scene` (`None` without a skin; an error for several):
/// what retargeting reads a source's skeleton by.
pub(crate) fn skin_joints(scene: &Scene) -> Result<Option<Vec<usize>>, String> {
    rest::the_skin(scene)
}

/// A note that the glTF's animations are left out, and why.
fn left_out(scene: &Scene, why: &str) -> Vec<String> {
    let count = scene.animations.len();
    (count > 0)
        .then(|| format!("the glTF's {count} animations are left out: {why}"))
        .into_iter()
        .collect()
}

/// Every mesh node of `scene` as one mesh about the origin, in its rest pose; with the images
/// its polygons name.
fn one_mesh(
    scene: &Scene,
    scale: f64,
) -> Result<(RawMesh, Vec<std::sync::Arc<crate::texture::RgbaImage>>), String> {
    let nodes: Vec<&MeshNode> = scene.meshes.iter().collect();
    let mut images = Vec::new();
    let (first_image, solid) = add_images(&mut images, scene);
    let target = Target {
        scene,
        meshes: 1,
        tr_units_per_metre: scale,
        pivots: &[[0.0; 3]],
        stored: &[None],
        first_image,
        solid_images: &solid,
    };
    // Skinned vertices are at their rest places already (`rest`); others go by their node.
    let place = |n: &MeshNode| match n.skin {
        Some(_) => wadforge_format::pose::Transform::IDENTITY,
        None => world_rest(scene, n.node),
    };
    let mut gathered = gather(&target, &nodes, &|_, _, _| Some(0), &place)?;
    Ok((gathered.remove(0), images))
}

/// The model of moveable `id`: its meshes, links and animations (each looping on itself, one
/// after another on the object's timeline, keyframe boxes from the posed meshes); one keyframe
/// of the rest pose when the glTF has no animation.
fn moveable_model(
    id: u32,
    finished: Finished,
    links: Vec<Link>,
    animations: Vec<(String, Vec<Keyframe>)>,
    notes: Vec<String>,
    input_bytes: u64,
) -> Result<Foreign, String> {
    let Finished {
        meshes,
        samples,
        pages,
    } = finished;
    let animations = if animations.is_empty() {
        let rest = Keyframe {
            rotations: vec![Rotation::default(); meshes.len()],
            ..Keyframe::default()
        };
        vec![(String::new(), vec![rest])]
    } else {
        animations
    };
    let vertices: u64 = meshes.iter().map(|m| m.vertices.len() as u64).sum();
    let keyframes: u64 = animations.iter().map(|(_, k)| k.len() as u64).sum();
    Limits::DEFAULT
        .posing
        .check(keyframes.saturating_mul(vertices), input_bytes)
        .map_err(|e| e.to_string())?;
    let mesh_refs: Vec<&Mesh> = meshes.iter().collect();
    let mut timeline = 0u32;
    let mut model_animations = Vec::with_capacity(animations.len());
    let mut names = Vec::with_capacity(animations.len());
    for (i, (name, mut keyframes)) in animations.into_iter().enumerate() {
        let start = timeline;
        timeline += keyframes.len() as u32;
        if timeline > u32::from(i16::MAX as u16) + 1 {
            return Err(format!(
                "the animations hold {timeline} keyframes or more at 30 a second; a TR object's frames are \
                 numbered up to 32 767: shorten them or leave some out"
            ));
        }
        for k in &mut keyframes {
            k.bounding_box = posed_bounding_box(&links, k, &mesh_refs);
        }
        model_animations.push(Animation {
            frame_duration: 1,
            frame_start: start as u16,
            frame_end: (timeline - 1) as u16,
            next_animation: i as i32,
            next_frame: start as u16,
            keyframes,
            ..Animation::default()
        });
        names.push(animation_name(i, &name));
    }
    let moveable = Moveable {
        id,
        meshes: (0..meshes.len()).collect(),
        links,
        animations: model_animations,
    };
    Ok(Foreign {
        wad: Wad {
            version: Wad::VERSION,
            samples,
            pages,
            meshes,
            moveables: vec![moveable],
            statics: Vec::new(),
        },
        animation_names: names,
        bone_names: Vec::new(),
        notes,
    })
}

/// The model of static `id` of one mesh, its boxes those of the mesh.
fn static_model(id: u32, finished: Finished, notes: Vec<String>) -> Foreign {
    let Finished {
        meshes,
        samples,
        pages,
    } = finished;
    let bounds = mesh_box(&meshes[0]);
    Foreign {
        wad: Wad {
            version: Wad::VERSION,
            samples,
            pages,
            meshes,
            moveables: Vec::new(),
            statics: vec![Static {
                id,
                mesh: 0,
                visibility: bounds,
                collision: bounds,
                flags: 2,
            }],
        },
        animation_names: Vec::new(),
        bone_names: Vec::new(),
        notes,
    }
}

/// An animation's name in the manifest directory: its index (Blender sorts by name), then its
/// glTF name with anything but letters, digits, `_` and `-` made `_`, or `ANIM` without one.
fn animation_name(index: usize, gltf_name: &str) -> String {
    let cleaned: String = (gltf_name.trim().chars())
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '_' || c == '-' {
                c
            } else {
                '_'
            }
        })
        .take(48)
        .collect();
    let name = if cleaned.is_empty() { "ANIM" } else { &cleaned };
    format!("{index:03}_{name}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn animations_are_named_after_their_gltf_names_or_anim() {
        assert_eq!(animation_name(0, ""), "000_ANIM");
        assert_eq!(animation_name(2, "Walk cycle"), "002_Walk_cycle");
    }

    #[test]
    fn slots_are_catalogue_names_or_moveable_ids() {
        assert_eq!(Slot::named(Game::Tr4, "CROCODILE"), Ok(Slot::Moveable(51)));
        assert_eq!(Slot::named(Game::Tr4, "7"), Ok(Slot::Moveable(7)));
        assert!(matches!(Slot::named(Game::Tr4, "PLANT0"), Ok(Slot::Static(_))));
        assert!(Slot::named(Game::Tr4, "NO_SUCH_SLOT").is_err());
    }
}
