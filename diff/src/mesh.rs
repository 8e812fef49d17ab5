//! Meshes, value by value: the bounding sphere, lighting kind, every vertex (used or not, in
//! stored order) with its normal or shade, and every polygon with its corners, attributes and
//! the texture it shows, polygons aligned by their corners ([`crate::align`]).

use wadforge_model::{Mesh, Page, Polygon, Sample, Shading, Wad};

use crate::align::{align, key, Step};
use crate::report::{at, Field, Recorder, Triple};
use crate::texture::{arrangement, hex, sample_of, TexelCache};
use crate::Options;

/// Both inputs and what comparing them needs across meshes.
pub(crate) struct Inputs<'a> {
    pub a: &'a Wad,
    pub b: &'a Wad,
    pub options: &'a Options,
    pub texels: TexelCache,
    /// Differences the report may still list.
    pub room: usize,
}

impl Inputs<'_> {
    /// An object's differences, listed and not, its listed ones taken from the room left.
    pub fn listed(&mut self, r: Recorder) -> (Vec<crate::report::Difference>, usize) {
        self.room -= r.differences.len();
        (r.differences, r.unlisted)
    }
}

/// Compares the meshes `a` and `b` (indices into each file's mesh list) at `place`.
pub(crate) fn compare_mesh_indices(r: &mut Recorder, inputs: &mut Inputs, place: &str, a: usize, b: usize) {
    let describe = |wad: &Wad, i: usize| match wad.meshes.get(i) {
        Some(_) => "present".to_owned(),
        None => format!("none (mesh {i} of {})", wad.meshes.len()),
    };
    match (inputs.a.meshes.get(a), inputs.b.meshes.get(b)) {
        (Some(ma), Some(mb)) => compare(r, inputs, place, ma, mb),
        (None, None) => {}
        _ => r.differ(place, Field::Mesh, describe(inputs.a, a), describe(inputs.b, b)),
    }
}

fn compare(r: &mut Recorder, inputs: &mut Inputs, place: &str, a: &Mesh, b: &Mesh) {
    r.compare(
        place,
        Field::SphereCentre,
        Triple(a.sphere.center),
        Triple(b.sphere.center),
    );
    r.compare(place, Field::SphereRadius, a.sphere.radius, b.sphere.radius);
    r.compare(place, Field::SphereFlag, a.sphere.flag, b.sphere.flag);

    r.count(place, Field::VertexCount, a.vertices.len(), b.vertices.len());
    for (i, (va, vb)) in a.vertices.iter().zip(&b.vertices).enumerate() {
        r.compare(
            &at(place, format_args!("vertex {i}")),
            Field::Vertex,
            Triple(*va),
            Triple(*vb),
        );
    }
    lighting(r, inputs.options.normal_tolerance, place, &a.shading, &b.shading);

    r.count(place, Field::PolygonCount, a.polygons.len(), b.polygons.len());
    let keys = |m: &Mesh| m.polygons.iter().map(|p| key(p.corners())).collect::<Vec<_>>();
    for step in align(&keys(a), &keys(b)) {
        match step {
            Step::Both(i, j) if i == j => polygon(
                r,
                inputs,
                &at(place, format_args!("polygon {i}")),
                &a.polygons[i],
                &b.polygons[j],
            ),
            Step::Both(i, j) => {
                let at_both = at(place, format_args!("polygon {i} (polygon {j} in B)"));
                polygon(r, inputs, &at_both, &a.polygons[i], &b.polygons[j])
            }
            Step::OnlyA(i) => {
                let only = at(place, format_args!("polygon {i}"));
                r.differ(&only, Field::Polygon, corners(&a.polygons[i]), "none")
            }
            Step::OnlyB(j) => {
                let only = at(place, format_args!("polygon {j} in B"));
                r.differ(&only, Field::Polygon, "none", corners(&b.polygons[j]))
            }
        }
    }
}

/// A polygon by its kind and corners: `quad (0, 1, 5, 4)`.
fn corners(p: &Polygon) -> String {
    let listed: Vec<String> = p.corners().iter().map(u16::to_string).collect();
    let kind = if p.is_quad { "quad" } else { "triangle" };
    format!("{kind} ({})", listed.join(", "))
}

