//! Animations: timing, motion, the state machine (state changes and dispatches), commands and
//! keyframes.

/// A 16.16 fixed-point number, as the animation record stores speeds and accelerations.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, PartialOrd, Ord)]
pub struct Fixed16(pub i32);

impl Fixed16 {
    pub fn to_f64(self) -> f64 {
        self.0 as f64 / 65536.0
    }

    /// The nearest representable value; saturates outside the i32 range.
    pub fn from_f64(v: f64) -> Self {
        Fixed16((v * 65536.0).round().clamp(i32::MIN as f64, i32::MAX as f64) as i32)
    }
}

/// One animation of a moveable.
///
/// Frame numbers (`frame_start`, `frame_end`, `next_frame`, dispatch ranges, command frames)
/// are on the object's own timeline, as the file stores them. Animation references
/// (`next_animation`, [`Dispatch::next_animation`]) are indices into the owning moveable's
/// animation list; they are signed because some files point into another object's animations.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default)]
pub struct Animation {
    /// Engine ticks (1/30 s) per frame.
    pub frame_duration: u8,
    pub state: u16,
    pub speed: Fixed16,
    pub acceleration: Fixed16,
    pub lateral_speed: Fixed16,
    pub lateral_acceleration: Fixed16,
    pub frame_start: u16,
    pub frame_end: u16,
    pub next_animation: i32,
    pub next_frame: u16,
    pub state_changes: Vec<StateChange>,
    pub commands: Vec<Command>,
    /// The keyframes the game plays: [`Animation::played_keyframes`] of them, each from its own
    /// stored pose (several animations may store theirs in one stretch of a file). Empty when
    /// the file's words for them do not decode as poses: see `undecodable_keyframes`.
    pub keyframes: Vec<Keyframe>,
    /// Keyframe words kept as stored because they do not decode as the poses the game plays
    /// (real files have such animations; the game reads whatever words are there).
    pub undecodable_keyframes: Option<UndecodableKeyframes>,
}

/// Keyframe words of an animation that do not decode as the keyframes the game plays: a
/// keyframe size smaller than the 9-word header plus a word per mesh, angle sets that run past
/// the keyframe size, or played keyframes that run past the keyframe data. Kept as stored where
/// other tools can read them; see [`UndecodableKeyframes::owns_words`].
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default)]
pub struct UndecodableKeyframes {
    /// Words per keyframe, as the animation record stores it.
    pub size: u8,
    /// The animation's own words (from its keyframe offset to the next animation's, the WAD
    /// document's rule, which is what other tools read for it) when every keyframe the
    /// document's count gives them decodes: its played keyframes then run past the keyframe
    /// data. Empty when it owns no words (Core's tools stored such animations on the next one's
    /// start) or its first keyframe does not decode: no tool can read words of its own, so it
    /// is written on the next animation's start, where the document's count gives it none.
    pub words: Vec<u16>,
}

/// Why an animation's keyframe words do not decode, in the order [`UndecodableKeyframes::why`]
/// tells them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Undecodable {
    /// The keyframe size is smaller than the 9 header words plus a word per mesh.
    TooSmall,
    /// It owns no keyframe words (stored on the next animation's start), or its first
    /// keyframe's angle sets (two words for a three-axis rotation) run past the keyframe size.
    NoWordsOfItsOwn,
    /// Its own keyframes decode, but the game plays more than the keyframe data holds.
    RunsPastTheData,
}

/// The 9 words a keyframe starts with: bounding box and root offset.
pub const KEYFRAME_HEADER_WORDS: usize = 9;

impl UndecodableKeyframes {
    /// Whether these words are written as the animation's own: at least one whole keyframe, and
    /// every keyframe the WAD document's count gives them (words over size) decodes as a pose of
    /// `meshes` meshes, so that every reader reads them without error. Otherwise the animation
    /// is written with no words of its own, on the next animation's start, as Core's tools
    /// stored such animations: the document's count gives it no keyframes, and the game reads
    /// the next animation's words (it could not decode its own either).
    pub fn owns_words(&self, meshes: usize) -> bool {
        let size = self.size as usize;
        size >= KEYFRAME_HEADER_WORDS + meshes
            && self.words.len() >= size
            && self.words.chunks_exact(size).all(|k| angles_fit(k, meshes))
    }

    /// Which kind of undecodable animation this is, for a moveable of `meshes` meshes.
    pub fn kind(&self, meshes: usize) -> Undecodable {
        if (self.size as usize) < KEYFRAME_HEADER_WORDS + meshes {
            Undecodable::TooSmall
        } else if self.owns_words(meshes) {
            Undecodable::RunsPastTheData
        } else {
            Undecodable::NoWordsOfItsOwn
        }
    }

