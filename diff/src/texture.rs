//! The texture a polygon shows, wherever its sample sits: the sample's size, where the corners
//! sit on it, and its texels. Sample indices and page positions are layout, never compared.

use std::collections::HashMap;

use wadforge_model::texture_corners::{corner_order, polygon_corners, Corner};
use wadforge_model::{Page, Polygon, Sample, Wad, PAGE_SIZE};

/// The texture a polygon shows.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Default)]
pub struct PolygonTexels {
    /// The corners' places relative to the sample rectangle, in corner order.
    pub corners: Vec<(u32, u32)>,
    /// Width and height of the sample.
    pub size: (u16, u16),
    /// Its texels row by row.
    pub texels: Vec<[u8; 3]>,
}

/// The texture `p` shows in `wad`, wherever its sample sits; empty when its texture index names
/// no sample, or its sample no page.
pub fn polygon_texture(wad: &Wad, p: &Polygon) -> PolygonTexels {
    let Ok((sample, page)) = sample_of(wad, p.texture.sample) else {
        return PolygonTexels::default();
    };
    let (x0, y0) = (u32::from(sample.x), u32::from(sample.y));
    PolygonTexels {
        corners: polygon_corners(sample, p.texture, p.is_quad)
            .iter()
            .map(|c| (c.x - x0, c.y - y0))
            .collect(),
        size: (sample.width, sample.height),
        texels: texels(sample, page).collect(),
    }
}

/// The sample a texture index names and its page, or why there is none.
pub(crate) fn sample_of(wad: &Wad, index: u16) -> Result<(&Sample, &Page), String> {
    let sample = wad
        .samples
        .get(index as usize)
        .ok_or_else(|| format!("none (sample {index} of {})", wad.samples.len()))?;
    let page = wad.pages.get(sample.page as usize).ok_or_else(|| {
        format!(
            "none (sample {index} on page {} of {})",
            sample.page,
            wad.pages.len()
        )
    })?;
    Ok((sample, page))
}

/// A sample's texels row by row; texels past the page's edge repeat its last row or column, as
/// the game's clamped sampling reads them.
fn texels<'a>(sample: &'a Sample, page: &'a Page) -> impl Iterator<Item = [u8; 3]> + 'a {
    let (x0, y0) = (sample.x as usize, sample.y as usize);
    (0..sample.height as usize).flat_map(move |y| {
        (0..sample.width as usize)
            .map(move |x| page.texel((x0 + x).min(PAGE_SIZE - 1), (y0 + y).min(PAGE_SIZE - 1)))
    })
}

/// The sample corners a polygon's vertices map to, in vertex order, as `nw ne se`.
pub(crate) fn arrangement(p: &Polygon) -> String {
    corner_order(p.texture.shape, p.texture.flipped, p.is_quad)
        .iter()
        .map(|c| match c {
            Corner::Nw => "nw",
            Corner::Ne => "ne",
            Corner::Se => "se",
            Corner::Sw => "sw",
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// The first texel where two samples of the same size differ, and how many do.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct TexelMismatch {
    pub x: usize,
    pub y: usize,
    pub a: [u8; 3],
    pub b: [u8; 3],
    pub count: usize,
    pub total: usize,
}

/// Compares the texels of sample pairs once, however many polygons map them.
#[derive(Default)]
pub(crate) struct TexelCache {
    results: HashMap<(u16, u16), Option<TexelMismatch>>,
}

impl TexelCache {
    /// `None` when the two samples (found and of the same size) hold the same texels.
    pub fn compare(&mut self, a: (&Wad, u16), b: (&Wad, u16)) -> Option<TexelMismatch> {
        *self.results.entry((a.1, b.1)).or_insert_with(|| {
            let (Ok((sa, pa)), Ok((sb, pb))) = (sample_of(a.0, a.1), sample_of(b.0, b.1)) else {
                return None;
            };
            let width = sa.width as usize;
            let mut mismatch: Option<TexelMismatch> = None;
            for (i, (ta, tb)) in texels(sa, pa).zip(texels(sb, pb)).enumerate() {
                if ta != tb {
                    let m = mismatch.get_or_insert(TexelMismatch {
                        x: i % width.max(1),
                        y: i / width.max(1),
                        a: ta,
                        b: tb,
                        count: 0,
                        total: sa.width as usize * sa.height as usize,
                    });
                    m.count += 1;
                }
            }
            mismatch
        })
    }
}

/// `#rrggbb`.
pub(crate) fn hex(rgb: [u8; 3]) -> String {
    format!("#{:02x}{:02x}{:02x}", rgb[0], rgb[1], rgb[2])
}
