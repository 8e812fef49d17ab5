//! W2Moveable: a moveable's meshes, optional skin, bones and animations.

use super::animation::{read_animation, write_animation, Animation};
use super::fields::{self, parent, FieldWriter, Fields, UnknownChunks};
use super::mesh::{read_mesh, write_mesh, Mesh};
use crate::wad2::chunks::{Chunk, ChunkRef};
use crate::wad2::error::Wad2Error;

/// A moveable as Tomb Editor stores it.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Moveable {
    /// The slot id, read against the catalogue of the file's game.
    pub id: i64,
    /// One mesh per bone, in bone order.
    pub meshes: Vec<Mesh>,
    /// W2MovSkin: Tomb Engine's skinned mesh.
    pub skin: Option<Mesh>,
    pub bones: Vec<Bone>,
    pub animations: Vec<Animation>,
    pub unknown: UnknownChunks,
}

/// A bone of the flat list (W2Bone2).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Bone {
    /// The classic link word: 0 parent is the previous bone, 1 pop, 2 push, 3 read the stack.
    pub opcode: i64,
    pub name: String,
    /// Offset from the parent's pivot.
    pub translation: [f32; 3],
    /// W2BoneMesh: index into the moveable's meshes.
    pub mesh: Option<i64>,
    pub unknown: UnknownChunks,
}

/// The opcodes of the link words, as TombLib names them.
const NOT_USE_STACK: i64 = 0;
const POP: i64 = 1;
const PUSH: i64 = 2;
const READ: i64 = 3;

pub(super) fn read_moveable(chunk: &ChunkRef) -> Result<Moveable, Wad2Error> {
    let mut fields = Fields::of(chunk);
    let mut moveable = Moveable {
        id: fields.number()?,
        ..Moveable::default()
    };
    let unknown = &mut moveable.unknown;
    for child in fields.children()? {
        match child.id {
            "W2Mesh" => moveable.meshes.push(read_mesh(&child)?),
            "W2MovSkin" => {
                for inner in Fields::of(&child).children()? {
                    match inner.id {
                        "W2Mesh" => moveable.skin = Some(read_mesh(&inner)?),
                        _ => unknown.keep("W2MovSkin", &inner),
                    }
                }
            }
            "W2Bone2" => moveable.bones.push(read_bone(&child)?),
            // The older nested tree: flattened into link words as TombLib flattens it.
            "W2Bone" => moveable.bones.extend(flatten_tree(&read_tree(&child)?)),
            "W2Anm" | "W2Ani" | "W2Ani2" | "W2Ani3" => {
                moveable.animations.push(read_animation(&child)?);
            }
            _ => unknown.keep(chunk.id, &child),
        }
    }
    Ok(moveable)
}

fn read_bone(chunk: &ChunkRef) -> Result<Bone, Wad2Error> {
    let mut fields = Fields::of(chunk);
    let mut bone = Bone {
        opcode: fields.number()?,
        name: fields.name()?,
        ..Bone::default()
    };
    for child in fields.children()? {
        match child.id {
            "W2BoneTrans" => bone.translation = fields::vector(&child)?,
            "W2BoneMesh" => bone.mesh = Some(fields::int(&child)?),
            _ => bone.unknown.keep(chunk.id, &child),
        }
    }
    Ok(bone)
}

/// A bone of the older nested tree (W2Bone), with its children.
#[derive(Default)]
struct TreeBone {
    bone: Bone,
    children: Vec<TreeBone>,
}

fn read_tree(chunk: &ChunkRef) -> Result<TreeBone, Wad2Error> {
    let mut tree = TreeBone::default();
    for child in Fields::of(chunk).children()? {
        match child.id {
            "W2BoneName" => tree.bone.name = fields::string(&child),
            "W2BoneTrans" => tree.bone.translation = fields::vector(&child)?,
            "W2BoneMesh" => tree.bone.mesh = Some(fields::int(&child)?),
            // Depth is bounded by the container's MAX_DEPTH.
            "W2Bone" => tree.children.push(read_tree(&child)?),
            _ => tree.bone.unknown.keep("W2Bone2", &child),
        }
    }
    Ok(tree)
}

/// The flat list of a nested tree: the root at the origin, then each bone depth first with the
/// link word its place among its siblings gives (TombLib's conversion).
fn flatten_tree(root: &TreeBone) -> Vec<Bone> {
    let mut bones = vec![Bone {
        translation: [0.0; 3],
        ..root.bone.clone()
    }];
    flatten_children(root, &mut bones);
    bones
}

fn flatten_children(tree: &TreeBone, bones: &mut Vec<Bone>) {
    let count = tree.children.len();
    for (index, child) in tree.children.iter().enumerate() {
        let opcode = match index {
            _ if count == 1 => NOT_USE_STACK,
            0 => PUSH,
            _ if index == count - 1 => POP,
            _ => READ,
        };
        bones.push(Bone {
            opcode,
            ..child.bone.clone()
        });
        flatten_children(child, bones);
    }
}

pub(super) fn write_moveable(moveable: &Moveable) -> Chunk {
    let mut children: Vec<Chunk> = moveable.meshes.iter().map(write_mesh).collect();
    if let Some(skin) = &moveable.skin {
        let inner = moveable.unknown.with("W2MovSkin", vec![write_mesh(skin)]);
        children.push(parent("W2MovSkin", &[], &inner));
    }
    children.extend(moveable.bones.iter().map(write_bone));
    children.extend(moveable.animations.iter().map(write_animation));
    let mut fields = FieldWriter::default();
    fields.number(moveable.id);
    let children = moveable.unknown.with("W2Moveable", children);
    parent("W2Moveable", &fields.bytes, &children)
}

fn write_bone(bone: &Bone) -> Chunk {
    let mut fields = FieldWriter::default();
    fields.number(bone.opcode);
    let name = bone.name.as_bytes();
    // A name past 2 GiB cannot come from a file, whose chunks are bounded by its size.
    fields.raw(&(name.len() as i32).to_le_bytes()).raw(name);
    let mut children = vec![fields::vector_leaf("W2BoneTrans", &bone.translation)];
    children.extend(bone.mesh.map(|mesh| fields::int_leaf("W2BoneMesh", mesh)));
    parent("W2Bone2", &fields.bytes, &bone.unknown.with("W2Bone2", children))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tree(name: &str, children: Vec<TreeBone>) -> TreeBone {
        TreeBone {
            bone: Bone {
                name: name.to_owned(),
                translation: [1.0, 2.0, 3.0],
                ..Bone::default()
            },
            children,
        }
    }

    #[test]
    fn nested_tree_flattens_into_link_words() {
        // root → (a → a1), b, c: a pushes, b reads, c pops; a1 is an only child.
        let root = tree(
            "root",
            vec![
                tree("a", vec![tree("a1", Vec::new())]),
                tree("b", Vec::new()),
                tree("c", Vec::new()),
            ],
        );
        let flat = flatten_tree(&root);
        let names: Vec<_> = flat.iter().map(|b| (b.name.as_str(), b.opcode)).collect();
        assert_eq!(
            names,
            [
                ("root", 0),
                ("a", PUSH),
                ("a1", NOT_USE_STACK),
                ("b", READ),
                ("c", POP)
            ]
        );
        assert_eq!(flat[0].translation, [0.0; 3], "the root sits at the origin");
        assert_eq!(flat[1].translation, [1.0, 2.0, 3.0]);
    }
}
