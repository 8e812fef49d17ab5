//! The texture image of one glTF file: only the samples its polygons use, packed tight onto
//! 256×256 pages stacked vertically, as PNG.
//!
//! Each sample is copied texel for texel into a rectangle of whole texels (the packer of
//! `wadforge-packer`, as build packs pages; samples with the same texels share one rectangle), so
//! every UV still lies on a whole texel edge of a page atlas and build recovers each sample
//! exactly (`wadforge_packer::uv`). An object needs one page unless its samples fill more; the
//! page count is padded to a power of two so that V coordinates are exact binary fractions.
//!
//! Images are encoded once per import: objects using the same samples (a dressed skeleton and
//! its dressing, objects sharing a page's samples) share the PNG ([`Images`]).

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::sync::{Arc, Mutex, OnceLock};

use image::ImageEncoder;
use wadforge_format::texture_corners::TexelPoint;
use wadforge_format::{Mesh, Page, Sample, Wad, PAGE_SIZE};
use wadforge_packer::pack::{pack_samples, Placement, SampleImage, MAGENTA};

const PAGE: u32 = PAGE_SIZE as u32;

pub(crate) struct Atlas {
    /// The samples used (indices into the model's samples), in index order.
    samples: Vec<usize>,
    /// Where each used sample sits, and its size there (clipped to its page).
    places: BTreeMap<usize, (Placement, u32, u32)>,
    pub height: u32,
    /// The image, encoded when packed: the pages' texels are not kept (an import holds every
    /// atlas until its last object is written).
    png: Arc<Vec<u8>>,
}

impl Atlas {
    /// The atlas for the samples the polygons of `meshes` use, packed once per import for each
    /// set of samples.
    pub fn for_meshes<'a>(
        wad: &Wad,
        meshes: impl IntoIterator<Item = &'a Mesh>,
        images: &Images,
    ) -> Arc<Self> {
        let samples = Self::samples_of(wad, meshes);
        let cell = {
            let mut cache = images.atlases.lock().unwrap_or_else(|e| e.into_inner());
            Arc::clone(cache.entry(samples.clone()).or_default())
        };
        Arc::clone(cell.get_or_init(|| Arc::new(Self::pack(wad, samples))))
    }

    /// The samples the polygons of `meshes` use (indices into the model's samples), in index
    /// order: what the atlas of these meshes holds.
    pub fn samples_of<'a>(wad: &Wad, meshes: impl IntoIterator<Item = &'a Mesh>) -> Vec<usize> {
        let mut used = BTreeSet::new();
        for mesh in meshes {
            for p in &mesh.polygons {
                let index = p.texture.sample as usize;
                if index < wad.samples.len() {
                    used.insert(index);
                }
            }
        }
        used.into_iter().collect()
    }

    fn pack(wad: &Wad, samples: Vec<usize>) -> Self {
        // Samples of one rectangle hold the same texels: each rectangle is cut once (a file may
        // name one rectangle in thousands of samples), in the order of its first sample, so the
        // packer sees what it would see of every sample after its own deduplication.
        let mut rectangle_of: HashMap<(u16, u8, u8, u32, u32), usize> = HashMap::new();
        let mut cut: Vec<(u32, u32, Vec<u8>)> = Vec::new();
        let cut_of: Vec<usize> = samples
            .iter()
            .map(|&i| {
                let s = &wad.samples[i];
                *rectangle_of.entry(rectangle(s)).or_insert_with(|| {
                    cut.push(texels(wad, s));
                    cut.len() - 1
                })
            })
            .collect();
        let images: Vec<SampleImage> = cut.iter().map(|(w, h, t)| SampleImage::rgb(*w, *h, t)).collect();
        let packed = pack_samples(&images).expect("samples cut from pages fit on pages");
        let places = samples
            .iter()
            .zip(cut_of)
            .map(|(&i, c)| (i, (packed.placements[c], cut[c].0, cut[c].1)))
            .collect();
        let height = packed.pages.len().max(1).next_power_of_two() as u32 * PAGE;
        let png = if samples.is_empty() {
            Vec::new()
        } else {
            encode(&packed.pages, height)
        };
        Atlas {
            samples,
            places,
            height,
            png: Arc::new(png),
        }
    }

    pub fn is_empty(&self) -> bool {
        self.samples.is_empty()
    }

    /// UV of `point`, a texel edge of the page of sample `sample` (its corners or a point within
    /// it): the same point of the sample's rectangle in the atlas.
    pub fn uv(&self, wad: &Wad, sample: usize, point: TexelPoint) -> [f32; 2] {
        let (Some(s), Some(&(place, w, h))) = (wad.samples.get(sample), self.places.get(&sample)) else {
            return [0.0, 0.0];
        };
        let x = point.x.saturating_sub(u32::from(s.x)).min(w);
        let y = point.y.saturating_sub(u32::from(s.y)).min(h);
        let at = TexelPoint::new(u32::from(place.x) + x, u32::from(place.y) + y);
        wadforge_packer::uv::to_uv(at, u32::from(place.page), self.height)
    }

    /// The image as PNG (empty when the atlas is).
    pub fn png(&self) -> Arc<Vec<u8>> {
        Arc::clone(&self.png)
    }
}

