//! `build_textures`: exact recovery of imported textures, shifted corner orders, resampling of
//! artist-made UVs, sample numbering and its limits.

use std::collections::{BTreeMap, BTreeSet, HashSet};

use wadforge_exporter::texture::{
    build_textures, textures_from, PolygonSamples, PolygonUvs, RgbaImage, SampleStore, TextureError,
    TextureStart, Textures,
};
use wadforge_format::texture_corners::{effective_shape, polygon_corners, TexelPoint};
use wadforge_format::{Mesh, Page, PolygonTexture, Sample, Wad, PAGE_SIZE};
use wadforge_packer::uv::to_uv;

const PAGE: u32 = PAGE_SIZE as u32;
const MAGENTA: [u8; 3] = [255, 0, 255];

/// What Blender's import + export does to a UV: V goes through `1 − v` twice in float32.
fn through_blender([u, v]: [f32; 2]) -> [f32; 2] {
    [u, 1.0f32 - (1.0f32 - v)]
}

/// The atlas import writes for a set of meshes (as `importer/src/atlas.rs`): the pages their
/// polygons use, in page order, stacked vertically; the page count padded to a power of two;
/// magenta texels alpha 0, unused rows transparent magenta.
struct Atlas {
    rows: BTreeMap<u16, u32>,
    height: u32,
}

impl Atlas {
    /// `pad`: the page count padded to a power of two, as import does; without it V values are
    /// not exact binary fractions and Blender's noise shows.
    fn new(wad: &Wad, meshes: &[&Mesh], pad: bool) -> Self {
        let used: BTreeSet<u16> = meshes
            .iter()
            .flat_map(|m| &m.polygons)
            .map(|p| wad.samples[usize::from(p.texture.sample)].page)
            .collect();
        let rows = used.into_iter().zip(0..).collect::<BTreeMap<_, _>>();
        let pages = rows.len().max(1);
        let height = if pad { pages.next_power_of_two() } else { pages } as u32 * PAGE;
        Atlas { rows, height }
    }

    fn uv(&self, page: u16, point: TexelPoint) -> [f32; 2] {
        to_uv(point, self.rows[&page], self.height)
    }

    fn image(&self, wad: &Wad) -> RgbaImage {
        let mut pixels: Vec<u8> = [255, 0, 255, 0].repeat((PAGE * self.height) as usize);
        for (&page, &row) in &self.rows {
            let start = (row * PAGE * PAGE * 4) as usize;
            for (i, rgb) in wad.pages[usize::from(page)].rgb().chunks_exact(3).enumerate() {
                let alpha = if rgb == MAGENTA { 0 } else { 255 };
                pixels[start + i * 4..start + i * 4 + 4].copy_from_slice(&[rgb[0], rgb[1], rgb[2], alpha]);
            }
        }
        RgbaImage {
            width: PAGE,
            height: self.height,
            pixels,
        }
    }
}

/// The texels a polygon shows, walked from its first corner: along the edge to its second corner,
/// then towards its last corner (triangles: the third; the right angle is always at the first
/// corner in the format's table). Independent of how shape and flip encode the arrangement.
fn texels_under(pages: &[Page], sample: &Sample, texture: PolygonTexture, is_quad: bool) -> Vec<[u8; 3]> {
    let c = polygon_corners(sample, texture, is_quad);
    let (o, a, b) = (c[0], c[1], c[c.len() - 1]);
    let step = |from: u32, to: u32| (to as i64 - from as i64).signum();
    let (ax, ay, bx, by) = (step(o.x, a.x), step(o.y, a.y), step(o.x, b.x), step(o.y, b.y));
    let len_a = (a.x.abs_diff(o.x) + a.y.abs_diff(o.y)) as i64;
    let len_b = (b.x.abs_diff(o.x) + b.y.abs_diff(o.y)) as i64;
    // A texel is named by its edge point nearest `o` moved half a step inwards.
    let texel = |edge: i64, dir: i64| if dir < 0 { edge - 1 } else { edge };
    let page = &pages[usize::from(sample.page)];
    let mut out = Vec::new();
    for i in 0..len_a {
        for j in 0..len_b {
            let ex = o.x as i64 + ax * i + bx * j;
            let ey = o.y as i64 + ay * i + by * j;
            let x = texel(ex, if ax != 0 { ax } else { bx });
            let y = texel(ey, if ay != 0 { ay } else { by });
            out.push(page.texel(x as usize, y as usize));
        }
    }
    out
}

