//! The glTF objects import writes otherwise than gltf-json's types would, in types of their own
//! so that the files stay the same byte for byte:
//! - gltf-json's `Material` always writes `doubleSided`, `emissiveFactor`,
//!   `pbrMetallicRoughness.baseColorFactor` and a texture's `texCoord`, which import leaves out
//!   (they keep their defaults);
//! - gltf-json's `Scene` leaves out an empty node list, which import writes (`"nodes":[]`: the
//!   scene of a static without polygons).

use gltf::json::{self, material::AlphaMode, Index};
use serde::Serialize;
use wadforge_manifests::gltf_contract::{MaterialExtras, SceneExtras};

/// A material: its TR attributes in its extras, its texture unfiltered.
#[derive(Serialize)]
pub(crate) struct Material {
    #[serde(rename = "alphaMode")]
    pub alpha_mode: AlphaMode,
    pub extras: MaterialExtras,
    pub name: String,
    #[serde(rename = "pbrMetallicRoughness")]
    pub pbr_metallic_roughness: PbrMetallicRoughness,
}

#[derive(Serialize)]
pub(crate) struct PbrMetallicRoughness {
    #[serde(rename = "baseColorTexture", skip_serializing_if = "Option::is_none")]
    pub base_color_texture: Option<TextureInfo>,
    #[serde(rename = "metallicFactor")]
    pub metallic_factor: f32,
    #[serde(rename = "roughnessFactor")]
    pub roughness_factor: f32,
}

#[derive(Serialize)]
pub(crate) struct TextureInfo {
    pub index: Index<json::Texture>,
}

/// A scene: its nodes, and in its extras each mesh as stored. Written as it is rather than as a
/// JSON value (see `write`): its fields are declared in sorted order and hold no floats, and its
/// extras are the largest part of a large object's JSON.
#[derive(Serialize)]
pub(crate) struct Scene {
    pub extras: SceneExtras,
    pub name: String,
    pub nodes: Vec<Index<json::Node>>,
}