fn lighting(r: &mut Recorder, tolerance: i32, place: &str, a: &Shading, b: &Shading) {
    match (a, b) {
        (Shading::Normals(na), Shading::Normals(nb)) => {
            r.count(place, Field::NormalCount, na.len(), nb.len());
            for (i, (x, y)) in na.iter().zip(nb).enumerate() {
                if (0..3).any(|k| (i32::from(x[k]) - i32::from(y[k])).abs() > tolerance.max(0)) {
                    r.differ(
                        &at(place, format_args!("vertex {i}")),
                        Field::Normal,
                        Triple(*x),
                        Triple(*y),
                    );
                }
            }
        }
        (Shading::Shades(sa), Shading::Shades(sb)) => {
            r.count(place, Field::ShadeCount, sa.len(), sb.len());
            for (i, (x, y)) in sa.iter().zip(sb).enumerate() {
                r.compare(&at(place, format_args!("vertex {i}")), Field::Shade, x, y);
            }
        }
        _ => r.differ(place, Field::Lighting, lighting_kind(a), lighting_kind(b)),
    }
}

fn lighting_kind(s: &Shading) -> &'static str {
    match s {
        Shading::Normals(_) => "normals",
        Shading::Shades(_) => "shades",
    }
}

fn polygon(r: &mut Recorder, inputs: &mut Inputs, place: &str, a: &Polygon, b: &Polygon) {
    let kind = |p: &Polygon| if p.is_quad { "quad" } else { "triangle" };
    let same_kind = r.compare(place, Field::PolygonKind, kind(a), kind(b));
    if same_kind {
        for (k, (ca, cb)) in a.corners().iter().zip(b.corners()).enumerate() {
            r.compare(&at(place, format_args!("corner {k}")), Field::VertexIndex, ca, cb);
        }
    }
    let byte = |p: &Polygon| format!("{:#04x}", p.attributes.to_byte());
    r.compare(place, Field::Attributes, byte(a), byte(b));
    r.compare(place, Field::UnusedByte, a.unused, b.unused);
    texture(r, inputs, place, a, b, same_kind);
}

/// The texture as the game shows it: which sample corner each vertex maps (shape and flip), the
/// sample's size and its texels.
fn texture(r: &mut Recorder, inputs: &mut Inputs, place: &str, a: &Polygon, b: &Polygon, same_kind: bool) {
    let found = (
        sample_of(inputs.a, a.texture.sample),
        sample_of(inputs.b, b.texture.sample),
    );
    let (sa, sb) = match &found {
        (Ok((sa, _)), Ok((sb, _))) => (*sa, *sb),
        // Neither shows a texture: nothing to compare.
        (Err(_), Err(_)) => return,
        (x, y) => {
            r.differ(place, Field::Sample, describe(x), describe(y));
            return;
        }
    };
    if same_kind {
        r.compare(place, Field::TextureCorners, arrangement(a), arrangement(b));
    }
    if !r.compare(
        place,
        Field::SampleSize,
        size(sa.width, sa.height),
        size(sb.width, sb.height),
    ) {
        return;
    }
    if let Some(m) = inputs
        .texels
        .compare((inputs.a, a.texture.sample), (inputs.b, b.texture.sample))
    {
        let listed_before = r.differences.len();
        r.differ(
            &at(place, format_args!("texel ({}, {})", m.x, m.y)),
            Field::Texels,
            hex(m.a),
            hex(m.b),
        );
        if r.differences.len() > listed_before {
            let d = r.differences.last_mut().expect("just listed");
            d.note = Some(format!("{} of {} texels differ", m.count, m.total));
        }
    }
}

/// A sample by its size, or why there is none.
fn describe(found: &Result<(&Sample, &Page), String>) -> String {
    match found {
        Ok((s, _)) => size(s.width, s.height),
        Err(why) => why.clone(),
    }
}

fn size(width: u16, height: u16) -> String {
    format!("{width}×{height}")
}