/// What the new pages store under a sample, row by row.
fn sample_texels(t: &Textures, s: &Sample, first_page: u16) -> (u16, u16, Vec<[u8; 3]>) {
    let page = &t.pages[usize::from(s.page - first_page)];
    let texels = (0..usize::from(s.height))
        .flat_map(|y| (0..usize::from(s.width)).map(move |x| (x, y)))
        .map(|(x, y)| page.texel(usize::from(s.x) + x, usize::from(s.y) + y))
        .collect();
    (s.width, s.height, texels)
}

/// Mesh sets as import makes them: each moveable's meshes, each static's mesh; any mesh no object
/// names on its own; then all meshes together (each object here uses a single page; this atlas
/// has several).
fn mesh_sets(wad: &Wad) -> Vec<Vec<usize>> {
    let mut sets: Vec<Vec<usize>> = wad
        .moveables
        .iter()
        .map(|m| {
            let mut set: Vec<usize> = m.meshes.clone();
            set.sort_unstable();
            set.dedup();
            set
        })
        .collect();
    sets.extend(wad.statics.iter().map(|s| vec![s.mesh]));
    let named: HashSet<usize> = sets.iter().flatten().copied().collect();
    sets.extend(
        (0..wad.meshes.len())
            .filter(|m| !named.contains(m))
            .map(|m| vec![m]),
    );
    // And every mesh on one atlas, which then holds every page.
    sets.push((0..wad.meshes.len()).collect());
    sets
}

#[test]
fn imported_textures_come_back_exactly() {
    round_trip(true);
}

/// As import writes them, but with atlases of 3 pages kept at 3 (V values that Blender moves).
#[test]
fn noisy_uvs_come_back_exactly() {
    round_trip(false);
}

/// [`build_textures`] of `polygons`, cut from one image at a time and appended in order.
fn cut_image_by_image(images: &[RgbaImage], polygons: &[PolygonUvs], start: TextureStart) -> Textures {
    let mut all = PolygonSamples::default();
    let store = SampleStore::default();
    let mut rest = polygons;
    while let Some(first) = rest.first() {
        let n = rest.iter().take_while(|p| p.image == first.image).count();
        let own: Vec<PolygonUvs> = rest[..n]
            .iter()
            .map(|p| PolygonUvs {
                image: 0,
                ..p.clone()
            })
            .collect();
        all.append(PolygonSamples::cut(std::slice::from_ref(&images[first.image]), &own, &store).unwrap());
        rest = &rest[n..];
    }
    textures_from(all, start).unwrap()
}

