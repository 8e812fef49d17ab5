//! Wad2 textures onto 256×256 pages. A texture no larger than a page is copied whole, texel for
//! texel; a larger one in pieces: each 256×256 tile of it a polygon's texels lie in, and, for a
//! polygon across tiles, the rectangle round its texels, shrunk (every n-th texel) where that is
//! larger than a page. Pieces go onto pages in shelves, tallest first.

use std::collections::{HashMap, HashSet};

use wadforge_model::{Limits, Page, PAGE_SIZE};

use super::ObjectError;
use crate::wad2::document::{Image, Texture};

/// The side of a page, and of the tiles larger textures are cut into.
const SIDE: u32 = PAGE_SIZE as u32;

/// A rectangle of texel corners of a texture: `[left, top, right, bottom]`, right and bottom
/// exclusive (a polygon over texels 0 to 3 spans corners 0 to 4).
pub(super) type Rect = [u32; 4];

/// Where a piece of a texture lies on a page: its page and top-left texel there, its size on
/// the page, the texture's texel corner at its top-left, and how many texture texels each of
/// its texels stands for (1 but for shrunk pieces).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Placement {
    pub page: u16,
    pub x: u16,
    pub y: u16,
    pub width: u16,
    pub height: u16,
    pub origin: [u32; 2],
    pub scale: u32,
}

impl Placement {
    /// The page texel corner of the texture's texel corner `corner` (inside the piece).
    pub fn on_page(&self, corner: [u32; 2]) -> [u16; 2] {
        let along = |c: u32, origin: u32, start: u16, extent: u16| {
            let offset = (c.saturating_sub(origin) + self.scale / 2) / self.scale;
            start + offset.min(u32::from(extent)) as u16
        };
        [
            along(corner[0], self.origin[0], self.x, self.width),
            along(corner[1], self.origin[1], self.y, self.height),
        ]
    }
}

/// Every piece's place, found by texture and the rectangle a polygon needs.
#[derive(Debug, Default)]
pub(super) struct Placements {
    /// Per texture: its size and its tiles' places (row by row; `None` for tiles no polygon uses).
    textures: Vec<Option<Tiled>>,
    /// Pieces cut for polygons across tiles, by texture and rectangle.
    cut: HashMap<(usize, Rect), Placement>,
}

#[derive(Debug)]
struct Tiled {
    size: [u32; 2],
    columns: u32,
    tiles: Vec<Option<Placement>>,
    /// Tiles already among the pieces to place.
    queued: Vec<bool>,
}

impl Placements {
    /// The size of texture `texture` in texels, when it holds pixels.
    pub fn size(&self, texture: usize) -> Option<[u32; 2]> {
        self.textures.get(texture)?.as_ref().map(|t| t.size)
    }

    /// The piece that holds `rect` of `texture`.
    pub fn find(&self, texture: usize, rect: Rect) -> Option<Placement> {
        let tiled = self.textures.get(texture)?.as_ref()?;
        match tile_of(rect, tiled.size) {
            Some([column, row]) => *tiled.tiles.get((row * tiled.columns + column) as usize)?,
            None => self.cut.get(&(texture, rect)).copied(),
        }
    }
}

/// The tile (column, row) of a texture of `size` that holds `rect`, when one does (a rectangle
/// on a tile's right or bottom edge, the texture's too, is in that tile).
fn tile_of(rect: Rect, size: [u32; 2]) -> Option<[u32; 2]> {
    let last = |extent: u32| extent.saturating_sub(1) / SIDE;
    let [column, row] = [
        (rect[0] / SIDE).min(last(size[0])),
        (rect[1] / SIDE).min(last(size[1])),
    ];
    (rect[2] <= (column + 1) * SIDE && rect[3] <= (row + 1) * SIDE).then_some([column, row])
}

/// A rectangle of a texture to copy onto a page.
struct Piece {
    texture: usize,
    rect: Rect,
    scale: u32,
    /// A tile (column, row), or a piece cut for polygons across tiles.
    tile: Option<[u32; 2]>,
}

impl Piece {
    fn size(&self) -> [u32; 2] {
        [
            (self.rect[2] - self.rect[0]).div_ceil(self.scale).max(1),
            (self.rect[3] - self.rect[1]).div_ceil(self.scale).max(1),
        ]
    }
}

/// The transparent colour of a page, and the alpha below which a texel is transparent.
const MAGENTA: [u8; 3] = [255, 0, 255];
const ALPHA_CUTOFF: u8 = 128;

/// Places on pages what polygons use of the textures: `used` holds, per polygon, its texture and
/// the rectangle of texel corners its UVs span (clamped to the texture).
pub(super) fn place(
    textures: &[Texture],
    used: &[(usize, Rect)],
) -> Result<(Vec<Page>, Placements), ObjectError> {
    let mut placements = Placements {
        textures: textures.iter().map(|_| None).collect(),
        cut: HashMap::new(),
    };
    let pieces = pieces(textures, used, &mut placements)?;
    let mut pages: Vec<Page> = Vec::new();
    let (mut x, mut y, mut shelf) = (0u32, 0u32, 0u32);
    for piece in pieces {
        let [width, height] = piece.size();
        if x + width > SIDE {
            (x, y, shelf) = (0, y + shelf, 0);
        }
        if pages.is_empty() || y + height > SIDE {
            pages.push(Page::filled(MAGENTA));
            (x, y, shelf) = (0, 0, 0);
        }
        let page = (pages.len() - 1) as u16;
        if let (Some(target), Some(image)) = (pages.last_mut(), &textures[piece.texture].image) {
            target.put_rect(
                x as usize,
                y as usize,
                width as usize,
                &page_texels(image, &piece),
            );
        }
        let placement = Placement {
            page,
            x: x as u16,
            y: y as u16,
            width: width as u16,
            height: height as u16,
            origin: [piece.rect[0], piece.rect[1]],
            scale: piece.scale,
        };
        match piece.tile {
            Some([column, row]) => {
                if let Some(tiled) = placements.textures[piece.texture].as_mut() {
                    tiled.tiles[(row * tiled.columns + column) as usize] = Some(placement);
                }
            }
            None => {
                placements.cut.insert((piece.texture, piece.rect), placement);
            }
        }
        x += width;
        shelf = shelf.max(height);
    }
    Ok((pages, placements))
}

