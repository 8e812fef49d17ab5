//! A mesh's detail from its base mesh: each vertex whose position (and normal or shade) the model
//! holds as the base had it takes the base's exact position, normal, colour, glow and movement and
//! weight; each polygon over the same corners its blend mode, sides, shine and unknown chunks.

use std::collections::HashMap;

use wadforge_model::Shading;

use crate::wad2::document::{Mesh, Polygon, VertexAttributes, VertexColour, VertexWeight};
use crate::wad2::objects::losses::Losses;
use crate::wad2::objects::meshes::{model_vertices, point};

use super::rounding::UvRounding;
use super::textures::TextureMatch;

/// Takes `base`'s detail into `made`; true when nothing of the mesh was edited (every vertex and
/// polygon found as the base had them, in the same order), so that it is the base's but for
/// its texture. Polygons that keep UVs the model rounded are counted in `rounding`.
pub(super) fn keep_mesh(
    made: &mut Mesh,
    base: &Mesh,
    textures: &TextureMatch,
    rounding: &mut UvRounding,
) -> bool {
    made.index = base.index;
    made.name.clone_from(&base.name);
    made.hidden = base.hidden;
    made.unknown = base.unknown.clone();
    let vertices_kept = keep_vertices(made, base);
    let polygons_kept = keep_polygons(made, base, textures, rounding);
    let mut losses = Losses::default();
    let same_sphere = point(made.sphere.centre, &mut losses) == point(base.sphere.centre, &mut losses)
        && made.sphere.radius.ceil() == base.sphere.radius.ceil();
    if same_sphere {
        made.sphere = base.sphere;
    }
    let unedited = vertices_kept && polygons_kept;
    if unedited {
        made.bounding_box = base.bounding_box;
    }
    unedited
}

/// Keeps the base's values of each unchanged vertex; true when all are, and the counts agree.
fn keep_vertices(made: &mut Mesh, base: &Mesh) -> bool {
    let (made_points, made_shading) = model_vertices(made);
    let (base_points, base_shading) = model_vertices(base);
    let count = made.positions.len();
    let shades = matches!(made_shading, Shading::Shades(_));
    if matches!(base_shading, Shading::Shades(_)) == shades {
        made.light_type = base.light_type;
    }
    let kept: Vec<bool> = (0..count)
        .map(|v| base_points.get(v).is_some_and(|p| *p == made_points[v]))
        .collect();
    // The normal, or the shade, the model holds of the vertex is the base's.
    let same_shading = |v: usize| match (&made_shading, &base_shading) {
        (Shading::Normals(a), Shading::Normals(b)) => a.get(v) == b.get(v),
        (Shading::Shades(a), Shading::Shades(b)) => a.get(v) == b.get(v),
        _ => false,
    };
    let shaded: Vec<bool> = (0..count).map(|v| kept[v] && same_shading(v)).collect();
    for v in (0..count).filter(|&v| kept[v]) {
        made.positions[v] = base.positions[v];
    }
    // A mesh lit by its colours holds normals the model does not (made from the faces).
    let normal_kept = |v: usize| if shades { kept[v] } else { shaded[v] };
    for v in (0..count).filter(|&v| normal_kept(v)) {
        if let (Some(normal), Some(old)) = (made.normals.get_mut(v), base.normals.get(v)) {
            *normal = *old;
        }
    }
    made.colours = per_vertex(&made.colours, &base.colours, count, &shaded, |v| {
        // A mesh lit by normals holds no colours in the model: white where the base has none.
        made.colours
            .get(v)
            .copied()
            .unwrap_or(VertexColour::Colour([1.0; 3]))
    });
    made.attributes = per_vertex(&made.attributes, &base.attributes, count, &kept, |_| {
        VertexAttributes::default()
    });
    if let Some(weights) = &base.weights {
        let own = made.weights.take().unwrap_or_default();
        made.weights = Some(per_vertex(&own, weights, count, &kept, |_| {
            VertexWeight::default()
        }));
    }
    count == base.positions.len() && shaded.iter().all(|&k| k)
}

/// The base's value of each vertex `kept` holds, the made one (or `fresh`) of the others; the
/// made list as it is when the base has none.
fn per_vertex<T: Copy>(
    made: &[T],
    base: &[T],
    count: usize,
    kept: &[bool],
    fresh: impl Fn(usize) -> T,
) -> Vec<T> {
    if base.is_empty() {
        return made.to_vec();
    }
    (0..count)
        .map(|v| match base.get(v) {
            Some(old) if kept[v] => *old,
            _ => made.get(v).copied().unwrap_or_else(|| fresh(v)),
        })
        .collect()
}

/// Keeps the detail of each polygon over the corners of a base polygon (in the base's order:
/// the model may start a polygon at another corner to fit its texture); true when every
/// polygon found its own, in the base's order. One that shows its texels otherwise than its base
/// polygon keeps the model's whole-texel UVs: counted in `rounding` where the base's were not.
fn keep_polygons(made: &mut Mesh, base: &Mesh, textures: &TextureMatch, rounding: &mut UvRounding) -> bool {
    let mut by_corners: HashMap<(bool, Vec<i64>), usize> = HashMap::with_capacity(base.polygons.len());
    for (i, p) in base.polygons.iter().enumerate().rev() {
        by_corners.insert(corner_key(p), i);
    }
    let mut in_order = made.polygons.len() == base.polygons.len();
    for (i, polygon) in made.polygons.iter_mut().enumerate() {
        let key = corner_key(polygon);
        // The polygon in the same place first: a mesh may hold two over the same corners.
        let found = match base.polygons.get(i) {
            Some(old) if corner_key(old) == key => Some(i),
            _ => by_corners.get(&key).copied(),
        };
        in_order &= found == Some(i);
        let Some(old) = found.and_then(|f| base.polygons.get(f)) else {
            continue;
        };
        start_as(polygon, old);
        if !textures.keep(polygon, old) {
            rounding.add(old, textures.base_textures());
        }
        // The model holds the additive bit and the shine strength: the base's blend mode and
        // shine stand where those agree.
        if (old.blend_mode == 2) == (polygon.blend_mode == 2) {
            polygon.blend_mode = old.blend_mode;
        } else {
            in_order = false;
        }
        if old.shine.clamp(0, 31) == polygon.shine {
            polygon.shine = old.shine;
        } else {
            in_order = false;
        }
        polygon.double_sided = old.double_sided;
        polygon.unknown = old.unknown.clone();
    }
    in_order
}

/// A polygon's corners from its lowest, and whether it is a quad: the same for any start.
fn corner_key(polygon: &Polygon) -> (bool, Vec<i64>) {
    let corners = &polygon.corners[..polygon.corner_count()];
    let lowest = (0..corners.len()).min_by_key(|&k| corners[k]).unwrap_or(0);
    let mut key = corners.to_vec();
    key.rotate_left(lowest);
    (polygon.quad, key)
}

/// Starts `polygon` at the corner `old` starts at, its UVs turned with its corners.
fn start_as(polygon: &mut Polygon, old: &Polygon) {
    let n = polygon.corner_count();
    let Some(turn) = (0..n).find(|&r| (0..n).all(|k| polygon.corners[(k + r) % n] == old.corners[k])) else {
        return;
    };
    let uvs = polygon.uvs;
    for k in 0..n {
        polygon.uvs[k] = uvs[(k + turn) % n];
    }
    if n == 3 {
        // As TombLib writes a triangle: its fourth UV repeats the third.
        polygon.uvs[3] = polygon.uvs[2];
    }
    polygon.corners = old.corners;
}
