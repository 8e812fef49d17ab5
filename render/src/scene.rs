//! What a picture shows: meshes placed by TR's pose rule, turned into lit, textured triangles in
//! camera space.
//!
//! A quad is drawn as the game draws it, two triangles split along v0–v2; its texture corners
//! come from its sample by the flip and shape bits (`wadforge_model::texture_corners`), or, for a
//! level's skewed textures, from the level's own corners. Faces seen from behind are culled, as
//! the game culls them (a double-sided face is stored twice).

use wadforge_model::pose::{self, Transform};
use wadforge_model::texture_corners::polygon_corners;
use wadforge_model::{Keyframe, Link, Mesh, MeshIndex, Moveable, Shading, SkewedCorners, Static, Wad};

use crate::raster::{self, Canvas, ScreenTriangle, TexelRect};
use crate::view::{Extents, Framing, View};

/// A mesh placed in TR space.
#[derive(Debug, Clone, Copy)]
pub struct Placed<'a> {
    pub mesh_index: MeshIndex,
    pub mesh: &'a Mesh,
    pub transform: Transform,
}

/// The meshes a moveable shows, joint by joint, on its own skeleton.
#[derive(Debug, Clone)]
pub struct Figure<'a> {
    links: &'a [Link],
    /// (joint, mesh) pairs; a dressed skeleton shows two meshes at a joint (body and joint).
    meshes: Vec<(usize, MeshIndex)>,
}

impl<'a> Figure<'a> {
    /// The polygons one picture of the figure draws.
    pub fn polygons(&self, wad: &Wad) -> usize {
        self.stored_meshes(wad).map(|m| m.polygons.len()).sum()
    }

    /// The vertices one picture of the figure poses.
    pub fn vertices(&self, wad: &Wad) -> usize {
        self.stored_meshes(wad).map(|m| m.vertices.len()).sum()
    }

    /// The meshes of `wad` the figure shows (those it names that `wad` holds).
    fn stored_meshes<'w>(&self, wad: &'w Wad) -> impl Iterator<Item = &'w Mesh> + use<'w, '_, 'a> {
        self.meshes.iter().filter_map(|&(_, mesh)| wad.meshes.get(mesh))
    }

    /// A moveable in its own meshes.
    pub fn own(m: &'a Moveable) -> Self {
        Figure {
            links: &m.links,
            meshes: m.meshes.iter().copied().enumerate().collect(),
        }
    }

    /// A skeleton dressed as the game dresses it (TR4's LARA in LARA_SKIN and LARA_SKIN_JOINTS):
    /// `body`'s mesh at each joint, and `joints`' too.
    pub fn dressed(skeleton: &'a Moveable, body: &Moveable, joints: Option<&Moveable>) -> Self {
        let joint_count = skeleton.meshes.len();
        let meshes = std::iter::once(body)
            .chain(joints)
            .flat_map(|d| d.meshes.iter().copied().enumerate().take(joint_count))
            .collect();
        Figure {
            links: &skeleton.links,
            meshes,
        }
    }

    /// The meshes shown, joint by joint (a dressed joint shows two).
    pub fn meshes(&self) -> impl Iterator<Item = MeshIndex> + '_ {
        self.meshes.iter().map(|&(_, k)| k)
    }

    /// The meshes posed for `keyframe` by TR's pose rule ([`pose::pose`]).
    pub fn pose(&self, wad: &'a Wad, keyframe: &Keyframe) -> Vec<Placed<'a>> {
        let world = pose::pose(self.links, keyframe);
        self.meshes
            .iter()
            .filter_map(|&(joint, mesh_index)| {
                Some(Placed {
                    mesh_index,
                    mesh: wad.meshes.get(mesh_index)?,
                    transform: *world.get(joint)?,
                })
            })
            .collect()
    }
}

