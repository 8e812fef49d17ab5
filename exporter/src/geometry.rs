//! glTF triangles → TR meshes: each triangle goes to the joint most of its vertices follow,
//! vertices come back to the joint's TR space, TR normals and shades are restored exactly where
//! the standard attributes still agree with them, vertices split for UVs are welded again
//! (meshopt), and triangle pairs that cover one sample rectangle become quads again.

use wadforge_format::Attributes;
use wadforge_packer::corners::recover_texture;
use wadforge_packer::uv::corners_from_uvs;

use crate::input::{MeshNode, Primitive, Scene};
use crate::skeleton::to_tr;
use crate::texture::RgbaImage;

/// One TR mesh before texturing: welded vertices, their lighting, and polygons with UVs.
#[derive(Default)]
pub(crate) struct RawMesh {
    /// Whether the glTF gave normals (standard or TR) for this mesh's vertices.
    pub has_normals: bool,
    /// Whether the glTF gave shades (vertex colours or TR shades).
    pub has_shades: bool,
    pub vertices: Vec<[i16; 3]>,
    pub normals: Vec<[i16; 3]>,
    pub shades: Vec<i16>,
    pub polygons: Vec<RawPolygon>,
}

pub(crate) struct RawPolygon {
    /// TR vertex indices, TR order (clockwise seen from the visible side).
    pub corners: Vec<u16>,
    pub uvs: Vec<[f32; 2]>,
    /// Index into the build's image list.
    pub image: usize,
    pub attributes: Attributes,
}

/// A glTF vertex in TR terms, before welding.
#[derive(Clone, Copy, PartialEq)]
struct TrVertex {
    position: [i16; 3],
    normal: [i16; 3],
    shade: i16,
}

/// Where the geometry of a set of mesh nodes goes.
pub(crate) struct Target<'a> {
    pub scene: &'a Scene,
    /// Number of TR meshes (joints).
    pub meshes: usize,
    pub tr_units_per_metre: f64,
    /// Pivot of each TR mesh in glTF space (bind position of its joint; the origin for statics).
    pub pivots: &'a [[f64; 3]],
    /// Index of the scene's first image in the build's image list.
    pub first_image: usize,
    /// Images the build adds for materials without a texture: (material, image index).
    pub solid_images: &'a [(usize, usize)],
}

/// The TR meshes of `nodes`. `joint_of(node, primitive, vertex)` names the TR mesh of a vertex;
/// `transform(node)` maps the node's vertex positions and normals to glTF space (identity for
/// skinned meshes, whose vertices are already in bind space).
pub(crate) fn gather(
    target: &Target,
    nodes: &[&MeshNode],
    joint_of: &dyn Fn(&MeshNode, &Primitive, usize) -> Option<usize>,
    transform: &dyn Fn(&MeshNode) -> wadforge_format::pose::Transform,
) -> Result<Vec<RawMesh>, String> {
    let s = target.tr_units_per_metre;
    let mut pending: Vec<(Vec<TrVertex>, Vec<RawPolygon>)> =
        (0..target.meshes).map(|_| Default::default()).collect();
    let mut lighting = vec![(false, false); target.meshes];
    for node in nodes {
        let t = transform(node);
        let linear = crate::math::rotation_part(&t);
        for (pi, p) in node.primitives.iter().enumerate() {
            let material = p.material.and_then(|m| target.scene.materials.get(m));
            let attributes = material.map(|m| m.attributes).unwrap_or_default();
            let (image, image_size) = image_of(target, p.material)?;
            let mesh_of: Vec<Option<usize>> = (0..p.positions.len()).map(|v| joint_of(node, p, v)).collect();
            // Which TR mesh each triangle goes to: the one most of its corners follow.
            let tri_mesh: Vec<usize> = p
                .triangles
                .iter()
                .map(|tri| {
                    let j: Vec<usize> = tri.iter().filter_map(|&v| mesh_of[v as usize]).collect();
                    j.iter()
                        .copied()
                        .max_by_key(|a| (j.iter().filter(|b| *b == a).count(), usize::MAX - a))
                        .unwrap_or(0)
                })
                .collect();
            let mut t_index = 0;
            while t_index < p.triangles.len() {
                let mesh = tri_mesh[t_index];
                if mesh >= target.meshes {
                    return Err(format!(
                        "primitive {pi}: a vertex follows joint {mesh}, which the skin does not have"
                    ));
                }
                let corners_of = |tri: [u32; 3]| -> Result<Vec<(TrVertex, [f32; 2])>, String> {
                    // glTF triangles are counter-clockwise; TR lists corners clockwise.
                    [tri[0], tri[2], tri[1]]
                        .iter()
                        .map(|&v| {
                            let v = v as usize;
                            Ok((
                                vertex(p, v, &t, &linear, target.pivots[mesh], s, pi)?,
                                uv_of(p, v),
                            ))
                        })
                        .collect()
                };
                let first = corners_of(p.triangles[t_index])?;
                // A quad was split (v0 v1 v2) (v0 v2 v3): merge it back when the next triangle
                // shares that diagonal, follows the same mesh and covers one sample rectangle.
                let mut polygon = first.clone();
                if t_index + 1 < p.triangles.len() && tri_mesh[t_index + 1] == mesh {
                    let second = corners_of(p.triangles[t_index + 1])?;
                    if let Some(quad) = merge(&first, &second, image_size) {
                        polygon = quad;
                        t_index += 1;
                    }
                }
                t_index += 1;
                lighting[mesh].0 |= p.normals.is_some() || p.tr_normals.is_some();
                lighting[mesh].1 |= p.colours.is_some() || p.tr_shades.is_some();
                let (vertices, polygons) = &mut pending[mesh];
                let corners = polygon
                    .iter()
                    .map(|(v, _)| {
                        vertices.push(*v);
                        (vertices.len() - 1) as u16
                    })
                    .collect();
                polygons.push(RawPolygon {
                    corners,
                    uvs: polygon.iter().map(|(_, uv)| *uv).collect(),
                    image,
                    attributes,
                });
            }
        }
    }
    pending
        .into_iter()
        .zip(lighting)
        .map(|((vertices, polygons), (has_normals, has_shades))| {
            weld(vertices, polygons).map(|m| RawMesh {
                has_normals,
                has_shades,
                ..m
            })
        })
        .collect()
}

