//! Texels of samples, and room for new ones: existing samples with the same texels first, then
//! page space no sample covers, then new pages.

use std::collections::{HashMap, HashSet};
use std::hash::{BuildHasher, Hasher, RandomState};

use wadforge_format::{Page, Sample, Wad, PAGE_SIZE};
use wadforge_packer::{pack_samples, SampleImage};

use crate::EditError;

/// Width, height and RGB texels row by row: what a sample shows, wherever it sits.
pub type Texels = (u16, u16, Vec<u8>);

/// The texels of sample `index` of `wad`; an error when it lies outside its page or names no page.
pub fn texels(wad: &Wad, index: usize) -> Result<Texels, EditError> {
    let s = checked(wad, index)?;
    Ok((s.width, s.height, rows(wad, &s).flatten().copied().collect()))
}

/// Sample `index` of `wad`, checked to lie on a page of `wad`.
fn checked(wad: &Wad, index: usize) -> Result<Sample, EditError> {
    let s = *wad.samples.get(index).ok_or(EditError::NoSample {
        sample: index,
        samples: wad.samples.len(),
    })?;
    if usize::from(s.page) >= wad.pages.len() {
        return Err(EditError::SampleOffPage {
            sample: index,
            detail: format!("it names page {}, but there are {}", s.page, wad.pages.len()),
        });
    }
    let (x0, y0, w, h) = (s.x as usize, s.y as usize, s.width as usize, s.height as usize);
    if w == 0 || h == 0 || x0 + w > PAGE_SIZE || y0 + h > PAGE_SIZE {
        return Err(EditError::SampleOffPage {
            sample: index,
            detail: format!("{w}×{h} texels at ({x0}, {y0}) do not fit a 256×256 page"),
        });
    }
    Ok(s)
}

/// The rows of texels that `s` ([`checked`]) shows on its page of `wad`.
fn rows<'w>(wad: &'w Wad, s: &Sample) -> impl Iterator<Item = &'w [u8]> + 'w {
    let rgb = wad.pages[s.page as usize].rgb();
    let (x0, y0, w, h) = (s.x as usize, s.y as usize, s.width as usize, s.height as usize);
    (y0..y0 + h).map(move |y| &rgb[(y * PAGE_SIZE + x0) * 3..(y * PAGE_SIZE + x0 + w) * 3])
}

/// Whether `a` (a sample of `wad_a`) and `b` (of `wad_b`) show the same texels.
fn same_texels((wad_a, a): (&Wad, &Sample), (wad_b, b): (&Wad, &Sample)) -> bool {
    (a.width, a.height) == (b.width, b.height) && rows(wad_a, a).eq(rows(wad_b, b))
}

/// A sample's size and a hash of its texels: samples with different keys show different texels.
type TexelKey = (u16, u16, u64);

fn texel_key(hasher: &RandomState, wad: &Wad, s: &Sample) -> TexelKey {
    let mut h = hasher.build_hasher();
    for row in rows(wad, s) {
        h.write(row);
    }
    (s.width, s.height, h.finish())
}

/// Sets of texels, each with the first sample showing it, told apart without cutting them out
/// of their pages: by [`TexelKey`], then texel by texel. Cutting every sample a copy needed took
/// a TR4 level (pages inflated from a small file, samples naming them 8 times over) 129 MB.
#[derive(Default)]
struct TexelSets {
    firsts: HashMap<TexelKey, Vec<(usize, Sample)>>,
}

impl TexelSets {
    /// The sets of texels the samples of `wad` show (those on a page) whose key is one of
    /// `keys`, each with its first sample. Only those: a destination of millions of samples held
    /// a set for each (857 MB for a 27 MB WAD).
    fn of(hasher: &RandomState, wad: &Wad, keys: &HashSet<TexelKey>) -> Self {
        let mut sets = TexelSets::default();
        for i in 0..wad.samples.len() {
            let Ok(s) = checked(wad, i) else { continue };
            let key = texel_key(hasher, wad, &s);
            if keys.contains(&key) && sets.find(key, wad, (wad, &s)).is_none() {
                sets.insert(key, i, s);
            }
        }
        sets
    }

    /// The first sample of the set `s` (a sample of `wad`) shows, if known; its samples are of `own`.
    fn find(&self, key: TexelKey, own: &Wad, (wad, s): (&Wad, &Sample)) -> Option<usize> {
        self.firsts
            .get(&key)?
            .iter()
            .find(|(_, first)| same_texels((own, first), (wad, s)))
            .map(|&(i, _)| i)
    }

