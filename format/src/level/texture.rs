//! Level textures → WAD samples: object-texture corners to sample rectangles (the WAD's corner
//! arrangements are [`wadforge_model::texture_corners`]), and the solid-colour samples of coloured faces.
//! The textiles themselves become pages in [`super::pages`].

use std::collections::HashMap;

use wadforge_model::texture_corners::{recover_shifted_texture, RecoveredTexture, TexelPoint};
use wadforge_model::{Polygon, Sample, PAGE_SIZE};

/// One TR1–TR3 object texture (20 bytes): attribute, tile, four UV corners.
#[derive(Debug, Clone, Copy)]
pub(crate) struct ObjectTexture {
    pub attribute: u16,
    pub tile: u16,
    /// Corner coordinates as stored: pixel in the high byte, 0x00/0xFF edge marker in the low.
    pub raw: [[u16; 2]; 4],
}

impl ObjectTexture {
    pub fn from_bytes(b: &[u8]) -> Self {
        let word = |i: usize| u16::from_le_bytes([b[i], b[i + 1]]);
        ObjectTexture {
            attribute: word(0),
            tile: word(2),
            raw: std::array::from_fn(|k| [word(4 + k * 4), word(6 + k * 4)]),
        }
    }

    /// A TR4 object texture (38 bytes): attribute, tile with the triangle flag in bit 15, the
    /// mapping-correction flags, four UV corners as in TR1–TR3, then the original position and
    /// size (not needed: the corners say it all).
    pub fn from_tr4_bytes(b: &[u8]) -> Self {
        let word = |i: usize| u16::from_le_bytes([b[i], b[i + 1]]);
        ObjectTexture {
            attribute: word(0),
            tile: word(2) & 0x7FFF,
            raw: std::array::from_fn(|k| [word(6 + k * 4), word(8 + k * 4)]),
        }
    }

    /// The first `n` corners as texel edges (0..=256): a pixel marked 0xFF is its far edge.
    pub fn edges(&self, n: usize) -> Vec<[u16; 2]> {
        let edge = |v: u16| ((v as u32 + 128) >> 8) as u16;
        self.raw[..n].iter().map(|&[x, y]| [edge(x), edge(y)]).collect()
    }

    /// The corners a texture's transparency applies to: three, or four when the fourth is set.
    pub fn used_corners(&self) -> usize {
        if self.raw[3] == [0, 0] {
            3
        } else {
            4
        }
    }
}

/// Bounding rectangle of texel edges: `[x0, y0, x1, y1]`.
pub(crate) fn bounds(points: &[[u16; 2]]) -> [u16; 4] {
    let xs = points.iter().map(|p| p[0]);
    let ys = points.iter().map(|p| p[1]);
    [
        xs.clone().min().unwrap_or(0),
        ys.clone().min().unwrap_or(0),
        xs.max().unwrap_or(0),
        ys.max().unwrap_or(0),
    ]
}

/// The sample covering `rect` (texel edges) on `page`, clamped to the page.
pub(crate) fn sample_of(rect: [u16; 4], page: u16) -> Sample {
    let [x0, y0, x1, y1] = rect;
    let x = x0.min(PAGE_SIZE as u16 - 1);
    let y = y0.min(PAGE_SIZE as u16 - 1);
    Sample {
        x: x as u8,
        y: y as u8,
        page,
        flip_x: -1,
        flip_y: -1,
        width: x1.min(PAGE_SIZE as u16).saturating_sub(x).max(1),
        height: y1.min(PAGE_SIZE as u16).saturating_sub(y).max(1),
    }
}

/// Samples made so far, deduplicated by rectangle.
#[derive(Default)]
pub(crate) struct Samples {
    pub list: Vec<Sample>,
    index: HashMap<Sample, u16>,
}

impl Samples {
    /// The index of `sample`, added when new; None past the 65 536 a texture word can name.
    pub fn get(&mut self, sample: Sample) -> Option<u16> {
        if let Some(&i) = self.index.get(&sample) {
            return Some(i);
        }
        let i = u16::try_from(self.list.len()).ok()?;
        self.list.push(sample);
        self.index.insert(sample, i);
        Some(i)
    }
}

/// The texture of a polygon whose corners lie on texel edges `points` of page `page`: the
/// sample round them, and the arrangement (docs/format-facts.md) that gives those corners with how
/// far the vertex list must turn for it, when one does.
pub(crate) fn corners_texture(
    points: &[[u16; 2]],
    page: u16,
    is_quad: bool,
) -> (Sample, Option<(RecoveredTexture, usize)>) {
    let sample = sample_of(bounds(points), page);
    let corners: Vec<TexelPoint> = points
        .iter()
        .map(|&[x, y]| TexelPoint::new(x.into(), y.into()))
        .collect();
    (sample, recover_shifted_texture(&corners, is_quad))
}

/// Gives `polygon` the recovered arrangement, turning its vertex list; false when there is none
/// (the polygon maps its texture skewed).
pub(crate) fn arrange(polygon: &mut Polygon, recovered: Option<(RecoveredTexture, usize)>) -> bool {
    let Some((recovered, shift)) = recovered else {
        return false;
    };
    let n = if polygon.is_quad { 4 } else { 3 };
    let vertices = polygon.vertices;
    for i in 0..n {
        polygon.vertices[i] = vertices[(i + shift) % n];
    }
    polygon.texture.shape = recovered.shape;
    polygon.texture.flipped = recovered.flipped;
    true
}

/// Side of the solid-colour cells on the colour page.
pub(crate) const COLOUR_CELL: u16 = 4;

/// The solid-colour sample of palette colour `index` on the colour page.
pub(crate) fn colour_sample(index: u8, page: u16) -> Sample {
    let per_row = PAGE_SIZE as u16 / COLOUR_CELL;
    Sample {
        x: ((index as u16 % per_row) * COLOUR_CELL) as u8,
        y: ((index as u16 / per_row) * COLOUR_CELL) as u8,
        page,
        flip_x: -1,
        flip_y: -1,
        width: COLOUR_CELL,
        height: COLOUR_CELL,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn edge_markers_give_far_edges() {
        let t = ObjectTexture {
            attribute: 0,
            tile: 0,
            raw: [
                [0x0000, 0x0000],
                [0x3FFF, 0x0000],
                [0x3FFF, 0x1FFF],
                [0x0000, 0x1FFF],
            ],
        };
        let e = t.edges(4);
        assert_eq!(bounds(&e), [0, 0, 64, 32]);
        assert_eq!(e, [[0, 0], [64, 0], [64, 32], [0, 32]]);
    }
}
