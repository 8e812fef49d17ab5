//! A mesh built from what the glTF shows: an edited mesh, or one without a stored copy.
//!
//! Two consecutive triangles become one quad only when the game draws that quad as exactly those
//! two triangles with the same texels: they share an edge, their UVs cover one sample rectangle,
//! and the shared edge is the diagonal the game splits the quad along (`v0–v2`), or the quad is a
//! parallelogram, whose two splits draw one flat surface with one affine texture mapping. A
//! non-planar pair split along the other diagonal stays two triangles: as a quad it would change
//! shape.
//!
//! Lighting per vertex: the TR normal (`_TR_NORMAL`) while the glTF normal still points the same
//! way, else the glTF normal; shades likewise (see [`super::Corner::shade`]). A zero TR normal
//! (real meshes have many) stays zero where the vertex is where the stored mesh has it and its
//! glTF normal is still the one import wrote; a vertex an artist moved, or whose normal an
//! artist turned, gets the area-weighted normal of the built mesh.

use crate::{FastMap, FastSet};
use std::borrow::Cow;

use wadforge_format::texture_corners::recover_texture;
use wadforge_format::{Mesh, Shading};
use wadforge_packer::uv::corners_from_uvs;

use super::{has_no_area, same_direction, Corner, RawMesh, RawPolygon, Triangle};

/// A vertex as welded: position, TR normal, shade, whether its zero normal is still to be
/// decided (kept or computed), and the stored vertex it comes from (index bits, and 1 when it
/// names one): two stored vertices at one place stay two.
type WeldKey = [i16; 10];

fn weld_key(c: &Corner) -> WeldKey {
    let (normal, undecided) = match (c.stored_normal, c.shown_normal) {
        // Blender gives the corners of one vertex normals a unit or two apart: where the TR mesh
        // has shades they would only keep its vertices apart (each corner's comes with it).
        (None, Some(_)) if c.lit_by_shades => ([0; 3], 0),
        (Some([0, 0, 0]), Some(_)) => ([0; 3], 1),
        (Some(n), Some(shown)) if same_direction(n.map(f64::from), shown) => (n, 0),
        (Some(n), None) => (n, 0),
        (_, Some(shown)) => (shown.map(|c| (c * Shading::NORMAL_LENGTH).round() as i16), 0),
        (None, None) => ([0; 3], 0),
    };
    [
        c.position[0],
        c.position[1],
        c.position[2],
        normal[0],
        normal[1],
        normal[2],
        c.shade.unwrap_or(0),
        undecided,
        c.tr_vertex.unwrap_or(0) as i16,
        c.tr_vertex.is_some() as i16,
    ]
}

pub(crate) fn build(triangles: &[Triangle], stored: Option<&Mesh>) -> Result<RawMesh, String> {
    let triangles = without_unkept_normals(triangles);
    let polygons = pair_into_quads(&triangles);
    let corners: Vec<&Corner> = polygons.iter().flat_map(|(c, _)| c.iter()).collect();
    let keys: Vec<WeldKey> = corners.iter().map(|c| weld_key(c)).collect();
    let (count, remap) = meshopt::generate_vertex_remap(&keys, None);
    if count > u16::MAX as usize {
        return Err(format!(
            "a mesh has {count} vertices; TR meshes hold at most 65535: split it across bones"
        ));
    }
    if polygons.len() > u16::MAX as usize {
        return Err(format!(
            "a mesh has {} polygons; TR meshes hold at most 65535: split it across bones",
            polygons.len()
        ));
    }
    let mut mesh = RawMesh {
        vertices: vec![[0; 3]; count],
        normals: vec![[0; 3]; count],
        shades: vec![0; count],
        ..RawMesh::default()
    };
    // The glTF normal of each vertex whose zero normal is undecided.
    let mut undecided: Vec<Option<[f64; 3]>> = vec![None; count];
    let mut claims: Vec<Option<u16>> = vec![None; count];
    for ((key, corner), &new) in keys.iter().zip(&corners).zip(&remap) {
        let new = new as usize;
        claims[new] = corner.tr_vertex;
        mesh.vertices[new] = [key[0], key[1], key[2]];
        mesh.normals[new] = match corner.shown_normal {
            Some(shown) if corner.lit_by_shades => shown.map(|c| (c * Shading::NORMAL_LENGTH).round() as i16),
            _ => [key[3], key[4], key[5]],
        };
        mesh.shades[new] = key[6];
        if key[7] == 1 {
            undecided[new] = corner.shown_normal;
        }
    }
    let mut next = 0;
    for (polygon_corners, t) in &polygons {
        let n = polygon_corners.len();
        mesh.polygons.push(RawPolygon {
            corners: remap[next..next + n].iter().map(|&v| v as u16).collect(),
            uvs: polygon_corners.iter().map(|c| c.uv).collect(),
            image: t.image,
            attributes: t.attributes,
            unused: 0,
        });
        next += n;
    }
    decide_zero_normals(&mut mesh, &undecided, stored);
    match stored {
        Some(stored) if claims.iter().any(Option::is_some) => keep_stored_indices(&mut mesh, &claims, stored),
        Some(stored) => keep_unused_vertices(&mut mesh, stored),
        None => {}
    }
    if mesh.vertices.len() > u16::MAX as usize {
        return Err(format!(
            "a mesh has {} vertices; TR meshes hold at most 65535: split it across bones",
            mesh.vertices.len()
        ));
    }
    Ok(mesh)
}

