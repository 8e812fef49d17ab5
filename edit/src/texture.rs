//! Texels of samples, and room for new ones: existing samples with the same texels first, then
//! page space no sample covers, then new pages.

use std::collections::HashMap;

use wadforge_format::{Page, Sample, Wad, PAGE_SIZE};
use wadforge_packer::{pack_samples, SampleImage};

use crate::EditError;

/// Width, height and RGB texels row by row: what a sample shows, wherever it sits.
pub type Texels = (u16, u16, Vec<u8>);

/// The texels of sample `index` of `wad`; an error when it lies outside its page or names no page.
pub fn texels(wad: &Wad, index: usize) -> Result<Texels, EditError> {
    let s = wad.samples.get(index).ok_or(EditError::NoSample {
        sample: index,
        samples: wad.samples.len(),
    })?;
    let page = wad.pages.get(s.page as usize).ok_or(EditError::SampleOffPage {
        sample: index,
        detail: format!("it names page {}, but there are {}", s.page, wad.pages.len()),
    })?;
    let (x0, y0, w, h) = (s.x as usize, s.y as usize, s.width as usize, s.height as usize);
    if w == 0 || h == 0 || x0 + w > PAGE_SIZE || y0 + h > PAGE_SIZE {
        return Err(EditError::SampleOffPage {
            sample: index,
            detail: format!("{w}×{h} texels at ({x0}, {y0}) do not fit a 256×256 page"),
        });
    }
    let rgb = (y0..y0 + h)
        .flat_map(|y| (x0..x0 + w).flat_map(move |x| page.texel(x, y)))
        .collect();
    Ok((s.width, s.height, rgb))
}

/// Where samples of `wad` show each set of texels: the first sample with them.
pub fn samples_by_texels(wad: &Wad) -> HashMap<Texels, usize> {
    let mut found = HashMap::new();
    for i in 0..wad.samples.len() {
        if let Ok(t) = texels(wad, i) {
            found.entry(t).or_insert(i);
        }
    }
    found
}

/// Which texels of each page a sample covers.
pub struct FreeSpace {
    covered: Vec<Vec<bool>>,
    /// Each page's summed-area table, made when first needed after the page changed.
    sums: Vec<Option<Vec<u32>>>,
    /// Per page, sizes it had no room for: covering only takes room, so no larger size fits
    /// either. Without this, thousands of samples looked over every full page, each making its
    /// table again (32 768 small samples and 10 full pages: 40 billion steps).
    no_room: Vec<Vec<(usize, usize)>>,
}

impl FreeSpace {
    /// The space of `wad`'s pages that none of its samples covers.
    pub fn of(wad: &Wad) -> Self {
        let pages = wad.pages.len();
        let mut space = FreeSpace {
            covered: vec![vec![false; PAGE_SIZE * PAGE_SIZE]; pages],
            sums: vec![None; pages],
            no_room: vec![Vec::new(); pages],
        };
        for s in &wad.samples {
            space.cover(
                s.page as usize,
                s.x as usize,
                s.y as usize,
                s.width as usize,
                s.height as usize,
            );
        }
        space
    }

    fn cover(&mut self, page: usize, x0: usize, y0: usize, w: usize, h: usize) {
        let Some(grid) = self.covered.get_mut(page) else {
            return;
        };
        self.sums[page] = None;
        for y in y0..(y0 + h).min(PAGE_SIZE) {
            for x in x0..(x0 + w).min(PAGE_SIZE) {
                grid[y * PAGE_SIZE + x] = true;
            }
        }
    }

    /// The first free `w`×`h` rectangle, page by page, row by row; covered once found.
    pub fn take(&mut self, w: usize, h: usize) -> Option<(usize, usize, usize)> {
        if w == 0 || h == 0 || w > PAGE_SIZE || h > PAGE_SIZE {
            return None;
        }
        for page in 0..self.covered.len() {
            if self.no_room[page].iter().any(|&(fw, fh)| w >= fw && h >= fh) {
                continue;
            }
            // Summed-area table: the covered texels of any rectangle in four look-ups.
            let n = PAGE_SIZE + 1;
            let grid = &self.covered[page];
            let sum = self.sums[page].get_or_insert_with(|| {
                let mut sum = vec![0u32; n * n];
                for y in 0..PAGE_SIZE {
                    let mut row = 0;
                    for x in 0..PAGE_SIZE {
                        row += grid[y * PAGE_SIZE + x] as u32;
                        sum[(y + 1) * n + x + 1] = sum[y * n + x + 1] + row;
                    }
                }
                sum
            });
            let covered = |x: usize, y: usize| {
                sum[(y + h) * n + x + w] + sum[y * n + x] - sum[y * n + x + w] - sum[(y + h) * n + x]
            };
            let found = (0..=PAGE_SIZE - h)
                .flat_map(|y| (0..=PAGE_SIZE - w).map(move |x| (x, y)))
                .find(|&(x, y)| covered(x, y) == 0);
            match found {
                Some((x, y)) => {
                    self.cover(page, x, y, w, h);
                    return Some((page, x, y));
                }
                None => {
                    // Keep only the least sizes: a smaller one makes a larger one redundant.
                    self.no_room[page].retain(|&(fw, fh)| !(fw >= w && fh >= h));
                    self.no_room[page].push((w, h));
                }
            }
        }
        None
    }
}

