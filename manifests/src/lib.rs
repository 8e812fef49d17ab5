//! The manifest directory: a top-level manifest (`wadforge.yaml`) and one YAML manifest per
//! object beside its glTF.
//!
//! - [`schema`]: the serde types (parsing and meaning kept apart, as gltf-json does).
//! - [`load`]: finds object manifests with `walkdir`, parses and validates them; errors give
//!   file:line:column for YAML mistakes and the object and field for impossible values.
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
//! ```

#![warn(clippy::too_many_lines)]

mod emit;
mod error;
pub mod input_file;
pub mod load;
pub mod parallel;
pub mod schema;
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

/// [`write_yaml`] of an object manifest, with a moveable's animations turned into text one at a
/// time: the value tree of a 445-animation Lara's would take megabytes. The same text.
pub fn write_object_manifest(manifest: &ObjectManifest, header: &str) -> String {
    match manifest {
        ObjectManifest::Moveable(m) if !m.animations.is_empty() => {
            animations_one_at_a_time(m, header).unwrap_or_else(|| write_yaml(manifest, header))
        }
        _ => write_yaml(manifest, header),
    }
}

/// The text of `m` with its animations written one at a time, or `None` where the compact
/// writer would not write all of it (then [`write_yaml`] writes it whole, as serde_yaml does).
fn animations_one_at_a_time(m: &MoveableManifest, header: &str) -> Option<String> {
    let shell = ObjectManifest::Moveable(MoveableManifest {
        id: m.id,
        slot: m.slot.clone(),
        gltf: m.gltf.clone(),
        dressed_by: m.dressed_by.clone(),
        bones: m.bones.clone(),
        animations: Vec::new(),
    });
    let shell = emit::compact(&value_tree(&shell))?;
    // The moveable's keys sit at indent 2 under `moveable:`; a list under a key keeps its indent.
    const EMPTY: &str = "\n  animations: []\n";
    let at = shell.find(EMPTY)?;
    let mut out = commented(header);
    out.push_str(&shell[..at + 1]);
    out.push_str("  animations:\n");
    for animation in &m.animations {
        out.push_str(&emit::sequence(&value_tree(std::slice::from_ref(animation)), 2)?);
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
