//! The texture half of `wadforge build`: polygons' UVs on their materials' images → texture
//! samples, deduplicated and packed into 256×256 pages.
//!
//! Each polygon gets one sample, cut from its image in one of two ways:
//!
//! - **Exact** (`exact.rs`): when every UV lies on a whole texel edge of a page atlas (the image
//!   import writes: pages stacked vertically, 256 texels to a page edge, or that image scaled
//!   uniformly; see [`wadforge_packer::uv`]) to within 0.01 texel, and the rounded corners sit
//!   on the corners of an axis-aligned rectangle in one of the arrangements of
//!   `docs/format-facts.md` ([`wadforge_format::texture_corners::recover_texture`]), the
//!   image's pixels under that rectangle are the sample, copied texel for texel, with the
//!   recovered shape and flip. A corner order that is a cyclic shift of a legal one (a texture
//!   rotated on its polygon) is used as well, and [`PolygonTextureOut::shift`] says how far the
//!   polygon's vertex list must be rotated. UVs moved by whole repeats (say `u` in 1..2) count as
//!   on the atlas. On a scaled atlas the sample keeps the image's resolution (a 64×64 texel
//!   rectangle of a 512-wide atlas is a 128×128 sample) as long as it fits on a page.
//! - **Resampled** (`resample.rs`): anything else (rotated, skewed or off-grid UVs, an image that
//!   is not a page atlas, a rectangle too large for a page at the image's resolution). The
//!   sample is as many texels wide and high as the UV footprint is long in image texels (the
//!   edges the sample's top and left edges map to; at least 1, and scaled down keeping the
//!   aspect to at most 256), and each sample texel is the image texel containing the point the
//!   polygon's UV mapping sends the sample texel's centre to (triangles: the affine map taking
//!   the sample's `nw ne sw` to the three UVs; quads: two affine halves split along the sample's
//!   nw–se, `nw ne se` and `nw se sw` onto their UVs, the polygon's v0–v2 split the game and
//!   glTF viewers draw); UVs outside 0..1 repeat. The polygon gets shape 0, unflipped, shift 0.
//!
//! **Tolerance of resampling.** Every resampled texel is the nearest image texel (the one
//! containing the mapped point) to where the polygon's UVs put that texel's centre: at most half
//! a texel off per axis, plus the rounding of the sample's size to whole texels. For an
//! axis-aligned UV rectangle off the texel grid, compared with the texel-for-texel copy of the
//! rectangle its corners round to, every resampled texel comes from a source texel at most one
//! position away in each direction (measured in `exporter/tests/texture.rs` over off-grid
//! rectangles of many sizes and offsets); a rectangle on the grid of an image that is not an
//! atlas resamples texel for texel. Triangles and the two halves of quads are mapped affinely, as
//! the renderer maps them, so resampled polygons look in the WAD as in the glTF: a level's skewed
//! textures (a skewed quad stays a quad, resampled as its two halves) come within one texel
//! position of the level's texels (measured in `tests/cli_level.rs`).
//!
//! Then: texels with alpha below 128 become magenta; samples with the same size and stored texels
//! are kept once; the distinct samples are numbered from [`TextureStart::first_sample`], those
//! that triangles use first (a triangle's texture word holds only 12 bits of sample index), each
//! group in order of first use; and they are packed with [`wadforge_packer::pack_samples`] into
//! pages numbered from [`TextureStart::first_page`]. The result depends only on the input.
//!
//! A flipped quad cannot use sample 0 (its word is the negated index). When numbering starts at 0
//! and the first sample is used by a flipped quad, the first sample no flipped quad uses takes
//! index 0; when every sample is used by a flipped quad, a 1×1 magenta sample (as TRLE's own
//! WADs start with) takes index 0.

mod exact;
mod resample;

use std::borrow::Borrow;
use std::collections::HashMap;

use crate::FastMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use wadforge_format::PAGE_SIZE;
use wadforge_format::{Bound, Limits, Page, PolygonTexture, Sample, TooMuch, Wad};
use wadforge_packer::pack::{pack_samples, PackError, SampleImage, ALPHA_CUTOFF, MAGENTA};

