//! glTF triangles → TR meshes. Each triangle goes to the joint most of its vertices follow and
//! its corners come back to the joint's TR space ([`gather`]). Then, per TR mesh:
//!
//! - [`exact`]: while the glTF still shows exactly the mesh as stored beside it (the scene
//!   extras import writes), the stored mesh comes back as it was: vertex and polygon order,
//!   quads and their diagonals, unused vertices, zero normals; the UVs give the textures.
//! - [`edited`]: otherwise, for an edited mesh over its stored copy, every vertex keeps its
//!   stored index and every polygon the glTF still shows over the same vertices keeps its kind,
//!   diagonal, corner order and place; only new or changed faces are built as [`welded`] builds
//!   them.
//! - [`welded`]: a mesh without a stored copy: vertices split for UVs are welded again
//!   (meshopt), triangle pairs become quads where the game draws that quad as exactly those two
//!   triangles, and TR normals and shades are kept where the glTF still agrees with them.

mod edited;
mod exact;
mod welded;

use wadforge_format::{Attributes, Mesh, Polygon};

use crate::input::{MeshNode, Primitive, Scene};
use crate::skeleton::to_tr;
use crate::texture::RgbaImage;

/// One TR mesh before texturing: vertices, their lighting, and polygons with UVs.
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
    /// Vertices of the stored mesh's polygons that no glTF vertex comes from any more (removed
    /// in Blender): kept, unused, at their indices, so that the others keep theirs.
    pub removed_vertices: Vec<u16>,
    /// An edited mesh's stored copy's vertex positions, by index (empty without one): a vertex
    /// still there has not moved, so the stored sphere need not take it in anew.
    pub stored_vertices: Vec<[i16; 3]>,
}

impl RawMesh {
    /// What build tells of the vertices removed from `object`'s `what` (`bone HEAD`, `mesh`),
    /// when any were.
    pub fn removed_note(&self, object: &str, what: &str) -> Option<String> {
        let removed = &self.removed_vertices;
        let (first, rest) = removed.split_first()?;
        let listed = rest
            .iter()
            .fold(first.to_string(), |text, i| format!("{text}, {i}"));
        let (noun, pronoun) = if rest.is_empty() {
            ("vertex", "it stays")
        } else {
            ("vertices", "they stay")
        };
        Some(format!(
            "{object}, {what}: {noun} {listed} of the mesh as imported no longer in the glTF \
             (removed in Blender); {pronoun}, unused, at its place in the vertex list, so that \
             the other vertices keep their indices (the engine stitches Lara's joints and hair \
             by index)"
        ))
    }

    /// The mesh's vertices and polygons, untextured: its shape.
    pub fn untextured(&self) -> Mesh {
        Mesh {
            vertices: self.vertices.clone(),
            polygons: self
                .polygons
                .iter()
                .map(|p| {
                    let c = &p.corners;
                    if c.len() == 4 {
                        Polygon::quad([c[0], c[1], c[2], c[3]], Default::default(), p.attributes)
                    } else {
                        Polygon::triangle([c[0], c[1], c[2]], Default::default(), p.attributes)
                    }
                })
                .collect(),
            ..Mesh::default()
        }
    }
}

pub(crate) struct RawPolygon {
    /// TR vertex indices, TR order (clockwise seen from the visible side).
    pub corners: Vec<u16>,
    pub uvs: Vec<[f32; 2]>,
    /// Index into the build's image list.
    pub image: usize,
    pub attributes: Attributes,
    /// The byte after the attributes, as stored (0 for new polygons).
    pub unused: u8,
}

