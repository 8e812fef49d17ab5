//! Samples → 256×256 pages, for building a WAD.
//!
//! Each sample image is first turned into the texels a page stores (24-bit RGB; alpha below 128
//! becomes magenta, the WAD's transparent colour). Samples whose stored texels are the same are
//! kept once. The rest are laid out with `texture_packer`'s skyline packer: no rotation (a WAD
//! cannot rotate a sample), no padding, never across a page's edge, each on the first page with
//! room, a new page when none has. Packing is a heuristic: four orders are tried (tallest, largest
//! area, longest side, widest first) and the one needing the fewest pages is kept. Unused texels
//! are magenta.
//!
//! The layout depends only on the input: each order is fixed by the sizes and the first input
//! index, and the skyline packer has no randomness (its hash maps only store the result, which is
//! read back key by key).

use std::borrow::Cow;
use std::collections::HashMap;
use std::hash::BuildHasher;

use rayon::prelude::*;

use texture_packer::texture::{Pixel, Texture};
use texture_packer::{MultiTexturePacker, TexturePackerConfig};
use wadforge_model::{Page, PAGE_SIZE};

/// The transparent colour of a 24-bit page.
pub const MAGENTA: [u8; 3] = [255, 0, 255];

/// Texels with an alpha below this are transparent (written as [`MAGENTA`]).
pub const ALPHA_CUTOFF: u8 = 128;

const PAGE: u32 = PAGE_SIZE as u32;

/// How a sample image's bytes are laid out, rows top to bottom.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum PixelFormat {
    /// 3 bytes a texel; magenta texels are transparent.
    Rgb,
    /// 4 bytes a texel; alpha below [`ALPHA_CUTOFF`] is transparent.
    Rgba,
}

impl PixelFormat {
    pub fn bytes_per_texel(self) -> usize {
        match self {
            PixelFormat::Rgb => 3,
            PixelFormat::Rgba => 4,
        }
    }
}

impl std::fmt::Display for PixelFormat {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            PixelFormat::Rgb => "RGB",
            PixelFormat::Rgba => "RGBA",
        })
    }
}

/// The texels of one sample, to be placed on a page: `width × height` (each 1..=256) texels of
/// `format`, rows top to bottom.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SampleImage<'a> {
    pub width: u32,
    pub height: u32,
    pub format: PixelFormat,
    pub pixels: &'a [u8],
}

impl<'a> SampleImage<'a> {
    pub fn rgba(width: u32, height: u32, pixels: &'a [u8]) -> Self {
        SampleImage {
            width,
            height,
            format: PixelFormat::Rgba,
            pixels,
        }
    }

    pub fn rgb(width: u32, height: u32, pixels: &'a [u8]) -> Self {
        SampleImage {
            width,
            height,
            format: PixelFormat::Rgb,
            pixels,
        }
    }

    /// The texels a page stores for this image, 3 bytes each, row by row (RGB ones as they are,
    /// not copied).
    fn page_texels(&self) -> Cow<'a, [u8]> {
        match self.format {
            PixelFormat::Rgb => Cow::Borrowed(self.pixels),
            PixelFormat::Rgba => Cow::Owned(
                self.pixels
                    .chunks_exact(4)
                    .flat_map(|c| {
                        if c[3] < ALPHA_CUTOFF {
                            MAGENTA
                        } else {
                            [c[0], c[1], c[2]]
                        }
                    })
                    .collect(),
            ),
        }
    }
}

/// Where a sample landed: its top-left texel on page `page`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Placement {
    pub page: u16,
    pub x: u8,
    pub y: u8,
}

/// Packed pages, and where each input sample sits on them (in input order; identical samples
/// share a placement).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PackedPages {
    pub pages: Vec<Page>,
    pub placements: Vec<Placement>,
}

/// Samples that cannot be packed. `index` is the sample's position in the input.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PackError {
    #[error("sample {index} is {width}×{height} texels: a sample needs at least one texel each way")]
    EmptySample { index: usize, width: u32, height: u32 },
    #[error("sample {index} is {width}×{height} texels, larger than a 256×256 page; scale its texture down")]
    SampleTooLarge { index: usize, width: u32, height: u32 },
    #[error("sample {index} is {width}×{height} {format}, which takes {expected} bytes, not {actual}")]
    WrongByteCount {
        index: usize,
        width: u32,
        height: u32,
        format: PixelFormat,
        expected: usize,
        actual: usize,
    },
    #[error("the packer could not place sample {index} ({width}×{height}) on a page: {reason}")]
    Packer {
        index: usize,
        width: u32,
        height: u32,
        reason: String,
    },
    #[error("the samples need {pages} pages; a WAD addresses at most 65536")]
    TooManyPages { pages: usize },
}

