//! An edited mesh built over the mesh as stored, so that the edit changes only what was edited
//! (import writes each glTF vertex's stored index, `TEXCOORD_1`, and keeps the stored mesh).
//!
//! - **Vertices** keep their stored indices, since the engine finds Lara's joints and hair by
//!   vertex index: see [`place_vertices`].
//! - **Polygons**: a stored polygon whose triangles the glTF still has (as import wrote them, a
//!   quad `v0 v1 v2 v3` as `v0 v1 v2` and `v0 v2 v3`) over the same vertex indices in the same
//!   winding comes back as stored: its kind, its diagonal, its corner order and its place; its
//!   UVs, image and attributes come from those triangles, so a moved corner or a repainted face
//!   changes only that. A quad whose two halves no longer show one texture (other images or
//!   attributes, UVs apart along the diagonal, UVs the texture word can map only along the other
//!   diagonal of a quad that is not a parallelogram) is not kept. The triangles left (new faces,
//!   faces over other vertices) pair into quads as [`super::welded`] pairs them and follow the
//!   kept polygons; one over the same vertices as a stored polygon not kept takes its place.
//! - **Lighting** as in [`super::welded`]; besides, a vertex whose glTF normal Blender cannot
//!   hold as imported ([`super::exact::normals_blender_cannot_keep`]) takes `_TR_NORMAL` while
//!   it is where the stored mesh has it, as the exact path ignores those normals.

use std::borrow::Cow;
use std::collections::VecDeque;

use crate::FastMap;

use wadforge_format::{Mesh, Polygon, Shading};

use super::welded::{self, CornerRef, Welded};
use super::{Corner, RawMesh, RawPolygon, Triangle};

/// The mesh `triangles` show, over `stored` (some corners name the stored vertex they come from).
pub(crate) fn build(triangles: &[Triangle], stored: &Mesh) -> Result<RawMesh, String> {
    let triangles = welded::without_unkept_normals(triangles);
    let triangles = with_stored_normals_blender_cannot_keep(&triangles, stored);
    let corners: Vec<&Corner> = triangles.iter().flat_map(|t| t.corners.iter()).collect();
    let welded = welded::weld(&corners)?;
    let placed = place_vertices(&welded, stored);
    if placed.vertices.len() > u16::MAX as usize {
        return Err(welded::too_many("vertices", placed.vertices.len()));
    }
    let indices: Vec<[u16; 3]> = (welded.remap.chunks_exact(3))
        .map(|c| [0, 1, 2].map(|k| placed.index_of[c[k] as usize] as u16))
        .collect();
    let (kept, rest) = kept_polygons(stored, &triangles, &indices, &placed.vertices);
    let index = |(t, k): CornerRef| indices[t][k];
    let formed = welded::pair_into_quads(&triangles, &rest, &|a, b| index(a) == index(b));
    let new: Vec<RawPolygon> = (formed.iter())
        .map(|f| f.raw(&triangles, f.corners.iter().map(|&c| index(c)).collect()))
        .collect();
    let polygons = in_stored_places(kept, new, stored);
    if polygons.len() > u16::MAX as usize {
        return Err(welded::too_many("polygons", polygons.len()));
    }
    let mut mesh = RawMesh {
        vertices: placed.vertices,
        normals: placed.normals,
        shades: placed.shades,
        polygons,
        removed_vertices: placed.removed,
        stored_vertices: stored.vertices.clone(),
        ..RawMesh::default()
    };
    welded::decide_zero_normals(&mut mesh, &placed.undecided, Some(stored));
    Ok(mesh)
}

/// The triangles with no glTF normal at the corners of stored vertices whose normal Blender does
/// not give back (see [`super::exact::normals_blender_cannot_keep`]), while they are where the
/// stored mesh has them: `_TR_NORMAL` is taken there as stored, zero included.
fn with_stored_normals_blender_cannot_keep<'a>(
    triangles: &'a [Triangle],
    stored: &Mesh,
) -> Cow<'a, [Triangle]> {
    if !matches!(stored.shading, Shading::Normals(_)) {
        return Cow::Borrowed(triangles);
    }
    let unkept = super::exact::normals_blender_cannot_keep(stored);
    let unkept_here = |c: &Corner| {
        let i = usize::from(c.tr_vertex?);
        (unkept.get(i) == Some(&true) && stored.vertices[i] == c.position && c.shown_normal.is_some())
            .then_some(())
    };
    let corners = || triangles.iter().flat_map(|t| t.corners.iter());
    if !corners().any(|c| unkept_here(c).is_some()) {
        return Cow::Borrowed(triangles);
    }
    let mut triangles = triangles.to_vec();
    for c in triangles.iter_mut().flat_map(|t| t.corners.iter_mut()) {
        if unkept_here(c).is_some() {
            c.shown_normal = None;
        }
    }
    Cow::Owned(triangles)
}

