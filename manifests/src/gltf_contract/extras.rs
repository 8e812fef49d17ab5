//! The extras import writes on glTF objects, as types: each key is a field, so a key renamed on
//! one side fails to compile on the other. Build reads them from files an artist may have
//! edited in Blender: a value of another type reads as absent (see [`super::lenient`]).

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize, Serializer};

use super::lenient;

/// A material's TR attributes, which a glTF material cannot show. Build reads a material made
/// in Blender without them as opaque or, when it blends, additive; without shine.
#[derive(Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct MaterialExtras {
    /// Additive blending (glTF's BLEND shows it only as see-through).
    #[serde(
        default,
        deserialize_with = "lenient::flag",
        skip_serializing_if = "Option::is_none"
    )]
    pub tr_additive: Option<bool>,
    #[serde(
        default,
        deserialize_with = "lenient::flag",
        skip_serializing_if = "Option::is_none"
    )]
    pub tr_shine: Option<bool>,
    /// 0 to 31; build takes a larger number as 31.
    #[serde(
        default,
        deserialize_with = "lenient::value",
        skip_serializing_if = "Option::is_none"
    )]
    pub tr_shine_intensity: Option<u64>,
    /// The attribute bit TR's tools leave unnamed (bit 7), kept as found.
    #[serde(
        default,
        deserialize_with = "lenient::flag",
        skip_serializing_if = "Option::is_none"
    )]
    pub tr_unknown_bit: Option<bool>,
}

/// What the meshes of a mesh node are: their [`MeshRole`] by name. Build reads any other name
/// (or none) as a mesh of the body.
#[derive(Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct MeshNodeExtras {
    #[serde(
        default,
        deserialize_with = "lenient::value",
        skip_serializing_if = "Option::is_none"
    )]
    pub tr_role: Option<String>,
}

/// The roles of the mesh nodes import writes; their names also name the nodes and meshes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MeshRole {
    /// The meshes lit by normals (or all of them, when all are lit by shades).
    Body,
    /// The meshes lit by shades, beside a body lit by normals.
    Shaded,
    /// The joint meshes of a dressed skeleton: an object of their own, as in TR's tools.
    Joints,
    /// The placeholder meshes of a dressed skeleton that no other object shows.
    Placeholders,
    /// Those of them lit by shades.
    PlaceholdersShaded,
}

impl MeshRole {
    /// Its name in [`MeshNodeExtras::tr_role`].
    pub const fn name(self) -> &'static str {
        match self {
            MeshRole::Body => "body",
            MeshRole::Shaded => "shaded",
            MeshRole::Joints => "joints",
            MeshRole::Placeholders => "placeholders",
            MeshRole::PlaceholdersShaded => "placeholders_shaded",
        }
    }
}

/// A joint node's TR mesh index (written for the artist; build finds joints by bone name).
#[derive(Debug, Serialize)]
pub struct JointExtras {
    pub tr_mesh: usize,
}

/// The key of [`SceneExtras::tr_meshes`], for messages (a test holds it to the field's name).
pub const STORED_MESHES: &str = "tr_meshes";

/// The name a static's one mesh goes by in [`SceneExtras::tr_meshes`].
pub const STATIC_MESH: &str = "mesh";

/// A scene's extras, which Blender keeps.
#[derive(Debug, Default, Serialize, Deserialize)]
pub struct SceneExtras {
    /// The animations import wrote, by name (glTF animation name → animation index), so that
    /// build tells an action whose animation was deleted from the manifest (left out) from one
    /// the artist made (a new animation). Blender keeps scene extras, not animation extras.
    #[serde(
        default,
        deserialize_with = "lenient::value",
        skip_serializing_if = "Option::is_none"
    )]
    pub tr_actions: Option<BTreeMap<String, u32>>,
    /// Each mesh as the file stores it (see [`StoredMeshes`]).
    #[serde(
        default,
        deserialize_with = "lenient::stored_meshes",
        skip_serializing_if = "Option::is_none"
    )]
    pub tr_meshes: Option<StoredMeshes>,
    /// Each animation's sound commands, by glTF animation name, as one line `SOUND@FRAME; ...`:
    /// the sound its catalogue name (its id where the catalogue names none), the frame from the
    /// animation's first. Blender keeps scene extras, not animation extras (and no lists mixing
    /// numbers and text): the extension makes them the action's markers, and writes the markers
    /// back in the same syntax as the action's `wadforge_sounds` property.
    #[serde(
        default,
        deserialize_with = "lenient::value",
        skip_serializing_if = "Option::is_none"
    )]
    pub tr_sounds: Option<BTreeMap<String, String>>,
}

