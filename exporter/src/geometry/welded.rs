//! A mesh built from what the glTF shows: one without a stored copy (or whose glTF does not
//! name the stored vertices), and the faces of an edited mesh that show no stored polygon
//! ([`super::edited`] keeps the others as stored).
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

use wadforge_format::texture_corners::recover_shifted_texture;
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

/// The mesh `triangles` show, built afresh: triangle pairs into quads, then vertices welded in
/// the order the polygons use them. Vertices `stored` holds that no polygon uses follow.
pub(crate) fn build(triangles: &[Triangle], stored: Option<&Mesh>) -> Result<RawMesh, String> {
    let triangles = without_unkept_normals(triangles);
    let keys: Vec<[WeldKey; 3]> = triangles
        .iter()
        .map(|t| t.corners.each_ref().map(weld_key))
        .collect();
    let every: Vec<usize> = (0..triangles.len()).collect();
    let same = |(ta, ka): CornerRef, (tb, kb): CornerRef| keys[ta][ka] == keys[tb][kb];
    let polygons = pair_into_quads(&triangles, &every, &same);
    let corners: Vec<&Corner> = polygons
        .iter()
        .flat_map(|p| p.corners.iter().map(|&(t, k)| &triangles[t].corners[k]))
        .collect();
    let welded = weld(&corners)?;
    if polygons.len() > u16::MAX as usize {
        return Err(too_many("polygons", polygons.len()));
    }
    let mut mesh = RawMesh {
        vertices: welded.vertices,
        normals: welded.normals,
        shades: welded.shades,
        ..RawMesh::default()
    };
    let mut next = 0;
    for p in &polygons {
        let n = p.corners.len();
        mesh.polygons.push(p.raw(
            &triangles,
            welded.remap[next..next + n].iter().map(|&v| v as u16).collect(),
        ));
        next += n;
    }
    decide_zero_normals(&mut mesh, &welded.undecided, stored);
    if let Some(stored) = stored {
        keep_unused_vertices(&mut mesh, stored);
    }
    if mesh.vertices.len() > u16::MAX as usize {
        return Err(too_many("vertices", mesh.vertices.len()));
    }
    Ok(mesh)
}

/// What build says of a mesh past TR's bounds.
pub(super) fn too_many(what: &str, count: usize) -> String {
    format!("a mesh has {count} {what}; TR meshes hold at most 65535: split it across bones")
}

/// Corners welded into vertices: each distinct [`WeldKey`] is one vertex, in order of first use.
pub(super) struct Welded {
    pub vertices: Vec<[i16; 3]>,
    pub normals: Vec<[i16; 3]>,
    pub shades: Vec<i16>,
    /// The glTF normal of each vertex whose zero normal is still to be decided.
    pub undecided: Vec<Option<[f64; 3]>>,
    /// The stored vertex each vertex comes from, as import wrote it.
    pub claims: Vec<Option<u16>>,
    /// The vertex of each corner.
    pub remap: Vec<u32>,
}

/// The vertices of `corners`, vertices split for UVs welded again.
pub(super) fn weld(corners: &[&Corner]) -> Result<Welded, String> {
    let keys: Vec<WeldKey> = corners.iter().map(|c| weld_key(c)).collect();
    let (count, remap) = meshopt::generate_vertex_remap(&keys, None);
    if count > u16::MAX as usize {
        return Err(too_many("vertices", count));
    }
    let mut welded = Welded {
        vertices: vec![[0; 3]; count],
        normals: vec![[0; 3]; count],
        shades: vec![0; count],
        undecided: vec![None; count],
        claims: vec![None; count],
        remap,
    };
    for ((key, corner), &new) in keys.iter().zip(corners).zip(&welded.remap) {
        let new = new as usize;
        welded.claims[new] = corner.tr_vertex;
        welded.vertices[new] = [key[0], key[1], key[2]];
        welded.normals[new] = match corner.shown_normal {
            Some(shown) if corner.lit_by_shades => shown.map(|c| (c * Shading::NORMAL_LENGTH).round() as i16),
            _ => [key[3], key[4], key[5]],
        };
        welded.shades[new] = key[6];
        if key[7] == 1 {
            welded.undecided[new] = corner.shown_normal;
        }
    }
    Ok(welded)
}