/// The vertices of an edited mesh at their stored indices.
struct Placed {
    /// The index of each welded vertex.
    index_of: Vec<usize>,
    vertices: Vec<[i16; 3]>,
    normals: Vec<[i16; 3]>,
    shades: Vec<i16>,
    /// The glTF normal of each vertex whose zero normal is still to be decided.
    undecided: Vec<Option<[f64; 3]>>,
    /// Stored vertices the stored polygons used that no welded vertex comes from.
    removed: Vec<u16>,
}

/// Gives the welded vertices (`claims`: the stored vertex each comes from, as import wrote it)
/// the indices of the stored vertices they come from, since the engine finds Lara's joints and
/// hair by vertex index. Where several claim one index (an extruded or duplicated vertex carries
/// its source's index too), the one nearest the stored position takes it, with those at its very
/// place (one vertex whose corners Blender gave other normals). The others are new and follow,
/// in the order they came. A stored vertex nothing claims stays at its index as stored, unused;
/// those the stored polygons used are the mesh's removed vertices.
fn place_vertices(welded: &Welded, stored: &Mesh) -> Placed {
    let kept = stored.vertices.len();
    let claim = |v: usize| welded.claims[v].map(usize::from).filter(|&i| i < kept);
    let distance = |v: usize, i: usize| -> i64 {
        (0..3)
            .map(|k| (i64::from(welded.vertices[v][k]) - i64::from(stored.vertices[i][k])).pow(2))
            .sum()
    };
    let mut owner: Vec<Option<usize>> = vec![None; kept];
    for v in 0..welded.claims.len() {
        if let Some(i) = claim(v) {
            if owner[i].is_none_or(|o| distance(v, i) < distance(o, i)) {
                owner[i] = Some(v);
            }
        }
    }
    let mut next = kept;
    let index_of: Vec<usize> = (0..welded.claims.len())
        .map(|v| match claim(v).and_then(|i| Some((i, owner[i]?))) {
            Some((i, o)) if welded.vertices[o] == welded.vertices[v] => i,
            _ => {
                next += 1;
                next - 1
            }
        })
        .collect();
    let mut placed = Placed {
        index_of: Vec::new(),
        vertices: stored.vertices.clone(),
        normals: vec![[0; 3]; next],
        shades: vec![0; next],
        undecided: vec![None; next],
        removed: Vec::new(),
    };
    placed.vertices.resize(next, [0; 3]);
    for i in 0..kept {
        (placed.normals[i], placed.shades[i]) = welded::stored_lighting(stored, i);
    }
    for (v, &to) in index_of.iter().enumerate() {
        if to >= kept || owner[to] == Some(v) {
            placed.vertices[to] = welded.vertices[v];
            placed.normals[to] = welded.normals[v];
            placed.shades[to] = welded.shades[v];
            placed.undecided[to] = welded.undecided[v];
        }
    }
    let used = welded::used_vertices(stored);
    placed.removed = (0..kept)
        .filter(|&i| owner[i].is_none() && used[i])
        .map(|i| i as u16)
        .collect();
    placed.index_of = index_of;
    placed
}

/// A triangle's vertex indices as a key: the least of their three rotations (the same triangle
/// whichever corner glTF lists first; the winding counts).
fn triangle_key(corners: [u16; 3]) -> [u16; 3] {
    [0, 1, 2]
        .map(|r| [0, 1, 2].map(|k| corners[(k + r) % 3]))
        .into_iter()
        .min()
        .unwrap_or(corners)
}

