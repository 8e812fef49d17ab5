//! An unedited mesh, given back as stored.
//!
//! Import writes every TR polygon as glTF triangles, a quad `v0 v1 v2 v3` as `(v0 v1 v2)` and
//! `(v0 v2 v3)`, and keeps the mesh as stored beside the glTF. The glTF still shows that mesh
//! when its triangles are exactly the stored polygons' triangles: the same corner positions in
//! the same winding, the same TR normals (and glTF normals that still point where import wrote
//! them) or shades, the same blend attributes, each as often as stored, in any order. Then the
//! stored vertices, lighting and polygons are kept as they were, and each polygon takes its UVs
//! from the triangles that show it.

use std::collections::VecDeque;

use crate::FastMap;

use wadforge_format::{Mesh, Shading};

use super::{has_no_area, same_direction, shown_normal_of, Corner, RawMesh, RawPolygon, Triangle};

/// What must match between a stored corner and a glTF corner: position, and the TR lighting.
type CornerKey = ([i16; 3], [i16; 3], i16);

/// A triangle as a key: blend attributes and corners in the least of their three rotations
/// (the same triangle whichever corner glTF lists first; the winding counts). Rotating so the
/// least corner leads is not enough: a polygon whose corners coincide has it twice.
type TriangleKey = (u8, [CornerKey; 3]);

fn triangle_key(attributes: u8, corners: [CornerKey; 3]) -> TriangleKey {
    let rotations = [0, 1, 2].map(|r| [0, 1, 2].map(|k| corners[(k + r) % 3]));
    (attributes, rotations.into_iter().min().unwrap_or(corners))
}

/// How far the glTF triangle's corners are rotated from `keys` (its corner `(k + r) % 3` shows
/// corner `k`): as listed when that matches, for corners that coincide match in more than one
/// rotation, and only the listed order tells their UVs apart.
fn rotation(t: &Triangle, keys: [CornerKey; 3], normals: bool) -> Option<usize> {
    (0..3).find(|&r| (0..3).all(|k| gltf_key(&t.corners[(k + r) % 3], normals) == Some(keys[k])))
}

/// The glTF corner's key, in the terms of a stored mesh lit by normals or by shades.
fn gltf_key(corner: &Corner, normals: bool) -> Option<CornerKey> {
    Some(if normals {
        (corner.position, corner.stored_normal?, 0)
    } else {
        (corner.position, [0; 3], corner.shade?)
    })
}

/// The stored mesh with the UVs of `triangles`, when they show exactly that mesh.
pub(crate) fn rebuild(stored: &Mesh, triangles: &[Triangle]) -> Option<RawMesh> {
    let normals = matches!(stored.shading, Shading::Normals(_));
    let computed = stored.area_weighted_normals();
    let unkept = normals_blender_cannot_keep(stored);
    let stored_key = |v: u16| -> Option<CornerKey> {
        let i = v as usize;
        let position = *stored.vertices.get(i)?;
        // A vertex without lighting (fewer normals than vertices) was written with zero.
        Some(match &stored.shading {
            Shading::Normals(n) => (position, n.get(i).copied().unwrap_or_default(), 0),
            Shading::Shades(s) => (position, [0; 3], s.get(i).copied().unwrap_or(0)),
        })
    };

    // The glTF triangles by key, in file order.
    let mut shown: FastMap<TriangleKey, VecDeque<usize>> = FastMap::default();
    for (index, t) in triangles.iter().enumerate() {
        let keys = [0, 1, 2].map(|k| gltf_key(&t.corners[k], normals));
        let [Some(a), Some(b), Some(c)] = keys else {
            return None;
        };
        shown
            .entry(triangle_key(t.attributes.to_byte(), [a, b, c]))
            .or_default()
            .push_back(index);
    }

    let mut polygons = Vec::with_capacity(stored.polygons.len());
    for p in &stored.polygons {
        let c = p.corners();
        let mut uvs = vec![None; c.len()];
        let mut image = None;
        for half in p.triangle_corners() {
            let keys = half.map(|k| stored_key(c[k]));
            let [Some(a), Some(b), Some(d)] = keys else {
                return None;
            };
            let queue = shown.get_mut(&triangle_key(p.attributes.to_byte(), [a, b, d]))?;
            let t = &triangles[queue.pop_front()?];
            let r = rotation(t, [a, b, d], normals)?;
            for (k, slot) in half.iter().enumerate() {
                let corner = &t.corners[(k + r) % 3];
                // The glTF normal must still point where import pointed it.
                if let (Some(shown_normal), Shading::Normals(n)) = (corner.shown_normal, &stored.shading) {
                    let i = c[*slot] as usize;
                    let normal = n.get(i).copied().unwrap_or_default();
                    if !unkept[i] && !same_direction(shown_normal, shown_normal_of(normal, computed[i])) {
                        return None;
                    }
                }
                uvs[*slot].get_or_insert(corner.uv);
            }
            image.get_or_insert(t.image);
        }
        polygons.push(RawPolygon {
            corners: c.to_vec(),
            uvs: uvs.into_iter().collect::<Option<Vec<_>>>()?,
            image: image?,
            attributes: p.attributes,
            unused: p.unused,
        });
    }
    // Every glTF triangle shows a stored polygon.
    if shown.values().any(|q| !q.is_empty()) {
        return None;
    }
    let (normals, shades) = match &stored.shading {
        Shading::Normals(n) => (n.clone(), Vec::new()),
        Shading::Shades(s) => (Vec::new(), s.clone()),
    };
    Some(RawMesh {
        has_normals: matches!(stored.shading, Shading::Normals(_)),
        has_shades: matches!(stored.shading, Shading::Shades(_)),
        vertices: stored.vertices.clone(),
        normals,
        shades,
        polygons,
        removed_vertices: Vec::new(),
        stored_vertices: Vec::new(),
    })
}

/// The vertices whose glTF normal Blender does not give back: the corners of the stored
/// triangles of no area (see [`has_no_area`]: the game draws nothing on them), and of polygons
/// laid over another on the same corners (a face and its back-face twin: Blender 5.0.1 gives
/// some of their vertices the normal (0, −1, 0), as in TombEngine_Weapons' COMPASS_ITEM).
/// Their positions and TR normals are still compared; only a normal turned at those vertices
/// goes unseen.
pub(super) fn normals_blender_cannot_keep(stored: &Mesh) -> Vec<bool> {
    let mut unkept = vec![false; stored.vertices.len()];
    let mut mark = |corners: &[u16]| {
        for &v in corners {
            if let Some(slot) = unkept.get_mut(v as usize) {
                *slot = true;
            }
        }
    };
    let mut on_corners: FastMap<Vec<u16>, usize> = FastMap::default();
    for p in &stored.polygons {
        let mut corners = p.corners().to_vec();
        corners.sort_unstable();
        *on_corners.entry(corners).or_default() += 1;
        for triangle in p.triangles() {
            let [Some(a), Some(b), Some(d)] = triangle.map(|v| stored.vertices.get(v as usize)) else {
                continue;
            };
            if has_no_area([*a, *b, *d]) {
                mark(&triangle);
            }
        }
    }
    for (corners, count) in &on_corners {
        if *count > 1 {
            mark(corners);
        }
    }
    unkept
}
