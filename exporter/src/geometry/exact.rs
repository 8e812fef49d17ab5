//! An unedited mesh, given back as stored.
//!
//! Import writes every TR polygon as glTF triangles, a quad `v0 v1 v2 v3` as `(v0 v1 v2)` and
//! `(v0 v2 v3)`, and keeps the mesh as stored beside the glTF. The glTF still shows that mesh
//! when its triangles are exactly the stored polygons' triangles: the same corner positions in
//! the same winding, the same TR normals (and glTF normals that still point where import wrote
//! them) or shades, the same blend attributes, each as often as stored, in any order. Then the
//! stored vertices, lighting and polygons are kept as they were, and each polygon takes its UVs
//! from the triangles that show it.

use std::collections::{HashMap, VecDeque};

use wadforge_format::{Mesh, Shading};

use super::{same_direction, shown_normal_of, Corner, RawMesh, RawPolygon, Triangle};

/// What must match between a stored corner and a glTF corner: position, and the TR lighting.
type CornerKey = ([i16; 3], [i16; 3], i16);

/// A triangle as a key: blend attributes and corners, rotated so the smallest corner leads
/// (the same triangle whichever corner glTF lists first; the winding counts).
type TriangleKey = (u8, [CornerKey; 3]);

fn triangle_key(attributes: u8, corners: [CornerKey; 3]) -> TriangleKey {
    let lead = (0..3).min_by_key(|&k| corners[k]).unwrap_or(0);
    (attributes, [0, 1, 2].map(|k| corners[(k + lead) % 3]))
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
    let mut shown: HashMap<TriangleKey, VecDeque<usize>> = HashMap::new();
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
        let halves: &[[usize; 3]] = if p.is_quad {
            &[[0, 1, 2], [0, 2, 3]]
        } else {
            &[[0, 1, 2]]
        };
        let mut uvs = vec![None; c.len()];
        let mut image = None;
        for half in halves {
            let keys = half.map(|k| stored_key(c[k]));
            let [Some(a), Some(b), Some(d)] = keys else {
                return None;
            };
            let queue = shown.get_mut(&triangle_key(p.attributes.to_byte(), [a, b, d]))?;
            let t = &triangles[queue.pop_front()?];
            for (slot, key) in half.iter().zip([a, b, d]) {
                let corner = t.corners.iter().find(|x| gltf_key(x, normals) == Some(key))?;
                // The glTF normal must still point where import pointed it.
                if let (Some(shown_normal), Shading::Normals(n)) = (corner.shown_normal, &stored.shading) {
                    let i = c[*slot] as usize;
                    let normal = n.get(i).copied().unwrap_or_default();
                    if !same_direction(shown_normal, shown_normal_of(normal, computed[i])) {
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
    })
}