fn image_of(target: &Target, material: Option<usize>) -> Result<(usize, Option<(u32, u32)>), String> {
    if let Some(image) = material
        .and_then(|m| target.scene.materials.get(m))
        .and_then(|m| m.image)
    {
        let img: &RgbaImage = target
            .scene
            .images
            .get(image)
            .ok_or("a material names a missing image")?;
        return Ok((target.first_image + image, Some((img.width, img.height))));
    }
    let solid = target
        .solid_images
        .iter()
        .find(|(m, _)| Some(*m) == material)
        .map(|(_, i)| *i);
    solid
        .map(|i| (i, None))
        .ok_or_else(|| "a primitive has no material; give it a textured material in Blender".into())
}

fn uv_of(p: &Primitive, v: usize) -> [f32; 2] {
    p.uvs.as_ref().map_or([0.0, 0.0], |uvs| uvs[v])
}

/// One glTF vertex in its mesh's TR space, with TR normal and shade.
fn vertex(
    p: &Primitive,
    v: usize,
    t: &wadforge_format::pose::Transform,
    linear: &[[f64; 3]; 3],
    pivot: [f64; 3],
    s: f64,
    primitive: usize,
) -> Result<TrVertex, String> {
    let world = t.apply(p.positions[v].map(f64::from));
    let local = to_tr([0, 1, 2].map(|k| (world[k] - pivot[k]) * s));
    let mut position = [0i16; 3];
    for k in 0..3 {
        let c = local[k].round();
        if c.abs() > i16::MAX as f64 {
            return Err(format!(
                "primitive {primitive}, vertex {v} lies {c} TR units from its pivot; TR vertices reach ±32767: keep the mesh near its bone"
            ));
        }
        position[k] = c as i16;
    }
    let normal = match (&p.normals, &p.tr_normals) {
        (Some(n), stored) => {
            let n = n[v].map(f64::from);
            let n = to_tr([0, 1, 2].map(|r| (0..3).map(|c| linear[r][c] * n[c]).sum()));
            let len = (n[0] * n[0] + n[1] * n[1] + n[2] * n[2]).sqrt();
            let unit = if len > 0.0 {
                n.map(|c| c / len)
            } else {
                [0.0, -1.0, 0.0]
            };
            // The exact TR normal, unless an edit turned the standard normal away from it
            // (Blender keeps normals to about 0.8°).
            match stored.as_ref().map(|s| s[v].map(f64::from)) {
                Some(tr) if cos_angle(tr, unit) > 0.9994 => tr.map(|c| c.round() as i16),
                _ => unit.map(|c| (c * wadforge_format::Shading::NORMAL_LENGTH).round() as i16),
            }
        }
        (None, Some(tr)) => tr[v].map(|c| c.round() as i16),
        (None, None) => [0, 0, 0],
    };
    let shade = match (&p.colours, &p.tr_shades) {
        (Some(c), stored) => {
            let grey = (c[v][0] + c[v][1] + c[v][2]) as f64 / 3.0;
            match stored.as_ref().map(|s| s[v] as f64) {
                // Blender keeps colours at 8 bits: the stored shade wins while they agree.
                Some(tr) if ((1.0 - tr / 8191.0) - grey).abs() <= 1.5 / 255.0 => tr.round() as i16,
                _ => ((1.0 - grey.clamp(0.0, 1.0)) * 8191.0).round() as i16,
            }
        }
        (None, Some(tr)) => tr[v].round() as i16,
        (None, None) => 0,
    };
    Ok(TrVertex {
        position,
        normal,
        shade,
    })
}