/// The pieces polygons need, tallest first (equal heights in first use), each texture's tiles
/// noted in `placements`.
fn pieces(
    textures: &[Texture],
    used: &[(usize, Rect)],
    placements: &mut Placements,
) -> Result<Vec<Piece>, ObjectError> {
    let mut pieces = Vec::new();
    // Each piece once, in first use: tiles by their flag, cut pieces by texture and rect.
    let mut cut: HashSet<(usize, Rect)> = HashSet::new();
    let texels = |t: &Texture| {
        t.image
            .as_ref()
            .map_or(0, |i| u64::from(i.width) * u64::from(i.height))
    };
    let file_texels: u64 = textures.iter().map(texels).sum();
    let mut cut_texels = 0u64;
    for &(t, rect) in used {
        let tiled = match &mut placements.textures[t] {
            Some(tiled) => tiled,
            slot => {
                let image = pixels(textures, t)?;
                let size = [image.width, image.height];
                let columns = size[0].div_ceil(SIDE);
                let tiles = (columns * size[1].div_ceil(SIDE)) as usize;
                slot.insert(Tiled {
                    size,
                    columns,
                    tiles: vec![None; tiles],
                    queued: vec![false; tiles],
                })
            }
        };
        let size = tiled.size;
        let (rect, tile, scale) = match tile_of(rect, size) {
            Some([column, row]) => {
                let [left, top] = [column * SIDE, row * SIDE];
                let tile = [left, top, (left + SIDE).min(size[0]), (top + SIDE).min(size[1])];
                (tile, Some([column, row]), 1)
            }
            None => {
                let longest = (rect[2] - rect[0]).max(rect[3] - rect[1]);
                (rect, None, longest.div_ceil(SIDE).max(1))
            }
        };
        let first_use = match tile {
            Some([column, row]) => {
                let at = (row * tiled.columns + column) as usize;
                !std::mem::replace(&mut tiled.queued[at], true)
            }
            None => cut.insert((t, rect)),
        };
        if !first_use {
            continue;
        }
        let piece = Piece {
            texture: t,
            rect,
            scale,
            tile,
        };
        if piece.tile.is_none() {
            let [width, height] = piece.size();
            cut_texels += u64::from(width) * u64::from(height);
            Limits::DEFAULT
                .wad2_cut_texels
                .check(cut_texels, file_texels)
                .map_err(|e| ObjectError::texture(t, &e.to_string()))?;
        }
        pieces.push(piece);
    }
    // Tallest first fills shelves best; the sort is stable, so equal heights keep first use.
    pieces.sort_by_key(|p| std::cmp::Reverse(p.size()[1]));
    Ok(pieces)
}

/// Texture `t`'s pixels, which a texture polygons use must hold.
fn pixels(textures: &[Texture], t: usize) -> Result<&Image, ObjectError> {
    let image = textures[t].image.as_ref().ok_or_else(|| {
        ObjectError::texture(
            t,
            "has no pixels in the file (an external image wadforge does not read)",
        )
    })?;
    if image.width == 0 || image.height == 0 {
        return Err(ObjectError::texture(t, "is 0 texels wide or high"));
    }
    Ok(image)
}

/// The piece's texels as a page's RGB (every `scale`-th texel of its rectangle), transparent
/// ones magenta.
fn page_texels(image: &Image, piece: &Piece) -> Vec<u8> {
    let [width, height] = piece.size();
    let mut rgb = Vec::with_capacity((width * height * 3) as usize);
    let texel = |p: &[u8]| {
        if p[3] < ALPHA_CUTOFF {
            MAGENTA
        } else {
            [p[2], p[1], p[0]]
        }
    };
    for row in 0..height {
        let y = (piece.rect[1] + row * piece.scale).min(image.height - 1);
        let line = (y * image.width) as usize * 4;
        if piece.scale == 1 {
            // Texel for texel: the row's run of pixels as it lies.
            let start = line + piece.rect[0] as usize * 4;
            let run = image.bgra.get(start..start + width as usize * 4).unwrap_or(&[]);
            rgb.extend(run.chunks_exact(4).flat_map(texel));
            continue;
        }
        for column in 0..width {
            let x = (piece.rect[0] + column * piece.scale).min(image.width - 1);
            let at = line + x as usize * 4;
            rgb.extend(texel(image.bgra.get(at..at + 4).unwrap_or(&[0; 4])));
        }
    }
    // A short image (the reader checks its length) leaves the rest of the piece magenta.
    rgb.resize((width * height * 3) as usize, 0);
    rgb
}
#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn polygons_cutting_far_more_than_the_textures_hold_are_refused() {
        let side = 1024;
        let texture = Texture {
            image: Some(Image {
                width: side,
                height: side,
                bgra: vec![255; (side * side * 4) as usize],
            }),
            ..Texture::default()
        };
        // Each a page-sized piece across the tiles, each at another place: 400 pages' worth
        // from a texture of 16.
        let used: Vec<(usize, Rect)> = (0..400).map(|i| (0, [i, 128, i + 255, 383])).collect();
        let e = place(&[texture], &used).unwrap_err();
        assert!(e.to_string().contains("texels cut from large textures"), "{e}");
    }
}