fn round_trip(pad: bool) {
    let wad = wadforge_fixtures::standard();
    let mut moved = 0;
    let mut images = Vec::new();
    let mut polygons = Vec::new();
    // (original sample, texture, is_quad) per input polygon.
    let mut originals = Vec::new();
    for set in mesh_sets(&wad) {
        let meshes: Vec<&Mesh> = set.iter().map(|&m| &wad.meshes[m]).collect();
        let atlas = Atlas::new(&wad, &meshes, pad);
        let image = images.len();
        images.push(atlas.image(&wad));
        for polygon in meshes.iter().flat_map(|m| &m.polygons) {
            let sample = wad.samples[usize::from(polygon.texture.sample)];
            let uvs = polygon_corners(&sample, polygon.texture, polygon.is_quad)
                .into_iter()
                .map(|point| {
                    let uv = atlas.uv(sample.page, point);
                    moved += usize::from(through_blender(uv) != uv);
                    through_blender(uv)
                })
                .collect();
            polygons.push(PolygonUvs {
                image,
                uvs,
                is_quad: polygon.is_quad,
            });
            originals.push((sample, polygon.texture, polygon.is_quad));
        }
    }
    assert!(polygons.len() > 500, "{} polygons", polygons.len());
    assert!(
        images.iter().any(|i| i.height >= 2 * PAGE),
        "no atlas of several pages"
    );
    assert_eq!(moved > 0, !pad, "{moved} V values moved");
    assert!(originals.iter().any(|o| o.1.flipped) && originals.iter().any(|o| !o.2 && o.1.shape != 0));

    let start = TextureStart::default();
    let t = build_textures(&images, &polygons, start).unwrap();
    assert_eq!(t.polygons.len(), polygons.len());
    let mut asymmetric = 0;
    for (i, (out, &(sample, texture, is_quad))) in t.polygons.iter().zip(&originals).enumerate() {
        assert!(!out.resampled, "polygon {i} was resampled");
        assert_eq!(out.shift, 0, "polygon {i}");
        assert_eq!(out.texture.flipped, texture.flipped, "polygon {i}");
        if !is_quad {
            assert_eq!(out.texture.shape, effective_shape(texture.shape), "polygon {i}");
        }
        let new = t.samples[usize::from(out.texture.sample)];
        assert_eq!((new.flip_x, new.flip_y), (-1, -1));
        assert_eq!(
            (new.width, new.height),
            (sample.width, sample.height),
            "polygon {i}"
        );
        let under = texels_under(&wad.pages, &sample, texture, is_quad);
        assert_eq!(
            texels_under(&t.pages, &new, out.texture, is_quad),
            under,
            "polygon {i}: texels differ"
        );
        // The comparison sees arrangements: the mirrored texture differs (unless symmetric).
        let mirrored = PolygonTexture {
            flipped: !out.texture.flipped,
            ..out.texture
        };
        asymmetric += usize::from(texels_under(&t.pages, &new, mirrored, is_quad) != under);
    }
    assert!(
        asymmetric > polygons.len() / 2,
        "{asymmetric} asymmetric textures"
    );
    // Identical samples stored once.
    let contents: HashSet<_> = t.samples.iter().map(|s| sample_texels(&t, s, 0)).collect();
    assert_eq!(contents.len(), t.samples.len(), "a sample is stored twice");
    assert!(
        t.pages.len() <= wad.pages.len(),
        "{} pages for {}",
        t.pages.len(),
        wad.pages.len()
    );
    // Triangles' samples come first.
    let last_triangle = t
        .polygons
        .iter()
        .zip(&polygons)
        .filter(|(_, p)| !p.is_quad)
        .map(|(o, _)| o.texture.sample);
    let first_quad_only = (0..t.samples.len() as u16).find(|&s| {
        !t.polygons
            .iter()
            .zip(&polygons)
            .any(|(o, p)| !p.is_quad && o.texture.sample == s)
    });
    if let (Some(max), Some(first)) = (last_triangle.max(), first_quad_only) {
        assert!(
            max < first,
            "a quad-only sample ({first}) comes before a triangle's ({max})"
        );
    }
    // Deterministic, and the same when cut image by image (as build cuts object by object).
    assert_eq!(build_textures(&images, &polygons, start).unwrap(), t);
    assert_eq!(cut_image_by_image(&images, &polygons, start), t);
    eprintln!(
        "padded {pad}: {} polygons on {} images → {} samples (the WAD had {}), {} pages (the WAD had {})",
        polygons.len(),
        images.len(),
        t.samples.len(),
        wad.samples.len(),
        t.pages.len(),
        wad.pages.len()
    );
}

#[test]
fn patching_numbers_samples_and_pages_after_the_base() {
    let img = coordinates_image(256, 256);
    let polygons = [
        quad(0, rect_uvs(256, 256, (0, 0, 8, 8), [0, 1, 2, 3])),
        tri(0, rect_uvs(256, 256, (8, 0, 4, 4), [0, 1, 3])),
    ];
    let start = TextureStart {
        first_sample: 100,
        first_page: 7,
        ..TextureStart::default()
    };
    let t = build_textures(&[img], &polygons, start).unwrap();
    // The triangle's sample first.
    assert_eq!(t.polygons[1].texture.sample, 100);
    assert_eq!(t.polygons[0].texture.sample, 101);
    assert_eq!(t.samples.len(), 2);
    assert!(t.samples.iter().all(|s| s.page == 7));
    assert_eq!(t.pages.len(), 1);
}

/// An image whose texel (x, y) says where it is: R, G the low bytes of x and y, B their high bits.
fn coordinates_image(width: u32, height: u32) -> RgbaImage {
    let pixels = (0..height)
        .flat_map(|y| (0..width).map(move |x| (x, y)))
        .flat_map(|(x, y)| [x as u8, y as u8, ((x >> 8) | (y >> 8) << 4) as u8 | 0x80, 255])
        .collect();
    RgbaImage {
        width,
        height,
        pixels,
    }
}

