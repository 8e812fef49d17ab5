//! `remove`: objects out of a WAD, and what only they used.

use wadforge_format::Wad;
use wadforge_packer::{pack_samples, pages_needed, SampleImage};

use crate::merge::{merge, BrokenReference, Input};
use crate::texture;
use crate::EditError;
use wadforge_format::selection::ObjectRef;

/// The result of a removal.
pub struct Removed {
    pub wad: Wad,
    pub removed: Vec<String>,
    /// References of the remaining objects into the removed objects' animations.
    pub broken: Vec<BrokenReference>,
    /// References that lost their target past those listed in `broken`.
    pub broken_unlisted: usize,
    pub dropped_meshes: usize,
    pub dropped_samples: usize,
    /// Pages dropped because no sample used them any more, or saved by packing the samples again.
    pub dropped_pages: usize,
    pub repacked: bool,
}

/// Removes `selection` from `wad`. Meshes and samples that only those objects used are dropped,
/// pages that held only their samples too; the remaining samples are packed again only when
/// that takes fewer pages. Every other object keeps its content.
pub fn remove(wad: &Input, selection: &[ObjectRef]) -> Result<Removed, EditError> {
    let merged = merge(wad, selection, None)?;
    let mut out = merged.wad;
    let pages_before = out.pages.len();
    let repacked = repack_if_smaller(&mut out);
    Ok(Removed {
        removed: selection
            .iter()
            .map(|o| o.name(wad.wad, wad.game).to_string())
            .collect(),
        broken: merged.broken,
        broken_unlisted: merged.broken_unlisted,
        dropped_meshes: merged.dropped_meshes,
        dropped_samples: merged.dropped_samples,
        dropped_pages: merged.dropped_pages + (pages_before - out.pages.len()),
        repacked,
        wad: out,
    })
}

/// Packs every sample of `wad` onto new pages if that takes fewer pages than it has; samples
/// keep their index, size and flips. Leaves the WAD alone when a sample cannot be read.
fn repack_if_smaller(wad: &mut Wad) -> bool {
    // Packing keeps one of each set of texels. Whether that saves a page is checked first, by
    // the sizes of the distinct sets (told apart by a hash of their texels, each cut and
    // dropped in turn), because packing holds every sample's texels and makes every page it
    // needs: a file of overlapping page-sized samples made it take pages by the hundred.
    use std::hash::BuildHasher;
    let hasher = std::hash::RandomState::new();
    let mut seen = std::collections::HashSet::new();
    let mut sizes: Vec<(u32, u32)> = Vec::new();
    for i in 0..wad.samples.len() {
        let Ok((w, h, rgb)) = texture::texels(wad, i) else {
            return false;
        };
        if seen.insert(hasher.hash_one((w, h, &rgb))) {
            sizes.push((u32::from(w), u32::from(h)));
        }
    }
    if pages_needed(&sizes).is_ok_and(|n| n >= wad.pages.len()) {
        return false;
    }
    let Ok(texels) = (0..wad.samples.len())
        .map(|i| texture::texels(wad, i))
        .collect::<Result<Vec<_>, _>>()
    else {
        return false;
    };
    let images: Vec<SampleImage> = texels
        .iter()
        .map(|(w, h, rgb)| SampleImage::rgb(*w as u32, *h as u32, rgb))
        .collect();
    let Ok(packed) = pack_samples(&images) else {
        return false;
    };
    if packed.pages.len() >= wad.pages.len() {
        return false;
    }
    for (s, p) in wad.samples.iter_mut().zip(&packed.placements) {
        s.page = p.page;
        s.x = p.x;
        s.y = p.y;
    }
    wad.pages = packed.pages;
    true
}