/// The triangles without the glTF normals Blender does not give back (see [`has_no_area`]): at
/// the corners of triangles of no area, and at every corner of the same position and TR normal
/// (that vertex on its other faces). The TR normal is taken there as stored, zero included.
fn without_unkept_normals(triangles: &[Triangle]) -> Cow<'_, [Triangle]> {
    let unkept: FastSet<([i16; 3], [i16; 3])> = triangles
        .iter()
        .filter(|t| has_no_area(t.corners.map(|c| c.position)))
        .flat_map(|t| {
            t.corners
                .iter()
                .filter_map(|c| Some((c.position, c.stored_normal?)))
        })
        .collect();
    if unkept.is_empty() {
        return Cow::Borrowed(triangles);
    }
    let mut triangles = triangles.to_vec();
    for c in triangles.iter_mut().flat_map(|t| t.corners.iter_mut()) {
        if c.stored_normal.is_some_and(|n| unkept.contains(&(c.position, n))) {
            c.shown_normal = None;
        }
    }
    Cow::Owned(triangles)
}

/// Vertices the stored mesh holds but no polygon uses have nothing in the glTF to edit: they
/// are kept as stored, after the others.
fn keep_unused_vertices(mesh: &mut RawMesh, stored: &Mesh) {
    let used = used_vertices(stored);
    for (i, _) in used.iter().enumerate().filter(|(_, &u)| !u) {
        let (normal, shade) = stored_lighting(stored, i);
        mesh.vertices.push(stored.vertices[i]);
        mesh.normals.push(normal);
        mesh.shades.push(shade);
    }
}

/// Which of the stored mesh's vertices its polygons use.
fn used_vertices(stored: &Mesh) -> Vec<bool> {
    let mut used = vec![false; stored.vertices.len()];
    for p in &stored.polygons {
        for &v in p.corners() {
            if let Some(u) = used.get_mut(v as usize) {
                *u = true;
            }
        }
    }
    used
}

/// The stored normal (zero where the mesh has shades) and shade (zero where it has normals) of
/// stored vertex `i`.
fn stored_lighting(stored: &Mesh, i: usize) -> ([i16; 3], i16) {
    match &stored.shading {
        Shading::Normals(n) => (n.get(i).copied().unwrap_or_default(), 0),
        Shading::Shades(s) => ([0; 3], s.get(i).copied().unwrap_or(0)),
    }
}