    fn insert(&mut self, key: TexelKey, first: usize, record: Sample) {
        self.firsts.entry(key).or_default().push((first, record));
    }
}

/// Rectangles a page may have covered since its summed-area table was made: each free place
/// found is checked against them too, and the table is made again past them.
const MOST_PENDING: usize = 64;

/// Which texels of each page a sample covers.
pub struct FreeSpace {
    covered: Vec<Vec<bool>>,
    /// Each page's summed-area table, made when first needed after the page changed.
    sums: Vec<Option<Vec<u32>>>,
    /// Per page, rectangles covered since its table was made (at most [`MOST_PENDING`]): making
    /// the table again after each of 32 000 one-texel samples took 2.6 s.
    pending: Vec<Vec<[usize; 4]>>,
    /// Per page and size, where the last search found room: no place before it has room since
    /// (covering only takes room), so the next search starts there. Without this, 32 000
    /// one-texel samples each looked over the places taken before them.
    found: Vec<HashMap<(usize, usize), (usize, usize)>>,
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
            pending: vec![Vec::new(); pages],
            found: vec![HashMap::new(); pages],
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
        if self.sums[page].is_some() {
            if self.pending[page].len() < MOST_PENDING {
                self.pending[page].push([x0, y0, x0 + w, y0 + h]);
            } else {
                self.sums[page] = None;
                self.pending[page].clear();
            }
        }
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
            let pending = &self.pending[page];
            let free = |x: usize, y: usize| {
                let in_table =
                    sum[(y + h) * n + x + w] + sum[y * n + x] - sum[y * n + x + w] - sum[(y + h) * n + x];
                in_table == 0
                    && !pending
                        .iter()
                        .any(|r| x < r[2] && r[0] < x + w && y < r[3] && r[1] < y + h)
            };
            let (from_x, from_y) = self.found[page].get(&(w, h)).copied().unwrap_or((0, 0));
            let found = (from_y..=PAGE_SIZE - h)
                .flat_map(|y| (if y == from_y { from_x } else { 0 }..=PAGE_SIZE - w).map(move |x| (x, y)))
                .find(|&(x, y)| free(x, y));
            match found {
                Some((x, y)) => {
                    self.found[page].insert((w, h), (x, y));
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

/// How the samples a copy needed were found: each of the source's samples the copied meshes
/// use is counted once, in one of the first three.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize)]
pub struct TextureReport {
    /// Samples whose texels the destination already had.
    pub reused: usize,
    /// Samples put into page space no sample covered.
    pub in_free_space: usize,
    /// Samples put on new pages, and how many pages that took.
    pub on_new_pages: usize,
    pub new_pages: usize,
    /// Sample records the output gained (one per place, size and flips).
    pub new_records: usize,
}

/// Gives each of `wanted` (samples of `source`) a sample of `wad`: one showing the same texels
/// where there is one, else new texels in free page space, else on new pages. Returns the sample
/// index for each; an error names a wanted sample that is not on a page of `source`.
///
/// New texels are brought sample by sample, except samples that overlap on their source page:
/// the rectangle round them is brought once, each sample at its place in it (`units`). So a copy
/// brings at most the source's pages' texels, not the 8 times over that its samples may name
/// ([`wadforge_format`] refuses more), and holds no more than that cut out at once.
pub fn place(
    wad: &mut Wad,
    source: &Wad,
    wanted: &[usize],
) -> Result<(Vec<usize>, TextureReport), EditError> {
    let records: Vec<Sample> = wanted
        .iter()
        .map(|&i| checked(source, i))
        .collect::<Result<_, _>>()?;
    let samples_before = wad.samples.len();
    // One hasher for both sets: a key of the source's is looked up among the destination's.
    let hasher = RandomState::new();
    let keys: Vec<TexelKey> = records.iter().map(|r| texel_key(&hasher, source, r)).collect();
    let existing = TexelSets::of(&hasher, wad, &keys.iter().copied().collect());
    let mut report = TextureReport::default();
    let mut result = vec![usize::MAX; records.len()];
    // Wanted samples whose texels the destination has, and where it has them.
    let mut reused: Vec<(usize, (u16, u8, u8))> = Vec::new();
    // The first of each new set of texels (indexes of `records`), and the set each shows.
    let mut new_sets = TexelSets::default();
    let mut firsts: Vec<usize> = Vec::new();
    let mut set_of = vec![usize::MAX; records.len()];
    let mut members = vec![0usize; records.len()];
    for (k, (record, &key)) in records.iter().zip(&keys).enumerate() {
        if let Some(s) = existing.find(key, wad, (source, record)) {
            let s = wad.samples[s];
            reused.push((k, (s.page, s.x, s.y)));
            continue;
        }
        let first = new_sets.find(key, source, (source, record)).unwrap_or_else(|| {
            new_sets.insert(key, k, *record);
            firsts.push(k);
            k
        });
        set_of[k] = first;
        members[first] += 1;
    }
    report.reused = reused.len();
    // The destination's records a wanted one may be: only those at the places reused. New
    // places are on texels no sample of the destination shows.
    let asked: HashSet<Sample> = reused
        .iter()
        .map(|&(k, (page, x, y))| Sample {
            page,
            x,
            y,
            ..records[k]
        })
        .collect();
    let mut index: HashMap<Sample, usize> = HashMap::new();
    for (i, s) in wad.samples.iter().enumerate() {
        if asked.contains(s) {
            index.entry(*s).or_insert(i);
        }
    }
    for (k, spot) in reused {
        result[k] = sample_at(wad, &mut index, &records[k], spot);
    }
    let units = units(&records, &firsts);
    let spots = bring(wad, source, &units, &members, &mut report)?;
    // Each new set's spot: its unit's, moved to where it sits in the unit.
    let mut spot_of_first: HashMap<usize, (u16, u8, u8)> = HashMap::new();
    for (unit, &(page, x, y)) in units.iter().zip(&spots) {
        for &i in &unit.firsts {
            let (dx, dy) = unit.offset(&records[i]);
            // Within a 256×256 page: the unit holds the sample and fits the page.
            spot_of_first.insert(i, (page as u16, (x + dx) as u8, (y + dy) as u8));
        }
    }
    for (k, record) in records.iter().enumerate() {
        if result[k] == usize::MAX {
            let spot = spot_of_first[&set_of[k]];
            result[k] = sample_at(wad, &mut index, record, spot);
        }
    }
    report.new_records = wad.samples.len() - samples_before;
    Ok((result, report))
}

/// Brings each unit's texels into free page space of `wad`, else onto new pages; where each
/// went (page, x, y). Counts in `report` the samples (`members` per new set) each way went.
fn bring(
    wad: &mut Wad,
    source: &Wad,
    units: &[Unit],
    members: &[usize],
    report: &mut TextureReport,
) -> Result<Vec<(usize, usize, usize)>, EditError> {
    let samples_in = |u: &Unit| u.firsts.iter().map(|&f| members[f]).sum::<usize>();
    let mut spots: Vec<(usize, usize, usize)> = vec![(0, 0, 0); units.len()];
    let mut homeless: Vec<usize> = Vec::new();
    let mut free = FreeSpace::of(wad);
    let mut order: Vec<usize> = (0..units.len()).collect();
    // Tall units first: rows of similar height waste least space.
    order.sort_by_key(|&u| {
        (
            std::cmp::Reverse(units[u].size.1),
            std::cmp::Reverse(units[u].size.0),
        )
    });
    for u in order {
        let (w, h) = units[u].size;
        match free.take(w, h) {
            Some(spot) => {
                paint(&mut wad.pages[spot.0], spot.1, spot.2, &units[u].texels(source));
                report.in_free_space += samples_in(&units[u]);
                spots[u] = spot;
            }
            None => homeless.push(u),
        }
    }
    if !homeless.is_empty() {
        let texels: Vec<Texels> = homeless.iter().map(|&u| units[u].texels(source)).collect();
        let images: Vec<SampleImage> = texels
            .iter()
            .map(|(w, h, rgb)| SampleImage::rgb(u32::from(*w), u32::from(*h), rgb))
            .collect();
        let packed = pack_samples(&images).map_err(|e| EditError::Pack(e.to_string()))?;
        let first_page = wad.pages.len();
        report.new_pages = packed.pages.len();
        report.on_new_pages = homeless.iter().map(|&u| samples_in(&units[u])).sum();
        wad.pages.extend(packed.pages);
        for (&u, p) in homeless.iter().zip(&packed.placements) {
            spots[u] = (first_page + p.page as usize, p.x as usize, p.y as usize);
        }
    }
    Ok(spots)
}

/// A rectangle of a source page brought at once, and the new sets of texels (`firsts`, indexes
/// of the wanted records) it shows.
struct Unit {
    page: usize,
    corner: (usize, usize),
    size: (usize, usize),
    firsts: Vec<usize>,
}

impl Unit {
    /// Where `record` (a sample in the unit) sits in it: samples keep their place in it.
    fn offset(&self, record: &Sample) -> (usize, usize) {
        (
            usize::from(record.x).saturating_sub(self.corner.0),
            usize::from(record.y).saturating_sub(self.corner.1),
        )
    }

    /// The unit's texels, cut out of its page of `source`.
    fn texels(&self, source: &Wad) -> Texels {
        let record = Sample {
            page: self.page as u16,
            x: self.corner.0 as u8,
            y: self.corner.1 as u8,
            width: self.size.0 as u16,
            height: self.size.1 as u16,
            ..Sample::default()
        };
        (
            record.width,
            record.height,
            rows(source, &record).flatten().copied().collect(),
        )
    }
}

/// The units `firsts` (indexes of `records`, samples checked to lie on their pages) are brought
/// in: one for each, except samples that overlap (through others), which are brought as the
/// rectangle round them (see [`rectangles`]). Either way a page's units hold no more than the
/// page: three overlapping 129×129 samples would each take a new page of their own.
fn units(records: &[Sample], firsts: &[usize]) -> Vec<Unit> {
    let mut on_page: HashMap<u16, Vec<usize>> = HashMap::new();
    for &i in firsts {
        on_page.entry(records[i].page).or_default().push(i);
    }
    let mut owner = vec![NO_SAMPLE; PAGE_SIZE * PAGE_SIZE];
    let mut rectangle_of: HashMap<usize, [usize; 4]> = HashMap::new();
    for samples in on_page.values() {
        rectangle_of.extend(
            samples
                .iter()
                .copied()
                .zip(rectangles(records, samples, &mut owner)),
        );
    }
    let mut unit_at: HashMap<(u16, [usize; 4]), usize> = HashMap::new();
    let mut units: Vec<Unit> = Vec::new();
    for &i in firsts {
        let page = records[i].page;
        let [x0, y0, x1, y1] = rectangle_of[&i];
        let unit = *unit_at.entry((page, [x0, y0, x1, y1])).or_insert_with(|| {
            units.push(Unit {
                page: usize::from(page),
                corner: (x0, y0),
                size: (x1 - x0, y1 - y0),
                firsts: Vec::new(),
            });
            units.len() - 1
        });
        units[unit].firsts.push(i);
    }
    units
}

/// No sample owns this texel (see [`rectangles`]).
const NO_SAMPLE: u32 = u32::MAX;

/// The rectangle each of `samples` (indexes of `records`, all on one page) is brought in: its
/// own, or the rectangle round the samples it overlaps through others; the rectangle round all
/// of them if those rectangles would overlap. `owner` (all [`NO_SAMPLE`], and left so) marks
/// the texels: the samples' own texels once (what the format bounds), then at most the page's.
fn rectangles(records: &[Sample], samples: &[usize], owner: &mut [u32]) -> Vec<[usize; 4]> {
    let own = |j: usize| edges(&records[samples[j]]);
    let mut parent: Vec<usize> = (0..samples.len()).collect();
    let mut marked: Vec<usize> = Vec::new();
    for j in 0..samples.len() {
        for at in texels_of(own(j)) {
            match owner[at] {
                NO_SAMPLE => {
                    owner[at] = j as u32;
                    marked.push(at);
                }
                other => {
                    let (a, b) = (root(&mut parent, other as usize), root(&mut parent, j));
                    parent[a.max(b)] = a.min(b);
                }
            }
        }
    }
    let mut round: HashMap<usize, [usize; 4]> = HashMap::new();
    for j in 0..samples.len() {
        let r = own(j);
        let group = round.entry(root(&mut parent, j)).or_insert(r);
        *group = round_both(*group, r);
    }
    for at in marked.drain(..) {
        owner[at] = NO_SAMPLE;
    }
    // Whether the groups' rectangles overlap: marked until the first texel two share.
    let mut shared = false;
    'groups: for &group in round.values() {
        for at in texels_of(group) {
            if owner[at] != NO_SAMPLE {
                shared = true;
                break 'groups;
            }
            owner[at] = 0;
            marked.push(at);
        }
    }
    for at in marked {
        owner[at] = NO_SAMPLE;
    }
    if shared {
        return vec![rectangle_round(records, samples); samples.len()];
    }
    (0..samples.len()).map(|j| round[&root(&mut parent, j)]).collect()
}

/// The index on its page of each texel of the rectangle with edges `[x0, y0, x1, y1]`.
fn texels_of([x0, y0, x1, y1]: [usize; 4]) -> impl Iterator<Item = usize> {
    (y0..y1).flat_map(move |y| (x0..x1).map(move |x| y * PAGE_SIZE + x))
}

/// The group of `j` (union-find, halving paths on the way).
fn root(parent: &mut [usize], mut j: usize) -> usize {
    while parent[j] != j {
        parent[j] = parent[parent[j]];
        j = parent[j];
    }
    j
}

/// The rectangle round `samples` (indexes of `records`): left, top, right and bottom edges.
fn rectangle_round(records: &[Sample], samples: &[usize]) -> [usize; 4] {
    samples
        .iter()
        .map(|&i| edges(&records[i]))
        .fold([PAGE_SIZE, PAGE_SIZE, 0, 0], round_both)
}

/// The left, top, right and bottom edges of a sample on its page.
fn edges(s: &Sample) -> [usize; 4] {
    let (x0, y0) = (usize::from(s.x), usize::from(s.y));
    [x0, y0, x0 + usize::from(s.width), y0 + usize::from(s.height)]
}

/// The rectangle round the rectangles (edges) `a` and `b`.
fn round_both(a: [usize; 4], b: [usize; 4]) -> [usize; 4] {
    [a[0].min(b[0]), a[1].min(b[1]), a[2].max(b[2]), a[3].max(b[3])]
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

#[cfg(test)]
mod tests {
    use super::*;

    type Places = Vec<(usize, usize)>;

    /// Takes rectangles of `sizes` in turn from a blank page, and, for each, the first free place
    /// found by looking at every place in order over the texels taken so far.
    fn taken_and_first_free(sizes: &[(usize, usize)]) -> (Places, Places) {
        let wad = Wad {
            pages: vec![Page::filled([0, 0, 0])],
            ..Wad::default()
        };
        let mut space = FreeSpace::of(&wad);
        let mut grid = vec![false; PAGE_SIZE * PAGE_SIZE];
        let (mut taken, mut expected) = (Vec::new(), Vec::new());
        for &(w, h) in sizes {
            let first_free = (0..=PAGE_SIZE - h)
                .flat_map(|y| (0..=PAGE_SIZE - w).map(move |x| (x, y)))
                .find(|&(x, y)| (y..y + h).all(|yy| (x..x + w).all(|xx| !grid[yy * PAGE_SIZE + xx])))
                .unwrap();
            for yy in first_free.1..first_free.1 + h {
                for xx in first_free.0..first_free.0 + w {
                    grid[yy * PAGE_SIZE + xx] = true;
                }
            }
            expected.push(first_free);
            let (page, x, y) = space.take(w, h).unwrap();
            assert_eq!(page, 0);
            taken.push((x, y));
        }
        (taken, expected)
    }

    #[test]
    fn overlapping_samples_are_brought_as_the_rectangle_round_them_and_others_alone() {
        let at = |x, y, width, height| Sample {
            x,
            y,
            width,
            height,
            ..Sample::default()
        };
        let mut owner = vec![NO_SAMPLE; PAGE_SIZE * PAGE_SIZE];
        // Two overlapping samples in one corner, one alone in the other.
        let records = [at(0, 0, 8, 8), at(4, 4, 8, 8), at(248, 248, 8, 8)];
        assert_eq!(
            rectangles(&records, &[0, 1, 2], &mut owner),
            vec![[0, 0, 12, 12], [0, 0, 12, 12], [248, 248, 256, 256]]
        );
        assert!(owner.iter().all(|&o| o == NO_SAMPLE), "the marks are left clear");
        // A sample inside the rectangle round two others: all come as the rectangle round all.
        let records = [
            at(0, 0, 10, 2),
            at(8, 0, 2, 10),
            at(3, 3, 2, 2),
            at(200, 200, 1, 1),
        ];
        assert_eq!(
            rectangles(&records, &[0, 1, 2, 3], &mut owner),
            vec![[0, 0, 201, 201]; 4]
        );
        assert!(owner.iter().all(|&o| o == NO_SAMPLE), "the marks are left clear");
    }

    #[test]
    fn free_space_gives_the_first_free_place_row_by_row_however_many_were_taken_before() {
        // Past the rectangles a table may have pending, sizes taken again (searches resumed
        // where the last found room) and sizes mixed.
        let mut sizes: Vec<(usize, usize)> = vec![(1, 1); 300];
        sizes.extend([(3, 2), (1, 1), (256, 1), (2, 3), (1, 1), (17, 9), (3, 2), (1, 1)]);
        sizes.extend((0..200).map(|k| (1 + k % 5, 1 + k % 3)));
        let (taken, expected) = taken_and_first_free(&sizes);
        assert_eq!(taken, expected);
    }
}