/// An RGBA8 image: a material's base colour texture, rows top to bottom.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RgbaImage {
    pub width: u32,
    pub height: u32,
    pub pixels: Vec<u8>,
}

impl RgbaImage {
    /// What a page stores for the pixel at (x, y): its colour, or magenta when transparent.
    fn page_texel(&self, x: u32, y: u32) -> [u8; 3] {
        let i = (y as usize * self.width as usize + x as usize) * 4;
        let p = &self.pixels[i..i + 4];
        if p[3] < ALPHA_CUTOFF {
            MAGENTA
        } else {
            [p[0], p[1], p[2]]
        }
    }

    /// What a page stores for the pixels of a rectangle inside the image, row by row
    /// ([`Self::page_texel`] of each).
    fn page_texels(&self, xs: std::ops::Range<u32>, ys: std::ops::Range<u32>) -> Vec<u8> {
        let row_width = self.width as usize * 4;
        let (left, right) = (xs.start as usize * 4, xs.end as usize * 4);
        // Written in place rather than pushed texel by texel: the loop then compiles to a few
        // instructions a texel (cutting was 7% of a build's instructions).
        let mut texels = vec![0; xs.len() * ys.len() * 3];
        for (out, y) in texels.chunks_exact_mut(xs.len() * 3).zip(ys) {
            let row = &self.pixels[y as usize * row_width..][left..right];
            for (texel, p) in out.chunks_exact_mut(3).zip(row.chunks_exact(4)) {
                texel.copy_from_slice(if p[3] < ALPHA_CUTOFF { &MAGENTA } else { &p[..3] });
            }
        }
        texels
    }

    fn is_valid(&self) -> bool {
        self.width > 0
            && self.height > 0
            && Some(self.pixels.len()) == (self.width as usize).checked_mul(self.height as usize * 4)
    }
}

/// One polygon to texture: the UVs of its corners in TR corner order (3 or 4) on `images[image]`.
#[derive(Debug, Clone, PartialEq)]
pub struct PolygonUvs {
    pub image: usize,
    pub uvs: Vec<[f32; 2]>,
    pub is_quad: bool,
}

/// Where new samples and pages start (after a base WAD's own when patching), and the WAD whose
/// samples are reused where they hold the same texels.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct TextureStart<'a> {
    pub first_sample: usize,
    pub first_page: u16,
    /// A sample of this WAD with the same size and texels as a needed one is used instead of a
    /// new one (so a patch with unchanged objects adds no samples or pages).
    pub reuse: Option<&'a Wad>,
}

/// The texture of one polygon.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PolygonTextureOut {
    pub texture: PolygonTexture,
    /// How many places the polygon's vertex list must be rotated left so its first vertex is the
    /// texture's anchor (0 when the given order works): vertex `i` of the new list is vertex
    /// `(i + shift) % n` of the given one.
    pub shift: u8,
    /// The sample was resampled from the image rather than copied texel for texel.
    pub resampled: bool,
}

/// Samples and pages to append to a WAD (from [`TextureStart`]), and each polygon's texture.
#[derive(Debug, Clone, PartialEq)]
pub struct Textures {
    pub samples: Vec<Sample>,
    pub pages: Vec<Page>,
    /// One per input polygon, in input order.
    pub polygons: Vec<PolygonTextureOut>,
}

