//! The gallery of a WAD or level: a static page (`index.html`) with a card per moveable and
//! static, each object's picture, every animation as an animated PNG, and every texture page
//! with its samples outlined. It opens from disk in any browser, without a server or network.
//!
//! Moveables show their first keyframe (or, without one, their meshes at the link offsets);
//! statics show as placed. A skeleton dressed by other moveables (TR4's LARA in LARA_SKIN and
//! LARA_SKIN_JOINTS) is shown dressed, exactly as `import` composes her
//! ([`wadforge_model::dressing`]). Animations show each keyframe for its frame duration at
//! the game's 30 ticks a second, framed over the whole animation so the object moves in place.

pub mod collection;
mod html;

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

use wadforge_files::OutputFile;
use wadforge_model::catalog::{self, Game};
use wadforge_model::dressed_draws::dressed_draws_fit;
use wadforge_model::dressing::{self, Dressing};
use wadforge_model::file_names::file_stems;
use wadforge_model::{Animation, Keyframe, Limits, Moveable, SkewedCorners, Wad, PAGE_SIZE};

use crate::animated::{apng, Frame};
use crate::scene::{self, placed_static, Figure, Lighting, Placed, Projected};
use crate::view::{Extents, Framing, View};
use crate::{pages, Canvas, MARGIN};

/// The model to show and where it came from.
pub struct Source<'a> {
    pub wad: &'a Wad,
    pub game: Game,
    /// A level's skewed texture corners (empty for a WAD).
    pub skewed: &'a SkewedCorners,
    /// The file's name, for the page's title.
    pub file_name: &'a str,
    /// What the file is, e.g. `TRLE WAD` or `TR1 level`.
    pub description: &'a str,
}

/// Sizes of the pictures and how many threads draw them.
#[derive(Debug, Clone, Copy)]
pub struct Options {
    /// Width and height of an object's picture, in pixels.
    pub picture_size: u32,
    /// Width and height of an animation, in pixels.
    pub animation_size: u32,
    pub threads: usize,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            picture_size: 192,
            animation_size: 128,
            threads: std::thread::available_parallelism().map_or(1, |n| n.get()),
        }
    }
}

/// The name of the page in the gallery directory.
pub const INDEX: &str = "index.html";

/// One moveable as the gallery shows it.
pub(crate) struct MoveableCard<'a> {
    pub index: usize,
    pub moveable: &'a Moveable,
    pub slot: String,
    pub figure: Figure<'a>,
    pub dressing: Option<Dressing>,
    pub picture: String,
    /// Per animation, its image (`None` without keyframes).
    pub animations: Vec<Option<String>>,
}

/// One piece of drawing work.
#[derive(Clone, Copy)]
enum Job {
    Moveable(usize),
    Animation(usize, usize),
    Static(usize),
    Page(usize),
}

/// Every file of the gallery: pictures and animations first, `index.html` last.
pub fn gallery(source: &Source, options: &Options) -> Vec<OutputFile> {
    let files = Mutex::new(Vec::new());
    let collect = |file: OutputFile| {
        files.lock().unwrap_or_else(|e| e.into_inner()).push(file);
        Ok(())
    };
    let written = gallery_into(source, options, &collect).expect("collecting cannot fail");
    let mut files = files.into_inner().unwrap_or_else(|e| e.into_inner());
    // In the order of the paths written (job order, index.html last).
    let order: std::collections::HashMap<&str, usize> = written
        .iter()
        .enumerate()
        .map(|(i, w)| (w.path.as_str(), i))
        .collect();
    files.sort_by_key(|f| order.get(f.path.as_str()).copied());
    files
}

/// A file the gallery wrote.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WrittenFile {
    pub path: String,
    pub bytes: usize,
}

