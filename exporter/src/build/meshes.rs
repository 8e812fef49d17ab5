//! The built meshes: each pending mesh with its polygons' textures, its bounding sphere (kept
//! while unedited or enclosing, else rebuilt) and its lighting (normals or shades, kept from the
//! glTF or computed).

use wadforge_format::{BoundingSphere, Mesh, MeshIndex, Polygon, Shading, Wad};
use wadforge_manifests::{Lighting, MeshInfo};

use super::PendingMesh;
use crate::geometry::RawMesh;
use crate::spheres;
use crate::texture::PolygonTextureOut;

/// Adds `meshes` to `wad`, their polygons textured by `textures` (one per polygon, in mesh
/// order); returns the index in `wad` of each. Meshes are finished in parallel (spheres and
/// normals are most of the work) and added in order.
pub(super) fn add_meshes(
    wad: &mut Wad,
    meshes: Vec<PendingMesh>,
    textures: Vec<PolygonTextureOut>,
) -> Vec<MeshIndex> {
    use rayon::prelude::*;
    let mut rest = textures.as_slice();
    let mut work = Vec::with_capacity(meshes.len());
    for mesh in meshes {
        let (own, after) = rest.split_at(mesh.raw.polygons.len());
        rest = after;
        work.push((mesh, own));
    }
    let finished: Vec<Mesh> = work
        .into_par_iter()
        .map(|(PendingMesh { mut raw, info, .. }, textures)| {
            let polygons = textured_polygons(&raw, textures);
            let mut mesh = Mesh {
                vertices: std::mem::take(&mut raw.vertices),
                polygons,
                ..Mesh::default()
            };
            mesh.sphere = bounding_sphere(&mesh, &info, &raw.stored_vertices);
            mesh.shading = shading(&mesh, &info, raw);
            mesh
        })
        .collect();
    let first = wad.meshes.len();
    wad.meshes.extend(finished);
    (first..wad.meshes.len()).collect()
}

/// The mesh's polygons with their textures, each polygon's corners rotated as its texture asks.
fn textured_polygons(raw: &RawMesh, textures: &[PolygonTextureOut]) -> Vec<Polygon> {
    raw.polygons
        .iter()
        .zip(textures)
        .map(|(p, out)| {
            let n = p.corners.len();
            let corners: Vec<u16> = (0..n).map(|i| p.corners[(i + out.shift as usize) % n]).collect();
            let mut polygon = if n == 4 {
                Polygon::quad(
                    [corners[0], corners[1], corners[2], corners[3]],
                    out.texture,
                    p.attributes,
                )
            } else {
                Polygon::triangle([corners[0], corners[1], corners[2]], out.texture, p.attributes)
            };
            polygon.unused = p.unused;
            polygon
        })
        .collect()
}

/// The manifest's sphere while the mesh is unedited (even one that never enclosed it), else
/// the manifest's while it encloses every vertex that moved (`stored`: the stored copy's
/// positions, see [`spheres::bounding_sphere`]), else one rebuilt tight.
fn bounding_sphere(mesh: &Mesh, info: &MeshInfo, stored: &[[i16; 3]]) -> BoundingSphere {
    let unedited = info.fingerprint.as_deref() == Some(&format!("{:016x}", mesh.positions_fingerprint()));
    if unedited {
        BoundingSphere {
            center: info.sphere.center,
            radius: info.sphere.radius,
            flag: info.sphere.flag,
        }
    } else {
        spheres::bounding_sphere(&mesh.vertices, &info.sphere, stored)
    }
}

/// The mesh's lighting as its manifest says: normals or shades from the glTF, or computed from
/// the mesh (area-weighted normals; shades lit from above) when the glTF has none or the
/// manifest asks.
fn shading(mesh: &Mesh, info: &MeshInfo, raw: RawMesh) -> Shading {
    match info.lighting {
        Lighting::Normals if info.recompute_normals || !raw.has_normals => Shading::Normals(
            mesh.area_weighted_normals()
                .iter()
                .map(|n| n.map(|c| (c * Shading::NORMAL_LENGTH).round() as i16))
                .collect(),
        ),
        Lighting::Normals => Shading::Normals(raw.normals),
        Lighting::Shades if raw.has_shades => Shading::Shades(raw.shades),
        Lighting::Shades => {
            Shading::Shades(mesh.area_weighted_normals().iter().map(computed_shade).collect())
        }
    }
}

/// A shade for a mesh that has none: lit from above and in front (TR −Y is up), never black.
fn computed_shade(normal: &[f64; 3]) -> i16 {
    let light = [0.0, -0.857, 0.514];
    let facing = (0..3).map(|k| normal[k] * light[k]).sum::<f64>().max(0.0);
    let grey = 0.4 + 0.6 * facing;
    ((1.0 - grey) * 8191.0).round() as i16
}
