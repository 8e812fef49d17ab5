//! Level textiles → 24-bit pages, per game, and the page of solid colours coloured faces use:
//!
//! - TR1: the 8-bit textiles through the palette (6-bit values ×4), index 0 magenta inside the
//!   rectangles of alpha-tested (attribute 1) object textures; coloured faces index that
//!   palette with the low byte of their texture word;
//! - TR2/TR3: the 16-bit ARGB1555 textiles (5-bit channels widened to 8 bits, alpha bit 0 →
//!   magenta); coloured faces index the 16-bit palette (8-bit channels) with the high byte of
//!   their texture word;
//! - TR4: the 32-bit textiles (BGRA bytes), alpha 0 → magenta; no coloured faces.

use wadforge_model::catalog::Game;
use wadforge_model::{Page, PAGE_SIZE};

use super::tables::Tables;
use super::texture::{bounds, ObjectTexture, COLOUR_CELL};

/// Magenta: transparent texels in 24-bit pages.
const MAGENTA: [u8; 3] = [255, 0, 255];

/// Bytes of an 8-bit textile.
pub(super) const TEXTILE_BYTES: usize = PAGE_SIZE * PAGE_SIZE;
/// Bytes of a 16-bit (ARGB1555) textile.
const TEXTILE16_BYTES: usize = PAGE_SIZE * PAGE_SIZE * 2;
/// Bytes of a 32-bit textile.
pub(super) const TEXTILE32_BYTES: usize = PAGE_SIZE * PAGE_SIZE * 4;

/// The 256 colours coloured faces index, as 24-bit texels.
pub(super) type Palette = [[u8; 3]; 256];

/// The textiles of `t` as pages, and the palette coloured faces index (all black for TR4, which
/// has none). `object_textures` say where TR1's index 0 is transparent.
pub(super) fn pages(t: &Tables, object_textures: &[ObjectTexture]) -> (Vec<Page>, Palette) {
    match t.game {
        Game::Tr1 => tr1_pages(t, object_textures),
        Game::Tr4 | Game::Tr5 => (tr4_pages(t), [[0; 3]; 256]),
        _ => tr2_pages(t),
    }
}

/// TR1: the 8-bit textiles through the 6-bit palette, and that palette.
fn tr1_pages(t: &Tables, object_textures: &[ObjectTexture]) -> (Vec<Page>, Palette) {
    let palette: Palette = std::array::from_fn(|i| {
        let b = &t.palette.bytes[i * 3..i * 3 + 3];
        [b[0].min(63) * 4, b[1].min(63) * 4, b[2].min(63) * 4]
    });
    (
        paletted_pages(t.textiles.bytes, &palette, object_textures),
        palette,
    )
}

/// 8-bit textiles → 24-bit pages through the palette; index 0 inside an alpha-tested object
/// texture's rectangle (attribute 1) becomes magenta.
fn paletted_pages(textiles: &[u8], palette: &Palette, textures: &[ObjectTexture]) -> Vec<Page> {
    let texels = PAGE_SIZE * PAGE_SIZE;
    let count = textiles.len() / texels;
    let mut rectangles: Vec<Vec<[u16; 4]>> = vec![Vec::new(); count];
    for t in textures.iter().filter(|t| t.attribute == 1) {
        if let Some(tile) = rectangles.get_mut(t.tile as usize) {
            tile.push(bounds(&t.edges(t.used_corners())));
        }
    }
    let mut coverage = Coverage::default();
    textiles
        .chunks_exact(texels)
        .zip(&rectangles)
        .map(|(indices, rectangles)| {
            coverage.cover(rectangles);
            let mut rgb = vec![0u8; texels * 3];
            for (i, (texel, &index)) in rgb.chunks_exact_mut(3).zip(indices).enumerate() {
                let colour = if index == 0 && coverage.covered(i % PAGE_SIZE, i / PAGE_SIZE) {
                    &MAGENTA
                } else {
                    &palette[index as usize]
                };
                texel.copy_from_slice(colour);
            }
            Page::from_rgb(rgb).expect("a whole page of texels")
        })
        .collect()
}

/// Which texels of a page some rectangles cover, in time linear in the rectangles: each adds
/// its corners to a difference table, whose running sums count the rectangles over each
/// texel. Filling each rectangle took a file of many page-sized ones some 65 536 steps each.
struct Coverage {
    counts: Vec<u32>,
}

const EDGES: usize = PAGE_SIZE + 1;

impl Default for Coverage {
    fn default() -> Self {
        Coverage {
            counts: vec![0; EDGES * EDGES],
        }
    }
}

