//! Textures: each object's samples cut from its own images (which can then go), then every
//! object's at once, so that samples shared across objects are stored once; errors placed back on
//! the object, bone and polygon.

use std::path::Path;
use std::sync::Arc;

use wadforge_format::Wad;

use super::PendingMesh;
use crate::error::BuildError;
use crate::texture::{
    textures_from, PolygonSamples, PolygonUvs, RgbaImage, SampleStore, TextureError, TextureStart, Textures,
};

/// The samples of one object's `meshes` (polygons in mesh order) cut from its `images`; `root`
/// is the directory, for errors no polygon places.
pub(super) fn cut_samples(
    root: &Path,
    meshes: &[PendingMesh],
    images: &[Arc<RgbaImage>],
    store: &SampleStore,
) -> Result<PolygonSamples, BuildError> {
    let polygons: Vec<PolygonUvs> = meshes
        .iter()
        .flat_map(|mesh| mesh.raw.polygons.iter())
        .map(|p| PolygonUvs {
            image: p.image,
            uvs: p.uvs.clone(),
            is_quad: p.corners.len() == 4,
        })
        .collect();
    PolygonSamples::cut(images, &polygons, store).map_err(|e| placed(&e, root, meshes))
}

/// The samples, pages and polygon textures of every object's `samples` (the polygons of
/// `meshes`, in mesh order), numbered after `base`'s and reusing its samples.
pub(super) fn texture_samples(
    root: &Path,
    base: Option<&Wad>,
    meshes: &[PendingMesh],
    samples: PolygonSamples,
) -> Result<Textures, BuildError> {
    let start = TextureStart {
        first_sample: base.map_or(0, |b| b.samples.len()),
        first_page: base.map_or(0, |b| b.pages.len()) as u16,
        reuse: base,
    };
    textures_from(samples, start).map_err(|e| placed(&e, root, meshes))
}

/// A texture error naming the object, the bone and the polygon within its mesh.
fn placed(e: &TextureError, root: &Path, meshes: &[PendingMesh]) -> BuildError {
    let mut index = e.polygon();
    for mesh in meshes {
        if index < mesh.raw.polygons.len() {
            let message = e.to_string().replacen(
                &format!("polygon {}", e.polygon()),
                &format!("polygon {index}"),
                1,
            );
            return mesh
                .place
                .error(Some(format!("{}, polygon {index}", mesh.what)), message);
        }
        index -= mesh.raw.polygons.len();
    }
    BuildError::Object {
        file: root.to_path_buf(),
        object: "textures".into(),
        place: None,
        message: e.to_string(),
    }
}

/// A note when polygons' UVs were off the sample grid.
pub(super) fn resampled_note(textures: &Textures) -> Option<String> {
    let resampled = textures.polygons.iter().filter(|p| p.resampled).count();
    (resampled > 0)
        .then(|| format!("{resampled} polygons had UVs off the sample grid: their texels were resampled"))
}
