//! The manifest directory: a top-level manifest (`wadforge.yaml`) and one YAML manifest per
//! object beside its glTF.
//!
//! - [`schema`]: the serde types (parsing and meaning kept apart, as gltf-json does).
//! - [`load`](mod@load): finds object manifests with `walkdir`, parses and validates them; errors give
//!   file:line:column for YAML mistakes and the object and field for impossible values.
//! - [`sounds`]: `sounds.yaml`, the sounds the directory's animations play (optional).
//! - [`write_yaml`]: the YAML text of a manifest, headed by a comment saying what the file is.
//!
//! Layout of a directory (written by `wadforge import`, read by `wadforge build`):
//!
//! ```text
//! DIR/wadforge.yaml            source, game, units and axes, list of object manifests
//! DIR/moveables/NNN_SLOT.yaml  one per moveable: id, slot, bones, animations (state machine)
//! DIR/moveables/NNN_SLOT.glb   its rigged, skinned, animated, textured glTF
//! DIR/statics/NNN_SLOT.yaml    one per static: id, slot, mesh, boxes, flags
//! DIR/statics/NNN_SLOT.glb
//! DIR/sounds.yaml             the sounds the animations play, by id (optional)
//! ```

#![warn(clippy::too_many_lines)]

mod box_lines;
mod emit;
mod error;
pub mod gltf_contract;
pub mod load;
mod long_lists;
pub mod schema;
pub mod sounds;
mod yaml_budget;

pub use error::{Location, ManifestError};
pub use load::{load, LoadedObject, ManifestDir};
pub use schema::*;

/// YAML text of a manifest, headed by `header` as comment lines: block style for the structure,
/// short lists and small records on one line (see `emit`).
pub fn write_yaml<T: serde::Serialize>(value: &T, header: &str) -> String {
    let tree = value_tree(value);
    let body = emit::compact(&tree)
        .unwrap_or_else(|| serde_yaml::to_string(&tree).expect("a YAML value always serialises"));
    commented(header) + &body
}

/// [`write_yaml`] of an object manifest, with a moveable's bones and animations turned into text
/// one at a time: the value tree of a 445-animation Lara's would take megabytes, and that of a
/// moveable of 16 000 bones 70 MB (4.4 kB a bone). The same text.
pub fn write_object_manifest(manifest: &ObjectManifest, header: &str) -> String {
    match manifest {
        ObjectManifest::Moveable(m) if !m.animations.is_empty() || m.bones.len() > 1 => {
            lists_one_at_a_time(m, header).unwrap_or_else(|| write_yaml(manifest, header))
        }
        _ => write_yaml(manifest, header),
    }
}

/// The text of `m` with its bones (past the first) and animations written one at a time, or
/// `None` where the compact writer would not write all of it (then [`write_yaml`] writes it
/// whole, as serde_yaml does).
fn lists_one_at_a_time(m: &MoveableManifest, header: &str) -> Option<String> {
    // The shell keeps the first bone, so that it is written in block style, as the whole is.
    let shell = ObjectManifest::Moveable(MoveableManifest {
        id: m.id,
        slot: m.slot.clone(),
        gltf: m.gltf.clone(),
        dressed_by: m.dressed_by.clone(),
        bones: m.bones.iter().take(1).cloned().collect(),
        animations: Vec::new(),
    });
    let shell = emit::compact(&value_tree(&shell))?;
    // The moveable's keys sit at indent 2 under `moveable:`; a list under a key keeps its indent.
    // The other bones follow the first, just before the animations.
    const EMPTY: &str = "\n  animations: []\n";
    let at = shell.find(EMPTY)?;
    let mut out = commented(header);
    out.push_str(&shell[..at + 1]);
    for bone in m.bones.iter().skip(1) {
        out.push_str(&emit::sequence(&value_tree(std::slice::from_ref(bone)), 2)?);
    }
    if m.animations.is_empty() {
        out.push_str(&EMPTY[1..]);
    } else {
        out.push_str("  animations:\n");
        for animation in &m.animations {
            out.push_str(&long_lists::animation(animation)?);
        }
    }
    out.push_str(&shell[at + EMPTY.len()..]);
    Some(out)
}

fn value_tree<T: serde::Serialize + ?Sized>(value: &T) -> serde_yaml::Value {
    serde_yaml::with::singleton_map_recursive::serialize(&value, serde_yaml::value::Serializer)
        .expect("manifest types always serialise")
}

fn commented(header: &str) -> String {
    header.lines().map(|l| format!("# {l}\n")).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::schema::{Bone, Lighting, MeshInfo, Sphere};

    fn bone(name: &str, same_as: Option<MeshRef>) -> Bone {
        Bone {
            name: name.into(),
            mesh: MeshInfo {
                sphere: Sphere {
                    center: [0, 95, 0],
                    radius: 104,
                    flag: 0,
                },
                lighting: Lighting::Normals,
                fingerprint: Some("cbf29ce484222325".into()),
                recompute_normals: false,
                same_as,
            },
        }
    }

    #[test]
    fn bones_written_one_at_a_time_make_the_text_of_the_whole() {
        let first = MeshRef::Moveable {
            id: 1,
            bone: "mesh_00".into(),
        };
        let manifest = ObjectManifest::Moveable(MoveableManifest {
            id: 1,
            slot: "PISTOLS_ANIM".into(),
            gltf: "001_PISTOLS_ANIM.glb".into(),
            dressed_by: None,
            bones: vec![bone("mesh_00", None), bone("mesh_01", Some(first))],
            animations: Vec::new(),
        });
        let ObjectManifest::Moveable(m) = &manifest else {
            unreachable!()
        };
        let one_at_a_time = lists_one_at_a_time(m, "header").expect("the compact writer writes it");
        assert_eq!(one_at_a_time, write_yaml(&manifest, "header"));
    }
}