    /// Why these words do not decode as the `played` keyframes of a moveable of `meshes` meshes,
    /// for people.
    pub fn why(&self, played: usize, meshes: usize) -> String {
        let (size, needed) = (self.size as usize, KEYFRAME_HEADER_WORDS + meshes);
        match self.kind(meshes) {
            Undecodable::TooSmall => format!(
                "its keyframe size of {size} words is smaller than a keyframe's 9 header words plus a word \
                 per mesh ({needed})"
            ),
            Undecodable::NoWordsOfItsOwn => format!(
                "it has no keyframe words that decode with its keyframe size of {size} words (stored on the \
                 next animation's words, or angle sets that run past its size)"
            ),
            Undecodable::RunsPastTheData => format!(
                "the game plays {played} keyframes of {size} words, but its own words hold {} and the \
                 keyframe data ends before the rest",
                self.words.len() / size
            ),
        }
    }
}

/// Whether the angle sets of `meshes` meshes fit in the keyframe `words` after its header (a
/// three-axis set takes two words, a one-axis set one).
fn angles_fit(words: &[u16], meshes: usize) -> bool {
    let mut at = KEYFRAME_HEADER_WORDS;
    for _ in 0..meshes {
        let Some(&first) = words.get(at) else {
            return false;
        };
        at += if first & 0xC000 == 0 { 2 } else { 1 };
    }
    at <= words.len()
}

impl Animation {
    /// Keyframes the game steps through for this frame range:
    /// `ceil((frame_end − frame_start) / frame_duration) + 1`. The game shows keyframe
    /// `(frame − frame_start) / frame_duration` and, between keyframes, interpolates towards the
    /// next one, so a last frame that falls between two keyframes still reads the later one. A
    /// duration of 0 counts as 1.
    ///
    /// The engine's frame numbers are signed 16-bit: a `frame_end` before `frame_start` as such
    /// (community tools give mesh-swap objects `0..65535`, that is `0..−1`) ends the animation
    /// after its first frame, so it plays one keyframe.
    pub fn played_keyframes(&self) -> usize {
        let frames = (self.frame_end as i16 as i32 - self.frame_start as i16 as i32).max(0) as usize;
        frames.div_ceil(self.frame_duration.max(1) as usize) + 1
    }

    /// Keyframes the game plays from this animation's stored keyframes: none when it stores none
    /// (a keyframe size of 0), else [`Self::played_keyframes`].
    pub fn played_from_data(&self) -> usize {
        if self.keyframes.is_empty() {
            0
        } else {
            self.played_keyframes()
        }
    }

    /// A fingerprint of the poses (root offsets and angles, modulo a turn), to tell an unedited
    /// animation from an edited one. FNV-1a.
    pub fn poses_fingerprint(&self) -> u64 {
        let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
        let mut eat = |v: u16| {
            for b in v.to_le_bytes() {
                hash = (hash ^ b as u64).wrapping_mul(0x0100_0000_01b3);
            }
        };
        for k in &self.keyframes {
            k.offset.iter().for_each(|&c| eat(c as u16));
            for r in &k.rotations {
                [r.x, r.y, r.z].iter().for_each(|&a| eat(a % 4096));
            }
        }
        hash
    }
}

/// A way out of an animation towards a target state.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default)]
pub struct StateChange {
    pub state: u16,
    pub dispatches: Vec<Dispatch>,
}

/// While the current frame is in `frame_start..frame_end` (end exclusive), a request for the
/// state change's state switches to `next_animation` at `next_frame`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Dispatch {
    pub frame_start: u16,
    pub frame_end: u16,
    pub next_animation: i32,
    pub next_frame: u16,
}

/// An animation command, one variant per opcode.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Command {
    /// Opcode 1: move the object by this offset when the animation ends.
    SetPosition { x: i16, y: i16, z: i16 },
    /// Opcode 2: start a jump with these velocities.
    JumpVelocity { vertical: i16, horizontal: i16 },
    /// Opcode 3: free the hands (end of a weapon or pickup animation).
    EmptyHands,
    /// Opcode 4: the object dies at the end of the animation.
    Kill,
    /// Opcode 5: play a sound at a frame. Bit 14 of the stored sound word means "on land only",
    /// bit 15 "in water only".
    PlaySound {
        frame: u16,
        sound: u16,
        on_land: bool,
        in_water: bool,
    },
    /// Opcode 6: trigger an engine effect (flip effect) at a frame.
    Effect { frame: u16, effect: u16 },
}

impl Command {
    pub const SET_POSITION: u16 = 1;
    pub const JUMP_VELOCITY: u16 = 2;
    pub const EMPTY_HANDS: u16 = 3;
    pub const KILL: u16 = 4;
    pub const PLAY_SOUND: u16 = 5;
    pub const EFFECT: u16 = 6;

    /// Number of operand words that follow an opcode, `None` for unknown opcodes.
    pub fn operand_count(opcode: u16) -> Option<usize> {
        match opcode {
            Self::SET_POSITION => Some(3),
            Self::JUMP_VELOCITY | Self::PLAY_SOUND | Self::EFFECT => Some(2),
            Self::EMPTY_HANDS | Self::KILL => Some(0),
            _ => None,
        }
    }

