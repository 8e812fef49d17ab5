//! The rasterizer: textured, lit triangles into an RGBA canvas with a depth buffer.
//!
//! Triangles arrive in pixel space (x right, y down, z the depth: smaller is nearer). Texture
//! coordinates are texel edges of a page, as [`wadforge_model::texture_corners::TexelPoint`]
//! gives them, and are interpolated linearly in screen space: the pictures use an orthographic
//! view, where that is exact. A texel is looked up by nearest texel, kept inside its sample's
//! rectangle so a polygon never shows its neighbour's texels. Magenta (255, 0, 255) texels are transparent.

use wadforge_model::{Page, PAGE_SIZE};

/// The texels a triangle maps: a page and the sample rectangle that bounds its lookups.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TexelRect {
    pub page: usize,
    pub x: u32,
    pub y: u32,
    pub width: u32,
    pub height: u32,
}

/// One triangle ready to draw.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ScreenTriangle {
    /// Pixel x, pixel y, depth.
    pub points: [[f32; 3]; 3],
    /// Texel-edge coordinates on the page of `texture`, one per point.
    pub texels: [[f32; 2]; 3],
    /// Brightness per point: 1.0 shows the texel as stored.
    pub light: [f32; 3],
    /// `None` draws flat grey (a polygon naming a sample the file lacks).
    pub texture: Option<TexelRect>,
    /// Additive blending (attribute bit 0): adds to what is behind and hides nothing.
    pub additive: bool,
}

/// The colour of a transparent texel.
pub const MAGENTA: [u8; 3] = [255, 0, 255];
/// The colour of a polygon whose sample is missing.
const MISSING: [u8; 3] = [128, 128, 128];

/// An RGBA picture (transparent where nothing was drawn) and its depth buffer.
#[derive(Debug, Clone)]
pub struct Canvas {
    width: usize,
    height: usize,
    rgba: Vec<u8>,
    depth: Vec<f32>,
}

impl Canvas {
    pub fn new(width: u32, height: u32) -> Self {
        let (width, height) = (width as usize, height as usize);
        Canvas {
            width,
            height,
            rgba: vec![0; width * height * 4],
            depth: vec![f32::INFINITY; width * height],
        }
    }

    pub fn width(&self) -> u32 {
        self.width as u32
    }

    pub fn height(&self) -> u32 {
        self.height as u32
    }

    /// Rows top to bottom, four bytes a pixel.
    pub fn rgba(&self) -> &[u8] {
        &self.rgba
    }

    pub fn pixel(&self, x: u32, y: u32) -> [u8; 4] {
        let i = (y as usize * self.width + x as usize) * 4;
        [self.rgba[i], self.rgba[i + 1], self.rgba[i + 2], self.rgba[i + 3]]
    }

    /// Clears colour and depth for the next picture of the same size.
    pub fn clear(&mut self) {
        self.rgba.fill(0);
        self.depth.fill(f32::INFINITY);
    }

    /// The smallest rectangle `(x, y, width, height)` holding every drawn pixel, `None` when
    /// nothing was drawn.
    pub fn drawn_bounds(&self) -> Option<(u32, u32, u32, u32)> {
        let mut bounds: Option<(usize, usize, usize, usize)> = None;
        for y in 0..self.height {
            for x in 0..self.width {
                if self.rgba[(y * self.width + x) * 4 + 3] != 0 {
                    let b = bounds.get_or_insert((x, y, x, y));
                    *b = (b.0.min(x), b.1.min(y), b.2.max(x), b.3.max(y));
                }
            }
        }
        bounds.map(|(x0, y0, x1, y1)| (x0 as u32, y0 as u32, (x1 - x0 + 1) as u32, (y1 - y0 + 1) as u32))
    }

    /// The pixels [`Canvas::draw`] looks at for `t`: [`box_pixels`] on this canvas.
    pub fn box_pixels(&self, t: &ScreenTriangle) -> usize {
        box_pixels(t.points, self.width, self.height)
    }

