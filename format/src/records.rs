//! Records WAD files and levels share, decoded once for both: the meshes behind the mesh
//! pointers, mesh headers, mesh-tree links, animation records with their state changes,
//! dispatches and commands, keyframes, and static records. Each reader supplies its views and
//! its error type ([`RecordError`]).

use std::cell::Cell;

use wadforge_model::catalog::Game;
use wadforge_model::{
    Animation, BoundingBox, BoundingSphere, Command, Dispatch, Fixed16, Keyframe, Link, ObjectKind,
    ObjectName, Shading, StateChange, Static,
};

use crate::angles::AngleWords;
use crate::bytes::{FileError, View};

pub(crate) const STATE_CHANGE_SIZE: usize = 6;
pub(crate) const DISPATCH_SIZE: usize = 8;
pub(crate) const LINK_SIZE: usize = 16;
pub(crate) const STATIC_SIZE: usize = 32;
pub(crate) use wadforge_model::KEYFRAME_HEADER_WORDS;

/// The problems shared records can have, in each reader's own error type.
pub(crate) trait RecordError: FileError {
    fn index_out_of_range(what: &'static str, index: u64, len: u64) -> Self::Problem;
    fn mesh_pointer_not_at_mesh_start(pointer: usize, offset: u32, inside: u32) -> Self::Problem;
    fn unknown_command(opcode: u16) -> Self::Problem;
    fn keyframe_too_small(size: u8, meshes: usize, needed: usize) -> Self::Problem;
    fn meshes_drawn_too_often(scope: &'static str, drawn: usize, allowed: usize) -> Self::Problem;
    fn decoded_too_often(what: &'static str) -> Self::Problem;
    fn keyframes_decoded_too_often() -> Self::Problem;
    fn animations_decoded_too_often() -> Self::Problem;
    /// Names the object or record the error concerns, outermost first.
    fn within(self, context: impl FnOnce() -> String) -> Self;
}

/// Implements [`FileError`] and [`RecordError`] for a reader's error type: a struct of
/// `section`, `offset`, `context` and `problem`, whose problem enum has the shared variants.
macro_rules! record_error {
    ($error:ty, $section:ty, $problem:ident, $keyframe_too_small:ident) => {
        impl $crate::bytes::FileError for $error {
            type Section = $section;
            type Problem = $problem;

            fn at(section: $section, offset: u64, problem: $problem) -> Self {
                Self {
                    section,
                    offset,
                    context: None,
                    problem,
                }
            }

            fn truncated(needed: u64, available: u64) -> $problem {
                $problem::Truncated { needed, available }
            }

            fn count_too_large(what: &'static str, count: u64, record_size: u64, available: u64) -> $problem {
                $problem::CountTooLarge {
                    what,
                    count,
                    record_size,
                    available,
                }
            }
        }

        impl $crate::records::RecordError for $error {
            fn index_out_of_range(what: &'static str, index: u64, len: u64) -> $problem {
                $problem::IndexOutOfRange { what, index, len }
            }

            fn mesh_pointer_not_at_mesh_start(pointer: usize, offset: u32, inside: u32) -> $problem {
                $problem::MeshPointerNotAtMeshStart {
                    pointer,
                    offset,
                    inside,
                }
            }

            fn unknown_command(opcode: u16) -> $problem {
                $problem::UnknownCommand(opcode)
            }

            fn keyframe_too_small(size: u8, meshes: usize, needed: usize) -> $problem {
                $problem::$keyframe_too_small {
                    size,
                    meshes,
                    needed,
                }
            }

            fn meshes_drawn_too_often(scope: &'static str, drawn: usize, allowed: usize) -> $problem {
                $problem::TooMuchWork($crate::TooMuchWork::MeshDraws {
                    scope,
                    drawn,
                    allowed,
                })
            }

            fn decoded_too_often(what: &'static str) -> $problem {
                $problem::TooMuchWork($crate::TooMuchWork::Decodings { what })
            }

            fn keyframes_decoded_too_often() -> $problem {
                $problem::TooMuchWork($crate::TooMuchWork::KeyframeDecodings)
            }

            fn animations_decoded_too_often() -> $problem {
                $problem::TooMuchWork($crate::TooMuchWork::AnimationDecodings)
            }

            fn within(self, context: impl FnOnce() -> String) -> Self {
                <$error>::within(self, context)
            }
        }

        impl $error {
            /// Names the object or record the error concerns, outermost first
            /// ("CROCODILE (moveable 51), animation 5").
            pub(crate) fn within(mut self, context: impl FnOnce() -> String) -> Self {
                let outer = context();
                self.context = Some(match self.context.take() {
                    Some(inner) => format!("{outer}, {inner}"),
                    None => outer,
                });
                self
            }
        }
    };
}
pub(crate) use record_error;

fn out_of_range<E: RecordError>(
    view: &View<E>,
    at: usize,
    what: &'static str,
    index: usize,
    len: usize,
) -> E {
    view.error(at, E::index_out_of_range(what, index as u64, len as u64))
}

/// Byte ranges of a table or package that decoded records explain (the WAD writer keeps the
/// rest as gaps; levels ignore it).
#[derive(Default)]
pub(crate) struct Coverage {
    pub ranges: Vec<(usize, usize)>,
}

impl Coverage {
    pub fn cover(&mut self, start: usize, len: usize) {
        if len == 0 {
            return;
        }
        // Records read one after another (keyframes, most of all) make one range.
        match self.ranges.last_mut() {
            Some((_, end)) if *end == start => *end = start + len,
            _ => self.ranges.push((start, start + len)),
        }
    }
}

/// What of each table the decoded objects explain.
#[derive(Default)]
pub(crate) struct Covered {
    pub meshes: Coverage,
    pub animations: Coverage,
    pub state_changes: Coverage,
    pub dispatches: Coverage,
    pub commands: Coverage,
    pub links: Coverage,
    pub keyframes: Coverage,
}

/// The meshes behind a table of mesh pointers.
pub(crate) struct MeshTable<M> {
    /// One per distinct pointer offset, in offset order.
    pub meshes: Vec<M>,
    pub offsets: Vec<u32>,
    /// The mesh index of each pointer.
    pub mesh_of_pointer: Vec<usize>,
}

/// Decodes the mesh at every distinct offset of `pointers` with `decode` (which returns the
/// mesh and the byte its record ends at), refusing offsets past the data and offsets inside
/// another mesh.
pub(crate) fn mesh_table<E: RecordError, M>(
    data: &View<E>,
    pointers: &View<E>,
    mut decode: impl FnMut(usize) -> Result<(M, usize), E>,
) -> Result<MeshTable<M>, E> {
    let values: Vec<u32> = pointers
        .bytes
        .chunks_exact(4)
        .map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
        .collect();
    let mut offsets = values.clone();
    offsets.sort_unstable();
    offsets.dedup();
    let mut first_pointer = std::collections::HashMap::with_capacity(offsets.len());
    for (i, &p) in values.iter().enumerate() {
        first_pointer.entry(p).or_insert(i);
    }
    let mut meshes = Vec::with_capacity(offsets.len());
    let mut previous: Option<(u32, usize)> = None;
    for &offset in &offsets {
        let pointer = first_pointer[&offset];
        if offset as usize >= data.len() {
            return Err(out_of_range(
                pointers,
                pointer * 4,
                "mesh offset",
                offset as usize,
                data.len(),
            ));
        }
        if let Some((start, end)) = previous {
            if (offset as usize) < end {
                return Err(pointers.error(
                    pointer * 4,
                    E::mesh_pointer_not_at_mesh_start(pointer, offset, start),
                ));
            }
        }
        let (mesh, end) = decode(offset as usize)
            .map_err(|e| e.within(|| format!("mesh at offset {offset} (mesh pointer {pointer})")))?;
        previous = Some((offset, end));
        meshes.push(mesh);
    }
    let mesh_of_pointer = values
        .iter()
        .map(|p| {
            offsets
                .binary_search(p)
                .expect("every pointer's offset was decoded")
        })
        .collect();
    Ok(MeshTable {
        meshes,
        offsets,
        mesh_of_pointer,
    })
}

/// A mesh record's head: bounding sphere, vertices and shading; `end` is where the polygons
/// start.
pub(crate) struct MeshHead {
    pub sphere: BoundingSphere,
    pub vertices: Vec<[i16; 3]>,
    pub shading: Shading,
    pub end: usize,
}

fn i16x3(b: &[u8]) -> [i16; 3] {
    [
        i16::from_le_bytes([b[0], b[1]]),
        i16::from_le_bytes([b[2], b[3]]),
        i16::from_le_bytes([b[4], b[5]]),
    ]
}

/// Decodes the head of the mesh at byte `start`: sphere, vertex count and vertices, then a
/// signed count of normals (positive) or shades (negative).
pub(crate) fn mesh_head<E: FileError>(view: &View<E>, start: usize) -> Result<MeshHead, E> {
    let mut at = start;
    let sphere = BoundingSphere {
        center: view.i16x3(at)?,
        radius: view.u16(at + 6)?,
        flag: view.u16(at + 8)?,
    };
    at += 10;
    let vertex_count = view.u16(at)? as usize;
    at += 2;
    let vertices = view
        .slice(at, vertex_count * 6)?
        .chunks_exact(6)
        .map(i16x3)
        .collect();
    at += vertex_count * 6;
    let shading_count = view.i16(at)? as i32;
    at += 2;
    let shading = if shading_count >= 0 {
        let n = shading_count as usize;
        let raw = view.slice(at, n * 6)?;
        at += n * 6;
        Shading::Normals(raw.chunks_exact(6).map(i16x3).collect())
    } else {
        let n = (-shading_count) as usize;
        let raw = view.slice(at, n * 2)?;
        at += n * 2;
        Shading::Shades(
            raw.chunks_exact(2)
                .map(|b| i16::from_le_bytes([b[0], b[1]]))
                .collect(),
        )
    };
    Ok(MeshHead {
        sphere,
        vertices,
        shading,
        end: at,
    })
}

/// The `corners` vertex indices of a polygon at `at`, each checked against `vertex_count`.
pub(crate) fn polygon_vertices<E: RecordError>(
    view: &View<E>,
    at: usize,
    corners: usize,
    vertex_count: usize,
) -> Result<[u16; 4], E> {
    let mut vertices = [0u16; 4];
    for (i, v) in vertices.iter_mut().take(corners).enumerate() {
        *v = view.u16(at + i * 2)?;
        if *v as usize >= vertex_count {
            return Err(out_of_range(
                view,
                at + i * 2,
                "vertex index",
                *v as usize,
                vertex_count,
            ));
        }
    }
    Ok(vertices)
}

/// `count` mesh-tree links (stack operation, offset) from 32-bit word `start_word` of `trees`;
/// `field` is the record field that named them, for errors. Returns the links and their
/// stack operations.
pub(crate) fn links<E: RecordError>(
    trees: &View<E>,
    start_word: u32,
    count: usize,
    field: (&View<E>, usize, &'static str),
    covered: &mut Coverage,
) -> Result<(Vec<Link>, Vec<i32>), E> {
    if count == 0 {
        return Ok((Vec::new(), Vec::new()));
    }
    let start = (start_word as usize).saturating_mul(4);
    if start
        .checked_add(count * LINK_SIZE)
        .is_none_or(|end| end > trees.len())
    {
        let (record, at, what) = field;
        return Err(out_of_range(
            record,
            at,
            what,
            start_word as usize,
            trees.len() / 4,
        ));
    }
    let mut ops = Vec::with_capacity(count);
    let mut offsets = Vec::with_capacity(count);
    for i in 0..count {
        let at = start + i * LINK_SIZE;
        ops.push(trees.i32(at)?);
        offsets.push([trees.i32(at + 4)?, trees.i32(at + 8)?, trees.i32(at + 12)?]);
    }
    covered.cover(start, count * LINK_SIZE);
    let links = wadforge_model::links::parents_from_ops(&ops)
        .into_iter()
        .zip(offsets)
        .map(|(parent, offset)| Link { parent, offset })
        .collect();
    Ok((links, ops))
}

/// One animation record: 40 bytes in WADs and TR4 levels, 32 in TR1–TR3 levels (no lateral
/// speed and acceleration).
pub(crate) struct AnimationRecord {
    pub at: usize,
    pub frame_offset: u32,
    pub frame_duration: u8,
    /// Keyframe size in words.
    pub frame_size: u8,
    pub state: u16,
    pub speed: Fixed16,
    pub acceleration: Fixed16,
    pub lateral_speed: Fixed16,
    pub lateral_acceleration: Fixed16,
    pub frame_start: u16,
    pub frame_end: u16,
    pub next_animation: u16,
    pub next_frame: u16,
    pub change_count: u16,
    pub change_index: u16,
    pub command_count: u16,
    pub command_offset: u16,
}

impl AnimationRecord {
    /// Size of a record with (`true`) or without the lateral pair.
    pub const fn size(lateral: bool) -> usize {
        if lateral {
            40
        } else {
            32
        }
    }

    /// Record `g` of `view`.
    pub fn read<E: FileError>(view: &View<E>, g: usize, lateral: bool) -> Result<Self, E> {
        let at = g * Self::size(lateral);
        let fixed = |o: usize| view.i32(at + o).map(Fixed16);
        // The words after the speeds sit 8 bytes later when the lateral pair is there.
        let w = if lateral { at + 8 } else { at };
        Ok(AnimationRecord {
            at,
            frame_offset: view.u32(at)?,
            frame_duration: view.u8(at + 4)?,
            frame_size: view.u8(at + 5)?,
            state: view.u16(at + 6)?,
            speed: fixed(8)?,
            acceleration: fixed(12)?,
            lateral_speed: if lateral { fixed(16)? } else { Fixed16(0) },
            lateral_acceleration: if lateral { fixed(20)? } else { Fixed16(0) },
            frame_start: view.u16(w + 16)?,
            frame_end: view.u16(w + 18)?,
            next_animation: view.u16(w + 20)?,
            next_frame: view.u16(w + 22)?,
            change_count: view.u16(w + 24)?,
            change_index: view.u16(w + 26)?,
            command_count: view.u16(w + 28)?,
            command_offset: view.u16(w + 30)?,
        })
    }

    /// Byte offset (in the animations table) of a field that sits at `offset` of a 32-byte
    /// record, for errors.
    fn field(&self, offset: usize, lateral: bool) -> usize {
        self.at + offset + if lateral { 8 } else { 0 }
    }
}

/// The animation table and the state changes, dispatches and commands its records name.
pub(crate) struct AnimationTables<'a, E: FileError> {
    pub animations: View<'a, E>,
    pub state_changes: View<'a, E>,
    pub dispatches: View<'a, E>,
    pub commands: View<'a, E>,
    pub animation_count: usize,
    /// Whether the records carry the lateral pair (40 bytes).
    pub lateral: bool,
    /// What the animations may still decode of the other tables.
    left: DecodingLeft,
}

impl<'a, E: FileError> AnimationTables<'a, E> {
    /// `file_len` bounds what the budgets count each table at: the tables of a compressed
    /// level (TR4) are inflated and may be far larger than its file, and what decoding them
    /// takes must stay in proportion to the file.
    pub fn new(
        animations: View<'a, E>,
        (state_changes, dispatches, commands): (View<'a, E>, View<'a, E>, View<'a, E>),
        (animation_count, lateral): (usize, bool),
        file_len: usize,
    ) -> Self {
        let budget = |records: usize, size: usize| {
            let records = records.min(file_len / size);
            Cell::new(records.saturating_mul(DECODINGS_PER_RECORD) + DECODING_SLACK)
        };
        AnimationTables {
            left: DecodingLeft {
                animations: budget(animation_count, AnimationRecord::size(lateral)),
                state_changes: budget(state_changes.len() / STATE_CHANGE_SIZE, STATE_CHANGE_SIZE),
                dispatches: budget(dispatches.len() / DISPATCH_SIZE, DISPATCH_SIZE),
                command_words: budget(commands.len() / 2, 2),
            },
            animations,
            state_changes,
            dispatches,
            commands,
            animation_count,
            lateral,
        }
    }
}

// The table's rows (`Limits::record_decodings`, `keyframe_decodings`), as the counting here (in
// `usize`) uses them. A WAD's animations read their own keyframes once and may read on into
// others' (`read_on`); levels read their own alone.
pub(crate) const DECODINGS_PER_RECORD: usize = crate::Limits::DEFAULT.record_decodings.per as usize;
pub(crate) const DECODING_SLACK: usize = crate::Limits::DEFAULT.record_decodings.base as usize;
pub(crate) const KEYFRAME_DECODINGS_PER_WORD: usize = crate::Limits::DEFAULT.keyframe_decodings.per as usize;
pub(crate) const KEYFRAME_SLACK_WORDS: usize = crate::Limits::DEFAULT.keyframe_decodings.base as usize;

/// Keyframe words the animations of a file of `file_len` bytes with `words` words of keyframe
/// data may decode (a compressed level's keyframe data counts as no more than its file holds).
pub(crate) fn keyframe_words_decodable(words: usize, file_len: usize) -> Cell<usize> {
    Cell::new(
        words
            .min(file_len / 2)
            .saturating_mul(KEYFRAME_DECODINGS_PER_WORD)
            .saturating_add(KEYFRAME_SLACK_WORDS),
    )
}

/// State changes, dispatches and command words the animations may still decode.
struct DecodingLeft {
    /// Objects may share a range of animations; animations without keyframes, state changes or
    /// commands cost none of the other budgets, so their records are counted too.
    animations: Cell<usize>,
    state_changes: Cell<usize>,
    dispatches: Cell<usize>,
    command_words: Cell<usize>,
}

/// Takes `n` from `left`; false when less is left.
pub(crate) fn take(left: &Cell<usize>, n: usize) -> bool {
    match left.get().checked_sub(n) {
        Some(rest) => {
            left.set(rest);
            true
        }
        None => false,
    }
}

/// An animation without its keyframes, and the dispatch index of each of its state changes.
pub(crate) struct DecodedAnimation {
    pub animation: Animation,
    pub dispatch_indices: Vec<u16>,
}

impl<E: RecordError> AnimationTables<'_, E> {
    pub fn record(&self, g: usize) -> Result<AnimationRecord, E> {
        AnimationRecord::read(&self.animations, g, self.lateral)
    }

    /// Animation `r` for a moveable whose animations start at `first`: everything but the
    /// keyframes, which each format stores its own way.
    pub fn animation(
        &self,
        r: &AnimationRecord,
        first: usize,
        covered: &mut Covered,
    ) -> Result<DecodedAnimation, E> {
        if !take(&self.left.animations, 1) {
            return Err(self.animations.error(r.at, E::animations_decoded_too_often()));
        }
        covered
            .animations
            .cover(r.at, AnimationRecord::size(self.lateral));
        let next_animation = self.animation_ref(
            r.next_animation,
            &self.animations,
            r.field(20, self.lateral),
            first,
        )?;
        let (state_changes, dispatch_indices) = self.state_changes(r, first, covered)?;
        let commands = self.commands(r, covered)?;
        Ok(DecodedAnimation {
            animation: Animation {
                frame_duration: r.frame_duration,
                state: r.state,
                speed: r.speed,
                acceleration: r.acceleration,
                lateral_speed: r.lateral_speed,
                lateral_acceleration: r.lateral_acceleration,
                frame_start: r.frame_start,
                frame_end: r.frame_end,
                next_animation,
                next_frame: r.next_frame,
                state_changes,
                commands,
                keyframes: Vec::new(),
                undecodable_keyframes: None,
            },
            dispatch_indices,
        })
    }

    /// An animation index of the table, made relative to the moveable's first animation.
    fn animation_ref(&self, index: u16, view: &View<E>, at: usize, first: usize) -> Result<i32, E> {
        if index as usize >= self.animation_count {
            return Err(out_of_range(
                view,
                at,
                "next animation",
                index as usize,
                self.animation_count,
            ));
        }
        Ok(index as i32 - first as i32)
    }

    fn state_changes(
        &self,
        r: &AnimationRecord,
        first: usize,
        covered: &mut Covered,
    ) -> Result<(Vec<StateChange>, Vec<u16>), E> {
        let table = &self.state_changes;
        let (index, count) = (r.change_index as usize, r.change_count as usize);
        if (index + count) * STATE_CHANGE_SIZE > table.len() {
            let last = (index + count).saturating_sub(1);
            let at = r.field(26, self.lateral);
            return Err(out_of_range(
                &self.animations,
                at,
                "state change",
                last,
                table.len() / STATE_CHANGE_SIZE,
            ));
        }
        if !take(&self.left.state_changes, count) {
            let at = r.field(24, self.lateral);
            return Err(self.animations.error(at, E::decoded_too_often("state changes")));
        }
        let mut changes = Vec::with_capacity(count);
        let mut dispatch_indices = Vec::with_capacity(count);
        for i in index..index + count {
            let at = i * STATE_CHANGE_SIZE;
            covered.state_changes.cover(at, STATE_CHANGE_SIZE);
            let state = table.u16(at)?;
            let dispatch_count = table.u16(at + 2)? as usize;
            let dispatch_index = table.u16(at + 4)?;
            let dispatches = self
                .dispatches(dispatch_index as usize, dispatch_count, at + 4, first, covered)
                .map_err(|e| e.within(|| format!("state change #{i}")))?;
            changes.push(StateChange { state, dispatches });
            dispatch_indices.push(dispatch_index);
        }
        Ok((changes, dispatch_indices))
    }

    fn dispatches(
        &self,
        index: usize,
        count: usize,
        field_at: usize,
        first: usize,
        covered: &mut Covered,
    ) -> Result<Vec<Dispatch>, E> {
        let table = &self.dispatches;
        if (index + count) * DISPATCH_SIZE > table.len() {
            let last = (index + count).saturating_sub(1);
            return Err(out_of_range(
                &self.state_changes,
                field_at,
                "dispatch",
                last,
                table.len() / DISPATCH_SIZE,
            ));
        }
        if !take(&self.left.dispatches, count) {
            return Err(self
                .state_changes
                .error(field_at - 2, E::decoded_too_often("dispatches")));
        }
        (index..index + count)
            .map(|i| {
                let at = i * DISPATCH_SIZE;
                covered.dispatches.cover(at, DISPATCH_SIZE);
                Ok(Dispatch {
                    frame_start: table.u16(at)?,
                    frame_end: table.u16(at + 2)?,
                    next_animation: self.animation_ref(table.u16(at + 4)?, table, at + 4, first)?,
                    next_frame: table.u16(at + 6)?,
                })
            })
            .collect()
    }

    fn commands(&self, r: &AnimationRecord, covered: &mut Covered) -> Result<Vec<Command>, E> {
        let package = &self.commands;
        let (offset_words, count) = (r.command_offset as usize, r.command_count as usize);
        let start = offset_words * 2;
        if count > 0 && start >= package.len() {
            let at = r.field(30, self.lateral);
            return Err(out_of_range(
                &self.animations,
                at,
                "command offset (in words)",
                offset_words,
                package.len() / 2,
            ));
        }
        // Every command takes at least one word: refuse impossible counts before allocating.
        package.slice(start, count * 2)?;
        // Counted as one word each, the least a command takes.
        if !take(&self.left.command_words, count) {
            let at = r.field(28, self.lateral);
            return Err(self.animations.error(at, E::decoded_too_often("commands")));
        }
        let mut at = start;
        let mut commands = Vec::with_capacity(count);
        for _ in 0..count {
            let opcode = package.u16(at)?;
            let unknown = || package.error(at, E::unknown_command(opcode));
            let operand_count = Command::operand_count(opcode).ok_or_else(unknown)?;
            let mut operands = [0u16; 3];
            for (k, w) in operands.iter_mut().take(operand_count).enumerate() {
                *w = package.u16(at + 2 + k * 2)?;
            }
            let command = Command::from_words(opcode, &operands[..operand_count]).ok_or_else(unknown)?;
            let len = 2 + operand_count * 2;
            covered.commands.cover(at, len);
            commands.push(command);
            at += len;
        }
        Ok(commands)
    }

    /// Checks that keyframe byte `offset` of record `r` lies within `frames`.
    pub fn check_frame_offset(&self, r: &AnimationRecord, frames: &View<E>) -> Result<(), E> {
        if r.frame_offset as usize > frames.len() {
            return Err(out_of_range(
                &self.animations,
                r.at,
                "keyframe offset",
                r.frame_offset as usize,
                frames.len(),
            ));
        }
        Ok(())
    }
}

/// Where an animation's keyframes are and how they are stored.
pub(crate) struct KeyframeRun {
    /// Byte offset in the keyframe data.
    pub offset: usize,
    /// Words per keyframe (box, root offset, angle sets, padding).
    pub size_words: usize,
    /// Keyframes the animation plays.
    pub count: usize,
    /// The first `own` keyframes are the animation's own data; later ones lie in data stored
    /// for other animations (the game reads on, with this animation's keyframe size), and
    /// reading them costs `read_on`.
    pub own: usize,
    /// What a keyframe that runs past the data or does not decode means.
    pub broken: BrokenKeyframe,
    pub mesh_count: usize,
    pub angle_words: AngleWords,
}

/// What a keyframe that cannot be decoded does to its run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum BrokenKeyframe {
    /// The file is refused (levels: the game reads every played frame there).
    Refuses,
    /// The run ends before it (WADs keep such an animation's words as stored, since a file the
    /// game plays is never refused for it). So does running out of `read_on`.
    EndsRun,
}

/// A keyframe's bounding box and root offset from its first nine words.
pub(crate) fn keyframe_header(words: &[u8]) -> (BoundingBox, [i16; 3]) {
    let word = |i: usize| i16::from_le_bytes([words[i * 2], words[i * 2 + 1]]);
    (
        BoundingBox::from_file_order(std::array::from_fn(word)),
        [word(6), word(7), word(8)],
    )
}

/// Keyframes of fixed size: box, root offset, one angle set per mesh; words after the angles
/// are padding. A keyframe running past the data, or angles running past its size, is an error
/// or ends the run (see [`KeyframeRun::broken`]); running out of `read_on`, the keyframe words
/// the file may still read past animations' own data (a bound on what overlapping runs decode,
/// however many animations a damaged file points at one stretch of data), ends it too.
pub(crate) fn keyframes<E: RecordError>(
    data: &View<E>,
    run: &KeyframeRun,
    covered: &mut Coverage,
    read_on: &mut usize,
    decodable: &Cell<usize>,
) -> Result<Vec<Keyframe>, E> {
    let size = run.size_words;
    if size == 0 || run.count == 0 {
        return Ok(Vec::new());
    }
    let mesh_count = run.mesh_count;
    let refuses = run.broken == BrokenKeyframe::Refuses;
    let too_small =
        |at: usize, needed: usize| data.error(at, E::keyframe_too_small(size as u8, mesh_count, needed));
    if size < KEYFRAME_HEADER_WORDS + mesh_count {
        return if refuses {
            Err(too_small(run.offset, KEYFRAME_HEADER_WORDS + mesh_count))
        } else {
            Ok(Vec::new())
        };
    }
    // Never allocate beyond what the data can hold.
    let room = data.len().saturating_sub(run.offset) / (size * 2);
    let mut keyframes = Vec::with_capacity(run.count.min(room + 1));
    for k in 0..run.count {
        let reading_on = k >= run.own;
        if reading_on && *read_on < size {
            break;
        }
        let at = run.offset + k * size * 2;
        if !take(decodable, size) {
            return Err(data.error(at, E::keyframes_decoded_too_often()));
        }
        match keyframe(data, at, size, mesh_count, run.angle_words) {
            Ok((keyframe, used)) => {
                if reading_on {
                    *read_on -= size;
                }
                covered.cover(at, used * 2);
                keyframes.push(keyframe);
            }
            Err(e) if refuses => {
                let e = match e {
                    Broken::Data(e) => e,
                    Broken::AnglesPastSize(needed) => too_small(at, needed),
                };
                return Err(e.within(|| format!("keyframe {k}")));
            }
            Err(_) => break,
        }
    }
    Ok(keyframes)
}

/// Why a keyframe could not be decoded.
enum Broken<E> {
    /// It runs past the data.
    Data(E),
    /// Its angle sets need this many words, more than its size.
    AnglesPastSize(usize),
}

/// The keyframe of `size` words at byte `at`, and the words its header and angles use.
fn keyframe<E: RecordError>(
    data: &View<E>,
    at: usize,
    size: usize,
    mesh_count: usize,
    angle_words: AngleWords,
) -> Result<(Keyframe, usize), Broken<E>> {
    let raw = data.slice(at, size * 2).map_err(Broken::Data)?;
    let (bounding_box, offset) = keyframe_header(raw);
    let mut used = KEYFRAME_HEADER_WORDS;
    let mut rotations = Vec::with_capacity(mesh_count);
    for m in 0..mesh_count {
        let (rotation, n) = angle_words
            .decode(&raw[used * 2..])
            .ok_or(Broken::AnglesPastSize(used + 1 + (mesh_count - m - 1)))?;
        rotations.push(rotation);
        used += n;
    }
    let keyframe = Keyframe {
        bounding_box,
        offset,
        rotations,
    };
    Ok((keyframe, used))
}

/// Static record `i`: id, mesh pointer, visibility and collision boxes, flags. Returns the
/// static and its mesh pointer.
/// Byte of static record `i`'s mesh pointer.
pub(crate) fn static_pointer_at(i: usize) -> usize {
    i * STATIC_SIZE + 4
}

pub(crate) fn static_record<E: RecordError>(
    view: &View<E>,
    i: usize,
    mesh_of_pointer: &[usize],
    game: Game,
) -> Result<(Static, u16), E> {
    let at = i * STATIC_SIZE;
    let id = view.u32(at)?;
    let pointer = view.u16(static_pointer_at(i))?;
    let mesh = *mesh_of_pointer.get(pointer as usize).ok_or_else(|| {
        out_of_range(
            view,
            static_pointer_at(i),
            "mesh pointer",
            pointer as usize,
            mesh_of_pointer.len(),
        )
        .within(|| ObjectName::new(game, ObjectKind::Static, id).to_string())
    })?;
    let boxes = |from: usize| view.i16s::<6>(from).map(BoundingBox::from_file_order);
    let record = Static {
        id,
        mesh,
        visibility: boxes(at + 6)?,
        collision: boxes(at + 18)?,
        flags: view.u16(at + 30)?,
    };
    Ok((record, pointer))
}

pub(crate) const MODEL_SIZE: usize = 18;

/// A moveable record (a level's "model"): id, mesh count, first mesh pointer, first link (in
/// 32-bit words), keyframe offset, first animation (negative: none).
pub(crate) struct ModelRecord {
    pub at: usize,
    pub id: u32,
    pub mesh_count: u16,
    pub first_pointer: u16,
    pub first_link: u32,
    pub keyframe_offset: u32,
    pub first_animation: i16,
}

impl ModelRecord {
    pub fn read<E: FileError>(view: &View<E>, i: usize) -> Result<Self, E> {
        let at = i * MODEL_SIZE;
        Ok(ModelRecord {
            at,
            id: view.u32(at)?,
            mesh_count: view.u16(at + 4)?,
            first_pointer: view.u16(at + 6)?,
            first_link: view.u32(at + 8)?,
            keyframe_offset: view.u32(at + 12)?,
            first_animation: view.i16(at + 16)?,
        })
    }

    /// The sorted, distinct first animations of `records`: each ends the range of the
    /// moveable before it.
    pub fn first_animations(records: &[ModelRecord]) -> Vec<usize> {
        let mut firsts: Vec<usize> = records
            .iter()
            .filter(|r| r.first_animation >= 0)
            .map(|r| r.first_animation as usize)
            .collect();
        firsts.sort_unstable();
        firsts.dedup();
        firsts
    }

    /// Byte of the record's first mesh pointer field.
    pub fn pointer_field_at(&self) -> usize {
        self.at + 6
    }

    /// The meshes of the moveable's pointers.
    pub fn meshes<'m, E: RecordError>(
        &self,
        view: &View<E>,
        mesh_of_pointer: &'m [usize],
    ) -> Result<&'m [usize], E> {
        let first = self.first_pointer as usize;
        let end = first + self.mesh_count as usize;
        mesh_of_pointer.get(first..end).ok_or_else(|| {
            out_of_range(
                view,
                self.pointer_field_at(),
                "last mesh pointer",
                end.saturating_sub(1),
                mesh_of_pointer.len(),
            )
        })
    }

    /// The moveable's animations in the table: from its first to the next moveable's first.
    pub fn animations<E: RecordError>(
        &self,
        view: &View<E>,
        first_animations: &[usize],
        animation_count: usize,
    ) -> Result<std::ops::Range<usize>, E> {
        if self.first_animation < 0 {
            return Ok(0..0);
        }
        let start = self.first_animation as usize;
        if start > animation_count {
            return Err(out_of_range(
                view,
                self.at + 16,
                "animation",
                start,
                animation_count,
            ));
        }
        // `first_animations` is sorted: the next moveable's first animation ends this range.
        let end = first_animations
            .get(first_animations.partition_point(|&s| s <= start))
            .copied()
            .unwrap_or(animation_count);
        Ok(start..end)
    }
}
