//! What an import's texture images may cost, checked before any is made.
//!
//! Each glTF file's image holds the samples its polygons use, cut from the pages and packed
//! ([`crate::atlas`]). A sample record is eight bytes and may name any rectangle of a page, so a
//! small file whose polygons use thousands of overlapping page-sized samples would have the import
//! cut, pack and encode thousands of pages: a 0.3 MB WAD made a 128 MB directory and took 2.2 GB.
//! Real files cut their pages about once over (1.2 times in a real TR1 level; at most 10 in the
//! fixtures, whose samples cover whole pages). So an import is refused, naming the object, when
//! one image would need more pages than [`Limits::image_pages`], or the images of all objects
//! would cut more texels than [`Limits::texture_cuts`] allows for the file's pages.

use std::collections::{BTreeSet, HashSet};

use wadforge_format::{Limits, TooMuchAt, Wad, PAGE_SIZE};

use crate::atlas::rectangle;

const PAGE_TEXELS: usize = PAGE_SIZE * PAGE_SIZE;

/// Checks the texture images of `objects` (each object's name and the samples of each of its
/// images), in order; images holding the same samples are made once and count once.
pub(crate) fn check(
    wad: &Wad,
    objects: impl IntoIterator<Item = (String, Vec<Vec<usize>>)>,
) -> Result<(), TooMuchAt> {
    let limits = Limits::DEFAULT;
    let page_texels = (wad.pages.len() * PAGE_TEXELS) as u64;
    let mut made: HashSet<Vec<usize>> = HashSet::new();
    let mut texels = 0;
    for (object, images) in objects {
        for samples in images {
            if samples.is_empty() || made.contains(&samples) {
                continue;
            }
            // The atlas cuts each rectangle once.
            let rectangles: BTreeSet<_> = samples.iter().map(|&i| rectangle(&wad.samples[i])).collect();
            texels += rectangles.iter().map(|r| (r.3 * r.4) as usize).sum::<usize>();
            if let Err(too_much) = limits.texture_cuts.check(texels as u64, page_texels) {
                return Err(TooMuchAt { object, too_much });
            }
            // Each rectangle fits on a page: only an image of more rectangles than it may hold
            // pages needs laying out (the atlas lays it out again; most objects have few).
            if rectangles.len() as u64 > limits.image_pages.base {
                let sizes: Vec<(u32, u32)> = rectangles.iter().map(|r| (r.3, r.4)).collect();
                let pages = wadforge_packer::pages_needed(&sizes).map_or(u64::MAX, |p| p as u64);
                if let Err(too_much) = limits.image_pages.check(pages, 0) {
                    return Err(TooMuchAt { object, too_much });
                }
            }
            made.insert(samples);
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use wadforge_format::{Page, Sample};

    /// A one-page model with `n` samples of `size`×`size` texels, each rectangle one texel on.
    fn one_page(n: usize, size: u16) -> Wad {
        let span = 257 - size as usize;
        Wad {
            pages: vec![Page::filled([9, 9, 9])],
            samples: (0..n)
                .map(|i| Sample {
                    x: (i % span) as u8,
                    y: (i / span % span) as u8,
                    width: size,
                    height: size,
                    ..Default::default()
                })
                .collect(),
            ..Default::default()
        }
    }

    #[test]
    fn images_may_cut_sixteen_times_the_pages_plus_one_image() {
        let wad = one_page(600, 100);
        let objects = (0..600).map(|i| (format!("static {i}"), vec![vec![i]]));
        let allowed = (16 + 64) * PAGE_TEXELS as u64;
        match check(&wad, objects) {
            Err(TooMuchAt { object, too_much }) => {
                let over = allowed / 10_000; // the first object past the bound
                assert_eq!(
                    (object, too_much.asked),
                    (format!("static {over}"), (over + 1) * 10_000)
                );
            }
            other => panic!("expected Cuts, got {other:?}"),
        }
    }

    #[test]
    fn objects_showing_the_same_samples_count_once() {
        let wad = one_page(40, 200);
        let objects = (0..10_000).map(|i| (format!("static {i}"), vec![(0..40).collect()]));
        assert!(check(&wad, objects).is_ok());
    }

    #[test]
    fn an_image_may_hold_sixty_four_pages() {
        const MOST_IMAGE_PAGES: usize = 64;
        let fits = one_page(MOST_IMAGE_PAGES, 200); // 200×200: a page each
        assert!(check(
            &fits,
            [("static 0".to_string(), vec![(0..MOST_IMAGE_PAGES).collect()])]
        )
        .is_ok());
        let over = one_page(MOST_IMAGE_PAGES + 1, 200);
        let objects = [("static 0".to_string(), vec![(0..=MOST_IMAGE_PAGES).collect()])];
        match check(&over, objects) {
            Err(TooMuchAt { too_much, .. }) => assert_eq!(too_much.asked, MOST_IMAGE_PAGES as u64 + 1),
            other => panic!("expected Image, got {other:?}"),
        }
    }
}
