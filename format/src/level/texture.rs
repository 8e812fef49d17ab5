//! Level textures → WAD samples: object-texture corners to sample rectangles and the WAD's
//! corner arrangements (quads `nw ne se sw`, flipped `ne nw sw se`; triangle shapes 0, 2, 4, 6
//! and their flipped forms), and the solid-colour samples of coloured faces. The textiles
//! themselves become pages in [`super::pages`].

use crate::model::{Sample, PAGE_SIZE};

/// A polygon whose texture mapping is skewed: its sample (shape 0, unflipped) is the bounding
/// rectangle of its UV corners, which `corners` gives exactly, so that an importer can map the
/// texture as the level does (and build resample it).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct ApproximateMapping {
    /// Index into the model's meshes.
    pub mesh: usize,
    /// Index into that mesh's polygons.
    pub polygon: usize,
    /// The level's object texture the polygon named.
    pub object_texture: u16,
    /// The UV corner of each polygon vertex, in the model's vertex order, as texel edges
    /// (0..=256) of the sample's page; triangles leave the fourth `[0, 0]`.
    pub corners: [[u16; 2]; 4],
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Corner {
    Nw,
    Ne,
    Se,
    Sw,
}

use Corner::{Ne, Nw, Se, Sw};

/// Quad corners of polygon vertices 1..4: unflipped, flipped.
const QUADS: [[Corner; 4]; 2] = [[Nw, Ne, Se, Sw], [Ne, Nw, Sw, Se]];
/// Triangle corners for shapes 0, 2, 4, 6: unflipped, flipped.
const TRIANGLES: [[[Corner; 3]; 4]; 2] = [
    [[Nw, Ne, Sw], [Ne, Se, Nw], [Se, Sw, Ne], [Sw, Nw, Se]],
    [[Ne, Nw, Se], [Nw, Sw, Ne], [Sw, Se, Nw], [Se, Ne, Sw]],
];

/// How a polygon sits on its sample: rotate its vertex list left by `shift`, then it maps the
/// sample with `shape` and `flipped`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Arrangement {
    pub shift: usize,
    pub shape: u8,
    pub flipped: bool,
}

/// The legal arrangement of corners `labels` (3 or 4 of them, in polygon vertex order), trying
/// the stored vertex order first, then its cyclic shifts.
pub(crate) fn arrange(labels: &[Corner]) -> Option<Arrangement> {
    let n = labels.len();
    for shift in 0..n {
        let rotated: Vec<Corner> = (0..n).map(|i| labels[(i + shift) % n]).collect();
        for flip in 0..2 {
            if n == 4 && rotated[..] == QUADS[flip][..] {
                return Some(Arrangement {
                    shift,
                    shape: 0,
                    flipped: flip == 1,
                });
            }
            if n == 3 {
                if let Some(k) = TRIANGLES[flip].iter().position(|t| rotated[..] == t[..]) {
                    return Some(Arrangement {
                        shift,
                        shape: 2 * k as u8,
                        flipped: flip == 1,
                    });
                }
            }
        }
    }
    None
}

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

/// Which corner of `rect` each point is, or `None` when a point is not a corner, two points
/// share one, or the rectangle is degenerate.
pub(crate) fn corner_labels(points: &[[u16; 2]], rect: [u16; 4]) -> Option<Vec<Corner>> {
    let [x0, y0, x1, y1] = rect;
    if x0 >= x1 || y0 >= y1 {
        return None;
    }
    let mut labels = Vec::with_capacity(points.len());
    for &p in points {
        let corner = match (p[0] == x0, p[0] == x1, p[1] == y0, p[1] == y1) {
            (true, _, true, _) => Nw,
            (_, true, true, _) => Ne,
            (_, true, _, true) => Se,
            (true, _, _, true) => Sw,
            _ => return None,
        };
        if labels.contains(&corner) {
            return None;
        }
        labels.push(corner);
    }
    Some(labels)
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
    fn stored_and_shifted_orders_are_recognised() {
        assert_eq!(
            arrange(&[Nw, Ne, Se, Sw]),
            Some(Arrangement {
                shift: 0,
                shape: 0,
                flipped: false
            })
        );
        assert_eq!(
            arrange(&[Sw, Se, Ne, Nw]),
            Some(Arrangement {
                shift: 2,
                shape: 0,
                flipped: true
            })
        );
        assert_eq!(
            arrange(&[Nw, Se, Ne]),
            Some(Arrangement {
                shift: 2,
                shape: 0,
                flipped: true
            })
        );
        assert_eq!(
            arrange(&[Nw, Sw, Ne]),
            Some(Arrangement {
                shift: 0,
                shape: 2,
                flipped: true
            })
        );
        assert_eq!(arrange(&[Nw, Se, Ne, Sw]), None);
    }

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
        assert_eq!(corner_labels(&e, bounds(&e)), Some(vec![Nw, Ne, Se, Sw]));
    }
}
