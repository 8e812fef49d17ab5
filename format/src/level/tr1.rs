//! TR1 level (`.PHD`, version 0x20): what differs from TR2/TR3 (the shared reader is
//! [`super::tr123`]).
//!
//! - pages: the 8-bit textiles through the palette (6-bit values ×4), index 0 magenta inside
//!   the rectangles of alpha-tested (attribute 1) object textures; coloured faces index that
//!   palette with the low byte of their texture word;
//! - frames: box, root offset, NumValues, then NumValues three-axis angle sets with their two
//!   words swapped (FrameSize is 0 in real files);
//! - the demo levels' palette after the sprite sequences is recognised too.

use super::build::{self, Decoder, FrameRange, Tables};
use super::error::{LevelError, Problem};
use super::texture::{self, ObjectTexture};
use super::tr123;
use super::Level;
use crate::catalog::Game;
use crate::model::{AngleEncoding, Keyframe, Page, Rotation};

/// Bounding box, root offset and NumValues words before a frame's angles.
const FRAME_HEADER_WORDS: usize = 10;

pub(crate) fn read(bytes: &[u8]) -> Result<Level, LevelError> {
    // The demo levels put the palette after the sprite sequences; try that order only when the
    // ordinary one fails, and report the ordinary order's error if both do.
    let tables = match tr123::walk(bytes, Game::Tr1, false) {
        Ok(t) => t,
        Err(e) => tr123::walk(bytes, Game::Tr1, true).map_err(|_| e)?,
    };
    build::build(&tables)
}

/// The textiles as pages, and the palette coloured faces index.
pub(super) fn pages(t: &Tables, object_textures: &[ObjectTexture]) -> (Vec<Page>, [[u8; 3]; 256]) {
    let palette: [[u8; 3]; 256] = std::array::from_fn(|i| {
        let b = &t.palette.bytes[i * 3..i * 3 + 3];
        [b[0].min(63) * 4, b[1].min(63) * 4, b[2].min(63) * 4]
    });
    (
        texture::pages(t.textiles.bytes, &palette, object_textures),
        palette,
    )
}

impl Decoder<'_, '_> {
    /// TR1 frames, each `10 + 2·NumValues` words: box, root offset, NumValues, then NumValues
    /// three-axis angle sets with their two words swapped (1024 per turn, ×4 into the model's
    /// 4096). Angle sets start with the root; meshes without one get zero angles, sets beyond
    /// the mesh count are skipped. A frame running past the frame data is an error.
    pub(super) fn tr1_keyframes(
        &self,
        range: &FrameRange,
        mesh_count: usize,
    ) -> Result<Vec<Keyframe>, LevelError> {
        let frames = &self.t.frames;
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