/// Gives the welded vertices (`claims`: the stored vertex each comes from, as import wrote it)
/// the indices of the stored vertices they come from, since the engine finds Lara's joints and
/// hair by vertex index. Where several claim one index (an extruded or duplicated vertex carries
/// its source's index too), the one nearest the stored position takes it, with those at its very
/// place (one vertex whose corners Blender gave other normals). The others are new and follow,
/// in the order they came. A stored vertex nothing claims stays at its index as stored, unused;
/// those the stored polygons used are the mesh's removed vertices.
fn keep_stored_indices(mesh: &mut RawMesh, claims: &[Option<u16>], stored: &Mesh) {
    let kept = stored.vertices.len();
    let claim = |v: usize| claims[v].map(usize::from).filter(|&i| i < kept);
    let distance = |v: usize, i: usize| -> i64 {
        (0..3)
            .map(|k| (i64::from(mesh.vertices[v][k]) - i64::from(stored.vertices[i][k])).pow(2))
            .sum()
    };
    let mut owner: Vec<Option<usize>> = vec![None; kept];
    for v in 0..claims.len() {
        if let Some(i) = claim(v) {
            if owner[i].is_none_or(|o| distance(v, i) < distance(o, i)) {
                owner[i] = Some(v);
            }
        }
    }
    let mut next = kept;
    let index_of: Vec<usize> = (0..claims.len())
        .map(|v| match claim(v).and_then(|i| Some((i, owner[i]?))) {
            Some((i, o)) if mesh.vertices[o] == mesh.vertices[v] => i,
            _ => {
                next += 1;
                next - 1
            }
        })
        .collect();
    let mut vertices = vec![[0; 3]; next];
    let mut normals = vec![[0; 3]; next];
    let mut shades = vec![0; next];
    for i in 0..kept {
        (normals[i], shades[i]) = stored_lighting(stored, i);
        vertices[i] = stored.vertices[i];
    }
    for (v, &to) in index_of.iter().enumerate() {
        if to >= kept || owner[to] == Some(v) {
            vertices[to] = mesh.vertices[v];
            normals[to] = mesh.normals[v];
            shades[to] = mesh.shades[v];
        }
    }
    for polygon in &mut mesh.polygons {
        for c in &mut polygon.corners {
            *c = index_of[*c as usize] as u16;
        }
    }
    keep_polygon_order(mesh, stored);
    let used = used_vertices(stored);
    mesh.removed_vertices = (0..kept)
        .filter(|&i| owner[i].is_none() && used[i])
        .map(|i| i as u16)
        .collect();
    (mesh.vertices, mesh.normals, mesh.shades) = (vertices, normals, shades);
}

/// Puts each polygon over the same vertices as a stored polygon at that polygon's place, the
/// others after them in the order they came, so that an edit shows as what it changed.
fn keep_polygon_order(mesh: &mut RawMesh, stored: &Mesh) {
    let corner_set = |corners: &[u16]| {
        let mut set = corners.to_vec();
        set.sort_unstable();
        set
    };
    let mut places: FastMap<Vec<u16>, std::collections::VecDeque<usize>> = FastMap::default();
    for (i, p) in stored.polygons.iter().enumerate() {
        places.entry(corner_set(p.corners())).or_default().push_back(i);
    }
    let mut order: Vec<(usize, RawPolygon)> = std::mem::take(&mut mesh.polygons)
        .into_iter()
        .enumerate()
        .map(|(i, p)| {
            let place = places
                .get_mut(&corner_set(&p.corners))
                .and_then(|q| q.pop_front());
            (place.unwrap_or(stored.polygons.len() + i), p)
        })
        .collect();
    order.sort_by_key(|(place, _)| *place);
    mesh.polygons = order.into_iter().map(|(_, p)| p).collect();
}

/// Consecutive triangles that form a quad the game draws as exactly those two triangles become
/// that quad; each polygon with the triangle it takes its image and attributes from.
fn pair_into_quads(triangles: &[Triangle]) -> Vec<(Vec<Corner>, &Triangle)> {
    let mut out = Vec::with_capacity(triangles.len());
    let mut i = 0;
    while i < triangles.len() {
        let a = &triangles[i];
        let quad = triangles.get(i + 1).and_then(|b| {
            let same_look = a.image == b.image && a.attributes == b.attributes;
            same_look
                .then(|| quad_of(&a.corners, &b.corners, a.image_size))
                .flatten()
        });
        match quad {
            Some(quad) => {
                out.push((quad, a));
                i += 2;
            }
            None => {
                out.push((a.corners.to_vec(), a));
                i += 1;
            }
        }
    }
    out
}

