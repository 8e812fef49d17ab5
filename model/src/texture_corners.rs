//! Where a polygon's corners sit on its sample, and back.
//!
//! The mapping is the one the widely used TRLE tools apply (`docs/format-facts.md`,
//! "Polygons and textures"), with `nw ne se sw` the corners of the sample rectangle
//! `(x, y) (x+w, y) (x+w, y+h) (x, y+h)`:
//!
//! | polygon  | flipped | shape | v1 v2 v3 (v4)   |
//! |----------|---------|-------|-----------------|
//! | quad     | no      | –     | nw ne se sw     |
//! | quad     | yes     | –     | ne nw sw se     |
//! | triangle | no      | 0     | nw ne sw        |
//! | triangle | no      | 2     | ne se nw        |
//! | triangle | no      | 4     | se sw ne        |
//! | triangle | no      | 6     | sw nw se        |
//! | triangle | yes     | 0     | ne nw se        |
//! | triangle | yes     | 2     | nw sw ne        |
//! | triangle | yes     | 4     | sw se nw        |
//! | triangle | yes     | 6     | se ne sw        |
//!
//! Odd triangle shapes (1, 3, 5, 7), which the reader keeps as stored, map like the even shape
//! below them; see [`effective_shape`].

use crate::{PolygonTexture, Sample, PAGE_SIZE};

/// A corner of a sample rectangle, in texel-edge coordinates of its page (x..=x+w, y..=y+h).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct TexelPoint {
    pub x: u32,
    pub y: u32,
}

impl TexelPoint {
    pub const fn new(x: u32, y: u32) -> Self {
        TexelPoint { x, y }
    }
}

/// A corner of a sample rectangle; north is the top row of the page.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Corner {
    Nw,
    Ne,
    Se,
    Sw,
}

/// A rectangle of texels on one page, in texels: it covers columns `x..x+width` and rows
/// `y..y+height`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct SampleRect {
    pub x: u32,
    pub y: u32,
    pub width: u32,
    pub height: u32,
}

impl SampleRect {
    /// The rectangle a sample covers on its page.
    pub fn of(sample: &Sample) -> Self {
        SampleRect {
            x: u32::from(sample.x),
            y: u32::from(sample.y),
            width: u32::from(sample.width),
            height: u32::from(sample.height),
        }
    }

    /// Page coordinates of one corner (texel edges: the south-east corner is `(x+w, y+h)`).
    pub fn corner(&self, corner: Corner) -> TexelPoint {
        let (right, bottom) = (self.x + self.width, self.y + self.height);
        match corner {
            Corner::Nw => TexelPoint::new(self.x, self.y),
            Corner::Ne => TexelPoint::new(right, self.y),
            Corner::Se => TexelPoint::new(right, bottom),
            Corner::Sw => TexelPoint::new(self.x, bottom),
        }
    }
}

/// A texture recovered from corner points: the sample rectangle and how the polygon sits on it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct RecoveredTexture {
    pub rect: SampleRect,
    /// 0, 2, 4 or 6 for triangles; 0 for quads.
    pub shape: u8,
    pub flipped: bool,
}

impl RecoveredTexture {
    /// The polygon texture that maps this shape and flip onto sample number `sample`.
    pub fn texture(&self, sample: u16) -> PolygonTexture {
        PolygonTexture {
            sample,
            shape: self.shape,
            flipped: self.flipped,
        }
    }
}

/// The shape a triangle's corners follow: odd values (1, 3, 5, 7, which no known tool writes but
/// the reader keeps) map like the even value below them, i.e. `shape − 1`; values of 8 and more
/// (which no file can hold: the field has three bits) first lose their upper bits, as the file
/// would store them. Always one of 0, 2, 4, 6.
pub fn effective_shape(shape: u8) -> u8 {
    shape & 0b110
}