/// What keeps polygons from being textured; each names the polygon (its index in the input) and
/// says what to change.
#[derive(Debug, thiserror::Error)]
pub enum TextureError {
    #[error(
        "polygon {polygon} uses image {image}, but there are only {images} images: give its material a \
         base colour texture"
    )]
    NoImage {
        polygon: usize,
        image: usize,
        images: usize,
    },
    #[error(
        "polygon {polygon} uses image {image}, which is {width}×{height} pixels with {bytes} bytes of \
         pixels: it needs at least 1×1 pixels of 8-bit RGBA (4 bytes each); re-save the texture"
    )]
    BadImage {
        polygon: usize,
        image: usize,
        width: u32,
        height: u32,
        bytes: usize,
    },
    #[error("polygon {polygon} is a {} with {count} UVs: give it one UV per corner", if *.is_quad { "quad" } else { "triangle" })]
    WrongUvCount {
        polygon: usize,
        is_quad: bool,
        count: usize,
    },
    #[error("polygon {polygon} has a UV that is not a finite number at corner {corner}: fix its UV map")]
    BadUv { polygon: usize, corner: usize },
    #[error(
        "polygon {polygon} is a triangle and would use sample {sample}, but triangles reach only samples \
         0..=4095 ({triangle_samples} distinct textures on triangles, numbered from sample {first_sample}): \
         let triangles share textures (UVs on the same texel rectangles), turn triangles into quads, or \
         patch a WAD with fewer samples"
    )]
    TriangleSampleOutOfRange {
        polygon: usize,
        sample: usize,
        triangle_samples: usize,
        first_sample: usize,
    },
    #[error(
        "polygon {polygon} is a quad and would use sample {sample}, but quads reach only samples 0..=32767 \
         (a flipped quad 1..=32768): use fewer distinct textures, or patch a WAD with fewer samples"
    )]
    QuadSampleOutOfRange { polygon: usize, sample: usize },
    #[error(
        "polygon {polygon}'s texture would go on page {page}, but a WAD addresses at most 65536 pages: use \
         fewer or smaller textures, or patch a WAD with fewer pages"
    )]
    TooManyPages { polygon: usize, page: usize },
    #[error("polygon {polygon}: the build's polygons up to this one ask for {source}")]
    TooMuch {
        polygon: usize,
        #[source]
        source: TooMuch,
    },
    #[error("the texture of polygon {polygon} cannot be packed into pages ({source}): use smaller textures")]
    Pack {
        polygon: usize,
        #[source]
        source: PackError,
    },
}

/// Triangles' texture words hold 12 bits of sample index.
const TRIANGLE_SAMPLES: usize = 0x1000;
/// A quad's word is the index, or its negation when flipped: unflipped below 0x8000.
const QUAD_SAMPLES: usize = 0x8000;

/// A sample cut from an image for one polygon: its size, stored texels (magenta where
/// transparent) and how the polygon sits on it.
#[derive(Clone)]
pub(crate) struct Cut {
    pub width: u32,
    pub height: u32,
    /// RGB, 3 bytes a texel, rows top to bottom.
    pub texels: Vec<u8>,
    pub shape: u8,
    pub flipped: bool,
    pub shift: u8,
    pub resampled: bool,
}

impl TextureError {
    /// Index (in the input) of the polygon the error concerns.
    pub fn polygon(&self) -> usize {
        match *self {
            TextureError::NoImage { polygon, .. }
            | TextureError::BadImage { polygon, .. }
            | TextureError::WrongUvCount { polygon, .. }
            | TextureError::BadUv { polygon, .. }
            | TextureError::TriangleSampleOutOfRange { polygon, .. }
            | TextureError::QuadSampleOutOfRange { polygon, .. }
            | TextureError::TooManyPages { polygon, .. }
            | TextureError::TooMuch { polygon, .. }
            | TextureError::Pack { polygon, .. } => polygon,
        }
    }
}

/// A distinct sample and who uses it.
struct Unique {
    width: u32,
    height: u32,
    texels: Arc<[u8]>,
    /// Of the size and texels (see [`SampleStore`]).
    hash: u64,
    first_polygon: usize,
    by_triangle: bool,
    by_flipped_quad: bool,
}

/// Cuts, deduplicates, numbers and packs the samples of `polygons`; see the module documentation.
pub fn build_textures(
    images: &[RgbaImage],
    polygons: &[PolygonUvs],
    start: TextureStart,
) -> Result<Textures, TextureError> {
    textures_from(
        PolygonSamples::cut(images, polygons, &SampleStore::default())?,
        start,
    )
}