fn check(index: usize, image: &SampleImage) -> Result<(), PackError> {
    let (width, height) = (image.width, image.height);
    if width == 0 || height == 0 {
        return Err(PackError::EmptySample { index, width, height });
    }
    if width > PAGE || height > PAGE {
        return Err(PackError::SampleTooLarge { index, width, height });
    }
    let expected = width as usize * height as usize * image.format.bytes_per_texel();
    if image.pixels.len() != expected {
        let (format, actual) = (image.format, image.pixels.len());
        return Err(PackError::WrongByteCount {
            index,
            width,
            height,
            format,
            expected,
            actual,
        });
    }
    Ok(())
}

/// A distinct sample: its size, stored texels, and the first input holding it.
struct Unique<'a> {
    width: u32,
    height: u32,
    /// 3 bytes a texel.
    texels: Cow<'a, [u8]>,
    first: usize,
}

/// Deduplicates and packs samples onto as few 256×256 pages as the skyline heuristic finds.
pub fn pack_samples(samples: &[SampleImage]) -> Result<PackedPages, PackError> {
    // 1. Stored texels, deduplicated; `of_input[i]` is input i's distinct sample.
    let mut uniques: Vec<Unique> = Vec::new();
    // Distinct samples by a hash of their size and texels (the texels are not copied into a key:
    // they are most of a build's memory at this point).
    let mut seen: HashMap<u64, Vec<usize>> = HashMap::new();
    let hasher = std::hash::RandomState::new();
    let mut of_input = Vec::with_capacity(samples.len());
    for (index, image) in samples.iter().enumerate() {
        check(index, image)?;
        let texels = image.page_texels();
        let hash = hasher.hash_one((image.width, image.height, &*texels));
        let same = seen.entry(hash).or_default();
        let known = same.iter().copied().find(|&u| {
            let u: &Unique = &uniques[u];
            (u.width, u.height) == (image.width, image.height) && u.texels == texels
        });
        let unique = known.unwrap_or_else(|| {
            uniques.push(Unique {
                width: image.width,
                height: image.height,
                texels,
                first: index,
            });
            same.push(uniques.len() - 1);
            uniques.len() - 1
        });
        of_input.push(unique);
    }

    // 2. Layout.
    let Layout {
        pages: page_count,
        spots,
    } = best_layout(&uniques)?;
    if page_count > usize::from(u16::MAX) + 1 {
        return Err(PackError::TooManyPages { pages: page_count });
    }

    // 3. Texels.
    let mut pages = vec![Page::filled(MAGENTA); page_count];
    for (unique, &(page, x, y)) in uniques.iter().zip(&spots) {
        pages[page].put_rect(x as usize, y as usize, unique.width as usize, &unique.texels);
    }
    let placements = of_input
        .into_iter()
        .map(|u| {
            let (page, x, y) = spots[u];
            Placement {
                page: page as u16,
                x: x as u8,
                y: y as u8,
            }
        })
        .collect();
    Ok(PackedPages { pages, placements })
}

/// How many pages [`pack_samples`] would fill with samples of these sizes (width, height), all
/// distinct: it places rectangles and copies no texels, so a caller can refuse a set of samples
/// before cutting its texels out.
pub fn pages_needed(sizes: &[(u32, u32)]) -> Result<usize, PackError> {
    let uniques: Vec<Unique> = sizes
        .iter()
        .enumerate()
        .map(|(first, &(width, height))| {
            if width == 0 || height == 0 {
                return Err(PackError::EmptySample {
                    index: first,
                    width,
                    height,
                });
            }
            if width > PAGE || height > PAGE {
                return Err(PackError::SampleTooLarge {
                    index: first,
                    width,
                    height,
                });
            }
            Ok(Unique {
                width,
                height,
                texels: Cow::Borrowed(&[]),
                first,
            })
        })
        .collect::<Result<_, _>>()?;
    Ok(best_layout(&uniques)?.pages)
}