/// The sample corners a polygon's vertices map to, in vertex order (4 for quads, 3 for
/// triangles). Quads ignore `shape`.
pub fn corner_order(shape: u8, flipped: bool, is_quad: bool) -> &'static [Corner] {
    use Corner::*;
    if is_quad {
        return if flipped {
            &[Ne, Nw, Sw, Se]
        } else {
            &[Nw, Ne, Se, Sw]
        };
    }
    match (flipped, effective_shape(shape)) {
        (false, 0) => &[Nw, Ne, Sw],
        (false, 2) => &[Ne, Se, Nw],
        (false, 4) => &[Se, Sw, Ne],
        (false, _) => &[Sw, Nw, Se],
        (true, 0) => &[Ne, Nw, Se],
        (true, 2) => &[Nw, Sw, Ne],
        (true, 4) => &[Sw, Se, Nw],
        (true, _) => &[Se, Ne, Sw],
    }
}

/// Page coordinates of each corner of a polygon (4 for quads, 3 for triangles, in the polygon's
/// vertex order) mapping `rect` with this shape and flip.
pub fn rect_corners(rect: SampleRect, shape: u8, flipped: bool, is_quad: bool) -> Vec<TexelPoint> {
    corner_order(shape, flipped, is_quad)
        .iter()
        .map(|&c| rect.corner(c))
        .collect()
}

/// Page coordinates of each polygon corner (3 or 4, in the polygon's vertex order) for this
/// texture. `sample` is the sample `texture.sample` names; the index itself is not read.
pub fn polygon_corners(sample: &Sample, texture: PolygonTexture, is_quad: bool) -> Vec<TexelPoint> {
    rect_corners(SampleRect::of(sample), texture.shape, texture.flipped, is_quad)
}

/// Every (shape, flipped) a polygon can use, in the order [`recover_texture`] tries them.
fn arrangements(is_quad: bool) -> &'static [(u8, bool)] {
    if is_quad {
        &[(0, false), (0, true)]
    } else {
        &[
            (0, false),
            (2, false),
            (4, false),
            (6, false),
            (0, true),
            (2, true),
            (4, true),
            (6, true),
        ]
    }
}

/// The inverse of [`polygon_corners`]: given 3 (triangle) or 4 (quad) corner points, already
/// rounded to whole texels, in page coordinates, if they sit on the corners of an axis-aligned
/// rectangle of at least 1×1 texels inside one page in one of the legal arrangements, return the
/// rectangle and the shape + flip that reproduce them; `None` otherwise (artist-made UVs, a
/// legal rectangle in an order the table does not have, a point count that does not match
/// `is_quad`, or a rectangle past the page's edge).
///
/// The answer is unique: the corners of a rectangle of at least 1×1 are four distinct points, and
/// the table's 2 quad and 8 triangle orders are pairwise distinct, so at most one arrangement
/// matches. The shape is always even.
pub fn recover_texture(corners: &[TexelPoint], is_quad: bool) -> Option<RecoveredTexture> {
    if corners.len() != if is_quad { 4 } else { 3 } {
        return None;
    }
    // Three corners of a rectangle include both its columns and both its rows, so any match is
    // on the bounding box.
    let x = corners.iter().map(|p| p.x).min()?;
    let y = corners.iter().map(|p| p.y).min()?;
    let right = corners.iter().map(|p| p.x).max()?;
    let bottom = corners.iter().map(|p| p.y).max()?;
    let page = PAGE_SIZE as u32;
    if right == x || bottom == y || right > page || bottom > page {
        return None;
    }
    let rect = SampleRect {
        x,
        y,
        width: right - x,
        height: bottom - y,
    };
    arrangements(is_quad).iter().find_map(|&(shape, flipped)| {
        let matches = corner_order(shape, flipped, is_quad)
            .iter()
            .zip(corners)
            .all(|(&corner, &point)| rect.corner(corner) == point);
        matches.then_some(RecoveredTexture { rect, shape, flipped })
    })
}

