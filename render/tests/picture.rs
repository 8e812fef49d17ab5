//! Pictures against the geometry they show: silhouettes against posed boxes, texels against the
//! corner table of the flip and shape bits.

use wadforge_model::pose;
use wadforge_model::{
    Attributes, Mesh, Moveable, Page, Polygon, PolygonTexture, Sample, Shading, SkewedCorners, Static, Wad,
};
use wadforge_render::scene::{placed_static, Figure};
use wadforge_render::{picture, Extents, View};

const SIZE: u32 = 160;

/// The pixels whose centres lie in `lo..hi` (a continuous span in pixels).
fn covered(lo: f64, hi: f64) -> (f64, f64) {
    ((lo - 0.5).ceil(), (hi - 0.5).floor())
}

fn assert_box_matches(what: &str, silhouette: (u32, u32, u32, u32), projected: [[f64; 2]; 2]) {
    let (x, y, w, h) = silhouette;
    let drawn = [[x as f64, y as f64], [(x + w - 1) as f64, (y + h - 1) as f64]];
    let (x0, x1) = covered(projected[0][0], projected[1][0]);
    let (y0, y1) = covered(projected[0][1], projected[1][1]);
    let expected = [[x0, y0], [x1, y1]];
    for c in 0..2 {
        for a in 0..2 {
            assert!(
                (drawn[c][a] - expected[c][a]).abs() <= 2.0,
                "{what}: silhouette {drawn:?} vs projected box {expected:?} (pixels)"
            );
        }
    }
}

fn moveable(wad: &Wad, id: u32) -> &Moveable {
    wad.moveables.iter().find(|m| m.id == id).expect("fixture object")
}

/// LARA (0) dressed in LARA_SKIN (8), the crocodile (51) in its own meshes: the silhouette of
/// the first keyframe, seen from the front and from the side, spans the keyframe's stored box.
#[test]
fn silhouette_spans_the_keyframe_box_projected() {
    let wad = wadforge_fixtures::standard();
    let skewed = SkewedCorners::new();
    let lara = moveable(&wad, 0);
    let skin = moveable(&wad, 8);
    let crocodile = moveable(&wad, 51);
    for (name, m, figure) in [
        ("LARA", lara, Figure::dressed(lara, skin, None)),
        ("CROCODILE", crocodile, Figure::own(crocodile)),
    ] {
        let keyframe = &m.animations[0].keyframes[0];
        let placed = figure.pose(&wad, keyframe);
        let bb = keyframe.bounding_box;
        let [min, max] = [bb.min, bb.max].map(|v| v.map(f64::from));
        // Front: screen x is TR −X, screen y is TR Y. Side (a quarter turn): screen x is TR ±Z.
        let side = View::turned(std::f64::consts::FRAC_PI_2, 0.0);
        for (view_name, view) in [("front", View::front()), ("side", side)] {
            let p = picture(&wad, &skewed, &placed, &view, SIZE);
            let mut corners = Extents::default();
            for x in [min[0], max[0]] {
                for y in [min[1], max[1]] {
                    for z in [min[2], max[2]] {
                        let px = p.framing.to_pixel(view.to_camera([x, y, z]));
                        corners.add([px[0] as f64, px[1] as f64, 0.0]);
                    }
                }
            }
            let silhouette = p.canvas.drawn_bounds().expect("something is drawn");
            assert_box_matches(
                &format!("{name} {view_name}"),
                silhouette,
                [corners.min, corners.max],
            );
        }
    }
}

/// In the gallery's three-quarter view the silhouette spans the posed vertices, posed here
/// independently with `format::pose`.
#[test]
fn three_quarter_silhouette_spans_the_posed_vertices() {
    let wad = wadforge_fixtures::standard();
    let crocodile = moveable(&wad, 51);
    let view = View::three_quarter();
    for animation in &crocodile.animations {
        let Some(keyframe) = animation.keyframes.last() else {
            continue;
        };
        let placed = Figure::own(crocodile).pose(&wad, keyframe);
        let p = picture(&wad, &SkewedCorners::new(), &placed, &view, SIZE);
        let world = pose::pose(&crocodile.links, keyframe);
        let mut extents = Extents::default();
        for (transform, &mesh) in world.iter().zip(&crocodile.meshes) {
            let mesh = &wad.meshes[mesh];
            for polygon in &mesh.polygons {
                for &v in polygon.corners() {
                    let at = transform.apply(mesh.vertices[v as usize].map(f64::from));
                    let px = p.framing.to_pixel(view.to_camera(at));
                    extents.add([px[0] as f64, px[1] as f64, 0.0]);
                }
            }
        }
        let silhouette = p.canvas.drawn_bounds().expect("something is drawn");
        assert_box_matches("CROCODILE three-quarter", silhouette, [extents.min, extents.max]);
    }
}

const RED: [u8; 3] = [200, 0, 0];
const GREEN: [u8; 3] = [0, 200, 0];
const BLUE: [u8; 3] = [0, 0, 200];
const YELLOW: [u8; 3] = [200, 200, 0];

