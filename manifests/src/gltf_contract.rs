//! What import writes into glTF beyond the standard and build reads back: names and encodings
//! both directions share, so that they agree at compile time.
//!
//! - the custom vertex attributes and the UV set of TR vertex indices (here);
//! - `extras`: the extras of materials, nodes, scenes and the document, as serde types.

mod extras;
mod lenient;

pub use extras::{
    JointExtras, MaterialExtras, MeshNodeExtras, MeshRole, ObjectExtras, ObjectKind, SceneExtras,
    StoredMeshes, STATIC_MESH, STORED_MESHES,
};

/// The custom vertex attribute holding TR normals as stored (length about 16300), named without
/// the `_` glTF puts before application-specific attributes (the file says `_TR_NORMAL`; gltf's
/// `Semantic::Extras` holds the name so, and Blender writes it back upper case).
pub const TR_NORMAL: &str = "TR_NORMAL";
/// The custom vertex attribute holding TR shades as stored (0 light … 8191 dark), named as
/// [`TR_NORMAL`] is (`_TR_SHADE` in the file).
pub const TR_SHADE: &str = "TR_SHADE";

/// The glTF UV set (`TEXCOORD_1`) holding each vertex's TR index: U is the index in its TR mesh,
/// V is [`VERTEX_INDEX_MARK`]. Blender keeps a second UV map through import and export (U
/// exactly), and the engine stitches Lara's joints and hair by vertex index, so build gives
/// every vertex of an edited mesh its index back.
pub const VERTEX_INDEX_UV_SET: u32 = 1;
/// The V of a vertex index. Blender gives the loops of faces it makes without UVs (0, 0), which
/// glTF reads back as V = 1: a vertex an artist added never passes for vertex 0.
pub const VERTEX_INDEX_MARK: f32 = 0.0;

/// The TR vertex index a [`VERTEX_INDEX_UV_SET`] pair names, when it names one.
pub fn vertex_index(uv: [f32; 2]) -> Option<u16> {
    let [u, v] = uv;
    let whole = u.fract() == 0.0 && (0.0..=f32::from(u16::MAX)).contains(&u);
    (v == VERTEX_INDEX_MARK && whole).then_some(u as u16)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn vertex_index_reads_whole_marked_indices_only() {
        assert_eq!(vertex_index([37.0, VERTEX_INDEX_MARK]), Some(37));
        assert_eq!(vertex_index([65535.0, VERTEX_INDEX_MARK]), Some(65535));
        // A loop Blender made without UVs: (0, 0) in Blender, V = 1 in glTF.
        assert_eq!(vertex_index([0.0, 1.0]), None);
        // Interpolated between two vertices (a subdivided edge), or out of range.
        assert_eq!(vertex_index([3.5, VERTEX_INDEX_MARK]), None);
        assert_eq!(vertex_index([-1.0, VERTEX_INDEX_MARK]), None);
        assert_eq!(vertex_index([70000.0, VERTEX_INDEX_MARK]), None);
        assert_eq!(vertex_index([f32::NAN, VERTEX_INDEX_MARK]), None);
    }
}