/// A static as placed: its mesh at the origin.
pub fn placed_static<'a>(wad: &'a Wad, s: &Static) -> Vec<Placed<'a>> {
    wad.meshes
        .get(s.mesh)
        .map(|mesh| Placed {
            mesh_index: s.mesh,
            mesh,
            transform: Transform::IDENTITY,
        })
        .into_iter()
        .collect()
}

/// How pictures are lit.
///
/// Meshes lit by normals get a light from the viewer's upper left: `ambient + diffuse · max(0,
/// n · l)`. Meshes lit by shades show them as TR does: 0x1000 is the texel as stored, 0 twice
/// as bright, 0x1FFF black.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Lighting {
    /// Direction towards the light, in camera space (x right, y down, z away).
    pub towards_light: [f64; 3],
    pub ambient: f64,
    pub diffuse: f64,
}

impl Default for Lighting {
    fn default() -> Self {
        let d: [f64; 3] = [-0.45, -0.7, -0.55];
        let len = (d[0] * d[0] + d[1] * d[1] + d[2] * d[2]).sqrt();
        Lighting {
            towards_light: d.map(|c| c / len),
            ambient: 0.5,
            diffuse: 0.65,
        }
    }
}

impl Lighting {
    /// Brightness of a camera-space unit normal.
    fn of_normal(&self, n: [f64; 3]) -> f32 {
        let l = self.towards_light;
        let dot = n[0] * l[0] + n[1] * l[1] + n[2] * l[2];
        (self.ambient + self.diffuse * dot.max(0.0)) as f32
    }

    /// Brightness of a TR shade.
    pub fn of_shade(shade: i16) -> f32 {
        (2.0 - shade.clamp(0, 0x1FFF) as f32 / 4096.0).clamp(0.0, 2.0)
    }
}

/// A visible triangle in camera space.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CameraTriangle {
    pub points: [[f64; 3]; 3],
    pub texels: [[f32; 2]; 3],
    pub light: [f32; 3],
    pub texture: Option<TexelRect>,
    pub additive: bool,
}

/// Placed meshes seen from a view: the visible triangles, and the extents of every polygon
/// corner (visible or not, so a turning object keeps its size).
#[derive(Debug, Clone, Default)]
pub struct Projected {
    pub triangles: Vec<CameraTriangle>,
    pub extents: Extents,
}

/// Projects placed meshes: positions and normals through each mesh's transform and the view,
/// texture corners from the samples (or `skewed`), lighting per vertex.
pub fn project(
    wad: &Wad,
    skewed: &SkewedCorners,
    placed: &[Placed],
    view: &View,
    lighting: &Lighting,
) -> Projected {
    let mut out = Projected::default();
    project_into(&mut out, wad, skewed, placed, view, lighting);
    out
}