/// The order that gives the fewest pages, the first on a tie. The orders are tried in parallel;
/// the choice (and the first error) is the sequential one's.
fn best_layout(uniques: &[Unique]) -> Result<Layout, PackError> {
    let layouts: Vec<Result<Layout, PackError>> =
        ORDERS.par_iter().map(|&key| layout(uniques, key)).collect();
    let mut layouts = layouts.into_iter();
    let mut best = layouts.next().expect("orders to try")?;
    for other in layouts {
        let other = other?;
        if other.pages < best.pages {
            best = other;
        }
    }
    Ok(best)
}

/// A sort key of a sample's (width, height); samples are packed largest key first.
type OrderKey = fn(u32, u32) -> (u32, u32);

/// Orders tried before packing, each a sort key of (width, height), largest first (input order
/// breaks ties): tallest, largest area, longest side, widest.
const ORDERS: [OrderKey; 4] = [
    |w, h| (h, w),
    |w, h| (w * h, h),
    |w, h| (w.max(h), w.min(h)),
    |w, h| (w, h),
];

const CONFIG: TexturePackerConfig = TexturePackerConfig {
    max_width: PAGE,
    // The skyline packer never fills a page's last row (it refuses a rectangle whose bottom
    // edge would be the page's), so give it one row more and let its own bound stop at 256.
    max_height: PAGE + 1,
    allow_rotation: false,
    force_max_dimensions: false,
    border_padding: 0,
    texture_padding: 0,
    texture_extrusion: 0,
    trim: false,
    texture_outlines: false,
};

/// Where the distinct samples go: per sample, its page and top-left texel.
struct Layout {
    pages: usize,
    spots: Vec<(usize, u32, u32)>,
}

/// Packs the distinct samples in the order `key` gives, each on the first page with room.
fn layout(uniques: &[Unique], key: OrderKey) -> Result<Layout, PackError> {
    let mut order: Vec<usize> = (0..uniques.len()).collect();
    order.sort_by_key(|&u| (std::cmp::Reverse(key(uniques[u].width, uniques[u].height)), u));
    let refused = |u: usize, reason: String| PackError::Packer {
        index: uniques[u].first,
        width: uniques[u].width,
        height: uniques[u].height,
        reason,
    };
    let mut packer: MultiTexturePacker<'_, Footprint, usize> = MultiTexturePacker::new_skyline(CONFIG);
    for &u in &order {
        let (width, height) = (uniques[u].width, uniques[u].height);
        packer
            .pack_own(u, Footprint { width, height })
            .map_err(|e| refused(u, format!("{e:?}")))?;
    }
    let mut spots = vec![None; uniques.len()];
    for (page, atlas) in packer.get_pages().iter().enumerate() {
        for (&u, frame) in atlas.get_frames() {
            let r = frame.frame;
            if frame.rotated || (r.w, r.h) != (uniques[u].width, uniques[u].height) {
                return Err(refused(u, "it came back rotated or resized".into()));
            }
            if r.x + r.w > PAGE || r.y + r.h > PAGE {
                return Err(refused(u, "it came back across the page's edge".into()));
            }
            spots[u] = Some((page, r.x, r.y));
        }
    }
    let spots = spots
        .into_iter()
        .enumerate()
        .map(|(u, spot)| spot.ok_or_else(|| refused(u, "it was accepted but never placed".into())))
        .collect::<Result<_, _>>()?;
    Ok(Layout {
        pages: packer.get_pages().len(),
        spots,
    })
}

/// What the packer sees of a sample: its size. The texels are copied by [`pack_samples`] itself.
#[derive(Clone)]
struct Footprint {
    width: u32,
    height: u32,
}

/// The packer's pixel type for a [`Footprint`]: there are none (trimming is off, so it never asks).
#[derive(Clone, Copy)]
struct NoTexel;

impl Pixel for NoTexel {
    fn is_transparent(&self) -> bool {
        false
    }

    fn transparency() -> Option<Self> {
        None
    }

    fn outline() -> Self {
        NoTexel
    }
}

impl Texture for Footprint {
    type Pixel = NoTexel;

    fn width(&self) -> u32 {
        self.width
    }

    fn height(&self) -> u32 {
        self.height
    }

    fn get(&self, _x: u32, _y: u32) -> Option<NoTexel> {
        None
    }

    fn set(&mut self, _x: u32, _y: u32, _val: NoTexel) {}
}

#[cfg(test)]
mod tests {
    use super::*;

    /// xorshift64*: reproducible random numbers without a dependency.
    struct Rng(u64);