/// The PNG of `pages` stacked, `height` texels high: RGBA, magenta texels fully transparent (their
/// colour kept, so build can tell them apart from painted-over texels), rows of padding pages
/// transparent magenta.
fn encode(pages: &[Page], height: u32) -> Vec<u8> {
    let texels = (PAGE * height) as usize;
    // Transparent magenta where no page is (the padding rows), each page's texels over it.
    let mut rgba = [255, 0, 255, 0].repeat(texels);
    for (page, out) in pages.iter().zip(rgba.chunks_exact_mut(PAGE_SIZE * PAGE_SIZE * 4)) {
        for (out, rgb) in out.chunks_exact_mut(4).zip(page.rgb().chunks_exact(3)) {
            out[..3].copy_from_slice(rgb);
            out[3] = if rgb == MAGENTA { 0 } else { 255 };
        }
    }
    let mut png = Vec::new();
    image::codecs::png::PngEncoder::new_with_quality(
        &mut png,
        image::codecs::png::CompressionType::Fast,
        image::codecs::png::FilterType::Adaptive,
    )
    .write_image(&rgba, PAGE, height, image::ExtendedColorType::Rgba8)
    .expect("encoding a PNG in memory cannot fail");
    png
}

/// The texels of a sample's rectangle (clipped to its page, at least 1×1; magenta where its page
/// is missing): width, height, RGB.
fn texels(wad: &Wad, s: &Sample) -> (u32, u32, Vec<u8>) {
    let (x0, y0) = (u32::from(s.x), u32::from(s.y));
    let (w, h) = clipped_size(s);
    let page = wad.pages.get(s.page as usize);
    let mut out = Vec::with_capacity((w * h * 3) as usize);
    let (left, right) = (x0 as usize * 3, (x0 + w).min(PAGE) as usize * 3);
    for y in y0..(y0 + h).min(PAGE) {
        match page {
            Some(p) => out.extend_from_slice(&p.rgb()[y as usize * PAGE_SIZE * 3..][left..right]),
            None => out.extend(MAGENTA.repeat((right - left) / 3)),
        }
    }
    out.resize((w * h * 3) as usize, 0);
    (w, h, out)
}

/// A sample's rectangle as its atlas holds it: page, left, top, clipped width and height.
pub(crate) fn rectangle(s: &Sample) -> (u16, u8, u8, u32, u32) {
    let (w, h) = clipped_size(s);
    (s.page, s.x, s.y, w, h)
}

/// The size of a sample's rectangle clipped to its page, at least 1×1: what its atlas holds of it.
pub(crate) fn clipped_size(s: &Sample) -> (u32, u32) {
    let (x0, y0) = (u32::from(s.x), u32::from(s.y));
    let w = u32::from(s.width).min(PAGE - x0).max(1);
    let h = u32::from(s.height).min(PAGE - y0).max(1);
    (w, h)
}

/// Atlases (and their PNGs) made during one import, by the samples they hold: each is packed
/// and encoded once, on whichever thread needs it first.
#[derive(Default)]
pub(crate) struct Images {
    atlases: Mutex<HashMap<Vec<usize>, Arc<Made>>>,
}

/// One atlas, made by the first thread that needs it.
type Made = OnceLock<Arc<Atlas>>;