    /// Draws one triangle (either winding) over the pixels whose centres it covers.
    pub fn draw(&mut self, t: &ScreenTriangle, pages: &[Page]) {
        let [p0, p1, p2] = t.points;
        let area = edge(p0, p1, p2);
        if !area.is_finite() || area.abs() < 1e-9 {
            return;
        }
        let min_x = p0[0].min(p1[0]).min(p2[0]).floor().max(0.0) as usize;
        let max_x = (p0[0].max(p1[0]).max(p2[0]).ceil() as usize).min(self.width);
        let min_y = p0[1].min(p1[1]).min(p2[1]).floor().max(0.0) as usize;
        let max_y = (p0[1].max(p1[1]).max(p2[1]).ceil() as usize).min(self.height);
        let page = t.texture.and_then(|r| pages.get(r.page).map(|p| (p, r)));
        // A hair of slack so that pixels on an edge shared by two triangles belong to both.
        const SLACK: f32 = -1e-5;
        for y in min_y..max_y {
            for x in min_x..max_x {
                let p = [x as f32 + 0.5, y as f32 + 0.5, 0.0];
                let w0 = edge(p1, p2, p) / area;
                let w1 = edge(p2, p0, p) / area;
                let w2 = 1.0 - w0 - w1;
                if w0 < SLACK || w1 < SLACK || w2 < SLACK {
                    continue;
                }
                let i = y * self.width + x;
                let z = w0 * p0[2] + w1 * p1[2] + w2 * p2[2];
                if z >= self.depth[i] {
                    continue;
                }
                let rgb = match page {
                    Some((page, rect)) => {
                        let u = w0 * t.texels[0][0] + w1 * t.texels[1][0] + w2 * t.texels[2][0];
                        let v = w0 * t.texels[0][1] + w1 * t.texels[1][1] + w2 * t.texels[2][1];
                        let tx = texel_index(u, rect.x, rect.width);
                        let ty = texel_index(v, rect.y, rect.height);
                        page.texel(tx, ty)
                    }
                    None => MISSING,
                };
                if rgb == MAGENTA {
                    continue;
                }
                let light = w0 * t.light[0] + w1 * t.light[1] + w2 * t.light[2];
                let lit = rgb.map(|c| channel(c as f32 * light));
                let out = &mut self.rgba[i * 4..i * 4 + 4];
                if t.additive {
                    for c in 0..3 {
                        out[c] = out[c].saturating_add(lit[c]);
                    }
                    out[3] = out[3].max(*lit.iter().max().unwrap_or(&0));
                } else {
                    out[..3].copy_from_slice(&lit);
                    out[3] = 255;
                    self.depth[i] = z;
                }
            }
        }
    }
}

/// Twice the signed area of (a, b, c) in the screen plane.
fn edge(a: [f32; 3], b: [f32; 3], c: [f32; 3]) -> f32 {
    (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])
}

/// The texel column (or row) holding texel-edge coordinate `u`, kept inside `start..start+len`
/// and the page.
fn texel_index(u: f32, start: u32, len: u32) -> usize {
    let last = (start + len.max(1) - 1).min(PAGE_SIZE as u32 - 1);
    // `as` truncates and saturates: the floor of `u`, 0 below 0 (and for NaN), without the
    // library call `floor` costs where SSE4.1 is not assumed.
    (u as u32).clamp(start.min(last), last) as usize
}

/// `x` rounded half away from zero and kept within 0..=255: `x.round().clamp(0.0, 255.0) as u8`
/// without the library call `round` costs (a third of a gallery's time, three a pixel).
fn channel(x: f32) -> u8 {
    // Truncated: 0 below 0 and for NaN. Exact: the whole part of a float is a float, and so is
    // what is left.
    let whole = x as u32;
    let rounded = whole.saturating_add(u32::from(x - whole as f32 >= 0.5));
    rounded.min(255) as u8
}

