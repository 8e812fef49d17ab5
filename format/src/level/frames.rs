//! Level frames → keyframes, per game:
//!
//! - TR1: box, root offset, NumValues, then NumValues three-axis angle sets with their two
//!   words swapped (FrameSize is 0 in real files);
//! - TR2/TR3: the animation's FrameSize words each: box, root offset, then one angle set per
//!   mesh, three-axis sets as two words in normal order (1024 per turn, ×4) and one-axis sets
//!   as one word, axis in the top two bits, value `w & 0x03FF` on the same 1024 scale (×4);
//! - TR4: FrameSize words, one-axis values on the 4096 scale, as in WADs.

use std::cell::Cell;

use wadforge_model::catalog::Game;
use wadforge_model::{AngleEncoding, Keyframe, Rotation};

use super::bytes::View;
use super::error::{LevelError, Problem};
use crate::angles::AngleWords;
use crate::records::{self, BrokenKeyframe, Coverage, KeyframeRun};

/// Bounding box, root offset and NumValues words before a TR1 frame's angles.
const FRAME_HEADER_WORDS: usize = 10;

/// Where an animation's frames are: the frames its range plays
/// ([`wadforge_model::Animation::played_keyframes`]) from byte `offset` of the frame data, whatever
/// other animation's frames they also are; `size` is the record's FrameSize byte (words).
pub(super) struct FrameRange {
    pub offset: usize,
    pub size: u8,
    pub count: usize,
}

/// A level's frame data, decoded as its game stores it.
pub(super) struct Frames<'a> {
    pub game: Game,
    pub data: View<'a>,
    /// Rotations the frames may still fill in for meshes without angle sets: bounded by the
    /// file size so that a corrupt NumValues cannot make the reader allocate without limit.
    pub fill_budget: Cell<usize>,
    /// Frame words all animations may still decode (see [`records::keyframe_words_decodable`]).
    pub decodable: Cell<usize>,
}

impl Frames<'_> {
    /// The keyframes of `range` for a moveable of `mesh_count` meshes.
    pub(super) fn keyframes(
        &self,
        range: &FrameRange,
        mesh_count: usize,
    ) -> Result<Vec<Keyframe>, LevelError> {
        if self.game == Game::Tr1 {
            return self.tr1_keyframes(range, mesh_count);
        }
        let run = KeyframeRun {
            offset: range.offset,
            size_words: range.size as usize,
            count: range.count,
            // Levels are read as the game reads them: every played frame must be there.
            own: range.count,
            broken: BrokenKeyframe::Refuses,
            mesh_count,
            angle_words: if matches!(self.game, Game::Tr4 | Game::Tr5) {
                AngleWords::Tr4
            } else {
                AngleWords::Tr2
            },
        };
        // Every frame is strict: none is read past the animation's own data.
        records::keyframes(
            &self.data,
            &run,
            &mut Coverage::default(),
            &mut 0,
            &self.decodable,
        )
    }

    /// TR1 frames, each `10 + 2·NumValues` words: box, root offset, NumValues, then NumValues
    /// three-axis angle sets with their two words swapped (1024 per turn, ×4 into the model's
    /// 4096). Angle sets start with the root; meshes without one get zero angles, sets beyond
    /// the mesh count are skipped. A frame running past the frame data is an error.
    fn tr1_keyframes(&self, range: &FrameRange, mesh_count: usize) -> Result<Vec<Keyframe>, LevelError> {
        let frames = &self.data;
        let (offset, count) = (range.offset, range.count);
        // A frame takes at least its header: never allocate beyond what the data can hold.
        let mut keyframes =
            Vec::with_capacity(count.min((frames.len() - offset) / (FRAME_HEADER_WORDS * 2) + 1));
        let mut at = offset;
        for k in 0..count {
            let header = frames
                .slice(at, FRAME_HEADER_WORDS * 2)
                .map_err(|e| e.within(|| format!("frame {k}")))?;
            let (bounding_box, root) = crate::records::keyframe_header(header);
            let values = u16::from_le_bytes([header[18], header[19]]);
            let words = FRAME_HEADER_WORDS + 2 * values as usize;
            match self.decodable.get().checked_sub(words) {
                Some(left) => self.decodable.set(left),
                None => {
                    return Err(frames
                        .error(at, Problem::TooMuchWork(crate::TooMuchWork::KeyframeDecodings))
                        .within(|| format!("frame {k}")))
                }
            }
            let angles_at = at + FRAME_HEADER_WORDS * 2;
            let angles = frames
                .slice(angles_at, values as usize * 4)
                .map_err(|e| e.within(|| format!("frame {k}")))?;
            let mut rotations: Vec<Rotation> = angles
                .chunks_exact(4)
                .take(mesh_count)
                .map(|b| {
                    let low = u16::from_le_bytes([b[0], b[1]]) as u32;
                    let high = u16::from_le_bytes([b[2], b[3]]) as u32;
                    let value = high << 16 | low;
                    let axis = |shift: u32| ((value >> shift) & 0x3FF) as u16 * 4;
                    Rotation {
                        x: axis(20),
                        y: axis(10),
                        z: axis(0),
                        encoding: AngleEncoding::ThreeAxes,
                    }
                })
                .collect();
            // Meshes after the last angle set keep zero angles.
            let missing = mesh_count - rotations.len();
            if missing > 0 {
                let budget = self.fill_budget.get();
                if missing > budget {
                    return Err(frames
                        .error(
                            at + 18,
                            Problem::TooManyMissingAngles {
                                values,
                                meshes: mesh_count,
                            },
                        )
                        .within(|| format!("frame {k}")));
                }
                self.fill_budget.set(budget - missing);
                rotations.resize(mesh_count, Rotation::default());
            }
            keyframes.push(Keyframe {
                bounding_box,
                offset: root,
                rotations,
            });
            at = angles_at + values as usize * 4;
        }
        Ok(keyframes)
    }
}