/// [`recover_texture`] for corners that may start at any vertex: the first cyclic shift (the
/// corners rotated left by `shift`) that is a legal arrangement, with that shift. A polygon's
/// vertex list rotated left by `shift` then maps the recovered texture.
pub fn recover_shifted_texture(corners: &[TexelPoint], is_quad: bool) -> Option<(RecoveredTexture, usize)> {
    (0..corners.len()).find_map(|shift| {
        let mut shifted = corners.to_vec();
        shifted.rotate_left(shift);
        recover_texture(&shifted, is_quad).map(|r| (r, shift))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample(x: u8, y: u8, width: u16, height: u16) -> Sample {
        Sample {
            x,
            y,
            page: 3,
            flip_x: -1,
            flip_y: -1,
            width,
            height,
        }
    }

    fn tex(shape: u8, flipped: bool) -> PolygonTexture {
        PolygonTexture {
            sample: 7,
            shape,
            flipped,
        }
    }

    fn p(x: u32, y: u32) -> TexelPoint {
        TexelPoint::new(x, y)
    }

    /// The table of `docs/format-facts.md`, spelled out on a 10×20 sample at (4, 8).
    #[test]
    fn corners_follow_the_format_facts_table() {
        let s = sample(4, 8, 10, 20);
        let (nw, ne, se, sw) = (p(4, 8), p(14, 8), p(14, 28), p(4, 28));
        assert_eq!(polygon_corners(&s, tex(0, false), true), [nw, ne, se, sw]);
        assert_eq!(polygon_corners(&s, tex(0, true), true), [ne, nw, sw, se]);
        let cases = [
            (0, false, [nw, ne, sw]),
            (2, false, [ne, se, nw]),
            (4, false, [se, sw, ne]),
            (6, false, [sw, nw, se]),
            (0, true, [ne, nw, se]),
            (2, true, [nw, sw, ne]),
            (4, true, [sw, se, nw]),
            (6, true, [se, ne, sw]),
        ];
        for (shape, flipped, want) in cases {
            assert_eq!(
                polygon_corners(&s, tex(shape, flipped), false),
                want,
                "shape {shape} {flipped}"
            );
        }
    }

    #[test]
    fn quads_ignore_the_shape() {
        let s = sample(0, 0, 3, 5);
        for shape in 0..=7 {
            for flipped in [false, true] {
                assert_eq!(
                    polygon_corners(&s, tex(shape, flipped), true),
                    polygon_corners(&s, tex(0, flipped), true)
                );
            }
        }
    }

    #[test]
    fn odd_shapes_map_like_the_even_shape_below() {
        let s = sample(10, 20, 7, 3);
        for odd in [1, 3, 5, 7] {
            assert_eq!(effective_shape(odd), odd - 1);
            for flipped in [false, true] {
                assert_eq!(
                    polygon_corners(&s, tex(odd, flipped), false),
                    polygon_corners(&s, tex(odd - 1, flipped), false)
                );
            }
        }
        // Shapes past the three stored bits keep only those bits.
        assert_eq!(effective_shape(8), 0);
        assert_eq!(effective_shape(14), 6);
        assert_eq!(effective_shape(15), 6);
    }

    #[test]
    fn a_sample_on_the_page_edge_reaches_256() {
        let s = sample(255, 0, 1, 256);
        assert_eq!(
            polygon_corners(&s, tex(0, false), true),
            [p(255, 0), p(256, 0), p(256, 256), p(255, 256)]
        );
        let full = sample(0, 0, 256, 256);
        let r = recover_texture(&polygon_corners(&full, tex(4, true), false), false).unwrap();
        assert_eq!(
            r.rect,
            SampleRect {
                x: 0,
                y: 0,
                width: 256,
                height: 256
            }
        );
        assert_eq!((r.shape, r.flipped), (4, true));
    }

    /// Every sample size from 1×1 (incl. 1×n and n×1) and every shape and flip: recovering then
    /// mapping again gives the same corners, on the same rectangle, and exactly one arrangement
    /// fits (so the recovered shape is the stored one, less its low bit).
    #[test]
    fn recover_reproduces_every_arrangement() {
        let sizes = [1u16, 2, 3, 7, 64, 255, 256];
        for &w in &sizes {
            for &h in &sizes {
                let x = (256 - w).min(37) as u8;
                let y = (256 - h).min(200) as u8;
                let s = sample(x, y, w, h);
                for is_quad in [false, true] {
                    for shape in 0..=7u8 {
                        for flipped in [false, true] {
                            let corners = polygon_corners(&s, tex(shape, flipped), is_quad);
                            let r = recover_texture(&corners, is_quad)
                                .unwrap_or_else(|| panic!("{w}×{h} quad {is_quad} shape {shape} {flipped}"));
                            assert_eq!(r.rect, SampleRect::of(&s));
                            assert_eq!(r.flipped, flipped);
                            assert_eq!(r.shape, if is_quad { 0 } else { effective_shape(shape) });
                            assert_eq!(rect_corners(r.rect, r.shape, r.flipped, is_quad), corners);
                            let fits = arrangements(is_quad)
                                .iter()
                                .filter(|&&(sh, fl)| rect_corners(r.rect, sh, fl, is_quad) == corners)
                                .count();
                            assert_eq!(fits, 1);
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn recover_refuses_what_is_not_a_legal_arrangement() {
        // Wrong number of points.
        assert_eq!(recover_texture(&[p(0, 0), p(1, 0), p(1, 1)], true), None);
        assert_eq!(
            recover_texture(&[p(0, 0), p(1, 0), p(1, 1), p(0, 1)], false),
            None
        );
        assert_eq!(recover_texture(&[], false), None);
        // Degenerate: a line, a point, a repeated corner.
        assert_eq!(recover_texture(&[p(0, 0), p(4, 0), p(2, 0)], false), None);
        assert_eq!(recover_texture(&[p(3, 3), p(3, 3), p(3, 3)], false), None);
        assert_eq!(recover_texture(&[p(0, 0), p(4, 0), p(4, 0)], false), None);
        // Not on the corners of its bounding box (artist-made).
        assert_eq!(recover_texture(&[p(0, 0), p(4, 0), p(2, 5)], false), None);
        assert_eq!(recover_texture(&[p(0, 0), p(4, 0), p(4, 4), p(1, 4)], true), None);
        // Corners of a rectangle, but in an order the table lacks: a cyclic shift of shape 0 ...
        assert_eq!(recover_texture(&[p(4, 0), p(0, 4), p(0, 0)], false), None);
        // ... and a quad starting at ne unflipped (a rotated quad).
        assert_eq!(recover_texture(&[p(4, 0), p(4, 4), p(0, 4), p(0, 0)], true), None);
        // Past the page's edge.
        assert_eq!(
            recover_texture(&[p(250, 0), p(257, 0), p(257, 3), p(250, 3)], true),
            None
        );
        assert_eq!(recover_texture(&[p(0, 250), p(3, 250), p(0, 257)], false), None);
    }

    /// A level's object texture may start its corners at any vertex: the first shift that is
    /// legal wins, and the rest of the polygon follows it.
    #[test]
    fn shifted_corners_are_recovered_with_their_shift() {
        let (nw, ne, se, sw) = (p(0, 0), p(4, 0), p(4, 4), p(0, 4));
        let found = |corners: &[TexelPoint], is_quad| {
            recover_shifted_texture(corners, is_quad).map(|(r, shift)| (shift, r.shape, r.flipped))
        };
        assert_eq!(found(&[nw, ne, se, sw], true), Some((0, 0, false)));
        assert_eq!(found(&[sw, se, ne, nw], true), Some((2, 0, true)));
        assert_eq!(found(&[nw, se, ne], false), Some((2, 0, true)));
        assert_eq!(found(&[nw, sw, ne], false), Some((0, 2, true)));
        assert_eq!(found(&[nw, se, ne, sw], true), None);
    }

    #[test]
    fn recovered_texture_names_its_sample() {
        let r = recover_texture(&[p(2, 0), p(0, 0), p(0, 5), p(2, 5)], true).unwrap();
        assert_eq!(
            r.texture(42),
            PolygonTexture {
                sample: 42,
                shape: 0,
                flipped: true
            }
        );
    }
}