/// The texel position a coordinates image's colour names.
fn position(rgb: [u8; 3]) -> (u32, u32) {
    let high = u32::from(rgb[2] & 0x7F);
    (
        u32::from(rgb[0]) | (high & 0xF) << 8,
        u32::from(rgb[1]) | (high >> 4) << 8,
    )
}

/// UVs of corners of the pixel rectangle (x, y, w, h) on an image, picked by index from
/// `nw ne se sw`.
fn rect_uvs(
    width: u32,
    height: u32,
    (x, y, w, h): (u32, u32, u32, u32),
    pick: impl IntoIterator<Item = usize>,
) -> Vec<[f32; 2]> {
    let corners = [(x, y), (x + w, y), (x + w, y + h), (x, y + h)];
    pick.into_iter()
        .map(|k| {
            [
                corners[k].0 as f32 / width as f32,
                corners[k].1 as f32 / height as f32,
            ]
        })
        .collect()
}

fn quad(image: usize, uvs: Vec<[f32; 2]>) -> PolygonUvs {
    PolygonUvs {
        image,
        uvs,
        is_quad: true,
    }
}

fn tri(image: usize, uvs: Vec<[f32; 2]>) -> PolygonUvs {
    PolygonUvs {
        image,
        uvs,
        is_quad: false,
    }
}

/// The sample of polygon `i`, and its stored texels.
fn sample_of(t: &Textures, i: usize) -> (Sample, Vec<[u8; 3]>) {
    let s = t.samples[usize::from(t.polygons[i].texture.sample)];
    (s, sample_texels(t, &s, 0).2)
}

#[test]
fn a_rotated_corner_order_is_recovered_with_its_shift() {
    let img = coordinates_image(256, 256);
    let r = (10, 20, 8, 4);
    // nw ne se sw is the unflipped quad; starting at se it is shifted by two.
    let polygons = [
        quad(0, rect_uvs(256, 256, r, [2, 3, 0, 1])),
        quad(0, rect_uvs(256, 256, r, [3, 0, 1, 2])),
        // Unflipped triangle shape 0 is nw ne sw; starting at sw: shifted by one.
        tri(0, rect_uvs(256, 256, r, [3, 0, 1])),
        // Flipped shape 2 is nw sw ne; as sw ne nw: shifted by two; as ne nw sw: by one.
        tri(0, rect_uvs(256, 256, r, [3, 1, 0])),
        tri(0, rect_uvs(256, 256, r, [1, 0, 3])),
        // A quad in the mirrored winding: the flipped quad (ne nw sw se) shifted by three.
        quad(0, rect_uvs(256, 256, r, [0, 3, 2, 1])),
    ];
    let t = build_textures(&[img], &polygons, TextureStart::default()).unwrap();
    let got: Vec<_> = t
        .polygons
        .iter()
        .map(|p| (p.shift, p.texture.shape, p.texture.flipped, p.resampled))
        .collect();
    assert_eq!(
        got,
        [
            (2, 0, false, false),
            (1, 0, false, false),
            (1, 0, false, false),
            (2, 2, true, false),
            (1, 2, true, false),
            (3, 0, true, false)
        ]
    );
    // One sample, the rectangle itself, for all; as a flipped quad uses it, it is not sample 0
    // (a 1×1 placeholder is).
    assert_eq!(t.samples.len(), 2);
    assert!(t.polygons.iter().all(|p| p.texture.sample == 1));
    let (s, texels) = sample_of(&t, 0);
    assert_eq!((s.width, s.height), (8, 4));
    let want: Vec<(u32, u32)> = (20..24).flat_map(|y| (10..18).map(move |x| (x, y))).collect();
    assert_eq!(texels.into_iter().map(position).collect::<Vec<_>>(), want);
    // Rotating the vertex list by the shift lines the UVs up with the texture's corners.
    for (p, out) in polygons.iter().zip(&t.polygons) {
        let mut uvs = p.uvs.clone();
        uvs.rotate_left(usize::from(out.shift));
        let corners: Vec<[f32; 2]> = polygon_corners(&s, out.texture, p.is_quad)
            .into_iter()
            .map(|c| {
                [
                    (c.x + 10 - u32::from(s.x)) as f32 / 256.0,
                    (c.y + 20 - u32::from(s.y)) as f32 / 256.0,
                ]
            })
            .collect();
        assert_eq!(uvs, corners);
    }
}

