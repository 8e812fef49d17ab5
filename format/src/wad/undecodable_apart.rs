//! Animations that own no keyframe words start on the next animation's first word (see
//! [`super::canonical`]). Read there with their own keyframe size, the next one's words may happen
//! to decode as the keyframes they play (an animation whose own words did not decode, written
//! where the next one's do): the file would then hold another animation than the model. Such an
//! animation is moved a few words into the next one's first keyframe, where they do not decode,
//! and where the WAD document's count still gives it and the animation before it what it gave.

use std::cell::Cell;

use wadforge_model::Wad;

use super::bytes::View;
use super::error::{Section, WriteError};
use super::layout::Layout;
use crate::angles::AngleWords;
use crate::records::{self, BrokenKeyframe, Coverage, KeyframeRun};

/// Words past the next animation's start tried for each such animation.
const WORDS_TRIED: usize = 16;

/// Moves every animation of `wad` that owns no words off a start where its played keyframes
/// decode, in the canonical `layout`.
pub(crate) fn keep_apart(wad: &Wad, layout: &mut Layout) -> Result<(), WriteError> {
    let owns_none = |i: usize, k: usize| {
        let m = &wad.moveables[i];
        (m.animations[k].undecodable_keyframes.as_ref()).is_some_and(|u| !u.owns_words(m.meshes.len()))
    };
    let any =
        (wad.moveables.iter().enumerate()).any(|(i, m)| (0..m.animations.len()).any(|k| owns_none(i, k)));
    if !any {
        return Ok(());
    }
    let package = super::writer::keyframe_package(wad, layout)?;
    let data = View::new(&package, 0, Section::Keyframes);
    // Decoding is bounded as a reader's is: a few times the data.
    let decodable = records::keyframe_words_decodable(package.len() / 2, usize::MAX);
    // The animation before, in table order, with a keyframe size: (offset, size).
    let mut previous: Option<(usize, usize)> = None;
    for i in 0..wad.moveables.len() {
        for k in 0..wad.moveables[i].animations.len() {
            let size = layout.moveables[i].animations[k].keyframe_size as usize;
            if owns_none(i, k) {
                let start = layout.moveables[i].animations[k].keyframe_offset as usize;
                let run = |offset: usize| KeyframeRun {
                    offset,
                    size_words: size,
                    count: wad.moveables[i].animations[k].played_keyframes(),
                    own: 0,
                    broken: BrokenKeyframe::EndsRun,
                    mesh_count: wad.moveables[i].meshes.len(),
                    angle_words: AngleWords::Tr4,
                };
                let decodes = |offset: usize| decodes(&data, &run(offset), &decodable);
                if decodes(start) {
                    let counted =
                        |offset: usize| previous.map(|(at, size)| offset.saturating_sub(at) / (2 * size));
                    let apart = (1..=WORDS_TRIED)
                        .map(|words| start + 2 * words)
                        .take_while(|&o| o < package.len() && counted(o) == counted(start))
                        .find(|&o| !decodes(o));
                    if let Some(offset) = apart {
                        layout.moveables[i].animations[k].keyframe_offset = offset as u32;
                    }
                }
            }
            if size > 0 {
                let offset = layout.moveables[i].animations[k].keyframe_offset as usize;
                previous = Some((offset, size));
            }
        }
    }
    Ok(())
}

/// Whether every keyframe `run` plays decodes from `data` (a spent budget counts as not).
fn decodes(data: &View, run: &KeyframeRun, decodable: &Cell<usize>) -> bool {
    let mut read_on = usize::MAX;
    let read = records::keyframes(data, run, &mut Coverage::default(), &mut read_on, decodable);
    read.is_ok_and(|keyframes| keyframes.len() == run.count)
}