/// The gallery's files, each handed to `deliver` (on the thread that made it) as soon as it is
/// made, so that only the pictures being drawn are held: a gallery's animations may hold far more
/// bytes than its file (1000 animations of 100 keyframes in a 2.5 MB WAD made 562 MB of them,
/// all held until written). `index.html` comes last. What was written, in job order; the first
/// error of `deliver` stops the drawing.
pub fn gallery_into(
    source: &Source,
    options: &Options,
    deliver: &(dyn Fn(OutputFile) -> std::io::Result<()> + Sync),
) -> std::io::Result<Vec<WrittenFile>> {
    let wad = source.wad;
    let objects = (wad.moveables.len() + wad.statics.len()) as u64;
    Limits::DEFAULT
        .objects
        .check(objects, 0)
        .map_err(std::io::Error::other)?;
    let dressings = dressing::dressings(wad, source.game);
    dressed_draws_fit(wad, source.game, &dressings).map_err(std::io::Error::other)?;
    let cards = moveable_cards(source, &dressings);
    let static_pictures = static_pictures(source);
    let frame_cap = frame_cap(source.wad, &cards);
    let jobs = jobs(source.wad, &cards, frame_cap);
    let mut drawing = Drawing {
        source,
        options,
        cards: &cards,
        static_pictures: &static_pictures,
        frame_cap,
        animation_frames: Overdraw {
            pictures: cards
                .iter()
                .flat_map(|c| &c.moveable.animations)
                .filter(|_| frame_cap > 0)
                .map(|a| frames_shown(a.keyframes.len(), frame_cap).0)
                .sum(),
        },
        still_allowances: Vec::new(),
    };
    drawing.still_allowances = drawing.still_allowances();
    let mut written = run_parallel(&jobs, options.threads, |job| drawing.draw(job), deliver)?;
    let paths: std::collections::HashSet<&str> = written.iter().map(|f| f.path.as_str()).collect();
    let page = html::page(source, &cards, &static_pictures, &paths);
    let index = WrittenFile {
        path: INDEX.to_string(),
        bytes: page.len(),
    };
    deliver(OutputFile {
        path: INDEX.to_string(),
        bytes: page.into_bytes(),
    })?;
    written.push(index);
    Ok(written)
}

/// A card per moveable: its slot, how it is dressed, and the paths of its picture and
/// animations.
fn moveable_cards<'a>(source: &Source<'a>, dressings: &[Option<Dressing>]) -> Vec<MoveableCard<'a>> {
    let wad = source.wad;
    wad.moveables
        .iter()
        .zip(moveable_stems(source))
        .enumerate()
        .map(|(index, (m, (slot, stem)))| {
            let dressing = dressings.get(index).copied().flatten();
            let figure = match dressing {
                Some(d) => Figure::dressed(m, &wad.moveables[d.body], d.joints.map(|j| &wad.moveables[j])),
                None => Figure::own(m),
            };
            let animations = m
                .animations
                .iter()
                .enumerate()
                .map(|(a, anim)| {
                    (!anim.keyframes.is_empty()).then(|| format!("animations/{stem}/{a:03}.png"))
                })
                .collect();
            MoveableCard {
                index,
                moveable: m,
                figure,
                dressing,
                picture: moveable_picture(&stem),
                animations,
                slot,
            }
        })
        .collect()
}

/// Each moveable's slot and the stem of its files (numbered after the first of an id, as import
/// names files).
fn moveable_stems(source: &Source) -> Vec<(String, String)> {
    let moveables = &source.wad.moveables;
    let slots: Vec<String> = moveables
        .iter()
        .map(|m| catalog::moveable_slot(source.game, m.id))
        .collect();
    let safe: Vec<String> = slots.iter().map(|s| file_safe(s)).collect();
    let stems = file_stems(moveables.iter().map(|m| m.id), &safe);
    slots.into_iter().zip(stems).collect()
}

/// The path of each moveable's picture.
fn moveable_pictures(source: &Source) -> Vec<String> {
    moveable_stems(source)
        .into_iter()
        .map(|(_, stem)| moveable_picture(&stem))
        .collect()
}

fn moveable_picture(stem: &str) -> String {
    format!("moveables/{stem}.png")
}

