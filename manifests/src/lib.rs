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
    let tree = serde_yaml::with::singleton_map_recursive::serialize(value, serde_yaml::value::Serializer)
        .expect("manifest types always serialise");
    let body = emit::compact(&tree)
        .unwrap_or_else(|| serde_yaml::to_string(&tree).expect("a YAML value always serialises"));
    let mut out: String = header.lines().map(|l| format!("# {l}\n")).collect();
    out.push_str(&body);
    out
}
