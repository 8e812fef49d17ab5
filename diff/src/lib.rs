//! A strict semantic comparison of the objects of two WADs or levels, independent of layout.
//!
//! This crate owns the answer to "do these two files hold the same objects?", value by value.
//! Objects are matched by kind and id. Everything the game reads of an object is compared in its
//! stored order: a moveable's meshes in the moveable's mesh order, every vertex (used or not)
//! with its normal or shade, every polygon with its corners, attribute byte and the texture as
//! the game shows it (the sample's size, which sample corner each vertex maps, the texels); the
//! links; every field of every animation, its state changes, dispatches, commands and keyframes,
//! angles modulo a turn. A static's boxes, flags and mesh.
//!
//! What is layout, and never compared: where records sit in the file, the order of samples and
//! which page and position a sample has, how mesh pointers share meshes, how a keyframe encoded
//! its angles (one axis or three).
//!
//! - [`report`]: the result, per object, and how it reads as text.
//! - `mesh` and `texture`: meshes, polygons and what their textures show.
//! - `animation`: links and animations.

mod animation;
mod mesh;
pub mod report;
mod texture;

use std::collections::BTreeMap;

use wadforge_format::{Moveable, Static, Wad};

pub use report::{Difference, Field, ObjectDiff, ObjectKind, Report};
pub use texture::{polygon_texture, PolygonTexels};

use mesh::Inputs;
use report::{BoxText, Recorder, MISSING, PRESENT};

/// What to compare, and how close is equal.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Options {
    /// Largest difference per normal component still equal (16300 is a unit normal); a negative
    /// tolerance counts as 0.
    pub normal_tolerance: i32,
    /// Largest difference per keyframe angle still equal, in units of 4096 per turn, the short
    /// way round; a negative tolerance counts as 0.
    pub angle_tolerance: i32,
    pub scope: Scope,
}

/// Which part of the objects to compare; objects missing from one input differ in every scope.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Scope {
    #[default]
    All,
    /// Meshes (moveables' and statics') and statics' boxes and flags.
    Geometry,
    /// Links and animations.
    Animation,
}

impl Scope {
    fn geometry(self) -> bool {
        matches!(self, Scope::All | Scope::Geometry)
    }

    fn animation(self) -> bool {
        matches!(self, Scope::All | Scope::Animation)
    }
}

/// Compares every object of `a` with the object of the same kind and id in `b`.
pub fn diff(a: &Wad, b: &Wad, options: &Options) -> Report {
    let mut inputs = Inputs {
        a,
        b,
        options,
        texels: Default::default(),
    };
    let mut objects = Vec::new();
    for (id, x, y) in pairs(&a.moveables, &b.moveables, |m| m.id) {
        let differences = match (x, y) {
            (Some(x), Some(y)) => moveable(&mut inputs, x, y),
            _ => presence(x.is_some()),
        };
        objects.push(ObjectDiff {
            kind: ObjectKind::Moveable,
            id,
            differences,
        });
    }
    for (id, x, y) in pairs(&a.statics, &b.statics, |s| s.id) {
        let differences = match (x, y) {
            (Some(x), Some(y)) => static_object(&mut inputs, x, y),
            _ => presence(x.is_some()),
        };
        objects.push(ObjectDiff {
            kind: ObjectKind::Static,
            id,
            differences,
        });
    }
    Report { objects }
}

/// Objects of both lists by id, in order of id; the n-th object of an id in `a` pairs with the
/// n-th of that id in `b` (ids should be unique, but a damaged file may repeat one).
fn pairs<'a, T>(a: &'a [T], b: &'a [T], id: impl Fn(&T) -> u32) -> Vec<(u32, Option<&'a T>, Option<&'a T>)> {
    type Slot<'a, T> = (Option<&'a T>, Option<&'a T>);
    let mut by_id: BTreeMap<(u32, usize), Slot<'a, T>> = BTreeMap::new();
    for (list, side) in [(a, 0), (b, 1)] {
        let mut seen: BTreeMap<u32, usize> = BTreeMap::new();
        for object in list {
            let n = seen.entry(id(object)).or_default();
            let slot = by_id.entry((id(object), *n)).or_default();
            *n += 1;
            if side == 0 {
                slot.0 = Some(object);
            } else {
                slot.1 = Some(object);
            }
        }
    }
    by_id.into_iter().map(|((id, _), (x, y))| (id, x, y)).collect()
}

fn presence(in_a: bool) -> Vec<Difference> {
    let (a, b) = if in_a {
        (PRESENT, MISSING)
    } else {
        (MISSING, PRESENT)
    };
    let mut r = Recorder::default();
    r.differ("", Field::Object, a, b);
    r.differences
}

fn moveable(inputs: &mut Inputs, a: &Moveable, b: &Moveable) -> Vec<Difference> {
    let mut r = Recorder::default();
    let scope = inputs.options.scope;
    if scope.geometry() {
        r.count("", Field::MeshCount, a.meshes.len(), b.meshes.len());
        for (i, (&x, &y)) in a.meshes.iter().zip(&b.meshes).enumerate() {
            mesh::compare_mesh_indices(&mut r, inputs, &format!("mesh {i}"), x, y);
        }
    }
    if scope.animation() {
        animation::links(&mut r, &a.links, &b.links);
        animation::animations(
            &mut r,
            inputs.options.angle_tolerance,
            &a.animations,
            &b.animations,
        );
    }
    r.differences
}

fn static_object(inputs: &mut Inputs, a: &Static, b: &Static) -> Vec<Difference> {
    let mut r = Recorder::default();
    if inputs.options.scope.geometry() {
        r.compare(
            "",
            Field::VisibilityBox,
            BoxText(a.visibility),
            BoxText(b.visibility),
        );
        r.compare(
            "",
            Field::CollisionBox,
            BoxText(a.collision),
            BoxText(b.collision),
        );
        r.compare("", Field::Flags, a.flags, b.flags);
        mesh::compare_mesh_indices(&mut r, inputs, "mesh", a.mesh, b.mesh);
    }
    r.differences
}
