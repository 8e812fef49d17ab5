//! `remove`: objects out of a WAD, and what only they used.

use wadforge_format::Wad;

use crate::merge::{merge, BrokenReference, Input};
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
    let every: Vec<usize> = (0..wad.samples.len()).collect();
    let Ok(Some((pages, placements))) = crate::repack::packed_if_fewer(wad, &every) else {
        return false;
    };
    for (s, p) in wad.samples.iter_mut().zip(&placements) {
        s.page = p.page;
        s.x = p.x;
        s.y = p.y;
    }
    wad.pages = pages;
    true
}