/// The pixels [`Canvas::draw`] looks at for a triangle of screen `points` on a `width`×`height`
/// canvas: its bounding box within the canvas (none for a triangle without area, which it
/// leaves at once).
pub fn box_pixels([p0, p1, p2]: [[f32; 3]; 3], width: usize, height: usize) -> usize {
    let area = edge(p0, p1, p2);
    if !area.is_finite() || area.abs() < 1e-9 {
        return 0;
    }
    let span = |lo: f32, hi: f32, size: usize| {
        let (lo, hi) = (lo.floor().max(0.0), hi.ceil().min(size as f32));
        if hi > lo {
            (hi - lo) as usize
        } else {
            0
        }
    };
    let across = span(p0[0].min(p1[0]).min(p2[0]), p0[0].max(p1[0]).max(p2[0]), width);
    let down = span(p0[1].min(p1[1]).min(p2[1]), p0[1].max(p1[1]).max(p2[1]), height);
    across * down
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn channels_and_texel_indexes_are_what_round_and_floor_give() {
        let mut values: Vec<f32> = vec![
            f32::NAN,
            f32::INFINITY,
            f32::NEG_INFINITY,
            -0.5,
            -0.49999997,
            -0.0,
            0.49999997,
            0.5,
            2.5,
            254.5,
            255.49998,
            255.5,
            1e12,
            -1e12,
        ];
        // Every step of 1/64 over the range a channel takes, and the floats round each half.
        for k in -64 * 4..=64 * 300 {
            let x = k as f32 / 64.0;
            values.extend([
                x,
                f32::from_bits(x.to_bits() + 1),
                f32::from_bits(x.to_bits().wrapping_sub(1)),
            ]);
        }
        for x in values {
            assert_eq!(channel(x), x.round().clamp(0.0, 255.0) as u8, "channel of {x:e}");
            for (start, len) in [(0, 256), (10, 20), (255, 1), (250, 30)] {
                let last = (start + len - 1).min(PAGE_SIZE as u32 - 1);
                let floor = (x.floor().max(0.0) as u32).clamp(start.min(last), last) as usize;
                assert_eq!(texel_index(x, start, len), floor, "texel index of {x:e}");
            }
        }
    }

    fn triangle(points: [[f32; 3]; 3]) -> ScreenTriangle {
        ScreenTriangle {
            points,
            texels: [[0.0; 2]; 3],
            light: [1.0; 3],
            texture: None,
            additive: false,
        }
    }

    #[test]
    fn nearer_triangles_hide_farther_ones_whatever_the_order() {
        let far = triangle([[0.0, 0.0, 10.0], [8.0, 0.0, 10.0], [0.0, 8.0, 10.0]]);
        let mut near = triangle([[0.0, 0.0, 1.0], [8.0, 0.0, 1.0], [0.0, 8.0, 1.0]]);
        near.light = [0.5; 3];
        for order in [[far, near], [near, far]] {
            let mut canvas = Canvas::new(8, 8);
            order.iter().for_each(|t| canvas.draw(t, &[]));
            assert_eq!(canvas.pixel(1, 1), [64, 64, 64, 255]);
            // Outside the hypotenuse nothing is drawn.
            assert_eq!(canvas.pixel(7, 7), [0, 0, 0, 0]);
        }
    }

    #[test]
    fn magenta_texels_leave_holes_and_additive_adds() {
        let mut page = Page::filled([200, 10, 10]);
        page.set_texel(0, 0, MAGENTA);
        let rect = TexelRect {
            page: 0,
            x: 0,
            y: 0,
            width: 2,
            height: 2,
        };
        // Texels 0..2 stretched over 8 pixels: the top-left quarter maps texel (0, 0).
        let mut t = triangle([[0.0, 0.0, 1.0], [8.0, 0.0, 1.0], [0.0, 8.0, 1.0]]);
        t.texels = [[0.0, 0.0], [2.0, 0.0], [0.0, 2.0]];
        t.texture = Some(rect);
        let mut canvas = Canvas::new(8, 8);
        canvas.draw(&t, std::slice::from_ref(&page));
        assert_eq!(canvas.pixel(1, 1)[3], 0, "magenta is transparent");
        assert_eq!(canvas.pixel(5, 1), [200, 10, 10, 255]);
        let mut glow = triangle([[0.0, 0.0, 0.5], [8.0, 0.0, 0.5], [0.0, 8.0, 0.5]]);
        glow.light = [0.1; 3];
        glow.additive = true;
        canvas.draw(&glow, &[]);
        assert_eq!(canvas.pixel(5, 1), [213, 23, 23, 255]);
    }

    #[test]
    fn drawn_bounds_cover_exactly_the_drawn_pixels() {
        let mut canvas = Canvas::new(16, 16);
        assert_eq!(canvas.drawn_bounds(), None);
        canvas.draw(
            &triangle([[2.0, 3.0, 1.0], [10.0, 3.0, 1.0], [2.0, 9.0, 1.0]]),
            &[],
        );
        // Pixel centres x + 0.5 in 2.5..=8.5 (the hypotenuse passes x = 9.33 on the first row),
        // y + 0.5 in 3.5..=8.5.
        assert_eq!(canvas.drawn_bounds(), Some((2, 3, 7, 6)));
    }
}
