//! The exact path: UVs on the corners of a texel rectangle of a page atlas → that rectangle of
//! the image, copied texel for texel.

use wadforge_format::texture_corners::recover_shifted_texture;
use wadforge_format::PAGE_SIZE;
use wadforge_packer::uv::{corners_from_uvs, texel_offset};

use super::{Cut, RgbaImage};

/// How far (in texels of the 256-per-page grid) a UV may be from a texel edge and still count as
/// on it. Blender's float32 noise stays below 0.001 texel on atlases of up to 64 pages; UVs placed
/// by hand off the grid are resampled.
pub(crate) const ON_TEXEL: f32 = 0.01;

const PAGE: u32 = PAGE_SIZE as u32;

/// The sample under `uvs` when they sit on a texel rectangle of the image as a page atlas, in a
/// legal arrangement or a cyclic shift of one, and the rectangle is whole pixels of the image no
/// larger than a page; `None` otherwise.
#[cfg(test)]
pub(crate) fn cut(image: &RgbaImage, uvs: &[[f32; 2]], is_quad: bool) -> Option<Cut> {
    place(image, uvs, is_quad).map(|placed| placed.cut(image))
}

/// Where a polygon's sample sits on its image, as [`cut`] finds it, before its texels are copied
/// (polygons placed on one rectangle share its texels: they are copied once).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Placed {
    /// The rectangle in image pixels: left, top, right, bottom (exclusive).
    pub rect: [u32; 4],
    shape: u8,
    flipped: bool,
    shift: u8,
}

impl Placed {
    /// The sample's texels cut from `image`, and how the polygon sits on it.
    pub fn cut(&self, image: &RgbaImage) -> Cut {
        Cut {
            texels: image.page_texels(self.rect[0]..self.rect[2], self.rect[1]..self.rect[3]),
            ..self.uncut()
        }
    }

    /// How the polygon sits on the sample, without its texels (already cut for another).
    pub fn uncut(&self) -> Cut {
        Cut {
            width: self.rect[2] - self.rect[0],
            height: self.rect[3] - self.rect[1],
            texels: Vec::new(),
            shape: self.shape,
            flipped: self.flipped,
            shift: self.shift,
            resampled: false,
        }
    }
}

/// Where the sample under `uvs` sits (see [`cut`]).
pub(crate) fn place(image: &RgbaImage, uvs: &[[f32; 2]], is_quad: bool) -> Option<Placed> {
    let (width, height) = (image.width, image.height);
    let uvs = without_repeats(uvs);
    if uvs
        .iter()
        .any(|&uv| texel_offset(uv, width, height).is_none_or(|offset| offset > ON_TEXEL))
    {
        return None;
    }
    let (page, points) = corners_from_uvs(&uvs, width, height)?;
    let (recovered, shift) = recover_shifted_texture(&points, is_quad)?;
    // Grid (256 to a page's width) → image pixels; only whole pixels are copied.
    let pixel = |grid: u32| {
        let scaled = u64::from(grid) * u64::from(width);
        (scaled % u64::from(PAGE) == 0).then(|| u32::try_from(scaled / u64::from(PAGE)).ok())?
    };
    let r = recovered.rect;
    let row = page * PAGE + r.y;
    let (x0, x1) = (pixel(r.x)?, pixel(r.x + r.width)?);
    let (y0, y1) = (pixel(row)?, pixel(row + r.height)?);
    let (w, h) = (x1 - x0, y1 - y0);
    if !(1..=PAGE).contains(&w) || !(1..=PAGE).contains(&h) || x1 > width || y1 > height {
        return None;
    }
    Some(Placed {
        rect: [x0, y0, x1, y1],
        shape: recovered.shape,
        flipped: recovered.flipped,
        shift: shift as u8,
    })
}

/// The UVs moved by whole repeats so the smallest U and V lie in 0..1 (a corner a hair below a
/// whole number, as float noise leaves it, counts as on it). Unchanged when already there.
fn without_repeats(uvs: &[[f32; 2]]) -> Vec<[f32; 2]> {
    let mut out = uvs.to_vec();
    for axis in 0..2 {
        let least = uvs
            .iter()
            .map(|uv| f64::from(uv[axis]))
            .fold(f64::INFINITY, f64::min);
        let repeats = (least + 1e-5).floor();
        if repeats.is_finite() && repeats != 0.0 {
            for uv in &mut out {
                uv[axis] = (f64::from(uv[axis]) - repeats) as f32;
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn image(width: u32, height: u32) -> RgbaImage {
        let pixels = (0..width * height)
            .flat_map(|i| [(i % width) as u8, (i / width) as u8, (i % 7) as u8, 255])
            .collect();
        RgbaImage {
            width,
            height,
            pixels,
        }
    }

    /// UV of a grid point (256 to a page edge) on a one-page atlas.
    fn uv(x: u32, y: u32) -> [f32; 2] {
        [x as f32 / 256.0, y as f32 / 256.0]
    }

    #[test]
    fn a_rectangle_on_the_grid_is_copied() {
        let img = image(256, 256);
        let c = cut(&img, &[uv(10, 20), uv(14, 20), uv(14, 23), uv(10, 23)], true).unwrap();
        assert_eq!(
            (c.width, c.height, c.shape, c.flipped, c.shift),
            (4, 3, 0, false, 0)
        );
        assert_eq!(c.texels[..3], img.page_texel(10, 20));
        assert_eq!(c.texels[33..36], img.page_texel(13, 22));
    }

    #[test]
    fn a_scaled_atlas_keeps_its_resolution() {
        let img = image(512, 512);
        let c = cut(&img, &[uv(10, 20), uv(14, 20), uv(10, 23)], false).unwrap();
        assert_eq!((c.width, c.height), (8, 6));
        assert_eq!(c.texels[..3], img.page_texel(20, 40));
        // Too large for a page at this resolution: not exact.
        assert!(cut(&img, &[uv(0, 0), uv(200, 0), uv(0, 10)], false).is_none());
        // Half-scale: only whole pixels are exact.
        let small = image(128, 128);
        assert!(cut(&small, &[uv(10, 20), uv(14, 20), uv(10, 24)], false).is_some());
        assert!(cut(&small, &[uv(11, 20), uv(14, 20), uv(11, 24)], false).is_none());
    }

    #[test]
    fn whole_repeats_are_unwrapped_and_noise_is_not() {
        let img = image(256, 256);
        let moved = [
            [1.0 + 10.0 / 256.0, -1.0 + 20.0 / 256.0],
            [1.0 + 14.0 / 256.0, -1.0 + 20.0 / 256.0],
            [1.0 + 10.0 / 256.0, -1.0 + 23.0 / 256.0],
        ];
        let c = cut(&img, &moved, false).unwrap();
        assert_eq!((c.width, c.height), (4, 3));
        assert_eq!(c.texels[..3], img.page_texel(10, 20));
        let noisy = [[-1e-7, 0.0], [4.0 / 256.0, 0.0], [-1e-7, 3.0 / 256.0]];
        assert_eq!(without_repeats(&noisy), noisy.to_vec());
        assert!(cut(&img, &noisy, false).is_some());
    }

    #[test]
    fn off_grid_and_non_atlas_images_are_not_exact() {
        let img = image(256, 256);
        assert!(cut(
            &img,
            &[uv(10, 20), uv(14, 20), [10.3 / 256.0, 23.0 / 256.0]],
            false
        )
        .is_none());
        assert!(cut(&image(256, 300), &[uv(10, 20), uv(14, 20), uv(10, 23)], false).is_none());
    }
}
