//! Each mesh as the file stores it, kept in the glTF beside what Blender shows.
//!
//! glTF and Blender cannot hold all of a TR mesh: which triangle pairs are quads and along which
//! diagonal, the order of vertices and polygons, vertices no polygon uses, zero normals, meshes
//! without polygons. The scene's extras (which Blender keeps) map each bone name to its mesh
//! record as a WAD stores it, base64-encoded, textures left out (they come from the UVs): see
//! [`StoredMeshes`]. Build uses a record only while the glTF still shows exactly that mesh; an
//! edited mesh is built from what Blender exported.

use base64::Engine;
use wadforge_format::{wad, Mesh, PolygonTexture};
use wadforge_manifests::gltf_contract::{SceneExtras, StoredMeshes};

/// The record of `mesh`, or `None` when the WAD format cannot hold it (build then uses the glTF).
fn record(mesh: &Mesh) -> Option<String> {
    let mut structure = mesh.clone();
    structure
        .polygons
        .iter_mut()
        .for_each(|p| p.texture = PolygonTexture::default());
    let bytes = wad::encode_mesh(&structure).ok()?;
    Some(base64::engine::general_purpose::STANDARD.encode(bytes))
}

/// The scene extras for the meshes of `named` (bone or mesh name, mesh).
pub(crate) fn scene_extras<'a>(named: impl IntoIterator<Item = (&'a str, &'a Mesh)>) -> SceneExtras {
    let records = named
        .into_iter()
        .filter_map(|(name, mesh)| record(mesh).map(|r| (name.to_string(), Some(r))))
        .collect();
    SceneExtras {
        tr_meshes: Some(StoredMeshes::Records(records)),
        tr_actions: None,
        tr_sounds: None,
    }
}