/// The stored polygons the glTF still shows, each with its place (index in the stored list),
/// and the triangles (`indices`: each one's vertex indices, TR order) that show none, in glTF
/// order.
fn kept_polygons(
    stored: &Mesh,
    triangles: &[Triangle],
    indices: &[[u16; 3]],
    vertices: &[[i16; 3]],
) -> (Vec<(usize, RawPolygon)>, Vec<usize>) {
    let mut by_key: FastMap<[u16; 3], Candidates> = FastMap::default();
    for (t, &corners) in indices.iter().enumerate() {
        by_key.entry(triangle_key(corners)).or_default().list.push(t);
    }
    let mut shown = Shown {
        triangles,
        indices,
        by_key,
        taken: vec![false; triangles.len()],
        vertices,
    };
    let mut kept = Vec::new();
    for (place, p) in stored.polygons.iter().enumerate() {
        // A stored corner past the stored vertices (a damaged file) could name a new vertex.
        if p.corners()
            .iter()
            .any(|&v| usize::from(v) >= stored.vertices.len())
        {
            continue;
        }
        if let Some(polygon) = shown.polygon(p) {
            kept.push((place, polygon));
        }
    }
    let rest = (0..triangles.len()).filter(|&t| !shown.taken[t]).collect();
    (kept, rest)
}

/// Triangles over one set of vertex indices, in glTF order; those before `start` are taken.
#[derive(Default)]
struct Candidates {
    start: usize,
    list: Vec<usize>,
}

/// Candidates looked at for one that looks like the polygon: a file may lay thousands of
/// polygons over the same vertices, and looking at all of them for each would be quadratic.
const LOOKED_AT: usize = 16;

/// The glTF triangles by vertex indices, for finding the stored polygons they show.
struct Shown<'a> {
    triangles: &'a [Triangle],
    indices: &'a [[u16; 3]],
    by_key: FastMap<[u16; 3], Candidates>,
    /// The triangles that show a kept polygon.
    taken: Vec<bool>,
    /// The built mesh's vertex positions.
    vertices: &'a [[i16; 3]],
}

impl Shown<'_> {
    /// Stored polygon `p` with the UVs, image and attributes of the triangles not yet taken
    /// that show it (which it takes), when they show it as one polygon.
    fn polygon(&mut self, p: &Polygon) -> Option<RawPolygon> {
        let c = p.corners();
        let mut uvs: Vec<Option<[f32; 2]>> = vec![None; c.len()];
        let mut halves: Vec<usize> = Vec::with_capacity(2);
        for half in p.triangle_corners() {
            let wanted = half.map(|k| c[k]);
            let t = self.half(wanted, p, &halves)?;
            let r = (0..3).find(|&r| (0..3).all(|k| self.indices[t][(k + r) % 3] == wanted[k]))?;
            for (k, &slot) in half.iter().enumerate() {
                let uv = self.triangles[t].corners[(k + r) % 3].uv;
                // A quad's halves meet along its diagonal with the same UVs, or are two faces.
                if *uvs[slot].get_or_insert(uv) != uv {
                    return None;
                }
            }
            halves.push(t);
        }
        let first = &self.triangles[*halves.first()?];
        let one_look = halves.iter().all(|&t| {
            let t = &self.triangles[t];
            (t.image, t.attributes) == (first.image, first.attributes)
        });
        let uvs: Vec<[f32; 2]> = uvs.into_iter().collect::<Option<_>>()?;
        if !one_look || (p.is_quad && !self.keeps_its_diagonal(c, &uvs, first.image_size)) {
            return None;
        }
        for &t in &halves {
            self.taken[t] = true;
        }
        Some(RawPolygon {
            corners: c.to_vec(),
            uvs,
            image: first.image,
            attributes: first.attributes,
            unused: p.unused,
        })
    }

    /// The triangle over `wanted` (vertex indices, TR order) for a half of `p`: neither taken
    /// nor one of `halves` already found; of the first [`LOOKED_AT`] not yet taken in order, the
    /// first that looks like the polygon so far (the first half's image and attributes, or the
    /// stored attributes), else the first. Only those can be taken out of order, so the
    /// triangles taken past the first not taken stay few.
    fn half(&mut self, wanted: [u16; 3], p: &Polygon, halves: &[usize]) -> Option<usize> {
        let candidates = self.by_key.get_mut(&triangle_key(wanted))?;
        let taken = &self.taken;
        while candidates.list.get(candidates.start).is_some_and(|&t| taken[t]) {
            candidates.start += 1;
        }
        let window = &candidates.list[candidates.start..];
        let free = |t: &usize| !taken[*t] && !halves.contains(t);
        let triangles = self.triangles;
        let looks = |t: &usize| {
            let t = &triangles[*t];
            match halves.first().map(|&f| &triangles[f]) {
                Some(f) => (t.image, t.attributes) == (f.image, f.attributes),
                None => t.attributes == p.attributes,
            }
        };
        let first = window
            .iter()
            .take(LOOKED_AT)
            .filter(|t| free(t))
            .find(|t| looks(t));
        first.or_else(|| window.iter().find(|t| free(t))).copied()
    }

    /// Whether a kept quad's texture still maps along its own `v0–v2` (see
    /// [`welded::keeps_its_diagonal`]); UVs off any sample rectangle are resampled as listed.
    fn keeps_its_diagonal(&self, corners: &[u16], uvs: &[[f32; 2]], image_size: Option<(u32, u32)>) -> bool {
        let positions = [0, 1, 2, 3].map(|k| self.vertices[usize::from(corners[k])]);
        welded::texture_shift(uvs, image_size)
            .is_none_or(|shift| welded::keeps_its_diagonal(shift, positions))
    }
}