/// Checks that every texel of polygon `i`'s (resampled) sample is the image texel under the point
/// its centre maps to through `map` (from (s, t) in 0..1 to image pixels); returns the largest
/// distance, per axis, from a texel's source centre to its mapped point.
fn check_mapped(t: &Textures, i: usize, image: &RgbaImage, map: impl Fn(f64, f64) -> [f64; 2]) -> f64 {
    let (s, texels) = sample_of(t, i);
    let (w, h) = (usize::from(s.width), usize::from(s.height));
    let mut worst = 0.0f64;
    for (k, &rgb) in texels.iter().enumerate() {
        let (x, y) = (k % w, k / w);
        let [mx, my] = map((x as f64 + 0.5) / w as f64, (y as f64 + 0.5) / h as f64);
        let (mx, my) = (
            mx.rem_euclid(image.width as f64),
            my.rem_euclid(image.height as f64),
        );
        let (sx, sy) = position(rgb);
        let d = (sx as f64 + 0.5 - mx).abs().max((sy as f64 + 0.5 - my).abs());
        assert!(
            d <= 0.5 + 1e-9,
            "polygon {i} texel ({x}, {y}) came from ({sx}, {sy}), mapped to ({mx}, {my})"
        );
        worst = worst.max(d);
    }
    worst
}

#[test]
fn a_skewed_triangle_is_resampled_through_its_uvs() {
    let img = coordinates_image(256, 256);
    let p = [[40.3, 10.7], [90.1, 35.2], [20.6, 70.9]];
    let uvs = p
        .iter()
        .map(|q| [(q[0] / 256.0) as f32, (q[1] / 256.0) as f32])
        .collect();
    let images = [img];
    let t = build_textures(&images, &[tri(0, uvs)], TextureStart::default()).unwrap();
    let out = t.polygons[0];
    assert!(out.resampled);
    assert_eq!((out.shift, out.texture.shape, out.texture.flipped), (0, 0, false));
    let (s, _) = sample_of(&t, 0);
    let len = |a: [f64; 2], b: [f64; 2]| (a[0] - b[0]).hypot(a[1] - b[1]).round() as u16;
    assert_eq!((s.width, s.height), (len(p[0], p[1]), len(p[0], p[2])));
    // The UVs as float32, in pixels.
    let q = p.map(|c| c.map(|v| f64::from((v / 256.0) as f32) * 256.0));
    let worst = check_mapped(&t, 0, &images[0], |s, u| {
        [0, 1].map(|k| q[0][k] + s * (q[1][k] - q[0][k]) + u * (q[2][k] - q[0][k]))
    });
    eprintln!("skewed triangle: sources within {worst:.3} texel of the mapped centres");
}

