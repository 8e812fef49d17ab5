//! Pages made again of the texels polygons use: each used sample's texels cut from its page,
//! identical ones kept once, packed into 256×256 pages as `build` packs them
//! ([`wadforge_packer::pack_samples`]). A Wad2's textures are copied onto pages whole and a
//! level's tiles hold its rooms' texels too: a converted baddy pack held 9 pages for what
//! `build` packs into 1.

use std::collections::HashMap;

use std::hash::BuildHasher;
use wadforge_format::wad2::objects::keep_sample_zero_off_flipped_quads;

use wadforge_format::{Page, Sample, Wad};
use wadforge_packer::pack::MAGENTA;
use wadforge_packer::{pack_samples, pages_needed, Placement, SampleImage};

use crate::texture::texels;
use crate::EditError;

/// What [`repack`] did: pages and samples before and after.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Repacked {
    pub pages_before: usize,
    pub pages_after: usize,
    pub samples_before: usize,
    pub samples_after: usize,
}

/// Packs the texels `wad`'s polygons use into as few pages as the packer finds, rewriting the
/// polygons' sample numbers (their flips and shapes untouched) and dropping samples and pages no
/// polygon uses. `None`, changing nothing, when that gives no fewer pages; an error names a
/// polygon's sample that is not on a page.
///
/// Two layouts are tried and the one of fewer pages kept: each sample cut apart, as `build`
/// packs them, and as `copy` brings samples (first fit into blank pages, samples that overlap on
/// their page kept together, sharing their texels).
pub fn repack(wad: &mut Wad) -> Result<Option<Repacked>, EditError> {
    let used = used_samples(wad)?;
    let apart =
        packed_if_fewer(wad, &used)?.map(|(pages, placements)| cut_apart(wad, &used, pages, &placements));
    let together = placed_together(wad, &used)?;
    let layout = match (apart, together) {
        (Some(a), Some(t)) if t.pages.len() < a.pages.len() => t,
        (Some(a), _) => a,
        (None, Some(t)) => t,
        (None, None) => return Ok(None),
    };
    let before = Repacked {
        pages_before: wad.pages.len(),
        samples_before: wad.samples.len(),
        ..Repacked::default()
    };
    for polygon in wad.meshes.iter_mut().flat_map(|m| &mut m.polygons) {
        polygon.texture.sample = layout.new_of[usize::from(polygon.texture.sample)];
    }
    wad.samples = layout.samples;
    wad.pages = layout.pages;
    keep_sample_zero_off_flipped_quads(wad);
    Ok(Some(Repacked {
        pages_after: wad.pages.len(),
        samples_after: wad.samples.len(),
        ..before
    }))
}

/// New pages for the used samples, their records, and each old sample's new number.
struct Layout {
    pages: Vec<Page>,
    samples: Vec<Sample>,
    new_of: Vec<u16>,
}

/// The layout of `used` (samples of `wad`) packed apart onto `pages`, each at its placement,
/// keeping its size and flips; equal records once.
fn cut_apart(wad: &Wad, used: &[usize], pages: Vec<Page>, placements: &[Placement]) -> Layout {
    let mut samples: Vec<Sample> = Vec::new();
    let mut index: HashMap<Sample, u16> = HashMap::new();
    let mut new_of = vec![0u16; wad.samples.len()];
    for (&old, place) in used.iter().zip(placements) {
        let record = Sample {
            page: place.page,
            x: place.x,
            y: place.y,
            ..wad.samples[old]
        };
        // No more records than the old ones, which polygons' u16 numbers reached.
        new_of[old] = *index.entry(record).or_insert_with(|| {
            samples.push(record);
            (samples.len() - 1) as u16
        });
    }
    Layout {
        pages,
        samples,
        new_of,
    }
}