/// A glTF triangle corner in TR terms.
#[derive(Clone, Copy, PartialEq)]
pub(crate) struct Corner {
    pub position: [i16; 3],
    /// `_TR_NORMAL` as exported (the TR normal as stored, zero included).
    pub stored_normal: Option<[i16; 3]>,
    /// The glTF normal, unit length, in TR axes.
    pub shown_normal: Option<[f64; 3]>,
    /// The TR shade: `_TR_SHADE` while the vertex colour agrees with it, else from the colour.
    pub shade: Option<i16>,
    /// Whether the corner's primitive is a mesh lit by shades as import wrote it (`_TR_SHADE`,
    /// no `_TR_NORMAL`): its glTF normals are for Blender's display only.
    pub lit_by_shades: bool,
    pub uv: [f32; 2],
    /// The index of the stored vertex the corner comes from, as import wrote it.
    pub tr_vertex: Option<u16>,
}

/// A glTF triangle in TR terms: corners clockwise (TR order).
#[derive(Clone, Copy)]
pub(crate) struct Triangle {
    pub corners: [Corner; 3],
    pub image: usize,
    /// Pixel size of the image when it is a texture (a solid colour has none).
    pub image_size: Option<(u32, u32)>,
    pub attributes: Attributes,
}

/// Where the geometry of a set of mesh nodes goes.
pub(crate) struct Target<'a> {
    pub scene: &'a Scene,
    /// Number of TR meshes (joints).
    pub meshes: usize,
    pub tr_units_per_metre: f64,
    /// Pivot of each TR mesh in glTF space (bind position of its joint; the origin for statics).
    pub pivots: &'a [[f64; 3]],
    /// Each TR mesh as stored beside the glTF, when it is.
    pub stored: &'a [Option<&'a Mesh>],
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
    let mut triangles: Vec<Vec<Triangle>> = (0..target.meshes).map(|_| Vec::new()).collect();
    let mut lighting = vec![(false, false); target.meshes];
    for node in nodes {
        let t = transform(node);
        let linear = crate::math::rotation_part(&t);
        for (pi, p) in node.primitives.iter().enumerate() {
            let material = p.material.and_then(|m| target.scene.materials.get(m));
            let attributes = material.map(|m| m.attributes).unwrap_or_default();
            let (image, image_size) = image_of(target, p.material)?;
            let mesh_of: Vec<Option<usize>> = (0..p.positions.len()).map(|v| joint_of(node, p, v)).collect();
            for tri in &p.triangles {
                // The TR mesh the triangle goes to: the one most of its corners follow.
                let joints: Vec<usize> = tri.iter().filter_map(|&v| mesh_of[v as usize]).collect();
                let mesh = joints
                    .iter()
                    .copied()
                    .max_by_key(|a| (joints.iter().filter(|b| *b == a).count(), usize::MAX - a))
                    .unwrap_or(0);
                if mesh >= target.meshes {
                    return Err(format!(
                        "primitive {pi}: a vertex follows joint {mesh}, which the skin does not have"
                    ));
                }
                let place = Placement {
                    transform: &t,
                    linear: &linear,
                    pivot: target.pivots[mesh],
                    tr_units_per_metre: target.tr_units_per_metre,
                };
                // glTF triangles are counter-clockwise; TR lists corners clockwise.
                let corner = |v: u32| corner(p, v as usize, &place, pi);
                triangles[mesh].push(Triangle {
                    corners: [corner(tri[0])?, corner(tri[2])?, corner(tri[1])?],
                    image,
                    image_size,
                    attributes,
                });
                lighting[mesh].0 |= p.normals.is_some() || p.tr_normals.is_some();
                lighting[mesh].1 |= p.colours.is_some() || p.tr_shades.is_some();
            }
        }
    }
    triangles
        .into_iter()
        .zip(lighting)
        .enumerate()
        .map(|(j, (triangles, (has_normals, has_shades)))| {
            let stored = target.stored.get(j).copied().flatten();
            let claimed = || {
                triangles
                    .iter()
                    .any(|t| t.corners.iter().any(|c| c.tr_vertex.is_some()))
            };
            let mesh = match stored.map(|s| (s, exact::rebuild(s, &triangles))) {
                Some((_, Some(mesh))) => mesh,
                Some((stored, None)) if claimed() => edited::build(&triangles, stored)?,
                _ => welded::build(&triangles, stored)?,
            };
            Ok(RawMesh {
                has_normals: has_normals || mesh.has_normals,
                has_shades: has_shades || mesh.has_shades,
                ..mesh
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

/// How a node's vertices reach a TR mesh's space.
struct Placement<'a> {
    transform: &'a wadforge_format::pose::Transform,
    linear: &'a [[f64; 3]; 3],
    pivot: [f64; 3],
    tr_units_per_metre: f64,
}

/// One glTF vertex in its mesh's TR space, with what the glTF says of its lighting.
fn corner(p: &Primitive, v: usize, place: &Placement, primitive: usize) -> Result<Corner, String> {
    let world = place.transform.apply(p.positions[v].map(f64::from));
    let local = to_tr([0, 1, 2].map(|k| (world[k] - place.pivot[k]) * place.tr_units_per_metre));
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
    let shown_normal = p.normals.as_ref().map(|n| {
        let n = n[v].map(f64::from);
        let linear = place.linear;
        let n = to_tr([0, 1, 2].map(|r| (0..3).map(|c| linear[r][c] * n[c]).sum()));
        let len = (n[0] * n[0] + n[1] * n[1] + n[2] * n[2]).sqrt();
        if len > 0.0 {
            n.map(|c| c / len)
        } else {
            [0.0, -1.0, 0.0]
        }
    });
    let stored_normal = p.tr_normals.as_ref().map(|s| s[v].map(|c| c.round() as i16));
    let shade = match (&p.colours, &p.tr_shades) {
        (Some(c), stored) => {
            let grey = (c[v][0] + c[v][1] + c[v][2]) as f64 / 3.0;
            Some(match stored.as_ref().map(|s| s[v] as f64) {
                // Blender keeps colours at 8 bits: the stored shade wins while they agree.
                Some(tr) if ((1.0 - tr / 8191.0) - grey).abs() <= 1.5 / 255.0 => tr.round() as i16,
                _ => ((1.0 - grey.clamp(0.0, 1.0)) * 8191.0).round() as i16,
            })
        }
        (None, Some(tr)) => Some(tr[v].round() as i16),
        (None, None) => None,
    };
    Ok(Corner {
        position,
        stored_normal,
        shown_normal,
        shade,
        lit_by_shades: p.tr_shades.is_some() && p.tr_normals.is_none(),
        uv: p.uvs.as_ref().map_or([0.0, 0.0], |uvs| uvs[v]),
        tr_vertex: p.tr_vertices.as_ref().and_then(|t| t[v]),
    })
}

/// Whether two directions agree as closely as Blender keeps normals (about 0.8°, 16-bit storage).
pub(crate) fn same_direction(a: [f64; 3], b: [f64; 3]) -> bool {
    let la = (a[0] * a[0] + a[1] * a[1] + a[2] * a[2]).sqrt();
    let lb = (b[0] * b[0] + b[1] * b[1] + b[2] * b[2]).sqrt();
    la > 0.0 && lb > 0.0 && (a[0] * b[0] + a[1] * b[1] + a[2] * b[2]) / (la * lb) > 0.9994
}

/// The glTF normal import writes for a TR vertex: the stored normal, or where it is zero the
/// area-weighted normal of the mesh (what the vertex looks lit by).
pub(crate) fn shown_normal_of(stored: [i16; 3], computed: [f64; 3]) -> [f64; 3] {
    if stored == [0, 0, 0] {
        computed
    } else {
        stored.map(f64::from)
    }
}

/// Whether a triangle has no area ([`wadforge_format::has_no_area`]). Blender gives such a
/// face the normal +Z and no space to hold a custom normal in, so it exports its corners, and
/// the same vertex's corners on its other faces, with a normal of its own (measured with
/// Blender 5.0.1: straight up, or the normal of the vertex's faces): the glTF normal says
/// nothing there.
pub(crate) use wadforge_format::has_no_area;