#[test]
fn uvs_on_a_large_non_atlas_image_are_resampled() {
    let img = coordinates_image(1024, 1024);
    let p = [[0.1, 0.1], [0.6, 0.15], [0.55, 0.7], [0.12, 0.6]];
    let uvs: Vec<[f32; 2]> = p.iter().map(|c| c.map(|v| v as f32)).collect();
    let images = [img];
    let t = build_textures(&images, &[quad(0, uvs.clone())], TextureStart::default()).unwrap();
    let out = t.polygons[0];
    assert!(out.resampled);
    assert_eq!((out.shift, out.texture.shape, out.texture.flipped), (0, 0, false));
    let (s, _) = sample_of(&t, 0);
    // The footprint (the longer of each pair of opposite edges, about 515 × 566 texels) scaled
    // down to a page, keeping the aspect.
    let q: Vec<[f64; 2]> = uvs.iter().map(|c| c.map(|v| f64::from(v) * 1024.0)).collect();
    let d = |a: usize, b: usize| (q[a][0] - q[b][0]).hypot(q[a][1] - q[b][1]);
    let (fw, fh) = (d(0, 1).max(d(3, 2)), d(0, 3).max(d(1, 2)));
    assert!(fh > fw && fh > 256.0);
    assert_eq!((s.width, s.height), ((fw * 256.0 / fh).round() as u16, 256));
    // A quad is filled as the game draws it: two affine halves split along v0–v2 (nw–se).
    check_mapped(&t, 0, &images[0], |s, u| {
        if s >= u {
            [0, 1].map(|k| q[0][k] + s * (q[1][k] - q[0][k]) + u * (q[2][k] - q[1][k]))
        } else {
            [0, 1].map(|k| q[0][k] + s * (q[2][k] - q[3][k]) + u * (q[3][k] - q[0][k]))
        }
    });

    // On a non-atlas image (300 × 200), a rectangle on whole pixels resamples texel for texel.
    let img = coordinates_image(300, 200);
    let t = build_textures(
        &[img],
        &[quad(0, rect_uvs(300, 200, (250, 150, 40, 30), [0, 1, 2, 3]))],
        TextureStart::default(),
    )
    .unwrap();
    assert!(t.polygons[0].resampled);
    let (s, texels) = sample_of(&t, 0);
    assert_eq!((s.width, s.height), (40, 30));
    let want: Vec<(u32, u32)> = (150..180).flat_map(|y| (250..290).map(move |x| (x, y))).collect();
    assert_eq!(texels.into_iter().map(position).collect::<Vec<_>>(), want);

    // UVs past the image repeat it.
    let img = coordinates_image(300, 200);
    let wrapped = rect_uvs(300, 200, (290, 190, 20, 20), [0, 1, 3]);
    let t = build_textures(&[img], &[tri(0, wrapped)], TextureStart::default()).unwrap();
    let (s, texels) = sample_of(&t, 0);
    assert_eq!((s.width, s.height), (20, 20));
    assert_eq!(position(texels[0]), (290, 190));
    assert_eq!(position(texels[10]), (0, 190));
    assert_eq!(position(texels[20 * 20 - 1]), (9, 9));

    // A 1024×1024 image is a one-page atlas scaled by four: UVs on its 256-grid are exact, at the
    // image's resolution.
    let img = coordinates_image(1024, 1024);
    let t = build_textures(
        &[img],
        &[quad(0, rect_uvs(1024, 1024, (40, 80, 16, 8), [0, 1, 2, 3]))],
        TextureStart::default(),
    )
    .unwrap();
    assert!(!t.polygons[0].resampled);
    let (s, texels) = sample_of(&t, 0);
    assert_eq!((s.width, s.height), (16, 8));
    assert_eq!(position(texels[0]), (40, 80));
}

/// The tolerance of resampling an axis-aligned UV rectangle off the texel grid: compared with the
/// texel-for-texel copy of the rectangle its corners round to, how far (in texel positions) a
/// resampled texel's source is.
#[test]
fn off_grid_rectangles_resample_within_one_texel() {
    let img = coordinates_image(256, 256);
    let images = [img];
    let mut worst_copy = 0u32;
    let mut worst_centre = 0.0f64;
    let mut cases = 0;
    for (w, h) in [
        (1.0, 1.0),
        (3.0, 2.0),
        (7.6, 5.2),
        (32.4, 16.0),
        (64.0, 63.7),
        (100.5, 9.9),
    ] {
        for (ox, oy) in [(0.1, 0.2), (0.3, 0.45), (0.49, 0.05), (0.7, 0.9), (0.25, 0.6)] {
            let (x0, y0) = (20.0 + ox, 30.0 + oy);
            let c = [[x0, y0], [x0 + w, y0], [x0 + w, y0 + h], [x0, y0 + h]];
            let uvs: Vec<[f32; 2]> = c.iter().map(|p| p.map(|v: f64| (v / 256.0) as f32)).collect();
            let t = build_textures(&images, &[quad(0, uvs.clone())], TextureStart::default()).unwrap();
            assert!(t.polygons[0].resampled);
            let q: Vec<[f64; 2]> = uvs.iter().map(|c| c.map(|v| f64::from(v) * 256.0)).collect();
            let centre = check_mapped(&t, 0, &images[0], |s, u| {
                let w = [(1.0 - s) * (1.0 - u), s * (1.0 - u), s * u, (1.0 - s) * u];
                [0, 1].map(|k| (0..4).map(|c| w[c] * q[c][k]).sum())
            });
            worst_centre = worst_centre.max(centre);
            // The rectangle the corners round to.
            let (rx0, ry0) = (q[0][0].round() as i64, q[0][1].round() as i64);
            let (rx1, ry1) = (q[2][0].round() as i64, q[2][1].round() as i64);
            let (rw, rh) = ((rx1 - rx0).max(1), (ry1 - ry0).max(1));
            let (s, texels) = sample_of(&t, 0);
            let (sw, sh) = (i64::from(s.width), i64::from(s.height));
            assert!((sw - rw).abs() <= 1 && (sh - rh).abs() <= 1);
            for (k, &rgb) in texels.iter().enumerate() {
                let (i, j) = (k as i64 % sw, k as i64 / sw);
                // The texel of the rounded rectangle at the same relative place.
                let (ex, ey) = (
                    rx0 + (2 * i + 1) * rw / (2 * sw),
                    ry0 + (2 * j + 1) * rh / (2 * sh),
                );
                let (x, y) = position(rgb);
                worst_copy =
                    worst_copy.max((x as i64 - ex).unsigned_abs().max((y as i64 - ey).unsigned_abs()) as u32);
            }
            cases += 1;
        }
    }
    assert!(worst_copy <= 1, "a texel came from {worst_copy} positions away");
    eprintln!(
        "{cases} off-grid rectangles: sources within {worst_centre:.3} texel of the mapped centres, \
         within {worst_copy} texel position of the rounded rectangle's copy"
    );
}