/// The path of each static's picture (numbered after the first of an id, as import names files).
fn static_pictures(source: &Source) -> Vec<String> {
    let statics = &source.wad.statics;
    let slots: Vec<String> = statics
        .iter()
        .map(|s| file_safe(&catalog::static_slot(source.game, s.id)))
        .collect();
    file_stems(statics.iter().map(|s| s.id), &slots)
        .into_iter()
        .map(|stem| format!("statics/{stem}.png"))
        .collect()
}

/// The work of one frame besides its polygons: its 128×128 canvas, cropping and encoding take
/// as long as some 4000 polygons (measured: 1000 animations of 100 keyframes of a small mesh
/// took 10.8 s at 1000 a frame, 3.4 s now); the fixtures' and the TR1 level's galleries stay
/// as they were.
pub const FRAME_WORK: u64 = 4000;
/// How many times over an animation's frames may look at their pixels on average (each frame
/// up to [`scene::MOST_OVERDRAW`] times): game objects look at theirs 1 to 6 times over. The
/// frame budget counts polygons, not pixels, so a few polygons each filling the picture, in
/// thousands of frames, took seconds more than Lara's animations; these pixels bound them.
pub const AVERAGE_OVERDRAW: usize = 6;
/// Pictures' worth of pixels a gallery's stills may look at together however few they are (and
/// apart, its animations' frames): a file of a few objects draws each up to
/// [`scene::MOST_OVERDRAW`] times over, as if it were alone (a plant of 10 crossed planes, alone
/// in its WAD, lost some to the average).
pub const SMALL_GALLERY_OVERDRAW: usize = 1024;

/// The pixels a gallery's pictures of one kind (its stills, or its animations' frames) may look
/// at together: [`AVERAGE_OVERDRAW`] times each, or [`SMALL_GALLERY_OVERDRAW`] pictures' worth
/// when that is more.
#[derive(Clone, Copy)]
struct Overdraw {
    pictures: usize,
}

impl Overdraw {
    /// The share of `count` of the pictures, each of `canvas` pixels.
    fn pixels(self, count: usize, canvas: usize) -> usize {
        let pictures_worth = (self.pictures * AVERAGE_OVERDRAW).max(SMALL_GALLERY_OVERDRAW);
        (count.saturating_mul(pictures_worth) / self.pictures.max(1)).saturating_mul(canvas)
    }
}

/// How many of `keyframes` an animation shows when it may show `cap`: every `step`-th.
fn frames_shown(keyframes: usize, cap: usize) -> (usize, usize) {
    let step = keyframes.div_ceil(cap.max(1)).max(1);
    (keyframes.div_ceil(step), step)
}

/// The most frames an animation shows: [`Limits::gallery_frames`] (each keyframe held for its
/// frame duration, those left out by those shown), or fewer, the same for every animation, so
/// that all of them fit in [`Limits::gallery_work`], a polygon drawn counting one and a frame
/// [`FRAME_WORK`] (0: no animation is drawn).
fn frame_cap(wad: &Wad, cards: &[MoveableCard]) -> usize {
    let animations: Vec<(u64, u64)> = cards
        .iter()
        .flat_map(|c| {
            // A frame's polygons are posed and measured (see [`animate`]), then projected and
            // drawn: measuring costs about half what the rest does. Each vertex is posed three
            // times (framing, measuring, drawing), a sixth of a polygon's work: a mesh of 32 760
            // vertices and one quad, in 12 000 frames, took 8 s counted by its polygons alone.
            let polygons = c.figure.polygons(wad) as u64;
            let vertices = c.figure.vertices(wad) as u64;
            let per_frame = FRAME_WORK + polygons + polygons / 2 + vertices / 4;
            c.moveable
                .animations
                .iter()
                .map(move |a| (a.keyframes.len() as u64, per_frame))
        })
        .collect();
    let work = |cap: u64| -> u64 {
        animations
            .iter()
            .map(|&(keyframes, per_frame)| keyframes.min(cap).saturating_mul(per_frame))
            .fold(0, u64::saturating_add)
    };
    // The work grows with the cap: the largest cap that fits.
    let limits = Limits::DEFAULT;
    let (mut fits, mut over) = (0u64, limits.gallery_frames.base + 1);
    while over - fits > 1 {
        let mid = (fits + over) / 2;
        if work(mid) <= limits.gallery_work.base {
            fits = mid;
        } else {
            over = mid;
        }
    }
    fits as usize
}