impl Coverage {
    /// Counts `rectangles` (`[x0, y0, x1, y1]`, texel edges; past the page is clipped).
    fn cover(&mut self, rectangles: &[[u16; 4]]) {
        let counts = &mut self.counts;
        counts.fill(0);
        for r in rectangles {
            let [x0, y0, x1, y1] = r.map(|e| (e as usize).min(PAGE_SIZE));
            if x0 >= x1 || y0 >= y1 {
                continue;
            }
            // Wrapping: the table's sums are right modulo 2^32, and a texel's count is at most
            // the number of rectangles.
            counts[y0 * EDGES + x0] = counts[y0 * EDGES + x0].wrapping_add(1);
            counts[y0 * EDGES + x1] = counts[y0 * EDGES + x1].wrapping_sub(1);
            counts[y1 * EDGES + x0] = counts[y1 * EDGES + x0].wrapping_sub(1);
            counts[y1 * EDGES + x1] = counts[y1 * EDGES + x1].wrapping_add(1);
        }
        for y in 0..EDGES {
            for x in 0..EDGES {
                let mut sum = counts[y * EDGES + x];
                if x > 0 {
                    sum = sum.wrapping_add(counts[y * EDGES + x - 1]);
                }
                if y > 0 {
                    sum = sum.wrapping_add(counts[(y - 1) * EDGES + x]);
                }
                if x > 0 && y > 0 {
                    sum = sum.wrapping_sub(counts[(y - 1) * EDGES + x - 1]);
                }
                counts[y * EDGES + x] = sum;
            }
        }
    }

    fn covered(&self, x: usize, y: usize) -> bool {
        self.counts[y * EDGES + x] != 0
    }
}

/// TR2/TR3: the 16-bit textiles as pages, and the 16-bit palette coloured faces index.
fn tr2_pages(t: &Tables) -> (Vec<Page>, Palette) {
    let palette = std::array::from_fn(|i| {
        let b = &t.palette.bytes[i * 4..i * 4 + 3];
        [b[0], b[1], b[2]]
    });
    let widen = |v: u16| ((v & 0x1F) << 3 | (v & 0x1F) >> 2) as u8;
    let pages = t
        .textiles
        .bytes
        .chunks_exact(TEXTILE16_BYTES)
        .map(|textile| {
            let mut rgb = vec![0u8; TEXTILE16_BYTES / 2 * 3];
            for (texel, b) in rgb.chunks_exact_mut(3).zip(textile.chunks_exact(2)) {
                let w = u16::from_le_bytes([b[0], b[1]]);
                texel.copy_from_slice(&if w & 0x8000 == 0 {
                    MAGENTA
                } else {
                    [widen(w >> 10), widen(w >> 5), widen(w)]
                });
            }
            Page::from_rgb(rgb).expect("a whole page of texels")
        })
        .collect();
    (pages, palette)
}

/// TR4: the 32-bit textiles as pages: BGRA bytes, texels with alpha 0 magenta.
fn tr4_pages(t: &Tables) -> Vec<Page> {
    t.textiles
        .bytes
        .chunks_exact(TEXTILE32_BYTES)
        .map(|textile| {
            let mut rgb = Vec::with_capacity(PAGE_SIZE * PAGE_SIZE * 3);
            for bgra in textile.chunks_exact(4) {
                rgb.extend_from_slice(&if bgra[3] == 0 {
                    MAGENTA
                } else {
                    [bgra[2], bgra[1], bgra[0]]
                });
            }
            Page::from_rgb(rgb).expect("a whole page of texels")
        })
        .collect()
}

/// The page of solid colours: colour `i` fills its 4×4 cell, the rest is black.
pub(super) fn colour_page(palette: &Palette) -> Page {
    let per_row = PAGE_SIZE / COLOUR_CELL as usize;
    let rows = 256 / per_row * COLOUR_CELL as usize;
    let mut rgb = vec![0u8; PAGE_SIZE * PAGE_SIZE * 3];
    for y in 0..rows {
        let row = &mut rgb[y * PAGE_SIZE * 3..(y + 1) * PAGE_SIZE * 3];
        for (x, texel) in row.chunks_exact_mut(3).enumerate() {
            let colour = (y / COLOUR_CELL as usize) * per_row + x / COLOUR_CELL as usize;
            texel.copy_from_slice(&palette[colour]);
        }
    }
    Page::from_rgb(rgb).expect("a whole page of texels")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn coverage_is_the_union_of_the_rectangles() {
        // Overlapping, touching, empty, past the page, and repeated rectangles, against filling
        // each one.
        let rectangles = [
            [0, 0, 256, 1],
            [10, 10, 20, 30],
            [15, 25, 40, 26],
            [15, 25, 40, 26],
            [20, 10, 21, 11],
            [50, 50, 50, 90],
            [250, 250, 300, 400],
            [100, 0, 99, 5],
        ];
        let mut filled = vec![false; PAGE_SIZE * PAGE_SIZE];
        for r in &rectangles {
            let [x0, y0, x1, y1] = r.map(|e| (e as usize).min(PAGE_SIZE));
            for y in y0..y1.max(y0) {
                for x in x0..x1.max(x0) {
                    filled[y * PAGE_SIZE + x] = true;
                }
            }
        }
        let mut coverage = Coverage::default();
        coverage.cover(&rectangles);
        let covered: Vec<bool> = (0..PAGE_SIZE * PAGE_SIZE)
            .map(|i| coverage.covered(i % PAGE_SIZE, i / PAGE_SIZE))
            .collect();
        assert_eq!(covered, filled);
        assert!(covered.iter().any(|&c| c) && covered.iter().any(|&c| !c));
        coverage.cover(&[]);
        assert!(!coverage.covered(0, 0), "each page starts uncovered");
    }
}