#[test]
fn identical_samples_are_stored_once_and_transparency_is_magenta() {
    // Two copies of one 4×4 pattern at different places; in the second copy the transparent
    // texels carry another colour (still transparent: the same stored texels).
    let mut img = coordinates_image(256, 256);
    for (x0, hidden) in [(0u32, [1u8, 2, 3]), (100, [9, 9, 9])] {
        for y in 0..4u32 {
            for x in 0..4u32 {
                let i = ((y * 256 + x0 + x) * 4) as usize;
                let alpha = if x == y { 0 } else { 255 };
                let rgb = if x == y {
                    hidden
                } else {
                    [x as u8 * 10, y as u8 * 10, 7]
                };
                img.pixels[i..i + 4].copy_from_slice(&[rgb[0], rgb[1], rgb[2], alpha]);
            }
        }
    }
    let polygons = [
        quad(0, rect_uvs(256, 256, (0, 0, 4, 4), [0, 1, 2, 3])),
        tri(0, rect_uvs(256, 256, (100, 0, 4, 4), [2, 3, 1])),
        tri(0, rect_uvs(256, 256, (100, 0, 4, 4), [1, 0, 2])),
    ];
    let t = build_textures(&[img], &polygons, TextureStart::default()).unwrap();
    assert_eq!(t.samples.len(), 1);
    assert!(t
        .polygons
        .iter()
        .all(|p| p.texture.sample == 0 && !p.resampled && p.shift == 0));
    assert_eq!(
        (t.polygons[1].texture.shape, t.polygons[2].texture.flipped),
        (4, true)
    );
    assert_eq!(t.polygons[2].texture.shape, 0);
    let (_, texels) = sample_of(&t, 0);
    assert_eq!(texels[0], MAGENTA);
    assert_eq!(texels[5], MAGENTA);
    assert_eq!(texels[1], [10, 0, 7]);
}

#[test]
fn a_flipped_quad_never_gets_sample_zero() {
    let img = coordinates_image(256, 256);
    let flipped = quad(0, rect_uvs(256, 256, (0, 0, 4, 4), [1, 0, 3, 2]));
    let plain = quad(0, rect_uvs(256, 256, (8, 0, 4, 4), [0, 1, 2, 3]));
    let images = [img];
    // Another sample takes index 0.
    let t = build_textures(
        &images,
        &[flipped.clone(), plain.clone()],
        TextureStart::default(),
    )
    .unwrap();
    assert_eq!(
        [t.polygons[0].texture.sample, t.polygons[1].texture.sample],
        [1, 0]
    );
    assert!(t.polygons[0].texture.flipped);
    // With no other sample, a 1×1 magenta one does.
    let t = build_textures(&images, std::slice::from_ref(&flipped), TextureStart::default()).unwrap();
    assert_eq!(t.polygons[0].texture.sample, 1);
    assert_eq!(t.samples.len(), 2);
    assert_eq!(sample_texels(&t, &t.samples[0], 0), (1, 1, vec![MAGENTA]));
    // After a base WAD's samples, no placeholder is needed.
    let start = TextureStart {
        first_sample: 5,
        first_page: 0,
        ..TextureStart::default()
    };
    let t = build_textures(&images, &[flipped], start).unwrap();
    assert_eq!((t.polygons[0].texture.sample, t.samples.len()), (5, 1));
}