fn cos_angle(a: [f64; 3], b: [f64; 3]) -> f64 {
    let la = (a[0] * a[0] + a[1] * a[1] + a[2] * a[2]).sqrt();
    let lb = (b[0] * b[0] + b[1] * b[1] + b[2] * b[2]).sqrt();
    if la == 0.0 || lb == 0.0 {
        return -1.0;
    }
    (a[0] * b[0] + a[1] * b[1] + a[2] * b[2]) / (la * lb)
}

/// Two triangles (TR order) that share an edge, as one quad when their UVs cover one sample
/// rectangle of an image of `image_size` (in some rotation of the quad's corners: the texture
/// step picks the anchor). Import splits quads as (v0 v1 v2)(v0 v2 v3); Blender and other tools
/// may split them along either diagonal and in either order.
fn merge(
    a: &[(TrVertex, [f32; 2])],
    b: &[(TrVertex, [f32; 2])],
    image_size: Option<(u32, u32)>,
) -> Option<Vec<(TrVertex, [f32; 2])>> {
    let same = |x: &(TrVertex, [f32; 2]), y: &(TrVertex, [f32; 2])| x.0 == y.0 && x.1 == y.1;
    let (w, h) = image_size?;
    for i in 0..3 {
        for j in 0..3 {
            // The edge a[i] → a[i+1] runs the other way in b: b[j] → b[j+1] = a[i+1] → a[i].
            if same(&a[i], &b[(j + 1) % 3]) && same(&a[(i + 1) % 3], &b[j]) {
                let quad = vec![a[(i + 1) % 3], a[(i + 2) % 3], a[i], b[(j + 2) % 3]];
                let uvs: Vec<[f32; 2]> = quad.iter().map(|c| c.1).collect();
                let (_, points) = corners_from_uvs(&uvs, w, h)?;
                let legal = (0..4).any(|r| {
                    let rotated: Vec<_> = (0..4).map(|k| points[(k + r) % 4]).collect();
                    recover_texture(&rotated, true).is_some()
                });
                return legal.then_some(quad);
            }
        }
    }
    None
}

/// Welds identical TR vertices (position, normal, shade) and renumbers the polygons.
fn weld(vertices: Vec<TrVertex>, mut polygons: Vec<RawPolygon>) -> Result<RawMesh, String> {
    let keys: Vec<[i16; 7]> = vertices
        .iter()
        .map(|v| {
            [
                v.position[0],
                v.position[1],
                v.position[2],
                v.normal[0],
                v.normal[1],
                v.normal[2],
                v.shade,
            ]
        })
        .collect();
    let (count, remap) = meshopt::generate_vertex_remap(&keys, None);
    if count > u16::MAX as usize {
        return Err(format!(
            "a mesh has {count} vertices; TR meshes hold at most 65535: split it across bones"
        ));
    }
    let mut mesh = RawMesh {
        has_normals: true,
        has_shades: true,
        vertices: vec![[0; 3]; count],
        normals: vec![[0; 3]; count],
        shades: vec![0; count],
        polygons: Vec::new(),
    };
    for (old, &new) in remap.iter().enumerate() {
        let v = &vertices[old];
        mesh.vertices[new as usize] = v.position;
        mesh.normals[new as usize] = v.normal;
        mesh.shades[new as usize] = v.shade;
    }
    for p in &mut polygons {
        p.corners.iter_mut().for_each(|c| *c = remap[*c as usize] as u16);
    }
    if polygons.len() > u16::MAX as usize {
        return Err(format!(
            "a mesh has {} polygons; TR meshes hold at most 65535: split it across bones",
            polygons.len()
        ));
    }
    mesh.polygons = polygons;
    Ok(mesh)
}