/// The kept polygons at their stored places and the new ones after them in the order they came,
/// but for a new polygon over the same vertices as a stored polygon not kept, which takes its
/// place: an edit shows as what it changed.
fn in_stored_places(kept: Vec<(usize, RawPolygon)>, new: Vec<RawPolygon>, stored: &Mesh) -> Vec<RawPolygon> {
    let corner_set = |corners: &[u16]| {
        let mut set = corners.to_vec();
        set.sort_unstable();
        set
    };
    let mut taken = vec![false; stored.polygons.len()];
    for (place, _) in &kept {
        taken[*place] = true;
    }
    let mut free: FastMap<Vec<u16>, VecDeque<usize>> = FastMap::default();
    for (i, p) in stored.polygons.iter().enumerate().filter(|(i, _)| !taken[*i]) {
        free.entry(corner_set(p.corners())).or_default().push_back(i);
    }
    let after = stored.polygons.len();
    let mut order: Vec<(usize, RawPolygon)> = kept;
    order.extend(new.into_iter().enumerate().map(|(i, p)| {
        let place = free
            .get_mut(&corner_set(&p.corners))
            .and_then(VecDeque::pop_front);
        (place.unwrap_or(after + i), p)
    }));
    order.sort_by_key(|(place, _)| *place);
    order.into_iter().map(|(_, p)| p).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use wadforge_format::texture_corners::{rect_corners, SampleRect};
    use wadforge_format::{Attributes, PolygonTexture};

    const UP: [i16; 3] = [0, -16300, 0];

    /// A stored mesh lit by `UP` normals: `polygons` as (corners, sample, shape); each sample `s`
    /// is the 8×8 texel rectangle at `(8 s, 0)` of a one-page atlas.
    fn stored(vertices: &[[i16; 3]], polygons: &[(&[u16], u16, u8)]) -> Mesh {
        Mesh {
            vertices: vertices.to_vec(),
            shading: Shading::Normals(vec![UP; vertices.len()]),
            polygons: polygons
                .iter()
                .map(|&(c, sample, shape)| {
                    let texture = PolygonTexture {
                        sample,
                        shape,
                        flipped: false,
                    };
                    match *c {
                        [a, b, d, e] => Polygon::quad([a, b, d, e], texture, Attributes::default()),
                        [a, b, d] => Polygon::triangle([a, b, d], texture, Attributes::default()),
                        _ => panic!("3 or 4 corners"),
                    }
                })
                .collect(),
            ..Mesh::default()
        }
    }

    fn corner(position: [i16; 3], normal: [i16; 3], shown: [f64; 3], uv: [f32; 2], tr_vertex: u16) -> Corner {
        Corner {
            position,
            stored_normal: Some(normal),
            shown_normal: Some(shown),
            shade: None,
            lit_by_shades: false,
            uv,
            tr_vertex: Some(tr_vertex),
        }
    }

    /// The glTF triangles import writes for `mesh` (a quad as `v0 v1 v2` and `v0 v2 v3`, TR
    /// order), its vertices at `positions`, on image 0 of 256×256.
    fn shown(mesh: &Mesh, positions: &[[i16; 3]]) -> Vec<Triangle> {
        let mut triangles = Vec::new();
        for p in &mesh.polygons {
            let rect = SampleRect {
                x: 8 * u32::from(p.texture.sample),
                y: 0,
                width: 8,
                height: 8,
            };
            let points = rect_corners(rect, p.texture.shape, p.texture.flipped, p.is_quad);
            let c = p.corners();
            for half in p.triangle_corners() {
                let corners = half.map(|k| {
                    let v = c[k];
                    let uv = [points[k].x as f32 / 256.0, points[k].y as f32 / 256.0];
                    corner(positions[usize::from(v)], UP, [0.0, -1.0, 0.0], uv, v)
                });
                triangles.push(Triangle {
                    corners,
                    image: 0,
                    image_size: Some((256, 256)),
                    attributes: p.attributes,
                });
            }
        }
        triangles
    }

    fn kinds_and_corners(polygons: &[RawPolygon]) -> Vec<Vec<u16>> {
        polygons.iter().map(|p| p.corners.clone()).collect()
    }

    /// A quad, then a flat square stored as two triangles split along `v0–v2` over one sample
    /// (the game draws them as one quad would be drawn).
    fn quad_and_pair() -> Mesh {
        let square = |x: i16| [[x, 0, 0], [x + 64, 0, 0], [x + 64, 64, 0], [x, 64, 0]];
        let vertices: Vec<[i16; 3]> = [square(0), square(100)].concat();
        stored(
            &vertices,
            &[(&[0, 1, 2, 3], 0, 0), (&[5, 6, 4], 1, 2), (&[7, 4, 6], 1, 6)],
        )
    }

    #[test]
    fn a_moved_vertex_keeps_every_stored_polygon_as_stored() {
        let mesh = quad_and_pair();
        let mut positions = mesh.vertices.clone();
        positions[4][2] += 9;
        let triangles = shown(&mesh, &positions);
        // Built afresh, the pair would be one quad: that is what keeping it is about.
        assert_eq!(welded::build(&triangles, Some(&mesh)).unwrap().polygons.len(), 2);
        let built = build(&triangles, &mesh).unwrap();
        assert_eq!(built.vertices, positions, "every vertex at its index, one moved");
        assert_eq!(
            kinds_and_corners(&built.polygons),
            [vec![0, 1, 2, 3], vec![5, 6, 4], vec![7, 4, 6]]
        );
        assert_eq!(built.normals, vec![UP; 8], "normals as stored");
    }

    #[test]
    fn triangles_listed_in_another_order_and_rotation_give_the_stored_corner_order() {
        let mesh = quad_and_pair();
        let mut positions = mesh.vertices.clone();
        positions[0][2] -= 3;
        let mut triangles = shown(&mesh, &positions);
        triangles.reverse();
        for t in &mut triangles {
            t.corners.rotate_left(1);
        }
        let built = build(&triangles, &mesh).unwrap();
        assert_eq!(
            kinds_and_corners(&built.polygons),
            [vec![0, 1, 2, 3], vec![5, 6, 4], vec![7, 4, 6]]
        );
        // The UVs follow the corners: the quad's v0 keeps its sample corner (north-west).
        assert_eq!(built.polygons[0].uvs[0], [0.0, 0.0]);
        assert_eq!(built.polygons[0].uvs[2], [8.0 / 256.0, 8.0 / 256.0]);
    }

    #[test]
    fn a_quad_whose_halves_show_two_images_is_rebuilt_after_the_kept_polygons() {
        let mesh = quad_and_pair();
        let mut triangles = shown(&mesh, &mesh.vertices);
        triangles[1].image = 1;
        let built = build(&triangles, &mesh).unwrap();
        assert_eq!(
            kinds_and_corners(&built.polygons),
            [vec![5, 6, 4], vec![7, 4, 6], vec![0, 1, 2], vec![0, 2, 3]]
        );
        assert_eq!(built.polygons[3].image, 1);
    }

    #[test]
    fn a_new_face_follows_as_a_quad_over_new_vertices() {
        let mesh = quad_and_pair();
        let mut triangles = shown(&mesh, &mesh.vertices);
        // A new square over new vertices (no stored index), as two triangles along v0–v2.
        let uv = |x: u32, y: u32| [(16 + x) as f32 / 256.0, y as f32 / 256.0];
        let new = |p: [i16; 3], uv: [f32; 2]| Corner {
            tr_vertex: None,
            ..corner(p, UP, [0.0, -1.0, 0.0], uv, 0)
        };
        let [a, b, c, d] = [[0, 0, 90], [64, 0, 90], [64, 64, 90], [0, 64, 90]];
        for corners in [
            [new(a, uv(0, 0)), new(b, uv(8, 0)), new(c, uv(8, 8))],
            [new(a, uv(0, 0)), new(c, uv(8, 8)), new(d, uv(0, 8))],
        ] {
            triangles.push(Triangle {
                corners,
                ..triangles[0]
            });
        }
        let built = build(&triangles, &mesh).unwrap();
        assert_eq!(
            kinds_and_corners(&built.polygons),
            [vec![0, 1, 2, 3], vec![5, 6, 4], vec![7, 4, 6], vec![8, 9, 10, 11]]
        );
        assert_eq!(&built.vertices[8..], &[a, b, c, d]);
    }

    #[test]
    fn normals_blender_cannot_hold_stay_as_stored() {
        // A face and its back-face twin: Blender exports normals of its own at their corners.
        let side = [16300, 0, 0];
        let mut mesh = stored(
            &[[0, 0, 0], [0, 64, 0], [0, 64, 64], [0, 0, 64], [50, 0, 0]],
            &[(&[0, 1, 2, 3], 0, 0), (&[0, 3, 2, 1], 0, 0), (&[0, 4, 1], 1, 0)],
        );
        mesh.shading = Shading::Normals(vec![side; 5]);
        let mut positions = mesh.vertices.clone();
        positions[4][0] += 10;
        let mut triangles = shown(&mesh, &positions);
        for c in triangles.iter_mut().flat_map(|t| t.corners.iter_mut()) {
            c.stored_normal = Some(side);
            c.shown_normal = Some(if c.tr_vertex == Some(4) {
                [1.0, 0.0, 0.0]
            } else {
                [0.0, -1.0, 0.0]
            });
        }
        let built = build(&triangles, &mesh).unwrap();
        assert_eq!(built.normals, vec![side; 5]);
        assert_eq!(built.polygons.len(), 3);
    }

    #[test]
    fn polygons_laid_over_one_another_take_the_triangles_that_look_like_them() {
        // Two faces over the same corners, the second shiny, as glTF lists them: by material,
        // the shiny one first.
        let mut mesh = quad_and_pair();
        let shiny = Attributes {
            shine_intensity: 9,
            ..Attributes::default()
        };
        let mut twin = mesh.polygons[0];
        twin.attributes = shiny;
        mesh.polygons.push(twin);
        let mut triangles = shown(&mesh, &mesh.vertices);
        triangles.rotate_right(2);
        let built = build(&triangles, &mesh).unwrap();
        let looks: Vec<(Vec<u16>, Attributes)> = (built.polygons.iter())
            .map(|p| (p.corners.clone(), p.attributes))
            .collect();
        let stored: Vec<(Vec<u16>, Attributes)> = (mesh.polygons.iter())
            .map(|p| (p.corners().to_vec(), p.attributes))
            .collect();
        assert_eq!(looks, stored);
    }

    #[test]
    fn a_damaged_stored_polygon_leaves_the_others_as_stored() {
        // A stored polygon naming vertices the stored mesh does not have (a damaged file), one
        // of them the index a new vertex takes.
        let mut mesh = quad_and_pair();
        let mut triangles = shown(&mesh, &mesh.vertices);
        for damaged in [[0, 1, 900], [0, 1, 8]] {
            let none = PolygonTexture::default();
            mesh.polygons
                .insert(0, Polygon::triangle(damaged, none, Attributes::default()));
        }
        let mut new = triangles[0];
        new.corners[2] = Corner {
            tr_vertex: None,
            ..corner([5, 5, 90], UP, [0.0, -1.0, 0.0], [0.0, 0.0], 0)
        };
        triangles.push(new);
        let built = build(&triangles, &mesh).unwrap();
        assert_eq!(
            kinds_and_corners(&built.polygons),
            [vec![0, 1, 8], vec![0, 1, 2, 3], vec![5, 6, 4], vec![7, 4, 6]]
        );
    }
}