/// Numbers and packs samples already cut (see [`PolygonSamples`]); the result is
/// [`build_textures`]'s for all their polygons at once.
pub fn textures_from(samples: PolygonSamples, start: TextureStart) -> Result<Textures, TextureError> {
    let numbering = number_samples(&samples.uniques, &start);
    check_limits(&samples, &numbering, start.first_sample)?;
    let (new_samples, pages) = pack_pages(&samples.uniques, &numbering.order, start.first_page)?;
    let polygons = samples
        .uses
        .iter()
        .map(|u| PolygonTextureOut {
            texture: PolygonTexture {
                // Checked against the limits above.
                sample: numbering.number[u.unique] as u16,
                shape: u.cut.shape,
                flipped: u.cut.flipped,
            },
            shift: u.cut.shift,
            resampled: u.cut.resampled,
        })
        .collect();
    Ok(Textures {
        samples: new_samples,
        pages,
        polygons,
    })
}

/// Polygons' samples cut from their images: the distinct ones (by size and stored texels), and
/// per polygon which one it shows and how it sits on it. Cut object by object, so that each
/// object's images can go as soon as they are cut, and appended in polygon order: the result is
/// the same as cutting all polygons at once.
#[derive(Default)]
pub struct PolygonSamples {
    uniques: Vec<Unique>,
    uses: Vec<SampleUse>,
    /// Distinct samples by a hash of their size and texels.
    by_hash: FastMap<u64, Vec<usize>>,
}

/// One polygon's sample: the distinct sample and the cut (its texels moved out).
struct SampleUse {
    unique: usize,
    cut: Cut,
    is_quad: bool,
}

/// The distinct samples' texels of a whole build, each kept once however many objects cut it
/// (objects are cut in parallel, and all their samples wait to be numbered together), and what
/// the build may still cut and keep. `Default` sets no bound.
pub struct SampleStore {
    texels: Mutex<HashMap<u64, Vec<Arc<[u8]>>>>,
    /// Texels the polygons may still cut from their images (time).
    cut: TexelBound,
    /// Texels of distinct samples the build may still keep (memory).
    kept: TexelBound,
}

impl Default for SampleStore {
    fn default() -> Self {
        SampleStore {
            texels: Mutex::default(),
            // No input size makes a bound.
            cut: TexelBound::new(Limits::DEFAULT.cut_texels, u64::MAX),
            kept: TexelBound::new(Limits::DEFAULT.kept_texels, u64::MAX),
        }
    }
}

/// What a build has spent on one kind of work (cutting texels, keeping them), against its
/// bound: cut one at a time, each polygon of its own UVs costing its area (see
/// [`Limits::cut_texels`]).
struct TexelBound {
    spent: AtomicU64,
    bound: Bound,
    input_bytes: u64,
}

impl TexelBound {
    fn new(bound: Bound, input_bytes: u64) -> Self {
        TexelBound {
            spent: AtomicU64::new(0),
            bound,
            input_bytes,
        }
    }

    /// Takes `texels` for polygon `polygon`; an error (and nothing taken) past the bound.
    fn spend(&self, texels: u64, polygon: usize) -> Result<(), TextureError> {
        let allowed = self.bound.allowed(self.input_bytes);
        self.spent
            .fetch_update(Ordering::Relaxed, Ordering::Relaxed, |s| {
                s.checked_add(texels).filter(|&t| t <= allowed)
            })
            .map(|_| ())
            .map_err(|spent| TextureError::TooMuch {
                polygon,
                source: TooMuch {
                    bound: self.bound,
                    asked: spent.saturating_add(texels),
                    measure: self.input_bytes,
                },
            })
    }
}

impl SampleStore {
    /// A store for a build of `input_bytes` bytes of manifests and glTF files, bounding what it
    /// cuts and keeps.
    pub fn bounded(input_bytes: u64) -> Self {
        SampleStore {
            texels: Mutex::default(),
            cut: TexelBound::new(Limits::DEFAULT.cut_texels, input_bytes),
            kept: TexelBound::new(Limits::DEFAULT.kept_texels, input_bytes),
        }
    }

    /// The stored texels equal to `texels` (of a sample of that size, whose hash is `hash`),
    /// stored now if new.
    fn keep(&self, hash: u64, texels: Vec<u8>) -> Arc<[u8]> {
        let mut stored = self.texels.lock().unwrap_or_else(|e| e.into_inner());
        let same = stored.entry(hash).or_default();
        if let Some(known) = same.iter().find(|known| ***known == *texels) {
            return Arc::clone(known);
        }
        let kept: Arc<[u8]> = texels.into();
        same.push(Arc::clone(&kept));
        kept
    }
}