/// [`project`] into `out`, whose triangles' room is reused (an animation's frames each project
/// as many triangles: new room each time had the kernel clear a large body's pages per frame).
pub fn project_into(
    out: &mut Projected,
    wad: &Wad,
    skewed: &SkewedCorners,
    placed: &[Placed],
    view: &View,
    lighting: &Lighting,
) {
    out.triangles.clear();
    out.extents = Extents::default();
    for part in placed {
        let mesh = part.mesh;
        let origin = part.transform.apply([0.0; 3]);
        let camera = camera_positions(part, view);
        let light: Vec<f32> = (0..mesh.vertices.len())
            .map(|i| match &mesh.shading {
                Shading::Normals(normals) => match normals.get(i) {
                    Some(n) => {
                        let world = part.transform.apply(n.map(f64::from));
                        let d = [0, 1, 2].map(|a| world[a] - origin[a]);
                        let len = (d[0] * d[0] + d[1] * d[1] + d[2] * d[2]).sqrt();
                        if len > 1e-9 {
                            lighting.of_normal(view.to_camera(d.map(|c| c / len)))
                        } else {
                            lighting.ambient as f32
                        }
                    }
                    None => lighting.ambient as f32,
                },
                Shading::Shades(shades) => Lighting::of_shade(shades.get(i).copied().unwrap_or(0x1000)),
            })
            .collect();
        for (polygon_index, polygon) in mesh.polygons.iter().enumerate() {
            let corners = polygon.corners();
            let Some(points) = corner_points(corners, &camera) else {
                continue;
            };
            points[..corners.len()].iter().for_each(|&p| out.extents.add(p));
            let sample = wad.samples.get(polygon.texture.sample as usize);
            let mut texels = [[0.0; 2]; 4];
            match (sample, skewed.get(&(part.mesh_index, polygon_index))) {
                (Some(_), Some(exact)) => {
                    for (t, &[x, y]) in texels.iter_mut().zip(exact) {
                        *t = [x as f32, y as f32];
                    }
                }
                (Some(sample), None) => {
                    let points = polygon_corners(sample, polygon.texture, polygon.is_quad);
                    for (t, p) in texels.iter_mut().zip(points) {
                        *t = [p.x as f32, p.y as f32];
                    }
                }
                (None, _) => {}
            }
            let texture = sample.map(|s| TexelRect {
                page: s.page as usize,
                x: s.x as u32,
                y: s.y as u32,
                width: s.width as u32,
                height: s.height as u32,
            });
            for &[a, b, c] in polygon.triangle_corners() {
                let (pa, pb, pc) = (points[a], points[b], points[c]);
                if !faces_camera(pa, pb, pc) {
                    continue;
                }
                let light_of = |k: usize| light.get(corners[k] as usize).copied().unwrap_or(1.0);
                out.triangles.push(CameraTriangle {
                    points: [pa, pb, pc],
                    texels: [texels[a], texels[b], texels[c]],
                    light: [light_of(a), light_of(b), light_of(c)],
                    texture,
                    additive: polygon.attributes.additive,
                });
            }
        }
    }
}

/// Whether the triangle (a, b, c) in camera space shows its visible side. Corners run clockwise
/// seen from it: the outward normal is (c − a) × (b − a); the camera looks along +z.
fn faces_camera(a: [f64; 3], b: [f64; 3], c: [f64; 3]) -> bool {
    let u = [0, 1, 2].map(|i| c[i] - a[i]);
    let w = [0, 1, 2].map(|i| b[i] - a[i]);
    u[0] * w[1] - u[1] * w[0] < 0.0
}

/// The pixels [`draw`] would look at, were there no bound, for the triangles [`project`] makes
/// of `placed` seen from `view` and framed by `framing` on a `width`×`height` canvas, or `most`
/// if more; without making them (no light, no texels), as an animation measures each frame
/// before drawing any.
pub fn pixels_wanted(
    placed: &[Placed],
    view: &View,
    framing: &Framing,
    (width, height): (u32, u32),
    most: usize,
) -> usize {
    let mut wanted = 0usize;
    for part in placed {
        let camera = camera_positions(part, view);
        for polygon in &part.mesh.polygons {
            let Some(points) = corner_points(polygon.corners(), &camera) else {
                continue;
            };
            for &[a, b, c] in polygon.triangle_corners() {
                if faces_camera(points[a], points[b], points[c]) {
                    let screen = [a, b, c].map(|k| framing.to_pixel(points[k]));
                    let box_pixels = raster::box_pixels(screen, width as usize, height as usize);
                    wanted = wanted.saturating_add(box_pixels);
                    if wanted >= most {
                        return most;
                    }
                }
            }
        }
    }
    wanted
}

/// The extents of every polygon corner of `placed` seen from `view`: what [`project`] finds,
/// without making the triangles (an animation is framed over all its keyframes before any is
/// drawn).
pub fn extents(placed: &[Placed], view: &View) -> Extents {
    let mut extents = Extents::default();
    for part in placed {
        let camera = camera_positions(part, view);
        for polygon in &part.mesh.polygons {
            let corners = polygon.corners();
            if let Some(points) = corner_points(corners, &camera) {
                points[..corners.len()].iter().for_each(|&p| extents.add(p));
            }
        }
    }
    extents
}