/// Two triangles (TR order) as one quad whose `v0–v2` diagonal is their shared edge, when their
/// UVs put the quad's corners on one sample rectangle in an arrangement the texture word can say
/// with that diagonal kept (the quad's corners as listed, or shifted by two), or in any
/// arrangement for a parallelogram.
fn quad_of(a: &[Corner; 3], b: &[Corner; 3], image_size: Option<(u32, u32)>) -> Option<Vec<Corner>> {
    let (w, h) = image_size?;
    let same = |x: &Corner, y: &Corner| weld_key(x) == weld_key(y) && x.uv == y.uv;
    for i in 0..3 {
        for j in 0..3 {
            // The edge a[i] → a[i+1] runs the other way in b: b[j] → b[j+1] = a[i+1] → a[i].
            if same(&a[i], &b[(j + 1) % 3]) && same(&a[(i + 1) % 3], &b[j]) {
                let quad = vec![a[(i + 1) % 3], a[(i + 2) % 3], a[i], b[(j + 2) % 3]];
                let uvs: Vec<[f32; 2]> = quad.iter().map(|c| c.uv).collect();
                let (_, points) = corners_from_uvs(&uvs, w, h)?;
                // Shifting the corners by one moves the diagonal: allowed only where both
                // diagonals draw one surface, a parallelogram (planar, and an affine mapping
                // from its rectangle of texels).
                let p = |k: usize| quad[k].position.map(i32::from);
                let parallelogram = (0..3).all(|k| p(0)[k] + p(2)[k] == p(1)[k] + p(3)[k]);
                let shifts: &[usize] = if parallelogram { &[0, 1, 2, 3] } else { &[0, 2] };
                let legal = shifts.iter().any(|&r| {
                    let shifted: Vec<_> = (0..4).map(|k| points[(k + r) % 4]).collect();
                    recover_texture(&shifted, true).is_some()
                });
                return legal.then_some(quad);
            }
        }
    }
    None
}

/// Zero normals stay zero on vertices the stored mesh has there with a zero normal, while the
/// glTF normal is the one import wrote; the others get the built mesh's area-weighted normal.
fn decide_zero_normals(mesh: &mut RawMesh, undecided: &[Option<[f64; 3]>], stored: Option<&Mesh>) {
    if undecided.iter().all(Option::is_none) {
        return;
    }
    // The stored zero-normal vertices by position, so that each built vertex looks at those at
    // its own position only (comparing each with all took billions of steps for two meshes of
    // 65 000 zero normals). A stored mesh has a few vertices at one position (seams); more than
    // [`SAME_POSITION`] directions there are not looked at.
    const SAME_POSITION: usize = 16;
    let mut stored_zeros: FastMap<[i16; 3], Vec<[f64; 3]>> = FastMap::default();
    let zeros: Vec<([i16; 3], [f64; 3])> = match stored {
        Some(
            stored @ Mesh {
                shading: Shading::Normals(normals),
                ..
            },
        ) => {
            let computed = stored.area_weighted_normals();
            stored
                .vertices
                .iter()
                .enumerate()
                .filter(|&(i, _)| normals.get(i).is_none_or(|n| *n == [0; 3]))
                .map(|(i, &v)| (v, computed[i]))
                .collect()
        }
        _ => Vec::new(),
    };
    for (v, computed) in zeros {
        let at = stored_zeros.entry(v).or_default();
        let known = at.iter().any(|&c| same_direction(c, computed));
        if !known && at.len() < SAME_POSITION {
            at.push(computed);
        }
    }
    let kept_zero = |position: [i16; 3], shown: [f64; 3]| {
        stored_zeros
            .get(&position)
            .is_some_and(|at| at.iter().any(|&computed| same_direction(shown, computed)))
    };
    let built = mesh.untextured();
    let area_weighted = built.area_weighted_normals();
    for (v, shown) in undecided.iter().enumerate() {
        let Some(shown) = shown else { continue };
        if !kept_zero(mesh.vertices[v], *shown) {
            mesh.normals[v] = area_weighted[v].map(|c| (c * Shading::NORMAL_LENGTH).round() as i16);
        }
    }
}
