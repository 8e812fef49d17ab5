//! Meshes gathered from a foreign glTF → the model's meshes: their polygons' samples cut from
//! the glTF's images and packed into 256×256 pages (as build packs them), bounding spheres made
//! tight, and lighting from the glTF's normals or colours, computed where it has none.

use std::sync::Arc;

use wadforge_format::{BoundingBox, Mesh, Page, Polygon, Sample, Shading};
use wadforge_manifests::Sphere;

use crate::geometry::RawMesh;
use crate::spheres;
use crate::texture::{textures_from, PolygonSamples, PolygonTextureOut, PolygonUvs, RgbaImage, SampleStore};

/// Textured meshes with the samples and pages they use.
pub(super) struct Finished {
    pub meshes: Vec<Mesh>,
    pub samples: Vec<Sample>,
    pub pages: Vec<Page>,
}

/// How a mesh is lit in TR: moveables by normals, statics by shades.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Lit {
    ByNormals,
    ByShades,
}

/// `raw` textured from `images` (samples cut within what a file of `input_bytes` may ask).
pub(super) fn finish(
    raw: Vec<RawMesh>,
    images: &[Arc<RgbaImage>],
    lit: Lit,
    input_bytes: u64,
) -> Result<Finished, String> {
    let polygons: Vec<PolygonUvs> = (raw.iter().flat_map(|m| m.polygons.iter()))
        .map(|p| PolygonUvs {
            image: p.image,
            uvs: p.uvs.clone(),
            is_quad: p.corners.len() == 4,
        })
        .collect();
    let cut = PolygonSamples::cut(images, &polygons, &SampleStore::bounded(input_bytes))
        .map_err(|e| e.to_string())?;
    let textures = textures_from(cut, Default::default()).map_err(|e| e.to_string())?;
    let mut rest = textures.polygons.as_slice();
    let mut meshes = Vec::with_capacity(raw.len());
    for mesh in raw {
        let (own, after) = rest.split_at(mesh.polygons.len());
        rest = after;
        meshes.push(finished_mesh(mesh, own, lit));
    }
    Ok(Finished {
        meshes,
        samples: textures.samples,
        pages: textures.pages,
    })
}

/// One mesh with its polygons' textures (corners rotated as each texture asks), a tight sphere
/// and its lighting.
fn finished_mesh(raw: RawMesh, textures: &[PolygonTextureOut], lit: Lit) -> Mesh {
    let polygons = (raw.polygons.iter().zip(textures))
        .map(|(p, out)| {
            let n = p.corners.len();
            let c: Vec<u16> = (0..n).map(|i| p.corners[(i + out.shift as usize) % n]).collect();
            if n == 4 {
                Polygon::quad([c[0], c[1], c[2], c[3]], out.texture, p.attributes)
            } else {
                Polygon::triangle([c[0], c[1], c[2]], out.texture, p.attributes)
            }
        })
        .collect();
    let mut mesh = Mesh {
        vertices: raw.vertices,
        polygons,
        ..Mesh::default()
    };
    // A radius of 0 would keep collision off: any other asks for the tight sphere.
    let asked = Sphere {
        center: [0; 3],
        radius: 1,
        flag: 0,
    };
    mesh.sphere = spheres::bounding_sphere(&mesh.vertices, &asked, &[]);
    let whole = |n: usize| n == mesh.vertices.len();
    mesh.shading = match lit {
        Lit::ByNormals if raw.has_normals && whole(raw.normals.len()) => Shading::Normals(raw.normals),
        Lit::ByNormals => Shading::Normals(
            (mesh.area_weighted_normals().iter())
                .map(|n| n.map(|c| (c * Shading::NORMAL_LENGTH).round() as i16))
                .collect(),
        ),
        Lit::ByShades if raw.has_shades && whole(raw.shades.len()) => Shading::Shades(raw.shades),
        Lit::ByShades => Shading::Shades(mesh.area_weighted_normals().iter().map(shade).collect()),
    };
    mesh
}

/// A shade for a face direction, lit from above and in front (TR −Y is up) and never black:
/// the light build gives a static without shades.
fn shade(normal: &[f64; 3]) -> i16 {
    let light = [0.0, -0.857, 0.514];
    let facing = (0..3).map(|k| normal[k] * light[k]).sum::<f64>().max(0.0);
    ((1.0 - (0.4 + 0.6 * facing)) * 8191.0).round() as i16
}

/// The box around a mesh's vertices (all zeros without any).
pub(super) fn mesh_box(mesh: &Mesh) -> BoundingBox {
    let Some(first) = mesh.vertices.first() else {
        return BoundingBox::default();
    };
    let (mut min, mut max) = (*first, *first);
    for v in &mesh.vertices {
        for k in 0..3 {
            min[k] = min[k].min(v[k]);
            max[k] = max[k].max(v[k]);
        }
    }
    BoundingBox { min, max }
}