/// The hash of a sample's size and texels (xxh3: samples hold megabytes of texels in all).
fn sample_hash(width: u32, height: u32, texels: &[u8]) -> u64 {
    xxhash_rust::xxh3::xxh3_64_with_seed(texels, u64::from(width) << 32 | u64::from(height))
}

impl PolygonSamples {
    /// The samples of `polygons`, each cut from its image (`images[polygon.image]`), their
    /// texels kept in `store`; errors name the polygon by its index in `polygons`.
    pub fn cut(
        images: &[impl Borrow<RgbaImage>],
        polygons: &[PolygonUvs],
        store: &SampleStore,
    ) -> Result<PolygonSamples, TextureError> {
        let mut samples = PolygonSamples::default();
        samples.uses.reserve(polygons.len());
        // Polygons with the same UVs on the same image (a tiled texture, a repeated face) cut
        // the same sample: each is cut once.
        let mut cut_before: FastMap<(usize, Vec<u32>, bool), (usize, Cut)> = FastMap::default();
        // Polygons on one rectangle of an image (each its own corner order) share its texels.
        let mut rectangle_before: FastMap<(usize, [u32; 4]), usize> = FastMap::default();
        for (index, polygon) in polygons.iter().enumerate() {
            let image = check(index, polygon, images)?;
            let key = (
                polygon.image,
                polygon.uvs.iter().flat_map(|uv| uv.map(f32::to_bits)).collect(),
                polygon.is_quad,
            );
            if let Some((unique, cut)) = cut_before.get(&key) {
                samples.used(*unique, cut.clone(), polygon.is_quad);
                continue;
            }
            let placed = exact::place(image, &polygon.uvs, polygon.is_quad);
            let on_rectangle = placed.map(|p| (polygon.image, p.rect));
            if let Some(&unique) = on_rectangle.and_then(|r| rectangle_before.get(&r)) {
                let cut = placed.map(|p| p.uncut()).expect("a rectangle is placed");
                cut_before.insert(key, (unique, cut.clone()));
                samples.used(unique, cut, polygon.is_quad);
                continue;
            }
            let mut cut = match placed {
                Some(placed) => placed.cut(image),
                None => resample::cut(image, &polygon.uvs, polygon.is_quad),
            };
            let area = u64::from(cut.width) * u64::from(cut.height);
            store.cut.spend(area, index)?;
            let texels = std::mem::take(&mut cut.texels);
            let hash = sample_hash(cut.width, cut.height, &texels);
            let unique = match samples.find(cut.width, cut.height, &texels, hash) {
                Some(u) => u,
                None => {
                    store.kept.spend(area, index)?;
                    samples.add(cut.width, cut.height, store.keep(hash, texels), hash, index)
                }
            };
            if let Some(rectangle) = on_rectangle {
                rectangle_before.insert(rectangle, unique);
            }
            cut_before.insert(key, (unique, cut.clone()));
            samples.used(unique, cut, polygon.is_quad);
        }
        Ok(samples)
    }

    /// Appends the polygons of `other` after these.
    pub fn append(&mut self, other: PolygonSamples) {
        let first_polygon = self.uses.len();
        // `other`'s distinct samples are in order of first use, as cutting them here would add them.
        let renumbered: Vec<usize> = other
            .uniques
            .into_iter()
            .map(|u| match self.find(u.width, u.height, &u.texels, u.hash) {
                Some(known) => known,
                None => self.add(
                    u.width,
                    u.height,
                    u.texels,
                    u.hash,
                    first_polygon + u.first_polygon,
                ),
            })
            .collect();
        for u in other.uses {
            self.used(renumbered[u.unique], u.cut, u.is_quad);
        }
    }

    /// The distinct sample of these texels, if there is one.
    fn find(&self, width: u32, height: u32, texels: &[u8], hash: u64) -> Option<usize> {
        let candidates = self.by_hash.get(&hash)?;
        candidates.iter().copied().find(|&u| {
            let known = &self.uniques[u];
            known.width == width && known.height == height && *known.texels == *texels
        })
    }