/// Each mesh as a WAD stores it (textures left out: they come from the UVs), base64-encoded, by
/// bone name ([`STATIC_MESH`] for a static's): glTF and Blender cannot hold all of a TR mesh, and
/// build uses a record while the glTF still shows exactly that mesh.
#[derive(Debug, PartialEq)]
pub enum StoredMeshes {
    /// The records by name; `None` where the value is not a string.
    Records(BTreeMap<String, Option<String>>),
    /// What build found under the key instead of a map of names to records.
    NotAMap,
}

impl Serialize for StoredMeshes {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            StoredMeshes::Records(records) => records.serialize(serializer),
            // Read back as what it is: not a map.
            StoredMeshes::NotAMap => serializer.serialize_unit(),
        }
    }
}

/// The document's extras: which object of the WAD it is (written for the artist and other tools;
/// build takes them from the manifest).
#[derive(Debug, Serialize)]
pub struct ObjectExtras {
    pub wadforge_id: u32,
    pub wadforge_kind: ObjectKind,
    pub wadforge_slot: String,
}

#[derive(Debug, Clone, Copy, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum ObjectKind {
    Moveable,
    Static,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read<T: for<'de> Deserialize<'de>>(json: &str) -> T {
        serde_json::from_str(json).unwrap()
    }

    #[test]
    fn the_stored_meshes_key_is_the_fields_name() {
        let extras = SceneExtras {
            tr_meshes: Some(StoredMeshes::Records(BTreeMap::new())),
            tr_actions: None,
            tr_sounds: None,
        };
        let json = serde_json::to_value(&extras).unwrap();
        assert!(json.get(STORED_MESHES).is_some(), "{json}");
    }

    #[test]
    fn material_extras_read_other_types_as_absent() {
        let e: MaterialExtras = read(
            r#"{"tr_additive": 1, "tr_shine": "yes", "tr_shine_intensity": -3, "tr_unknown_bit": false}"#,
        );
        assert_eq!(e.tr_additive, Some(true), "a number is a flag");
        assert_eq!(e.tr_shine, None);
        assert_eq!(e.tr_shine_intensity, None);
        assert_eq!(e.tr_unknown_bit, Some(false));
        let e: MaterialExtras = read(r#"{"tr_additive": 0.5, "tr_shine_intensity": 40, "other": []}"#);
        assert_eq!(e.tr_additive, None, "a fraction is no flag");
        assert_eq!(e.tr_shine_intensity, Some(40), "capped by build, not here");
        assert_eq!(read::<MaterialExtras>("{}"), MaterialExtras::default());
    }

    #[test]
    fn stored_meshes_tell_absent_from_not_a_map() {
        assert_eq!(read::<SceneExtras>("{}").tr_meshes, None);
        for other in ["null", "[]", "\"x\"", "3"] {
            let e: SceneExtras = read(&format!(r#"{{"tr_meshes": {other}}}"#));
            assert_eq!(e.tr_meshes, Some(StoredMeshes::NotAMap), "{other}");
        }
        let e: SceneExtras = read(r#"{"tr_meshes": {"a": "QUJD", "b": 7}}"#);
        let records = BTreeMap::from([
            ("a".to_string(), Some("QUJD".to_string())),
            ("b".to_string(), None),
        ]);
        assert_eq!(e.tr_meshes, Some(StoredMeshes::Records(records)));
    }

    #[test]
    fn a_role_reads_as_written_or_not_at_all() {
        let written = MeshNodeExtras {
            tr_role: Some(MeshRole::Joints.name().to_string()),
        };
        let json = serde_json::to_string(&written).unwrap();
        assert_eq!(read::<MeshNodeExtras>(&json), written);
        assert_eq!(read::<MeshNodeExtras>(r#"{"tr_role": 2}"#).tr_role, None);
    }
}