/// Every picture to draw: the longest jobs (animations) first, so that the threads finish
/// together; then moveables, statics and pages. No animation is drawn when `frame_cap` is 0.
fn jobs(wad: &Wad, cards: &[MoveableCard], frame_cap: usize) -> Vec<Job> {
    let mut jobs: Vec<Job> = cards
        .iter()
        .flat_map(|c| {
            (0..c.animations.len()).filter_map(move |a| c.animations[a].as_ref().map(|_| (c.index, a)))
        })
        .filter(|_| frame_cap > 0)
        .map(|(m, a)| Job::Animation(m, a))
        .collect();
    jobs.sort_by_key(|j| match *j {
        Job::Animation(m, a) => std::cmp::Reverse(wad.moveables[m].animations[a].keyframes.len()),
        _ => std::cmp::Reverse(0),
    });
    jobs.extend((0..cards.len()).map(Job::Moveable));
    jobs.extend((0..wad.statics.len()).map(Job::Static));
    jobs.extend((0..wad.pages.len()).map(Job::Page));
    jobs
}

/// A picture of one object.
#[derive(Clone, Copy)]
enum Still {
    Moveable(usize),
    Static(usize),
}

/// What the drawing jobs share.
struct Drawing<'a> {
    source: &'a Source<'a>,
    options: &'a Options,
    cards: &'a [MoveableCard<'a>],
    static_pictures: &'a [String],
    /// The most frames an animation shows.
    frame_cap: usize,
    /// All animations' frames, for the pixels they may look at.
    animation_frames: Overdraw,
    /// The pixels each still may look at: moveables' pictures first, then statics'.
    still_allowances: Vec<usize>,
}