    /// Adds a distinct sample, first used by `polygon`.
    fn add(&mut self, width: u32, height: u32, texels: Arc<[u8]>, hash: u64, polygon: usize) -> usize {
        self.uniques.push(Unique {
            width,
            height,
            texels,
            hash,
            first_polygon: polygon,
            by_triangle: false,
            by_flipped_quad: false,
        });
        self.by_hash.entry(hash).or_default().push(self.uniques.len() - 1);
        self.uniques.len() - 1
    }

    fn used(&mut self, unique: usize, cut: Cut, is_quad: bool) {
        let u = &mut self.uniques[unique];
        u.by_triangle |= !is_quad;
        u.by_flipped_quad |= is_quad && cut.flipped;
        self.uses.push(SampleUse { unique, cut, is_quad });
    }
}

/// The number of every distinct sample, and the new samples in the order they are numbered and
/// packed.
struct Numbering {
    /// The reused WAD's sample that a distinct sample is, if any.
    reused: Vec<Option<usize>>,
    /// Distinct samples numbered anew, in number order; `None` is the placeholder.
    order: Vec<Option<usize>>,
    /// The sample number of each distinct sample.
    number: Vec<usize>,
}

/// Numbering: samples of the reused WAD where they fit the polygons' words; then new ones,
/// those triangles use first, each group in order of first use.
fn number_samples(uniques: &[Unique], start: &TextureStart) -> Numbering {
    let reused = reused_samples(uniques, start.reuse);
    let mut by_use: Vec<usize> = (0..uniques.len()).filter(|&u| reused[u].is_none()).collect();
    by_use.sort_by_key(|&u| !uniques[u].by_triangle);
    let mut order: Vec<Option<usize>> = by_use.into_iter().map(Some).collect();
    let flipped_quad = |u: &Option<usize>| u.is_some_and(|u| uniques[u].by_flipped_quad);
    if start.first_sample == 0 && order.first().is_some_and(flipped_quad) {
        match order.iter().position(|u| !flipped_quad(u)) {
            Some(k) => {
                let u = order.remove(k);
                order.insert(0, u);
            }
            None => order.insert(0, None),
        }
    }
    let mut number: Vec<usize> = reused.iter().map(|r| r.unwrap_or(0)).collect();
    for (position, u) in order.iter().enumerate() {
        if let Some(u) = *u {
            number[u] = start.first_sample + position;
        }
    }
    Numbering {
        reused,
        order,
        number,
    }
}

/// Index limits of the polygons' texture words, checked in polygon order.
fn check_limits(
    samples: &PolygonSamples,
    numbering: &Numbering,
    first_sample: usize,
) -> Result<(), TextureError> {
    let uniques = &samples.uniques;
    let triangle_samples = (0..uniques.len())
        .filter(|&u| uniques[u].by_triangle && numbering.reused[u].is_none())
        .count();
    for (index, u) in samples.uses.iter().enumerate() {
        let sample = numbering.number[u.unique];
        if !u.is_quad && sample >= TRIANGLE_SAMPLES {
            return Err(TextureError::TriangleSampleOutOfRange {
                polygon: index,
                sample,
                triangle_samples,
                first_sample,
            });
        }
        let quad_fits = if u.cut.flipped {
            (1..=QUAD_SAMPLES).contains(&sample)
        } else {
            sample < QUAD_SAMPLES
        };
        if u.is_quad && !quad_fits {
            return Err(TextureError::QuadSampleOutOfRange {
                polygon: index,
                sample,
            });
        }
    }
    Ok(())
}

