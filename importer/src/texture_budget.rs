//! What an import's texture images may cost, checked before any is made.
//!
//! Each glTF file's image holds the samples its polygons use, cut from the pages and packed
//! ([`crate::atlas`]). A sample record is eight bytes and may name any rectangle of a page, so a
//! small file whose polygons use thousands of overlapping page-sized samples would have the import
//! cut, pack and encode thousands of pages: a 0.3 MB WAD made a 128 MB directory and took 2.2 GB.
//! Real files cut their pages about once over (1.2 times in a real TR1 level; at most 10 in the
//! fixtures, whose samples cover whole pages). So an import is refused, naming the object, when
//!
//! - one image would need more than [`MOST_IMAGE_PAGES`] pages: what build reads back of an
//!   image (256×16384 texels);
//! - the images of all objects would cut more texels than [`CUTS_PER_PAGE`] times the file's
//!   pages plus [`MOST_IMAGE_PAGES`] pages.

use std::collections::{BTreeSet, HashSet};

use wadforge_format::{Wad, PAGE_SIZE};

use crate::atlas::rectangle;

/// Pages one texture image may hold.
pub(crate) const MOST_IMAGE_PAGES: usize = 64;
/// How many times over the images of an import may cut the file's pages, past one image's most
/// (objects that show the same samples among others each cut them: the TR4-shaped fixture cuts
/// its pages 9.7 times over).
pub(crate) const CUTS_PER_PAGE: usize = 16;

const PAGE_TEXELS: usize = PAGE_SIZE * PAGE_SIZE;

/// Textures an import cannot make within its bounds.
#[derive(Debug, thiserror::Error)]
pub enum TexturesTooLarge {
    #[error(
        "{object}: its texture image would need {pages} pages of 256×256, more than the {} an image may hold \
         (256×{} texels, what build reads back); its polygons use far more of the texture pages than any game \
         file's do: the file is corrupt or made to cost far more than its size (leave the object out with --only)",
        MOST_IMAGE_PAGES,
        MOST_IMAGE_PAGES * PAGE_SIZE
    )]
    Image { object: String, pages: usize },
    #[error(
        "{object}: the texture images of the objects up to this one would cut {texels} texels from the pages, \
         more than the {allowed} the file's {pages} pages allow ({} times over, plus {} pages); its samples \
         overlap over and over as no game file's do: the file is corrupt or made to cost far more than its size",
        CUTS_PER_PAGE,
        MOST_IMAGE_PAGES
    )]
    Cuts {
        object: String,
        texels: usize,
        allowed: usize,
        pages: usize,
    },
}

/// Checks the texture images of `objects` (each object's name and the samples of each of its
/// images), in order; images holding the same samples are made once and count once.
pub(crate) fn check(
    wad: &Wad,
    objects: impl IntoIterator<Item = (String, Vec<Vec<usize>>)>,
) -> Result<(), TexturesTooLarge> {
    let allowed = (CUTS_PER_PAGE * wad.pages.len() + MOST_IMAGE_PAGES) * PAGE_TEXELS;
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
            if texels > allowed {
                let pages = wad.pages.len();
                return Err(TexturesTooLarge::Cuts {
                    object,
                    texels,
                    allowed,
                    pages,
                });
            }
            // Each rectangle fits on a page: only an image of more rectangles than it may hold
            // pages needs laying out (the atlas lays it out again; most objects have few).
            if rectangles.len() > MOST_IMAGE_PAGES {
                let sizes: Vec<(u32, u32)> = rectangles.iter().map(|r| (r.3, r.4)).collect();
                let pages = wadforge_packer::pages_needed(&sizes).unwrap_or(usize::MAX);
                if pages > MOST_IMAGE_PAGES {
                    return Err(TexturesTooLarge::Image { object, pages });
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
        let allowed = (CUTS_PER_PAGE + MOST_IMAGE_PAGES) * PAGE_TEXELS;
        match check(&wad, objects) {
            Err(TexturesTooLarge::Cuts { object, texels, .. }) => {
                let over = allowed / 10_000; // the first object past the bound
                assert_eq!((object, texels), (format!("static {over}"), (over + 1) * 10_000));
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
        let fits = one_page(MOST_IMAGE_PAGES, 200); // 200×200: a page each
        assert!(check(
            &fits,
            [("static 0".to_string(), vec![(0..MOST_IMAGE_PAGES).collect()])]
        )
        .is_ok());
        let over = one_page(MOST_IMAGE_PAGES + 1, 200);
        let objects = [("static 0".to_string(), vec![(0..=MOST_IMAGE_PAGES).collect()])];
        match check(&over, objects) {
            Err(TexturesTooLarge::Image { pages, .. }) => assert_eq!(pages, MOST_IMAGE_PAGES + 1),
            other => panic!("expected Image, got {other:?}"),
        }
    }
}