/// A page whose 8×8 sample at (16, 32) has four coloured quarters: NW red, NE green, SE blue,
/// SW yellow; and a static mesh of one polygon facing the front view, its vertices at the
/// screen's top-left, top-right, bottom-right and bottom-left (clockwise seen from the front).
fn textured(polygon: Polygon) -> Wad {
    let mut page = Page::filled([255, 0, 255]);
    for y in 0..8 {
        for x in 0..8 {
            let colour = match (x < 4, y < 4) {
                (true, true) => RED,
                (false, true) => GREEN,
                (false, false) => BLUE,
                (true, false) => YELLOW,
            };
            page.set_texel(16 + x, 32 + y, colour);
        }
    }
    let s = 100;
    // Front view: screen x is TR −X, so the screen's left is TR +X.
    let mesh = Mesh {
        vertices: vec![[s, -s, 0], [-s, -s, 0], [-s, s, 0], [s, s, 0]],
        // 0x1000 shows texels as stored.
        shading: Shading::Shades(vec![0x1000; 4]),
        polygons: vec![polygon],
        ..Mesh::default()
    };
    Wad {
        version: Wad::VERSION,
        pages: vec![page],
        samples: vec![Sample {
            x: 16,
            y: 32,
            page: 0,
            flip_x: -1,
            flip_y: -1,
            width: 8,
            height: 8,
        }],
        meshes: vec![mesh],
        statics: vec![Static::default()],
        ..Wad::default()
    }
}

/// The colour near each screen corner of the front-view picture: top-left, top-right,
/// bottom-right, bottom-left (`None`: nothing drawn there).
fn corner_colours(wad: &Wad) -> [Option<[u8; 3]>; 4] {
    let placed = placed_static(wad, &wad.statics[0]);
    let p = picture(wad, &SkewedCorners::new(), &placed, &View::front(), 64);
    let (x, y, w, h) = p.canvas.drawn_bounds().expect("the polygon is drawn");
    let inset = 5;
    let (l, r, t, b) = (x + inset, x + w - 1 - inset, y + inset, y + h - 1 - inset);
    [(l, t), (r, t), (r, b), (l, b)].map(|(x, y)| {
        let [r, g, b, a] = p.canvas.pixel(x, y);
        (a == 255).then_some([r, g, b])
    })
}

fn texture(shape: u8, flipped: bool) -> PolygonTexture {
    PolygonTexture {
        sample: 0,
        shape,
        flipped,
    }
}

#[test]
fn a_quad_shows_its_sample_corners_by_its_flip_bit() {
    let quad = |flipped| Polygon::quad([0, 1, 2, 3], texture(0, flipped), Attributes::default());
    // Unflipped: v1..v4 → nw ne se sw; flipped: → ne nw sw se (format facts).
    assert_eq!(
        corner_colours(&textured(quad(false))),
        [Some(RED), Some(GREEN), Some(BLUE), Some(YELLOW)]
    );
    assert_eq!(
        corner_colours(&textured(quad(true))),
        [Some(GREEN), Some(RED), Some(YELLOW), Some(BLUE)]
    );
}

#[test]
fn a_triangle_shows_its_sample_corners_by_its_shape_and_flip_bits() {
    // The triangle top-left, top-right, bottom-left of the screen (v0, v1, v3 of the quad).
    let colour = |q| match q {
        'n' => RED,   // nw
        'e' => GREEN, // ne
        's' => BLUE,  // se
        _ => YELLOW,  // sw
    };
    // format facts: unflipped 0 nw ne sw, 2 ne se nw, 4 se sw ne, 6 sw nw se;
    // flipped 0 ne nw se, 2 nw sw ne, 4 sw se nw, 6 se ne sw.
    let table = [
        (0, false, "nez"),
        (2, false, "esn"),
        (4, false, "sze"),
        (6, false, "zns"),
        (0, true, "ens"),
        (2, true, "nze"),
        (4, true, "zsn"),
        (6, true, "sez"),
    ];
    for (shape, flipped, corners) in table {
        let triangle = Polygon::triangle([0, 1, 3], texture(shape, flipped), Attributes::default());
        let c: Vec<[u8; 3]> = corners.chars().map(colour).collect();
        assert_eq!(
            corner_colours(&textured(triangle)),
            [Some(c[0]), Some(c[1]), None, Some(c[2])],
            "shape {shape}, flipped {flipped}"
        );
    }
}

#[test]
fn faces_seen_from_behind_are_not_drawn() {
    // The same quad wound the other way faces away from the front view.
    let quad = Polygon::quad([3, 2, 1, 0], texture(0, false), Attributes::default());
    let wad = textured(quad);
    let placed = placed_static(&wad, &wad.statics[0]);
    let p = picture(&wad, &SkewedCorners::new(), &placed, &View::front(), 64);
    assert_eq!(p.canvas.drawn_bounds(), None);
}
