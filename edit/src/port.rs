//! What `convert` changes of objects on their way into another kind of file, each change listed
//! per object: pages made again of the texels polygons use ([`crate::repack`]), normals brought
//! to TR's length, and animation frame ranges clamped to their keyframes as Tomb Editor's level
//! compiler clamps them.

use std::collections::HashSet;
use std::fmt;

use wadforge_format::catalog::Game;
use wadforge_format::selection::{all_objects, ObjectRef};
use wadforge_format::{Animation, Shading, Wad};

use crate::check::rescale_normal;
use crate::repack::repack;
use crate::EditError;

/// Which changes [`port`] makes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Steps {
    /// Pack the texels polygons use onto new pages (where the pages hold more: a Wad2's whole
    /// textures, a level's tiles).
    pub repack: bool,
    /// What a classic WAD needs of a Wad2's objects: normals at TR's length (Tomb Engine reads
    /// any length; TR's lighting takes the length as is, so long ones light meshes far too
    /// dark) and frame ranges no longer than the keyframes.
    pub classic: bool,
}

/// One value changed on the way, in `object` (its name in messages, or `file`): `what`, from
/// `from` to `to`, `count` times.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Change {
    pub object: String,
    pub what: String,
    pub from: String,
    pub to: String,
    pub count: usize,
}

impl fmt::Display for Change {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}: {} → {}", self.object, self.what, self.from, self.to)?;
        if self.count > 1 {
            write!(f, " (× {})", self.count)?;
        }
        Ok(())
    }
}

/// Makes the changes `steps` asks of `wad`'s objects (named by `game`'s catalogue), and lists
/// them: per object, then the file's pages.
pub fn port(wad: &mut Wad, game: Game, steps: Steps) -> Result<Vec<Change>, EditError> {
    let mut changes = Vec::new();
    if steps.classic {
        changes.extend(normals_to_tr_length(wad, game));
        for i in wadforge_format::MoveableIndex::all(&wad.moveables) {
            let object = ObjectRef::Moveable(i).name(wad, game).to_string();
            for (k, animation) in wad.moveables[i].animations.iter_mut().enumerate() {
                changes.extend(clamp_frames(animation, k, &object));
            }
        }
    }
    if steps.repack {
        if let Some(r) = repack(wad)? {
            changes.push(Change {
                object: "file".into(),
                what: "texture pages (only the texels polygons use, packed again)".into(),
                from: format!("{} pages, {} samples", r.pages_before, r.samples_before),
                to: format!("{} pages, {} samples", r.pages_after, r.samples_after),
                count: 1,
            });
        }
    }
    Ok(changes)
}

/// Rescales every normal off TR's length, each mesh once (counted for the first object wearing
/// it): one change per object, with the lengths found.
fn normals_to_tr_length(wad: &mut Wad, game: Game) -> Vec<Change> {
    let mut done: HashSet<usize> = HashSet::new();
    let mut changes = Vec::new();
    for object in all_objects(wad).collect::<Vec<_>>() {
        let meshes = match object {
            ObjectRef::Moveable(i) => wad.moveables[i].meshes.clone(),
            ObjectRef::Static(i) => vec![wad.statics[i].mesh],
        };
        let (mut count, mut shortest, mut longest) = (0, f64::MAX, 0.0f64);
        for mesh in meshes {
            let Some(Shading::Normals(normals)) = wad.meshes.get_mut(mesh).map(|m| &mut m.shading) else {
                continue;
            };
            if !done.insert(mesh) {
                continue;
            }
            for length in normals.iter_mut().filter_map(rescale_normal) {
                count += 1;
                shortest = shortest.min(length);
                longest = longest.max(length);
            }
        }
        if count > 0 {
            changes.push(Change {
                object: object.name(wad, game).to_string(),
                what: "normals brought to TR's length".into(),
                from: format!("length {shortest:.0}–{longest:.0}"),
                to: format!("{:.0}", Shading::NORMAL_LENGTH),
                count,
            });
        }
    }
    changes
}

/// Clamps animation `k`'s frame range to its keyframes as Tomb Editor's level compiler does
/// (TombLib `Wad.cs`: the frame count at most `frame rate × (keyframes − 1) + 1`), and its
/// state changes' ranges to that (as its animation editor clamps a range's high frame to the
/// frame count). Animations whose keyframes do not decode, or that end before they start (a
/// mesh swap's 0..−1), are left.
fn clamp_frames(animation: &mut Animation, k: usize, object: &str) -> Vec<Change> {
    let keyframes = animation.keyframes.len();
    if keyframes == 0 || animation.undecodable_keyframes.is_some() {
        return Vec::new();
    }
    // The engine's frame numbers are signed 16-bit (see `Animation::played_keyframes`).
    let (start, end) = (
        i32::from(animation.frame_start as i16),
        i32::from(animation.frame_end as i16),
    );
    if start < 0 || end < start {
        return Vec::new();
    }
    let frames = i32::from(animation.frame_duration.max(1)) * (keyframes as i32 - 1) + 1;
    let mut changes = Vec::new();
    let last = start + frames - 1;
    if end > last {
        // Between `start` and `end`, both 0..=i16::MAX.
        animation.frame_end = last as u16;
        changes.push(Change {
            object: object.into(),
            what: format!("animation {k}'s frames (past its {keyframes} keyframes)"),
            from: format!("{start}–{end}"),
            to: format!("{start}–{last}"),
            count: 1,
        });
    }
    // One past the last frame: a state change's range ends there at most.
    let limit = (start + frames).min(i32::from(u16::MAX)) as u16;
    let (mut clamped, mut widest) = (0, 0u16);
    for d in animation.state_changes.iter_mut().flat_map(|s| &mut s.dispatches) {
        if d.frame_end > limit || d.frame_start > limit {
            widest = widest.max(d.frame_end).max(d.frame_start);
            d.frame_end = d.frame_end.min(limit);
            d.frame_start = d.frame_start.min(d.frame_end);
            clamped += 1;
        }
    }
    if clamped > 0 {
        changes.push(Change {
            object: object.into(),
            what: format!("animation {k}'s state change ranges (past its frames)"),
            from: format!("up to frame {widest}"),
            to: format!("up to frame {limit}"),
            count: clamped,
        });
    }
    changes
}