/// Each vertex of `part`'s mesh in camera space.
fn camera_positions(part: &Placed, view: &View) -> Vec<[f64; 3]> {
    part.mesh
        .vertices
        .iter()
        .map(|v| view.to_camera(part.transform.apply(v.map(f64::from))))
        .collect()
}

/// The camera-space points of a polygon's `corners` (the first 3 or 4); `None` when one names
/// no vertex.
fn corner_points(corners: &[u16], camera: &[[f64; 3]]) -> Option<[[f64; 3]; 4]> {
    let mut points = [[0.0; 3]; 4];
    for (p, &v) in points.iter_mut().zip(corners) {
        *p = *camera.get(v as usize)?;
    }
    Some(points)
}

/// How many times over a picture's triangles may look at its pixels (each its bounding box).
/// Game objects look at theirs 1 to 6 times over (5.5 at most in a real TR1 level's gallery);
/// thousands of polygons each filling the picture would take billions of pixel tests a frame.
pub const MOST_OVERDRAW: usize = 16;

/// Draws projected triangles into `canvas` with `framing`: opaque ones first, additive ones
/// after, so that what they add to is already there. Triangles past [`MOST_OVERDRAW`] times the
/// canvas's pixels are left out.
pub fn draw(projected: &Projected, framing: &Framing, canvas: &mut Canvas, wad: &Wad) {
    draw_within(projected, framing, canvas, wad, usize::MAX);
}

/// [`draw`], with the triangles past `most_pixels` looked at left out too; the pixels looked at.
pub fn draw_within(
    projected: &Projected,
    framing: &Framing,
    canvas: &mut Canvas,
    wad: &Wad,
    most_pixels: usize,
) -> usize {
    let most = most_pixels.min(MOST_OVERDRAW * (canvas.width() * canvas.height()) as usize);
    let mut left = most;
    for additive in [false, true] {
        for t in projected.triangles.iter().filter(|t| t.additive == additive) {
            let t = ScreenTriangle {
                points: t.points.map(|p| framing.to_pixel(p)),
                texels: t.texels,
                light: t.light,
                texture: t.texture,
                additive: t.additive,
            };
            match left.checked_sub(canvas.box_pixels(&t)) {
                Some(rest) => left = rest,
                None => continue,
            }
            canvas.draw(&t, &wad.pages);
        }
    }
    most - left
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `count` triangles each covering the box of the extents (-1, -1)..(1, 1).
    fn picture_filling(count: usize) -> Projected {
        let triangle = CameraTriangle {
            points: [[-1.0, -1.0, 0.0], [1.0, -1.0, 0.0], [1.0, 1.0, 0.0]],
            texels: [[0.0; 2]; 3],
            light: [1.0; 3],
            texture: None,
            additive: false,
        };
        Projected {
            triangles: vec![triangle; count],
            extents: Extents {
                min: [-1.0; 2],
                max: [1.0; 2],
            },
        }
    }

    #[test]
    fn drawing_looks_at_no_more_pixels_than_it_may() {
        let projected = picture_filling(40);
        let framing = Framing::fit(&projected.extents, 32, 0);
        let wad = Wad::default();
        let mut canvas = Canvas::new(32, 32);
        let one = canvas.box_pixels(&ScreenTriangle {
            points: projected.triangles[0].points.map(|p| framing.to_pixel(p)),
            texels: [[0.0; 2]; 3],
            light: [1.0; 3],
            texture: None,
            additive: false,
        });
        assert_eq!(one, 32 * 32, "each triangle's box is the canvas");
        // Three and a half pictures' worth: three triangles.
        let looked = draw_within(&projected, &framing, &mut canvas, &wad, 7 * one / 2);
        assert_eq!(looked, 3 * one);
        // Unbounded: at most MOST_OVERDRAW pictures' worth, of 40 triangles.
        let looked = draw_within(&projected, &framing, &mut canvas, &wad, usize::MAX);
        assert_eq!(looked, MOST_OVERDRAW * one);
        assert!(canvas.drawn_bounds().is_some(), "something was drawn");
    }
}
