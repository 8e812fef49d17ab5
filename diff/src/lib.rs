//! A strict semantic comparison of the objects of two WADs or levels, independent of layout.
//!
//! This crate owns the answer to "do these two files hold the same objects?", value by value.
//! Objects are matched by kind and id. Everything the game reads of an object is compared in its
//! stored order: a moveable's meshes in the moveable's mesh order, every vertex (used or not)
//! with its normal or shade, every polygon with its corners, attribute byte and the texture as
//! the game shows it (the sample's size, which sample corner each vertex maps, the texels), the
//! polygons aligned by their corners so that one added or removed does not shift the others; the
//! links; every field of every animation, its state changes, dispatches, commands and keyframes,
//! angles modulo a turn. A static's boxes, flags and mesh.
//!
//! What is layout, and never compared: where records sit in the file, the order of samples and
//! which page and position a sample has, how mesh pointers share meshes, how a keyframe encoded
//! its angles (one axis or three).
//!
//! - [`report`]: the result, per object, and how it reads as text.
//! - `mesh` and `texture`: meshes, polygons and what their textures show; `align`: which
//!   polygons are compared with which.
//! - `animation`: links and animations.

#![warn(clippy::too_many_lines)]

mod align;
mod animation;
mod mesh;
pub mod report;
mod texture;

use std::collections::BTreeMap;

use wadforge_model::references::{canonical_starts, resolve};
use wadforge_model::{MoveableIndex, Static, Wad};

pub use report::{Difference, Field, ObjectDiff, Report, Unmatched, LISTED_DIFFERENCES};
// Objects are matched by kind and id; the kind is the model's.
pub use texture::{polygon_texture, PolygonTexels};
pub use wadforge_model::ObjectKind;

use animation::Side;
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
    let (starts_a, starts_b) = (canonical_starts(&a.moveables), canonical_starts(&b.moveables));
    diff_tables((a, &starts_a), (b, &starts_b), options)
}

/// As [`diff`], for files whose animation tables start each moveable's animations at the given
/// places (`wadforge_format::references::layout_starts` of a WAD read with its layout): a
/// reference into another object's animations is compared by the object and animation it names,
/// not by its number, which depends on the table's order.
pub fn diff_tables(a: (&Wad, &[usize]), b: (&Wad, &[usize]), options: &Options) -> Report {
    let targets = (resolve(&a.0.moveables, a.1), resolve(&b.0.moveables, b.1));
    let (a, b) = (a.0, b.0);
    let mut inputs = Inputs {
        a,
        b,
        options,
        texels: Default::default(),
        room: LISTED_DIFFERENCES,
    };
    let mut objects = Vec::new();
    for (id, x, y) in pairs(&a.moveables, &b.moveables, |m| m.id) {
        let (differences, unlisted) = match (x, y) {
            (Some(x), Some(y)) => {
                let side_a = Side {
                    moveables: &a.moveables,
                    owner: MoveableIndex(x),
                    targets: &targets.0[x],
                };
                let side_b = Side {
                    moveables: &b.moveables,
                    owner: MoveableIndex(y),
                    targets: &targets.1[y],
                };
                let r = moveable(&mut inputs, &side_a, &side_b);
                inputs.listed(r)
            }
            _ => (presence(x.is_some()), 0),
        };
        objects.push(ObjectDiff {
            kind: ObjectKind::Moveable,
            id,
            differences,
            unlisted,
        });
    }
    for (id, x, y) in pairs(&a.statics, &b.statics, |s| s.id) {
        let (differences, unlisted) = match (x, y) {
            (Some(x), Some(y)) => {
                let r = static_object(&mut inputs, &a.statics[x], &b.statics[y]);
                inputs.listed(r)
            }
            _ => (presence(x.is_some()), 0),
        };
        objects.push(ObjectDiff {
            kind: ObjectKind::Static,
            id,
            differences,
            unlisted,
        });
    }
    Report {
        objects,
        unmatched: Vec::new(),
    }
}

/// Objects of both lists by id (their places in the lists), in order of id; the n-th object of
/// an id in `a` pairs with the n-th of that id in `b` (ids should be unique, but a damaged file
/// may repeat one).
fn pairs<T>(a: &[T], b: &[T], id: impl Fn(&T) -> u32) -> Vec<(u32, Option<usize>, Option<usize>)> {
    type Slot = (Option<usize>, Option<usize>);
    let mut by_id: BTreeMap<(u32, usize), Slot> = BTreeMap::new();
    for (list, side) in [(a, 0), (b, 1)] {
        let mut seen: BTreeMap<u32, usize> = BTreeMap::new();
        for (place, object) in list.iter().enumerate() {
            let n = seen.entry(id(object)).or_default();
            let slot = by_id.entry((id(object), *n)).or_default();
            *n += 1;
            if side == 0 {
                slot.0 = Some(place);
            } else {
                slot.1 = Some(place);
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
    // One an object, always listed.
    let mut r = Recorder::with_room(1);
    r.differ("", Field::Object, a, b);
    r.differences
}

fn moveable(inputs: &mut Inputs, side_a: &Side, side_b: &Side) -> Recorder {
    let (a, b) = (&side_a.moveables[side_a.owner], &side_b.moveables[side_b.owner]);
    let mut r = Recorder::with_room(inputs.room);
    let scope = inputs.options.scope;
    if scope.geometry() {
        r.count("", Field::MeshCount, a.meshes.len(), b.meshes.len());
        for (i, (&x, &y)) in a.meshes.iter().zip(&b.meshes).enumerate() {
            mesh::compare_mesh_indices(&mut r, inputs, &format!("mesh {i}"), x, y);
        }
    }
    if scope.animation() {
        animation::links(&mut r, &a.links, &b.links);
        animation::animations(&mut r, inputs.options.angle_tolerance, side_a, side_b);
    }
    r
}

fn static_object(inputs: &mut Inputs, a: &Static, b: &Static) -> Recorder {
    let mut r = Recorder::with_room(inputs.room);
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
    r
}
