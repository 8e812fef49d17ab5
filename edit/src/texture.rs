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

/// Gives each of `wanted` (texels with the sample record they come from) a sample of `wad`: one showing the same texels where there is one, else new texels in free page
/// space, else on new pages. Returns the sample index for each.
///
/// New texels are brought sample by sample, except from a source page whose new samples name
/// more texels than the rectangle round them holds (they overlap): that rectangle is brought
/// once, each sample at its place in it. So a copy adds at most about the source's pages, not
/// the 8 times over that its samples may name ([`wadforge_format`] refuses more).
pub fn place(wad: &mut Wad, wanted: &[(Texels, Sample)]) -> Result<(Vec<usize>, TextureReport), EditError> {
    let existing = samples_by_texels(wad);
    let mut report = TextureReport::default();
    let mut result = vec![usize::MAX; wanted.len()];
    let mut index: HashMap<Sample, usize> = HashMap::new();
    for (i, &s) in wad.samples.iter().enumerate() {
        index.entry(s).or_insert(i);
    }
    // The first of each new set of texels, and which of them each wanted sample shows.
    let mut first_of: HashMap<&Texels, usize> = HashMap::new();
    let mut firsts: Vec<usize> = Vec::new();
    for (i, (texels, record)) in wanted.iter().enumerate() {
        if let Some(&s) = existing.get(texels) {
            report.reused += 1;
            let s = wad.samples[s];
            result[i] = sample_at(wad, &mut index, record, (s.page, s.x, s.y));
        } else {
            first_of.entry(texels).or_insert_with(|| {
                firsts.push(i);
                i
            });
        }
    }
    let units = units(wanted, &firsts);
    // Where each unit went: (page, x, y).
    let mut spots: Vec<Option<(usize, usize, usize)>> = vec![None; units.len()];
    let mut homeless: Vec<usize> = Vec::new();
    let mut free = FreeSpace::of(wad);
    let mut order: Vec<usize> = (0..units.len()).collect();
    // Tall units first: rows of similar height waste least space.
    order.sort_by_key(|&u| {
        let (w, h, _) = &units[u].texels;
        (std::cmp::Reverse(*h), std::cmp::Reverse(*w))
    });
    for u in order {
        let texels = &units[u].texels;
        match free.take(texels.0 as usize, texels.1 as usize) {
            Some(spot) => {
                paint(&mut wad.pages[spot.0], spot.1, spot.2, texels);
                report.in_free_space += units[u].firsts.len();
                spots[u] = Some(spot);
            }
            None => homeless.push(u),
        }
    }
    if !homeless.is_empty() {
        let images: Vec<SampleImage> = homeless
            .iter()
            .map(|&u| {
                let (w, h, rgb) = &units[u].texels;
                SampleImage::rgb(*w as u32, *h as u32, rgb)
            })
            .collect();
        let packed = pack_samples(&images).map_err(|e| EditError::Pack(e.to_string()))?;
        let first_page = wad.pages.len();
        report.new_pages = packed.pages.len();
        report.on_new_pages = homeless.iter().map(|&u| units[u].firsts.len()).sum();
        wad.pages.extend(packed.pages);
        for (&u, p) in homeless.iter().zip(&packed.placements) {
            spots[u] = Some((first_page + p.page as usize, p.x as usize, p.y as usize));
        }
    }
    // Each new set's spot: its unit's, moved to where it sits in the unit.
    let mut spot_of_first: HashMap<usize, (u16, u8, u8)> = HashMap::new();
    for (unit, spot) in units.iter().zip(&spots) {
        let (page, x, y) = spot.expect("every unit is placed in free space or on new pages");
        for &i in &unit.firsts {
            let (dx, dy) = unit.offset(&wanted[i].1);
            // Within a 256×256 page: the unit holds the sample and fits the page.
            spot_of_first.insert(i, (page as u16, (x + dx) as u8, (y + dy) as u8));
        }
    }
    for (i, (texels, record)) in wanted.iter().enumerate() {
        if result[i] == usize::MAX {
            let spot = spot_of_first[&first_of[texels]];
            result[i] = sample_at(wad, &mut index, record, spot);
        }
    }
    Ok((result, report))
}

/// Texels brought at once, and the new sets of texels (`firsts`, indexes of `wanted`) they show.
struct Unit {
    texels: Texels,
    /// Where the unit's texels sit on their source page: samples in it keep their place in it.
    corner: (usize, usize),
    firsts: Vec<usize>,
}

impl Unit {
    fn offset(&self, record: &Sample) -> (usize, usize) {
        (
            usize::from(record.x).saturating_sub(self.corner.0),
            usize::from(record.y).saturating_sub(self.corner.1),
        )
    }
}

/// The units `firsts` are brought in: one for each, except the samples of a source page that name
/// more texels than the rectangle round them holds, which are brought as that rectangle (texels
/// no sample shows black).
fn units(wanted: &[(Texels, Sample)], firsts: &[usize]) -> Vec<Unit> {
    // Per source page: the texels its new samples name, and the rectangle round them.
    let mut pages: HashMap<u16, (usize, [usize; 4])> = HashMap::new();
    for &i in firsts {
        let s = &wanted[i].1;
        let (x0, y0) = (usize::from(s.x), usize::from(s.y));
        let (x1, y1) = (x0 + usize::from(s.width), y0 + usize::from(s.height));
        let (named, rect) = pages.entry(s.page).or_insert((0, [x0, y0, x1, y1]));
        *named += usize::from(s.width) * usize::from(s.height);
        *rect = [rect[0].min(x0), rect[1].min(y0), rect[2].max(x1), rect[3].max(y1)];
    }
    let mut regions: HashMap<u16, usize> = HashMap::new();
    let mut units: Vec<Unit> = Vec::new();
    for &i in firsts {
        let (texels, s) = &wanted[i];
        let (named, [x0, y0, x1, y1]) = pages[&s.page];
        if named <= (x1 - x0) * (y1 - y0) {
            units.push(Unit {
                texels: texels.clone(),
                corner: (usize::from(s.x), usize::from(s.y)),
                firsts: vec![i],
            });
            continue;
        }
        let unit = *regions.entry(s.page).or_insert_with(|| {
            units.push(Unit {
                texels: (0, 0, Vec::new()),
                corner: (x0, y0),
                firsts: Vec::new(),
            });
            units.len() - 1
        });
        let (width, height) = (x1 - x0, y1 - y0);
        let region = &mut units[unit];
        if region.firsts.is_empty() {
            region.texels = (width as u16, height as u16, vec![0; width * height * 3]);
        }
        let (dx, dy) = region.offset(s);
        let (w, _, rgb) = texels;
        for (k, row) in rgb.chunks_exact(usize::from(*w) * 3).enumerate() {
            let at = ((dy + k) * width + dx) * 3;
            region.texels.2[at..at + row.len()].copy_from_slice(row);
        }
        region.firsts.push(i);
    }
    units
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