/// `count` triangles, each on its own 1×1 texel of a coordinates image (distinct samples).
fn distinct_triangles(count: usize) -> Vec<PolygonUvs> {
    (0..count)
        .map(|k| {
            let (x, y) = ((k % 256) as u32, (k / 256) as u32);
            tri(0, rect_uvs(256, 256, (x, y, 1, 1), [0, 1, 3]))
        })
        .collect()
}

#[test]
fn triangles_reach_only_4096_samples() {
    let images = [coordinates_image(256, 256)];
    // Quads first in the input do not push triangles past the limit.
    let mut polygons: Vec<PolygonUvs> = (0..10)
        .map(|k| quad(0, rect_uvs(256, 256, (k * 2, 200, 2, 1), [0, 1, 2, 3])))
        .collect();
    polygons.extend(distinct_triangles(4096));
    let t = build_textures(&images, &polygons, TextureStart::default()).unwrap();
    assert_eq!(t.samples.len(), 4106);
    assert!(t.polygons[10..].iter().all(|p| p.texture.sample < 4096));
    assert!(t.polygons[..10].iter().all(|p| p.texture.sample >= 4096));

    let err = build_textures(&images, &distinct_triangles(4097), TextureStart::default()).unwrap_err();
    assert!(
        matches!(
            err,
            TextureError::TriangleSampleOutOfRange {
                polygon: 4096,
                sample: 4096,
                triangle_samples: 4097,
                first_sample: 0
            }
        ),
        "{err:?}"
    );
    let message = err.to_string();
    assert!(
        message.starts_with("polygon 4096 is a triangle and would use sample 4096"),
        "{message}"
    );
    assert!(message.contains("0..=4095"), "{message}");

    // After a base WAD's 4000 samples, the 97th distinct triangle texture is one too many.
    let start = TextureStart {
        first_sample: 4000,
        first_page: 3,
        ..TextureStart::default()
    };
    assert!(build_textures(&images, &distinct_triangles(96), start).is_ok());
    let err = build_textures(&images, &distinct_triangles(97), start).unwrap_err();
    assert!(
        matches!(
            err,
            TextureError::TriangleSampleOutOfRange {
                polygon: 96,
                sample: 4096,
                ..
            }
        ),
        "{err:?}"
    );
}

#[test]
fn bad_input_names_the_polygon() {
    let images = [
        coordinates_image(8, 8),
        RgbaImage {
            width: 4,
            height: 4,
            pixels: vec![0; 10],
        },
    ];
    let ok = tri(0, vec![[0.0, 0.0], [0.5, 0.0], [0.0, 0.5]]);
    let run = |p: PolygonUvs| build_textures(&images, &[ok.clone(), p], TextureStart::default()).unwrap_err();
    let e = run(tri(2, ok.uvs.clone()));
    assert!(
        matches!(
            e,
            TextureError::NoImage {
                polygon: 1,
                image: 2,
                images: 2
            }
        ),
        "{e:?}"
    );
    let e = run(tri(1, ok.uvs.clone()));
    assert!(
        matches!(
            e,
            TextureError::BadImage {
                polygon: 1,
                image: 1,
                bytes: 10,
                ..
            }
        ),
        "{e:?}"
    );
    let e = run(quad(0, ok.uvs.clone()));
    assert!(
        matches!(
            e,
            TextureError::WrongUvCount {
                polygon: 1,
                is_quad: true,
                count: 3
            }
        ),
        "{e:?}"
    );
    assert_eq!(
        e.to_string(),
        "polygon 1 is a quad with 3 UVs: give it one UV per corner"
    );
    let e = run(tri(0, vec![[0.0, 0.0], [f32::NAN, 0.0], [0.0, 0.5]]));
    assert!(
        matches!(
            e,
            TextureError::BadUv {
                polygon: 1,
                corner: 1
            }
        ),
        "{e:?}"
    );
    // Nothing to texture: nothing made.
    let t = build_textures(&images, &[], TextureStart::default()).unwrap();
    assert!(t.samples.is_empty() && t.pages.is_empty() && t.polygons.is_empty());
}