    pub fn opcode(&self) -> u16 {
        match self {
            Command::SetPosition { .. } => Self::SET_POSITION,
            Command::JumpVelocity { .. } => Self::JUMP_VELOCITY,
            Command::EmptyHands => Self::EMPTY_HANDS,
            Command::Kill => Self::KILL,
            Command::PlaySound { .. } => Self::PLAY_SOUND,
            Command::Effect { .. } => Self::EFFECT,
        }
    }

    /// Builds a command from its opcode and exactly [`Command::operand_count`] operands.
    pub fn from_words(opcode: u16, operands: &[u16]) -> Option<Self> {
        let w = |i: usize| operands.get(i).copied();
        let command = match opcode {
            Self::SET_POSITION => Command::SetPosition {
                x: w(0)? as i16,
                y: w(1)? as i16,
                z: w(2)? as i16,
            },
            Self::JUMP_VELOCITY => Command::JumpVelocity {
                vertical: w(0)? as i16,
                horizontal: w(1)? as i16,
            },
            Self::EMPTY_HANDS => Command::EmptyHands,
            Self::KILL => Command::Kill,
            Self::PLAY_SOUND => {
                let word = w(1)?;
                Command::PlaySound {
                    frame: w(0)?,
                    sound: word & 0x3FFF,
                    on_land: word & 0x4000 != 0,
                    in_water: word & 0x8000 != 0,
                }
            }
            Self::EFFECT => Command::Effect {
                frame: w(0)?,
                effect: w(1)?,
            },
            _ => return None,
        };
        Some(command)
    }

    /// Operand words in stored order (the opcode excluded).
    pub fn operands(&self) -> Vec<u16> {
        match *self {
            Command::SetPosition { x, y, z } => vec![x as u16, y as u16, z as u16],
            Command::JumpVelocity { vertical, horizontal } => vec![vertical as u16, horizontal as u16],
            Command::EmptyHands | Command::Kill => vec![],
            Command::PlaySound {
                frame,
                sound,
                on_land,
                in_water,
            } => {
                vec![
                    frame,
                    (sound & 0x3FFF) | (on_land as u16) << 14 | (in_water as u16) << 15,
                ]
            }
            Command::Effect { frame, effect } => vec![frame, effect],
        }
    }
}

/// How far (TR units, on any side: [`super::BoundingBox::distance`]) a keyframe's box may lie
/// from the box of its posed meshes and still count as that pose's box: real files' boxes differ
/// from their poses by a few units (`docs/format-facts.md`, "Angles and keyframes"), an edited pose moves them more. A build
/// keeps a manifest's box within it; `check` notes boxes past it and `--fix` recomputes them.
pub const KEYFRAME_BOX_TOLERANCE: i32 = 8;

/// One stored pose of a moveable.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default)]
pub struct Keyframe {
    /// Bounding box of the posed meshes, relative to the object's origin.
    pub bounding_box: super::BoundingBox,
    /// Position of the root mesh's pivot.
    pub offset: [i16; 3],
    /// One rotation per mesh, in mesh order.
    pub rotations: Vec<Rotation>,
}

/// Euler angles of one mesh relative to its parent, applied as Y, then X, then Z
/// (`Ry · Rx · Rz`), in units of 4096 per full turn.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Rotation {
    pub x: u16,
    pub y: u16,
    pub z: u16,
    /// How the file stored (or should store) this rotation.
    pub encoding: AngleEncoding,
}

/// The two ways a keyframe stores a rotation.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum AngleEncoding {
    /// Two words, 10 bits per axis (1024 per turn): angles are multiples of 4 here.
    #[default]
    ThreeAxes,
    /// One word, rotation about X only (4096 per turn).
    X,
    /// One word, rotation about Y only.
    Y,
    /// One word, rotation about Z only.
    Z,
}

impl Rotation {
    /// Units per full turn.
    pub const FULL_TURN: u32 = 4096;

    /// The rotation in the encoding a WAD writer would choose: one axis when the other two
    /// angles are zero, three axes otherwise (three-axis angles are rounded to multiples of 4,
    /// the finest that encoding holds).
    pub fn compact(x: u16, y: u16, z: u16) -> Self {
        let (x, y, z) = (x % 4096, y % 4096, z % 4096);
        let encoding = match (x, y, z) {
            (_, 0, 0) => AngleEncoding::X,
            (0, _, 0) => AngleEncoding::Y,
            (0, 0, _) => AngleEncoding::Z,
            _ => AngleEncoding::ThreeAxes,
        };
        let round = |a: u16| {
            if encoding == AngleEncoding::ThreeAxes {
                ((a + 2) / 4 * 4) % 4096
            } else {
                a
            }
        };
        Rotation {
            x: round(x),
            y: round(y),
            z: round(z),
            encoding,
        }
    }

    /// Angles in radians, each taken modulo a full turn.
    pub fn radians(&self) -> [f64; 3] {
        let r = |a: u16| (a as u32 % Self::FULL_TURN) as f64 * std::f64::consts::TAU / Self::FULL_TURN as f64;
        [r(self.x), r(self.y), r(self.z)]
    }
}