impl Drawing<'_> {
    /// The pixels each still (moveables' pictures, then statics') may look at: what it wants,
    /// up to [`AVERAGE_OVERDRAW`] times its picture on average over the file's stills (see
    /// [`Overdraw`]), shared as [`share`] does. Thousands of objects each drawing its picture
    /// over and over took seconds more than any real file's gallery; real objects want far less
    /// than the average.
    fn still_allowances(&self) -> Vec<usize> {
        let size = self.options.picture_size;
        let most = scene::MOST_OVERDRAW * (size * size) as usize;
        let stills: Vec<Still> = (0..self.cards.len())
            .map(Still::Moveable)
            .chain((0..self.source.wad.statics.len()).map(Still::Static))
            .collect();
        let view = View::three_quarter();
        let wanted: Vec<usize> = stills
            .iter()
            .map(|&still| {
                let placed = self.placed(still);
                let framing = Framing::fit(&scene::extents(&placed, &view), size, MARGIN);
                scene::pixels_wanted(&placed, &view, &framing, (size, size), most)
            })
            .collect();
        let stills_pixels = Overdraw {
            pictures: stills.len(),
        }
        .pixels(stills.len(), (size * size) as usize);
        share(&wanted, stills_pixels)
    }

    /// A still's meshes as placed: a moveable in its first keyframe, or a static.
    fn placed(&self, still: Still) -> Vec<Placed<'_>> {
        let wad = self.source.wad;
        match still {
            Still::Moveable(i) => {
                let card = &self.cards[i];
                card.figure.pose(wad, &first_keyframe(card.moveable))
            }
            Still::Static(i) => placed_static(wad, &wad.statics[i]),
        }
    }

    /// A still's picture, looking at no more than the pixels allowed it.
    fn still(&self, still: Still) -> Canvas {
        let allowance = match still {
            Still::Moveable(i) => self.still_allowances[i],
            Still::Static(i) => self.still_allowances[self.cards.len() + i],
        };
        let placed = self.placed(still);
        let view = View::three_quarter();
        let projected = scene::project(
            self.source.wad,
            self.source.skewed,
            &placed,
            &view,
            &Lighting::default(),
        );
        let size = self.options.picture_size;
        let framing = Framing::fit(&projected.extents, size, MARGIN);
        let mut canvas = Canvas::new(size, size);
        scene::draw_within(&projected, &framing, &mut canvas, self.source.wad, allowance);
        canvas
    }

    /// The file of one job (`None` when there is nothing to draw).
    fn draw(&self, job: Job) -> Option<OutputFile> {
        let (source, wad) = (self.source, self.source.wad);
        let view = View::three_quarter();
        match job {
            Job::Moveable(i) => {
                let canvas = self.still(Still::Moveable(i));
                Some(png_file(&self.cards[i].picture, &canvas))
            }
            Job::Static(i) => {
                let canvas = self.still(Still::Static(i));
                Some(png_file(&self.static_pictures[i], &canvas))
            }
            Job::Animation(i, a) => {
                let card = &self.cards[i];
                let animation = &card.moveable.animations[a];
                let bytes = animate(
                    source,
                    &card.figure,
                    animation,
                    &view,
                    (self.options.animation_size, self.frame_cap, self.animation_frames),
                )?;
                Some(OutputFile {
                    path: card.animations[a].clone()?,
                    bytes,
                })
            }
            Job::Page(p) => {
                let rgb = pages::outlined(wad, p)?;
                Some(OutputFile {
                    path: page_path(p),
                    bytes: pages::png(&rgb, PAGE_SIZE as u32, PAGE_SIZE as u32),
                })
            }
        }
    }
}

pub(crate) fn page_path(page: usize) -> String {
    format!("pages/page_{page:03}.png")
}

/// The keyframe a moveable's picture shows: its first animation's first keyframe, or the
/// meshes at their link offsets when it has none.
fn first_keyframe(m: &Moveable) -> Keyframe {
    m.animations
        .iter()
        .find_map(|a| a.keyframes.first())
        .cloned()
        .unwrap_or_default()
}

/// Each keyframe of `animation` for its frame duration (at most `cap` of them, evenly spaced,
/// each held as long as those it stands for), framed over the whole animation, on canvases of
/// `size`. Keyframes are posed three times (to frame them, to measure what each wants of the
/// pixels, to draw them) so that only one is held at a time.
fn animate(
    source: &Source,
    figure: &Figure,
    animation: &Animation,
    view: &View,
    (size, cap, all_frames): (u32, usize, Overdraw),
) -> Option<Vec<u8>> {
    let (_, step) = frames_shown(animation.keyframes.len(), cap);
    let shown: Vec<&wadforge_model::Keyframe> = animation.keyframes.iter().step_by(step).collect();
    let mut extents = Extents::default();
    for k in &shown {
        extents.union(&scene::extents(&figure.pose(source.wad, k), view));
    }
    let framing = Framing::fit(&extents, size, MARGIN);
    let ticks = u16::from(animation.frame_duration.max(1)).saturating_mul(step.min(u16::MAX as usize) as u16);
    // Measured before drawing, so that frames that want more than the average share what
    // lighter frames leave, and none is left blank for being drawn last.
    let most = scene::MOST_OVERDRAW * (size * size) as usize;
    let wanted: Vec<usize> = shown
        .iter()
        .map(|k| scene::pixels_wanted(&figure.pose(source.wad, k), view, &framing, (size, size), most))
        .collect();
    let allowances = share(&wanted, all_frames.pixels(shown.len(), (size * size) as usize));
    let lighting = Lighting::default();
    let mut projected = Projected::default();
    let frames = shown.iter().zip(allowances).map(|(k, allowance)| {
        let placed = figure.pose(source.wad, k);
        scene::project_into(
            &mut projected,
            source.wad,
            source.skewed,
            &placed,
            view,
            &lighting,
        );
        let mut canvas = Canvas::new(size, size);
        scene::draw_within(&projected, &framing, &mut canvas, source.wad, allowance);
        Frame { canvas, ticks }
    });
    apng(shown.len(), frames)
}