/// How the samples a copy needed were found.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize)]
pub struct TextureReport {
    /// Samples whose texels the destination already had.
    pub reused: usize,
    /// Samples put into page space no sample covered.
    pub in_free_space: usize,
    /// Samples put on new pages, and how many pages that took.
    pub on_new_pages: usize,
    pub new_pages: usize,
}

/// Gives each of `wanted` (texels with the sample record they come from) a sample of `wad`:
/// one showing the same texels where there is one, else new texels in free page space, else on
/// new pages. Returns the sample index for each.
pub fn place(wad: &mut Wad, wanted: &[(Texels, Sample)]) -> Result<(Vec<usize>, TextureReport), EditError> {
    let existing = samples_by_texels(wad);
    let mut report = TextureReport::default();
    let mut result = vec![usize::MAX; wanted.len()];
    // Where each distinct new set of texels went: (page, x, y).
    let mut placed: HashMap<&Texels, (u16, u8, u8)> = HashMap::new();
    let mut homeless: Vec<usize> = Vec::new();
    let mut free = FreeSpace::of(wad);
    let mut index: HashMap<Sample, usize> = HashMap::new();
    for (i, &s) in wad.samples.iter().enumerate() {
        index.entry(s).or_insert(i);
    }
    let mut order: Vec<usize> = (0..wanted.len()).collect();
    // Tall samples first: rows of similar height waste least space.
    order.sort_by_key(|&i| {
        (
            std::cmp::Reverse(wanted[i].0 .1),
            std::cmp::Reverse(wanted[i].0 .0),
        )
    });
    for i in order {
        let (texels, record) = &wanted[i];
        let spot = if let Some(&s) = existing.get(texels) {
            report.reused += 1;
            let s = &wad.samples[s];
            (s.page, s.x, s.y)
        } else if let Some(&spot) = placed.get(texels) {
            spot
        } else if let Some((page, x, y)) = free.take(texels.0 as usize, texels.1 as usize) {
            let spot = (page as u16, x as u8, y as u8);
            paint(&mut wad.pages[page], x, y, texels);
            report.in_free_space += 1;
            placed.insert(texels, spot);
            spot
        } else {
            homeless.push(i);
            continue;
        };
        result[i] = sample_at(wad, &mut index, record, spot);
    }
    if !homeless.is_empty() {
        let images: Vec<SampleImage> = homeless
            .iter()
            .map(|&i| {
                let (w, h, rgb) = &wanted[i].0;
                SampleImage::rgb(*w as u32, *h as u32, rgb)
            })
            .collect();
        let packed = pack_samples(&images).map_err(|e| EditError::Pack(e.to_string()))?;
        let first_page = wad.pages.len();
        report.new_pages = packed.pages.len();
        report.on_new_pages = homeless.len();
        wad.pages.extend(packed.pages);
        for (&i, p) in homeless.iter().zip(&packed.placements) {
            let spot = ((first_page + p.page as usize) as u16, p.x, p.y);
            result[i] = sample_at(wad, &mut index, &wanted[i].1, spot);
        }
    }
    Ok((result, report))
}

fn paint(page: &mut Page, x0: usize, y0: usize, (w, _, rgb): &Texels) {
    for (k, texel) in rgb.chunks_exact(3).enumerate() {
        let (x, y) = (x0 + k % *w as usize, y0 + k / *w as usize);
        page.set_texel(x, y, [texel[0], texel[1], texel[2]]);
    }
}

/// The sample of `wad` at `spot` with `record`'s size and flips: an existing record if one is
/// exactly that (found through `index`, the first of each record), else a new one.
fn sample_at(
    wad: &mut Wad,
    index: &mut HashMap<Sample, usize>,
    record: &Sample,
    (page, x, y): (u16, u8, u8),
) -> usize {
    let wanted = Sample {
        page,
        x,
        y,
        ..*record
    };
    *index.entry(wanted).or_insert_with(|| {
        wad.samples.push(wanted);
        wad.samples.len() - 1
    })
}
