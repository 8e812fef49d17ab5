//! Wad2 textures onto 256×256 pages: each texture a polygon uses is copied whole, texel for
//! texel, onto a page (shelves, tallest first), so every polygon keeps its texels.

use super::ObjectError;
use crate::model::{Page, PAGE_SIZE};
use crate::wad2::document::Texture;

/// A texture's place: its page and the texel of its top-left corner.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Placement {
    pub page: u16,
    pub x: u16,
    pub y: u16,
    pub width: u16,
    pub height: u16,
}

/// The transparent colour of a page, and the alpha below which a texel is transparent.
const MAGENTA: [u8; 3] = [255, 0, 255];
const ALPHA_CUTOFF: u8 = 128;

/// Places the textures whose indices are `used` (in first-use order) on pages; returns the pages
/// and each texture's placement (None for textures no polygon uses).
pub(super) fn place(
    textures: &[Texture],
    used: &[usize],
) -> Result<(Vec<Page>, Vec<Option<Placement>>), ObjectError> {
    let mut order: Vec<usize> = used.to_vec();
    // Tallest first fills shelves best; the sort is stable, so equal heights keep first use.
    order.sort_by_key(|&t| std::cmp::Reverse(textures[t].height));
    let mut placements = vec![None; textures.len()];
    let mut pages: Vec<Page> = Vec::new();
    let (mut x, mut y, mut shelf) = (0u16, 0u16, 0u16);
    let side = PAGE_SIZE as u16;
    for t in order {
        let texture = &textures[t];
        let Some(image) = &texture.image else {
            return Err(ObjectError::texture(
                t,
                "has no pixels in the file (an external image wadforge does not read)",
            ));
        };
        let (width, height) = (image.width, image.height);
        if width == 0 || height == 0 || width > side as u32 || height > side as u32 {
            let why = format!("is {width}×{height}: a classic WAD's page holds 256×256 texels at most, and wadforge does not yet split or shrink larger textures");
            return Err(ObjectError::texture(t, &why));
        }
        let (width, height) = (width as u16, height as u16);
        if x + width > side {
            (x, y, shelf) = (0, y + shelf, 0);
        }
        if pages.is_empty() || y + height > side {
            pages.push(Page::filled(MAGENTA));
            (x, y, shelf) = (0, 0, 0);
        }
        let page = (pages.len() - 1) as u16;
        let rgb = page_texels(&image.bgra);
        if let Some(target) = pages.last_mut() {
            target.put_rect(x.into(), y.into(), width.into(), &rgb);
        }
        placements[t] = Some(Placement {
            page,
            x,
            y,
            width,
            height,
        });
        x += width;
        shelf = shelf.max(height);
    }
    Ok((pages, placements))
}

/// BGRA pixels as a page's RGB texels, transparent ones magenta.
fn page_texels(bgra: &[u8]) -> Vec<u8> {
    bgra.chunks_exact(4)
        .flat_map(|p| {
            if p[3] < ALPHA_CUTOFF {
                MAGENTA
            } else {
                [p[2], p[1], p[0]]
            }
        })
        .collect()
}
