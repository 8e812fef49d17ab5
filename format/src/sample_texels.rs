//! A bound on the texels a file's samples name.
//!
//! A sample record is a few bytes and may name any rectangle of a page, up to all of it, and any
//! number of records may name the same texels. Consumers cut each sample's texels out (copy
//! looks for samples showing the same texels, import packs each object's samples into its
//! image), so 3000 overlapping page-sized samples in a 0.3 MB WAD had an import take 2.2 GB and a
//! copy write 590 MB. The samples of real files name each page's texels about once (0.25 to 0.97
//! times in the fixtures and a real TR1 level), so the readers refuse files whose samples name
//! more than [`crate::Limits::sample_texels`] allows for the pages' texels.

use wadforge_model::{Sample, PAGE_SIZE};

// The table's row, as the counting here (in `usize`, pages) uses it.
const BOUND: crate::Bound = crate::Limits::DEFAULT.sample_texels;
pub(crate) const TEXELS_PER_PAGE_TEXEL: usize = BOUND.per as usize;
pub(crate) const SLACK_PAGES: usize = BOUND.base as usize / (PAGE_SIZE * PAGE_SIZE);

/// The texels the samples name past the bound: the first sample at which their sum goes over,
/// the sum there, and the bound.
pub(crate) struct TooManyTexels {
    pub sample: usize,
    pub texels: usize,
    pub allowed: usize,
}

/// Checks the texels `samples` name (each clipped to its page) against `pages` pages.
pub(crate) fn check(samples: &[Sample], pages: usize) -> Result<(), TooManyTexels> {
    let page_texels = PAGE_SIZE * PAGE_SIZE;
    let allowed = (pages
        .saturating_mul(TEXELS_PER_PAGE_TEXEL)
        .saturating_add(SLACK_PAGES))
    .saturating_mul(page_texels);
    let mut texels = 0usize;
    for (i, s) in samples.iter().enumerate() {
        let width = usize::from(s.width).min(PAGE_SIZE.saturating_sub(usize::from(s.x)));
        let height = usize::from(s.height).min(PAGE_SIZE.saturating_sub(usize::from(s.y)));
        texels += width * height;
        if texels > allowed {
            return Err(TooManyTexels {
                sample: i,
                texels,
                allowed,
            });
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn page_sized(n: usize) -> Vec<Sample> {
        let sample = Sample {
            width: 256,
            height: 256,
            ..Default::default()
        };
        vec![sample; n]
    }

    #[test]
    fn samples_may_name_eight_times_the_pages_plus_sixty_four_pages() {
        let most = 3 * TEXELS_PER_PAGE_TEXEL + SLACK_PAGES;
        assert!(check(&page_sized(most), 3).is_ok());
        let refused = check(&page_sized(most + 1), 3).unwrap_err();
        assert_eq!(refused.sample, most);
        assert_eq!(refused.allowed, most * 65536);
        assert_eq!(refused.texels, (most + 1) * 65536);
    }

    #[test]
    fn a_sample_counts_only_what_lies_on_its_page() {
        let edge = Sample {
            x: 250,
            y: 255,
            width: 256,
            height: 256,
            ..Default::default()
        };
        let allowed_samples = SLACK_PAGES * 65536 / 6; // 6×1 texels each
        assert!(check(&vec![edge; allowed_samples], 0).is_ok());
        assert!(check(&vec![edge; allowed_samples + 1], 0).is_err());
    }
}