/// The layout of `used` (samples of `wad`) brought into blank pages as `copy` brings samples
/// ([`crate::texture::place`]: those overlapping on their page as the rectangle round them),
/// when that takes fewer pages than `wad` has.
fn placed_together(wad: &Wad, used: &[usize]) -> Result<Option<Layout>, EditError> {
    // One page fewer than `wad` has, blank: units go first fit, row by row, tallest first, which
    // fills pages closer than the packer's skyline (TombEngine_Weapons: 3 pages, not 4); what
    // does not fit goes onto new pages, which then gives no fewer pages.
    let mut fresh = Wad {
        version: wad.version,
        pages: vec![Page::filled(MAGENTA); wad.pages.len().saturating_sub(1)],
        ..Wad::default()
    };
    let (numbers, _) = crate::texture::place(&mut fresh, wad, used)?;
    // Pages fill in order: those past the last a sample names are blank.
    let named = fresh
        .samples
        .iter()
        .map(|s| usize::from(s.page) + 1)
        .max()
        .unwrap_or(0);
    fresh.pages.truncate(named);
    if fresh.pages.len() >= wad.pages.len() {
        return Ok(None);
    }
    let mut new_of = vec![0u16; wad.samples.len()];
    for (&old, &number) in used.iter().zip(&numbers) {
        // One record at most per used sample, which polygons' u16 numbers reached.
        new_of[old] = number as u16;
    }
    Ok(Some(Layout {
        pages: fresh.pages,
        samples: fresh.samples,
        new_of,
    }))
}

/// The samples polygons use, in order; an error for a polygon naming a sample the file lacks.
fn used_samples(wad: &Wad) -> Result<Vec<usize>, EditError> {
    let mut used = vec![false; wad.samples.len()];
    for polygon in wad.meshes.iter().flat_map(|m| &m.polygons) {
        let sample = usize::from(polygon.texture.sample);
        *used.get_mut(sample).ok_or(EditError::NoSample {
            sample,
            samples: wad.samples.len(),
        })? = true;
    }
    Ok((0..used.len()).filter(|&i| used[i]).collect())
}

/// New pages, and the place of each sample packed onto them.
pub(crate) type Packed = (Vec<Page>, Vec<Placement>);

/// `samples` (of `wad`, each on a page) packed onto new pages, with each one's place, when that
/// takes fewer pages than `wad` has; `None` otherwise. Each set of texels is cut and packed once:
/// whether that saves a page is asked first of the sets' sizes (told apart by a hash of their
/// texels, each cut and dropped in turn, then texel by texel), because packing holds the texels
/// it packs and samples may name a file's pages 8 times over.
pub(crate) fn packed_if_fewer(wad: &Wad, samples: &[usize]) -> Result<Option<Packed>, EditError> {
    let hasher = std::hash::RandomState::new();
    // Per hash, the distinct sets (their first sample); per sample, its set.
    let mut sets: HashMap<u64, Vec<usize>> = HashMap::new();
    let mut firsts: Vec<usize> = Vec::new();
    let mut set_of: Vec<usize> = Vec::with_capacity(samples.len());
    for &i in samples {
        let cut = texels(wad, i)?;
        let same = sets.entry(hasher.hash_one(&cut)).or_default();
        let mut found = None;
        for &set in same.iter() {
            if texels(wad, firsts[set])? == cut {
                found = Some(set);
                break;
            }
        }
        set_of.push(found.unwrap_or_else(|| {
            firsts.push(i);
            same.push(firsts.len() - 1);
            firsts.len() - 1
        }));
    }
    let sizes: Vec<(u32, u32)> = firsts
        .iter()
        .map(|&i| (u32::from(wad.samples[i].width), u32::from(wad.samples[i].height)))
        .collect();
    if pages_needed(&sizes).map_or(true, |n| n >= wad.pages.len()) {
        return Ok(None);
    }
    let cut: Vec<_> = firsts.iter().map(|&i| texels(wad, i)).collect::<Result<_, _>>()?;
    let images: Vec<SampleImage> = cut
        .iter()
        .map(|(w, h, rgb)| SampleImage::rgb(u32::from(*w), u32::from(*h), rgb))
        .collect();
    let packed = pack_samples(&images).map_err(|e| EditError::Pack(e.to_string()))?;
    if packed.pages.len() >= wad.pages.len() {
        return Ok(None);
    }
    let placements = set_of.iter().map(|&set| packed.placements[set]).collect();
    Ok(Some((packed.pages, placements)))
}