/// The triangles without the glTF normals Blender does not give back (see [`has_no_area`]): at
/// the corners of triangles of no area, and at every corner of the same position and TR normal
/// (that vertex on its other faces). The TR normal is taken there as stored, zero included.
pub(super) fn without_unkept_normals(triangles: &[Triangle]) -> Cow<'_, [Triangle]> {
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
pub(super) fn used_vertices(stored: &Mesh) -> Vec<bool> {
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
pub(super) fn stored_lighting(stored: &Mesh, i: usize) -> ([i16; 3], i16) {
    match &stored.shading {
        Shading::Normals(n) => (n.get(i).copied().unwrap_or_default(), 0),
        Shading::Shades(s) => ([0; 3], s.get(i).copied().unwrap_or(0)),
    }
}

/// A corner of a glTF triangle: (triangle, corner).
pub(super) type CornerRef = (usize, usize);

/// A polygon formed of glTF triangles: its corners (TR order) and the triangle it takes its
/// image and attributes from.
pub(super) struct Formed {
    pub corners: Vec<CornerRef>,
    pub triangle: usize,
}

impl Formed {
    /// The polygon over vertices `corners` (one per corner), its UVs from the triangles.
    pub fn raw(&self, triangles: &[Triangle], corners: Vec<u16>) -> RawPolygon {
        let t = &triangles[self.triangle];
        RawPolygon {
            corners,
            uvs: self
                .corners
                .iter()
                .map(|&(t, k)| triangles[t].corners[k].uv)
                .collect(),
            image: t.image,
            attributes: t.attributes,
            unused: 0,
        }
    }
}

/// Consecutive triangles of `order` that form a quad the game draws as exactly those two
/// triangles become that quad; `same` says whether two corners are one vertex.
pub(super) fn pair_into_quads(
    triangles: &[Triangle],
    order: &[usize],
    same: &dyn Fn(CornerRef, CornerRef) -> bool,
) -> Vec<Formed> {
    let mut out = Vec::with_capacity(order.len());
    let mut i = 0;
    while i < order.len() {
        let ta = order[i];
        let a = &triangles[ta];
        let quad = order.get(i + 1).and_then(|&tb| {
            let b = &triangles[tb];
            let same_look = a.image == b.image && a.attributes == b.attributes;
            same_look.then(|| quad_of(triangles, ta, tb, same)).flatten()
        });
        match quad {
            Some(corners) => {
                out.push(Formed {
                    corners,
                    triangle: ta,
                });
                i += 2;
            }
            None => {
                out.push(Formed {
                    corners: (0..3).map(|k| (ta, k)).collect(),
                    triangle: ta,
                });
                i += 1;
            }
        }
    }
    out
}

/// Triangles `ta` and `tb` (TR order) as one quad whose `v0–v2` diagonal is their shared edge,
/// when their UVs put the quad's corners on one sample rectangle in an arrangement the texture
/// word can say with that diagonal kept (the quad's corners as listed, or shifted by two), or in
/// any arrangement for a parallelogram.
fn quad_of(
    triangles: &[Triangle],
    ta: usize,
    tb: usize,
    same: &dyn Fn(CornerRef, CornerRef) -> bool,
) -> Option<Vec<CornerRef>> {
    let corner = |(t, k): CornerRef| &triangles[t].corners[k];
    let one = |x: CornerRef, y: CornerRef| same(x, y) && corner(x).uv == corner(y).uv;
    for i in 0..3 {
        for j in 0..3 {
            // The edge a[i] → a[i+1] runs the other way in b: b[j] → b[j+1] = a[i+1] → a[i].
            if one((ta, i), (tb, (j + 1) % 3)) && one((ta, (i + 1) % 3), (tb, j)) {
                let quad = vec![(ta, (i + 1) % 3), (ta, (i + 2) % 3), (ta, i), (tb, (j + 2) % 3)];
                let uvs: Vec<[f32; 2]> = quad.iter().map(|&c| corner(c).uv).collect();
                let positions = [0, 1, 2, 3].map(|k| corner(quad[k]).position);
                let shift = texture_shift(&uvs, triangles[ta].image_size)?;
                return keeps_its_diagonal(shift, positions).then_some(quad);
            }
        }
    }
    None
}

/// How far a quad's corners must be rotated for the texture word to map its UVs (as
/// [`crate::texture::PolygonTextureOut::shift`] will), when they sit on a sample rectangle of
/// the image in a legal arrangement; `None` when they do not.
pub(super) fn texture_shift(uvs: &[[f32; 2]], image_size: Option<(u32, u32)>) -> Option<usize> {
    let (w, h) = image_size?;
    let (_, points) = corners_from_uvs(uvs, w, h)?;
    recover_shifted_texture(&points, true).map(|(_, shift)| shift)
}

/// Whether a quad rotated by `shift` still splits along its own `v0–v2`: shifting by one moves
/// the diagonal, which only a parallelogram allows (planar, and an affine mapping from its
/// rectangle of texels), its two splits drawing one surface.
pub(super) fn keeps_its_diagonal(shift: usize, positions: [[i16; 3]; 4]) -> bool {
    let p = |k: usize| positions[k].map(i32::from);
    shift % 2 == 0 || (0..3).all(|k| p(0)[k] + p(2)[k] == p(1)[k] + p(3)[k])
}

/// Zero normals stay zero on vertices the stored mesh has there with a zero normal, while the
/// glTF normal is the one import wrote; the others get the built mesh's area-weighted normal.
pub(super) fn decide_zero_normals(mesh: &mut RawMesh, undecided: &[Option<[f64; 3]>], stored: Option<&Mesh>) {
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
