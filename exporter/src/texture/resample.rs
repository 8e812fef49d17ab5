//! The resampling path: a new sample filled through the polygon's UV mapping, nearest texel.

use wadforge_format::PAGE_SIZE;

use super::{Cut, RgbaImage};

/// Largest side of a sample, in texels.
const MAX_SIDE: f64 = PAGE_SIZE as f64;

/// A new sample for a polygon whose UVs are not an exact texel rectangle: sized by the UV
/// footprint in image texels, each texel the image texel under the mapped texel centre (UVs
/// repeat outside 0..1). The polygon maps it with shape 0, unflipped. `uvs` holds 3 or 4 finite
/// UVs matching `is_quad`.
pub(crate) fn cut(image: &RgbaImage, uvs: &[[f32; 2]], is_quad: bool) -> Cut {
    let (iw, ih) = (f64::from(image.width), f64::from(image.height));
    let p: Vec<[f64; 2]> = uvs
        .iter()
        .map(|uv| [f64::from(uv[0]) * iw, f64::from(uv[1]) * ih])
        .collect();
    let (width, height) = size(footprint(&p, is_quad));
    let (w, h) = (f64::from(width), f64::from(height));
    let mut texels = Vec::with_capacity(width as usize * height as usize * 3);
    for j in 0..height {
        for i in 0..width {
            let s = (f64::from(i) + 0.5) / w;
            let t = (f64::from(j) + 0.5) / h;
            let [x, y] = map(&p, is_quad, s, t);
            texels.extend_from_slice(&image.page_texel(wrap(x, image.width), wrap(y, image.height)));
        }
    }
    Cut {
        width,
        height,
        texels,
        shape: 0,
        flipped: false,
        shift: 0,
        resampled: true,
    }
}

/// Where the sample point (s, t) (0..1 from the sample's west and north edges) lands in the
/// image, in pixels: triangles map `nw ne sw` (shape 0, unflipped) affinely onto their three UVs;
/// quads map as the game and glTF viewers draw them, two triangles split along the polygon's
/// v0–v2 (the sample's nw–se): `nw ne se` and `nw se sw` each affinely onto their UVs.
pub(crate) fn map(p: &[[f64; 2]], is_quad: bool, s: f64, t: f64) -> [f64; 2] {
    if is_quad {
        if s >= t {
            [0, 1].map(|k| p[0][k] + s * (p[1][k] - p[0][k]) + t * (p[2][k] - p[1][k]))
        } else {
            [0, 1].map(|k| p[0][k] + s * (p[2][k] - p[3][k]) + t * (p[3][k] - p[0][k]))
        }
    } else {
        [0, 1].map(|k| p[0][k] + s * (p[1][k] - p[0][k]) + t * (p[2][k] - p[0][k]))
    }
}

/// The lengths, in image texels, of what the sample's top and left edges map to (for quads the
/// longer of each opposite pair).
fn footprint(p: &[[f64; 2]], is_quad: bool) -> (f64, f64) {
    let d = |a: usize, b: usize| (p[a][0] - p[b][0]).hypot(p[a][1] - p[b][1]);
    if is_quad {
        (d(0, 1).max(d(3, 2)), d(0, 3).max(d(1, 2)))
    } else {
        (d(0, 1), d(0, 2))
    }
}

/// Whole texels for a footprint: rounded, at least 1, the larger side at most 256 (both scaled
/// down alike when larger).
fn size((fw, fh): (f64, f64)) -> (u32, u32) {
    let largest = fw.max(fh);
    let scale = if largest > MAX_SIDE {
        MAX_SIDE / largest
    } else {
        1.0
    };
    let side = |f: f64| (f * scale).round().clamp(1.0, MAX_SIDE) as u32;
    (side(fw), side(fh))
}

/// The pixel column (or row) holding coordinate `x`, repeating the image every `extent` pixels.
fn wrap(x: f64, extent: u32) -> u32 {
    let e = f64::from(extent);
    (x.rem_euclid(e).floor() as u32).min(extent - 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_are_rounded_clamped_and_keep_their_aspect() {
        assert_eq!(size((32.4, 10.6)), (32, 11));
        assert_eq!(size((0.0, 0.2)), (1, 1));
        assert_eq!(size((1024.0, 512.0)), (256, 128));
        assert_eq!(size((300.0, 3.0)), (256, 3));
        assert_eq!(size((10_000.0, 1.0)), (256, 1));
    }

    #[test]
    fn coordinates_repeat() {
        assert_eq!(wrap(-0.5, 256), 255);
        assert_eq!(wrap(256.25, 256), 0);
        assert_eq!(wrap(-1e-17, 256), 255);
        assert_eq!(wrap(1e30, 256), (1e30f64.rem_euclid(256.0)) as u32);
    }

    #[test]
    fn triangles_map_affinely_from_nw_ne_sw() {
        let p = [[10.0, 20.0], [30.0, 20.0], [10.0, 60.0]];
        assert_eq!(map(&p, false, 0.0, 0.0), [10.0, 20.0]);
        assert_eq!(map(&p, false, 1.0, 0.0), [30.0, 20.0]);
        assert_eq!(map(&p, false, 0.0, 1.0), [10.0, 60.0]);
        assert_eq!(map(&p, false, 1.0, 1.0), [30.0, 60.0]);
        let q = [[0.0, 0.0], [8.0, 0.0], [10.0, 6.0], [0.0, 4.0]];
        assert_eq!(map(&q, true, 1.0, 1.0), [10.0, 6.0]);
        assert_eq!(map(&q, true, 0.0, 1.0), [0.0, 4.0]);
        assert_eq!(footprint(&q, true), (10.0f64.hypot(2.0), 6.0f64.hypot(2.0)));
    }

    #[test]
    fn quads_map_as_two_affine_halves_split_nw_se() {
        let q = [[0.0, 0.0], [8.0, 0.0], [10.0, 6.0], [0.0, 4.0]];
        for (s, t, corner) in [(0.0, 0.0, 0), (1.0, 0.0, 1), (1.0, 1.0, 2), (0.0, 1.0, 3)] {
            assert_eq!(map(&q, true, s, t), q[corner]);
        }
        // On the diagonal both halves agree: halfway from nw to se.
        assert_eq!(map(&q, true, 0.5, 0.5), [5.0, 3.0]);
        // Each half is affine: its centroid maps to the centroid of its three UVs.
        let [x, y] = map(&q, true, 2.0 / 3.0, 1.0 / 3.0);
        assert!((x - 6.0).abs() < 1e-12 && (y - 2.0).abs() < 1e-12, "{x} {y}");
        let [x, y] = map(&q, true, 1.0 / 3.0, 2.0 / 3.0);
        assert!(
            (x - 10.0 / 3.0).abs() < 1e-12 && (y - 10.0 / 3.0).abs() < 1e-12,
            "{x} {y}"
        );
    }
}