/// Pages: the new samples (`order`) packed onto pages numbered from `first_page`.
fn pack_pages(
    uniques: &[Unique],
    order: &[Option<usize>],
    first_page: u16,
) -> Result<(Vec<Sample>, Vec<Page>), TextureError> {
    let placeholder = [MAGENTA];
    let sample_images: Vec<SampleImage> = order
        .iter()
        .map(|u| match *u {
            Some(u) => {
                let u = &uniques[u];
                SampleImage::rgb(u.width, u.height, &u.texels)
            }
            None => SampleImage::rgb(1, 1, placeholder.as_flattened()),
        })
        .collect();
    // The polygon to name for a sample in `order`.
    let polygon_of = |position: usize| {
        order
            .get(position)
            .copied()
            .flatten()
            .map_or(0, |u| uniques[u].first_polygon)
    };
    let packed = pack_samples(&sample_images).map_err(|source| {
        let position = match source {
            PackError::EmptySample { index, .. }
            | PackError::SampleTooLarge { index, .. }
            | PackError::WrongByteCount { index, .. }
            | PackError::Packer { index, .. } => index,
            PackError::TooManyPages { .. } => order.len().saturating_sub(1),
        };
        TextureError::Pack {
            polygon: polygon_of(position),
            source,
        }
    })?;
    let mut samples = Vec::with_capacity(order.len());
    for (position, (placement, image)) in packed.placements.iter().zip(&sample_images).enumerate() {
        let page = usize::from(first_page) + usize::from(placement.page);
        let page = u16::try_from(page).map_err(|_| TextureError::TooManyPages {
            polygon: polygon_of(position),
            page,
        })?;
        samples.push(Sample {
            x: placement.x,
            y: placement.y,
            page,
            flip_x: -1,
            flip_y: -1,
            width: image.width as u16,
            height: image.height as u16,
        });
    }
    Ok((samples, packed.pages))
}

/// For each distinct sample, the index of a sample of `wad` with the same size and texels that
/// every polygon using it can address (triangles reach 4096 samples, flipped quads not sample 0).
fn reused_samples(uniques: &[Unique], wad: Option<&Wad>) -> Vec<Option<usize>> {
    let Some(wad) = wad else {
        return vec![None; uniques.len()];
    };
    let mut existing: HashMap<(u32, u32, Vec<u8>), usize> = HashMap::new();
    for (index, s) in wad.samples.iter().enumerate() {
        let Some(page) = wad.pages.get(s.page as usize) else {
            continue;
        };
        let (x0, y0, w, h) = (s.x as usize, s.y as usize, s.width as usize, s.height as usize);
        if w == 0 || h == 0 || x0 + w > PAGE_SIZE || y0 + h > PAGE_SIZE {
            continue;
        }
        let texels: Vec<u8> = (y0..y0 + h)
            .flat_map(|y| (x0..x0 + w).flat_map(move |x| page.texel(x, y)))
            .collect();
        existing.entry((w as u32, h as u32, texels)).or_insert(index);
    }
    uniques
        .iter()
        .map(|u| {
            let &index = existing.get(&(u.width, u.height, u.texels.to_vec()))?;
            let fits = (!u.by_triangle || index < TRIANGLE_SAMPLES)
                && (!u.by_flipped_quad || (1..=QUAD_SAMPLES).contains(&index))
                && index < QUAD_SAMPLES;
            fits.then_some(index)
        })
        .collect()
}

/// The polygon's image, once its image, UV count and UVs are known to be usable.
fn check<'a>(
    index: usize,
    polygon: &PolygonUvs,
    images: &'a [impl Borrow<RgbaImage>],
) -> Result<&'a RgbaImage, TextureError> {
    let image = images
        .get(polygon.image)
        .map(Borrow::borrow)
        .ok_or(TextureError::NoImage {
            polygon: index,
            image: polygon.image,
            images: images.len(),
        })?;
    if !image.is_valid() {
        return Err(TextureError::BadImage {
            polygon: index,
            image: polygon.image,
            width: image.width,
            height: image.height,
            bytes: image.pixels.len(),
        });
    }
    if polygon.uvs.len() != if polygon.is_quad { 4 } else { 3 } {
        return Err(TextureError::WrongUvCount {
            polygon: index,
            is_quad: polygon.is_quad,
            count: polygon.uvs.len(),
        });
    }
    if let Some(corner) = polygon
        .uvs
        .iter()
        .position(|uv| !uv.iter().all(|c| c.is_finite()))
    {
        return Err(TextureError::BadUv {
            polygon: index,
            corner,
        });
    }
    Ok(image)
}