    impl Rng {
        fn next(&mut self) -> u64 {
            self.0 ^= self.0 >> 12;
            self.0 ^= self.0 << 25;
            self.0 ^= self.0 >> 27;
            self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
        }

        fn below(&mut self, n: u32) -> u32 {
            (self.next() % u64::from(n)) as u32
        }
    }

    /// An owned sample image for tests.
    struct Owned {
        width: u32,
        height: u32,
        rgba: Vec<u8>,
    }

    impl Owned {
        fn image(&self) -> SampleImage<'_> {
            SampleImage::rgba(self.width, self.height, &self.rgba)
        }
    }

    /// Random sizes up to `max`, random opaque texels with some transparent ones,
    /// and every fifth sample a copy of an earlier one.
    fn random_samples(seed: u64, count: usize, max: u32) -> Vec<Owned> {
        let mut rng = Rng(seed);
        let mut out: Vec<Owned> = Vec::new();
        for i in 0..count {
            if i % 5 == 4 {
                let j = rng.below(i as u32) as usize;
                out.push(Owned {
                    width: out[j].width,
                    height: out[j].height,
                    rgba: out[j].rgba.clone(),
                });
                continue;
            }
            let (width, height) = (1 + rng.below(max), 1 + rng.below(max));
            let mut rgba = Vec::new();
            for _ in 0..width * height {
                let v = rng.next();
                let transparent = v % 7 == 0;
                rgba.extend([
                    (v >> 8) as u8,
                    (v >> 16) as u8 & 0x7F,
                    (v >> 24) as u8,
                    if transparent { 0 } else { 255 },
                ]);
            }
            out.push(Owned { width, height, rgba });
        }
        out
    }

    fn stored(image: &SampleImage, x: u32, y: u32) -> [u8; 3] {
        let i = ((y * image.width + x) * 4) as usize;
        let p = &image.pixels[i..i + 4];
        if p[3] < ALPHA_CUTOFF {
            MAGENTA
        } else {
            [p[0], p[1], p[2]]
        }
    }

    /// What the page stores for a sample: its size and texels.
    fn stored_key(image: &SampleImage) -> (u32, u32, Vec<[u8; 3]>) {
        let texels = (0..image.height).flat_map(|y| (0..image.width).map(move |x| stored(image, x, y)));
        (image.width, image.height, texels.collect())
    }

    /// Packs and checks everything the brief asks: inside a page, no overlap, texels copied,
    /// identical samples stored once, unused space magenta. Returns the result.
    fn pack_and_check(owned: &[Owned]) -> PackedPages {
        let images: Vec<_> = owned.iter().map(Owned::image).collect();
        let packed = pack_samples(&images).unwrap();
        assert_eq!(packed.placements.len(), images.len());

        let keys: Vec<_> = images.iter().map(stored_key).collect();
        let mut owner: Vec<Vec<Option<usize>>> = vec![vec![None; PAGE_SIZE * PAGE_SIZE]; packed.pages.len()];
        for (i, (image, p)) in images.iter().zip(&packed.placements).enumerate() {
            let (x0, y0) = (u32::from(p.x), u32::from(p.y));
            assert!(usize::from(p.page) < packed.pages.len());
            assert!(
                x0 + image.width <= PAGE && y0 + image.height <= PAGE,
                "sample {i} crosses the page edge"
            );
            let first = keys.iter().position(|k| *k == keys[i]).unwrap();
            if first != i {
                assert_eq!(
                    *p, packed.placements[first],
                    "identical samples {first} and {i} stored twice"
                );
                continue;
            }
            for y in 0..image.height {
                for x in 0..image.width {
                    let cell = &mut owner[usize::from(p.page)][((y0 + y) * PAGE + x0 + x) as usize];
                    assert_eq!(*cell, None, "sample {i} overlaps sample {cell:?}");
                    *cell = Some(i);
                    let page = &packed.pages[usize::from(p.page)];
                    assert_eq!(
                        page.texel((x0 + x) as usize, (y0 + y) as usize),
                        stored(image, x, y)
                    );
                }
            }
        }
        for (page, cells) in packed.pages.iter().zip(&owner) {
            for (i, cell) in cells.iter().enumerate() {
                if cell.is_none() {
                    assert_eq!(page.texel(i % PAGE_SIZE, i / PAGE_SIZE), MAGENTA);
                }
            }
        }
        packed
    }

    #[test]
    fn random_samples_pack_without_overlap_and_deterministically() {
        for (seed, count, max) in [(1, 300, 48), (2, 120, 130), (3, 40, 256), (4, 500, 12)] {
            let owned = random_samples(seed, count, max);
            let first = pack_and_check(&owned);
            let second = pack_and_check(&owned);
            assert_eq!(first, second, "seed {seed}: two runs differ");
        }
    }

    #[test]
    fn pages_are_used_well() {
        let owned = random_samples(7, 600, 48);
        let packed = pack_and_check(&owned);
        let distinct: std::collections::HashSet<_> = owned.iter().map(|o| stored_key(&o.image())).collect();
        let area: u32 = distinct.iter().map(|(w, h, _)| w * h).sum();
        let bound = area.div_ceil(PAGE * PAGE) as usize;
        assert!(
            packed.pages.len() <= bound + bound / 5 + 1,
            "{} pages for a bound of {bound}",
            packed.pages.len()
        );
    }

    #[test]
    fn exact_tilings_fill_whole_pages() {
        let tile = |w: u32, h: u32, seed: u8| Owned {
            width: w,
            height: h,
            rgba: (0..w * h)
                .flat_map(|i| [seed, (i % 251) as u8, (i / 251) as u8, 255])
                .collect(),
        };
        // Three full pages, sixteen 64×64 tiles, four 128×128 tiles, one 256-tall column pair.
        let mut owned: Vec<Owned> = (0..3).map(|s| tile(256, 256, s)).collect();
        owned.extend((0..16).map(|s| tile(64, 64, 10 + s)));
        owned.extend((0..4).map(|s| tile(128, 128, 40 + s)));
        owned.extend((0..2).map(|s| tile(128, 256, 50 + s)));
        let packed = pack_and_check(&owned);
        assert_eq!(packed.pages.len(), 6);
        assert!(packed
            .pages
            .iter()
            .all(|p| p.rgb().chunks(3).all(|t| t != MAGENTA)));
    }

    #[test]
    fn identical_texels_are_stored_once() {
        // Same RGB under transparent alpha, or a different opaque alpha, stores the same texels.
        let a = [1, 2, 3, 255, 9, 9, 9, 0];
        let b = [1, 2, 3, 200, 7, 7, 7, 100];
        let c = [1, 2, 3, 255, 9, 9, 9, 255];
        let rgb = [1, 2, 3, 255, 0, 255];
        let images = [
            SampleImage::rgba(2, 1, &a),
            SampleImage::rgba(2, 1, &b),
            SampleImage::rgba(2, 1, &c),
            SampleImage::rgb(2, 1, &rgb),
            SampleImage::rgba(1, 2, &a),
        ];
        let packed = pack_samples(&images).unwrap();
        let p = &packed.placements;
        assert_eq!(packed.pages.len(), 1);
        assert_eq!((p[0], p[1], p[3]), (p[0], p[0], p[0]));
        assert_ne!(p[2], p[0]);
        assert_ne!(p[4], p[0], "same bytes, other shape: another sample");
        let page = &packed.pages[0];
        let (x, y) = (usize::from(p[0].x), usize::from(p[0].y));
        assert_eq!([page.texel(x, y), page.texel(x + 1, y)], [[1, 2, 3], MAGENTA]);
    }

    #[test]
    fn nothing_to_pack_gives_no_pages() {
        assert_eq!(
            pack_samples(&[]).unwrap(),
            PackedPages {
                pages: vec![],
                placements: vec![]
            }
        );
    }

    #[test]
    fn bad_samples_are_named() {
        let px = vec![0u8; 257 * 4];
        let ok = SampleImage::rgba(1, 1, &px[..4]);
        assert_eq!(
            pack_samples(&[ok, SampleImage::rgba(0, 1, &[])]),
            Err(PackError::EmptySample {
                index: 1,
                width: 0,
                height: 1
            })
        );
        assert_eq!(
            pack_samples(&[SampleImage::rgba(257, 1, &px)]),
            Err(PackError::SampleTooLarge {
                index: 0,
                width: 257,
                height: 1
            })
        );
        let err = pack_samples(&[ok, ok, SampleImage::rgb(2, 2, &px[..11])]).unwrap_err();
        assert_eq!(
            err,
            PackError::WrongByteCount {
                index: 2,
                width: 2,
                height: 2,
                format: PixelFormat::Rgb,
                expected: 12,
                actual: 11
            }
        );
        assert_eq!(
            err.to_string(),
            "sample 2 is 2×2 RGB, which takes 12 bytes, not 11"
        );
    }
}