/// Shares `total` among frames that want `wanted` pixels each: each frame gets what it wants up
/// to one level, the highest the total allows (water-filling), so frames within it are drawn
/// whole and the heaviest are cut alike.
fn share(wanted: &[usize], total: usize) -> Vec<usize> {
    let mut ascending = wanted.to_vec();
    ascending.sort_unstable();
    let mut left = total;
    let mut level = usize::MAX;
    for (i, &want) in ascending.iter().enumerate() {
        let frames_left = ascending.len() - i;
        if want.saturating_mul(frames_left) > left {
            level = left / frames_left;
            break;
        }
        left -= want;
    }
    wanted.iter().map(|&want| want.min(level)).collect()
}

fn png_file(path: &str, canvas: &Canvas) -> OutputFile {
    OutputFile {
        path: path.to_string(),
        bytes: pages::png(canvas.rgba(), canvas.width(), canvas.height()),
    }
}

/// Runs `work` over `jobs` on `threads` threads, each taking the next job when done and
/// handing its file to `deliver`; the files written, in job order. After an error of `deliver`,
/// no thread takes another job, and the first error is returned.
fn run_parallel<F>(
    jobs: &[Job],
    threads: usize,
    work: F,
    deliver: &(dyn Fn(OutputFile) -> std::io::Result<()> + Sync),
) -> std::io::Result<Vec<WrittenFile>>
where
    F: Fn(Job) -> Option<OutputFile> + Sync,
{
    let next = AtomicUsize::new(0);
    let results: Mutex<Vec<(usize, WrittenFile)>> = Mutex::new(Vec::with_capacity(jobs.len()));
    let failed: Mutex<Option<std::io::Error>> = Mutex::new(None);
    std::thread::scope(|scope| {
        for _ in 0..threads.max(1) {
            scope.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some(&job) = jobs.get(i) else {
                    break;
                };
                let Some(file) = work(job) else {
                    continue;
                };
                let written = WrittenFile {
                    path: file.path.clone(),
                    bytes: file.bytes.len(),
                };
                match deliver(file) {
                    Ok(()) => results
                        .lock()
                        .unwrap_or_else(|e| e.into_inner())
                        .push((i, written)),
                    Err(e) => {
                        failed.lock().unwrap_or_else(|e| e.into_inner()).get_or_insert(e);
                        next.store(jobs.len(), Ordering::Relaxed);
                        break;
                    }
                }
            });
        }
    });
    if let Some(e) = failed.into_inner().unwrap_or_else(|e| e.into_inner()) {
        return Err(e);
    }
    let mut results = results.into_inner().unwrap_or_else(|e| e.into_inner());
    results.sort_by_key(|(i, _)| *i);
    Ok(results.into_iter().map(|(_, f)| f).collect())
}

/// A slot name as a file name: letters, digits, `_` and `-` kept, anything else `_`.
fn file_safe(name: &str) -> String {
    name.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' {
                c
            } else {
                '_'
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::share;

    #[test]
    fn sharing_gives_each_what_it_wants_up_to_the_level_the_total_allows() {
        // Everyone gets what they want when the total suffices.
        assert_eq!(share(&[5, 1, 3], 9), vec![5, 1, 3]);
        // Otherwise the lightest are whole, and the rest get the same: 1 + 10 + 2 × 24 = 59.
        assert_eq!(share(&[100, 1, 10, 30], 60), vec![24, 1, 10, 24]);
        // Nothing to share: nothing given.
        assert_eq!(share(&[7, 7], 0), vec![0, 0]);
        assert_eq!(share(&[], 10), Vec::<usize>::new());
    }
}
