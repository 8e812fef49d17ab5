//! WAD file → model + layout.

use super::angles;
use super::bytes::{Cursor, View};
use super::error::{Problem, ReadError, Section};
use super::layout::{AnimationLayout, Layout, MoveableLayout};
use super::mesh;
use super::package::Coverage;
use crate::links::parents_from_ops;
use crate::model::{
    Animation, BoundingBox, Command, Dispatch, Fixed16, Keyframe, Link, Moveable, Page, Sample, StateChange,
    Static, Wad, PAGE_BYTES,
};

const ANIMATION_SIZE: usize = 40;
const STATE_CHANGE_SIZE: usize = 6;
const DISPATCH_SIZE: usize = 8;
const MOVEABLE_SIZE: usize = 18;
const STATIC_SIZE: usize = 32;
const LINK_SIZE: usize = 16;
/// Bounding box and root offset words before a keyframe's angles.
const KEYFRAME_HEADER_WORDS: usize = 9;

pub(crate) fn read(bytes: &[u8]) -> Result<(Wad, Layout), ReadError> {
    let mut c = Cursor::new(bytes);
    let version = c.u32(Section::Version)?;
    if version != 129 && version != 130 {
        return Err(ReadError {
            section: Section::Version,
            offset: 0,
            context: None,
            problem: Problem::UnsupportedVersion(version),
        });
    }
    let (_, samples) = c.table("texture samples", 8, Section::TextureSamples)?;
    let texture = c.package("texture bytes", 1, Section::TexturePages)?;
    let (_, pointers) = c.table("mesh pointers", 4, Section::MeshPointers)?;
    let meshes = c.package("mesh words", 2, Section::Meshes)?;
    let (animation_count, animations) = c.table("animations", ANIMATION_SIZE, Section::Animations)?;
    let (_, state_changes) = c.table("state changes", STATE_CHANGE_SIZE, Section::StateChanges)?;
    let (_, dispatches) = c.table("dispatches", DISPATCH_SIZE, Section::Dispatches)?;
    let commands = c.package("command words", 2, Section::Commands)?;
    let links = c.package("link words", 4, Section::Links)?;
    let keyframes = c.package("keyframe words", 2, Section::Keyframes)?;
    let (moveable_count, moveables) = c.table("moveables", MOVEABLE_SIZE, Section::Moveables)?;
    let (static_count, statics) = c.table("statics", STATIC_SIZE, Section::Statics)?;
    if c.remaining() > 0 {
        return Err(ReadError {
            section: Section::Statics,
            offset: c.pos as u64,
            context: None,
            problem: Problem::TrailingBytes(c.remaining() as u64),
        });
    }

    let pages: Vec<Page> = texture
        .bytes
        .chunks_exact(PAGE_BYTES)
        .map(|rgb| Page::from_rgb(rgb.to_vec()).expect("chunks_exact yields whole pages"))
        .collect();
    let texture_tail = texture.bytes[pages.len() * PAGE_BYTES..].to_vec();
    let samples = read_samples(&samples, pages.len())?;

    let mut d = Decoder {
        animations,
        state_changes,
        dispatches,
        commands,
        links,
        keyframes,
        animation_count,
        keyframe_counts: Vec::new(),
        covered: Covered::default(),
    };
    d.keyframe_counts = d.keyframe_counts()?;

    let mesh_pointers = read_pointers(&pointers)?;
    let MeshTable {
        meshes: wad_meshes,
        offsets: mesh_offsets,
        mesh_of_pointer: mesh_pointers,
    } = read_meshes(
        &meshes,
        &pointers,
        &mesh_pointers,
        samples.len(),
        &mut d.covered.meshes,
    )?;

    let records: Vec<MoveableRecord> = (0..moveable_count)
        .map(|i| MoveableRecord::read(&moveables, i))
        .collect::<Result<_, _>>()?;
    let mut first_animations: Vec<usize> = records
        .iter()
        .filter(|r| r.animations_index >= 0)
        .map(|r| r.animations_index as usize)
        .collect();
    first_animations.sort_unstable();
    first_animations.dedup();

    let mut wad_moveables = Vec::with_capacity(moveable_count);
    let mut moveable_layouts = Vec::with_capacity(moveable_count);
    for (i, record) in records.iter().enumerate() {
        let (m, l) = d
            .moveable(record, &moveables, &mesh_pointers, &first_animations)
            .map_err(|e| e.within(|| format!("moveable #{i} (id {})", record.id)))?;
        wad_moveables.push(m);
        moveable_layouts.push(l);
    }

    let mut wad_statics = Vec::with_capacity(static_count);
    let mut static_layouts = Vec::with_capacity(static_count);
    for i in 0..static_count {
        let at = i * STATIC_SIZE;
        let id = statics.u32(at)?;
        let pointer = statics.u16(at + 4)?;
        let mesh = *mesh_pointers.get(pointer as usize).ok_or_else(|| {
            statics
                .error(
                    at + 4,
                    Problem::IndexOutOfRange {
                        what: "mesh pointer",
                        index: pointer as u64,
                        len: mesh_pointers.len() as u64,
                    },
                )
                .within(|| format!("static #{i} (id {id})"))
        })?;
        let boxes = |from: usize| statics.i16s::<6>(from).map(BoundingBox::from_file_order);
        wad_statics.push(Static {
            id,
            mesh,
            visibility: boxes(at + 6)?,
            collision: boxes(at + 18)?,
            flags: statics.u16(at + 30)?,
        });
        static_layouts.push(pointer);
    }

    let covered = d.covered;
    let layout = Layout {
        texture_tail,
        mesh_pointers,
        mesh_offsets,
        meshes: covered.meshes.into_package(meshes.bytes),
        animations: covered.animations.into_package(d.animations.bytes),
        state_changes: covered.state_changes.into_package(d.state_changes.bytes),
        dispatches: covered.dispatches.into_package(d.dispatches.bytes),
        commands: covered.commands.into_package(d.commands.bytes),
        links: covered.links.into_package(d.links.bytes),
        keyframes: covered.keyframes.into_package(d.keyframes.bytes),
        moveables: moveable_layouts,
        statics: static_layouts,
    };
    let wad = Wad {
        version,
        samples,
        pages,
        meshes: wad_meshes,
        moveables: wad_moveables,
        statics: wad_statics,
    };
    Ok((wad, layout))
}

fn read_samples(view: &View, page_count: usize) -> Result<Vec<Sample>, ReadError> {
    (0..view.len() / 8)
        .map(|i| {
            let at = i * 8;
            let sample = Sample {
                x: view.u8(at)?,
                y: view.u8(at + 1)?,
                page: view.u16(at + 2)?,
                flip_x: view.u8(at + 4)? as i8,
                width: view.u8(at + 5)? as u16 + 1,
                flip_y: view.u8(at + 6)? as i8,
                height: view.u8(at + 7)? as u16 + 1,
            };
            if sample.page as usize >= page_count {
                return Err(view
                    .error(
                        at + 2,
                        Problem::IndexOutOfRange {
                            what: "texture page",
                            index: sample.page as u64,
                            len: page_count as u64,
                        },
                    )
                    .within(|| format!("sample {i}")));
            }
            Ok(sample)
        })
        .collect()
}

fn read_pointers(view: &View) -> Result<Vec<u32>, ReadError> {
    (0..view.len() / 4).map(|i| view.u32(i * 4)).collect()
}

/// The meshes (in offset order), their offsets, and the mesh index of each pointer.
struct MeshTable {
    meshes: Vec<crate::Mesh>,
    offsets: Vec<u32>,
    mesh_of_pointer: Vec<usize>,
}

/// Decodes the mesh at every distinct pointer offset.
fn read_meshes(
    view: &View,
    pointer_view: &View,
    pointers: &[u32],
    sample_count: usize,
    covered: &mut Coverage,
) -> Result<MeshTable, ReadError> {
    let mut offsets = pointers.to_vec();
    offsets.sort_unstable();
    offsets.dedup();
    let first_pointer_to = |offset: u32| pointers.iter().position(|&p| p == offset).unwrap_or(0);
    let mut meshes = Vec::with_capacity(offsets.len());
    let mut previous: Option<(u32, usize)> = None;
    for &offset in &offsets {
        let pointer = first_pointer_to(offset);
        if offset as usize >= view.len() {
            return Err(pointer_view.error(
                pointer * 4,
                Problem::IndexOutOfRange {
                    what: "mesh offset",
                    index: offset as u64,
                    len: view.len() as u64,
                },
            ));
        }
        if let Some((start, end)) = previous {
            if (offset as usize) < end {
                return Err(pointer_view.error(
                    pointer * 4,
                    Problem::MeshPointerNotAtMeshStart {
                        pointer,
                        offset,
                        inside: start,
                    },
                ));
            }
        }
        let decoded = mesh::decode(view, offset as usize, sample_count)
            .map_err(|e| e.within(|| format!("mesh at offset {offset} (mesh pointer {pointer})")))?;
        covered.cover(offset as usize, decoded.data_end - offset as usize);
        previous = Some((offset, decoded.end));
        meshes.push(decoded.mesh);
    }
    let mesh_of_pointer = pointers
        .iter()
        .map(|p| offsets.binary_search(p).expect("every pointer was decoded"))
        .collect();
    Ok(MeshTable {
        meshes,
        offsets,
        mesh_of_pointer,
    })
}

struct MoveableRecord {
    at: usize,
    id: u32,
    mesh_count: u16,
    pointers_index: u16,
    links_index: u32,
    keyframe_offset: u32,
    animations_index: i16,
}

impl MoveableRecord {
    fn read(view: &View, i: usize) -> Result<Self, ReadError> {
        let at = i * MOVEABLE_SIZE;
        Ok(MoveableRecord {
            at,
            id: view.u32(at)?,
            mesh_count: view.u16(at + 4)?,
            pointers_index: view.u16(at + 6)?,
            links_index: view.u32(at + 8)?,
            keyframe_offset: view.u32(at + 12)?,
            animations_index: view.i16(at + 16)?,
        })
    }
}

#[derive(Default)]
struct Covered {
    meshes: Coverage,
    animations: Coverage,
    state_changes: Coverage,
    dispatches: Coverage,
    commands: Coverage,
    links: Coverage,
    keyframes: Coverage,
}

/// The animation-side tables and packages, and what of them the objects explain.
struct Decoder<'a> {
    animations: View<'a>,
    state_changes: View<'a>,
    dispatches: View<'a>,
    commands: View<'a>,
    links: View<'a>,
    keyframes: View<'a>,
    animation_count: usize,
    keyframe_counts: Vec<usize>,
    covered: Covered,
}

impl Decoder<'_> {
    /// Keyframes of animation `a`: from its offset to the offset of the next animation with
    /// keyframes (or the package end), in records of its keyframe size.
    fn keyframe_counts(&self) -> Result<Vec<usize>, ReadError> {
        let n = self.animation_count;
        let mut counts = vec![0; n];
        let mut next_start = self.keyframes.len();
        for a in (0..n).rev() {
            let at = a * ANIMATION_SIZE;
            let offset = self.animations.u32(at)? as usize;
            let size = self.animations.u8(at + 5)? as usize;
            if size > 0 {
                let end = next_start.min(self.keyframes.len());
                counts[a] = end.saturating_sub(offset) / (2 * size);
                next_start = offset;
            }
        }
        Ok(counts)
    }

    fn moveable(
        &mut self,
        r: &MoveableRecord,
        view: &View,
        mesh_pointers: &[usize],
        first_animations: &[usize],
    ) -> Result<(Moveable, MoveableLayout), ReadError> {
        let first = r.pointers_index as usize;
        let meshes = mesh_pointers
            .get(first..first + r.mesh_count as usize)
            .ok_or_else(|| {
                view.error(
                    r.at + 6,
                    Problem::IndexOutOfRange {
                        what: "last mesh pointer",
                        index: (first + r.mesh_count as usize).saturating_sub(1) as u64,
                        len: mesh_pointers.len() as u64,
                    },
                )
            })?;

        let link_count = (r.mesh_count as usize).saturating_sub(1);
        let (links, link_ops) = self.links(r, view, link_count)?;

        let mut animations = Vec::new();
        let mut animation_layouts = Vec::new();
        if r.animations_index >= 0 {
            let start = r.animations_index as usize;
            if start > self.animation_count {
                return Err(view.error(
                    r.at + 16,
                    Problem::IndexOutOfRange {
                        what: "animation",
                        index: start as u64,
                        len: self.animation_count as u64,
                    },
                ));
            }
            let end = first_animations
                .iter()
                .copied()
                .find(|&s| s > start)
                .unwrap_or(self.animation_count);
            for g in start..end {
                let (a, l) = self
                    .animation(g, start, meshes.len())
                    .map_err(|e| e.within(|| format!("animation {} (#{g} in the table)", g - start)))?;
                animations.push(a);
                animation_layouts.push(l);
            }
        }

        let moveable = Moveable {
            id: r.id,
            meshes: meshes.to_vec(),
            links,
            animations,
        };
        let layout = MoveableLayout {
            pointers_index: r.pointers_index,
            links_index: r.links_index,
            link_ops,
            keyframe_offset: r.keyframe_offset,
            animations_index: r.animations_index,
            animations: animation_layouts,
        };
        Ok((moveable, layout))
    }

    fn links(
        &mut self,
        r: &MoveableRecord,
        view: &View,
        count: usize,
    ) -> Result<(Vec<Link>, Vec<i32>), ReadError> {
        if count == 0 {
            return Ok((Vec::new(), Vec::new()));
        }
        let start = r.links_index as usize * 4;
        if start
            .checked_add(count * LINK_SIZE)
            .is_none_or(|end| end > self.links.len())
        {
            return Err(view.error(
                r.at + 8,
                Problem::IndexOutOfRange {
                    what: "link index (in 32-bit words)",
                    index: r.links_index as u64,
                    len: (self.links.len() / 4) as u64,
                },
            ));
        }
        let mut ops = Vec::with_capacity(count);
        let mut offsets = Vec::with_capacity(count);
        for i in 0..count {
            let at = start + i * LINK_SIZE;
            ops.push(self.links.i32(at)?);
            offsets.push([
                self.links.i32(at + 4)?,
                self.links.i32(at + 8)?,
                self.links.i32(at + 12)?,
            ]);
        }
        self.covered.links.cover(start, count * LINK_SIZE);
        let links = parents_from_ops(&ops)
            .into_iter()
            .zip(offsets)
            .map(|(parent, offset)| Link { parent, offset })
            .collect();
        Ok((links, ops))
    }

    /// Decodes animation `g` of the table for a moveable whose animations start at `first`.
    fn animation(
        &mut self,
        g: usize,
        first: usize,
        mesh_count: usize,
    ) -> Result<(Animation, AnimationLayout), ReadError> {
        let v = self.animations;
        let at = g * ANIMATION_SIZE;
        self.covered.animations.cover(at, ANIMATION_SIZE);
        let keyframe_offset = v.u32(at)?;
        let frame_duration = v.u8(at + 4)?;
        let keyframe_size = v.u8(at + 5)?;
        let fixed = |o: usize| v.i32(at + o).map(Fixed16);
        let next_animation = self.animation_ref(v.u16(at + 28)?, &v, at + 28, first)?;
        let change_count = v.u16(at + 32)? as usize;
        let changes_index = v.u16(at + 34)?;
        let command_count = v.u16(at + 36)? as usize;
        let command_offset = v.u16(at + 38)?;

        let (state_changes, dispatch_indices) =
            self.state_changes(changes_index as usize, change_count, at + 34, first)?;
        let commands = self.commands(command_offset as usize, command_count, at + 38)?;
        let keyframes = self.keyframes(
            g,
            keyframe_offset as usize,
            keyframe_size as usize,
            mesh_count,
            at,
        )?;

        let animation = Animation {
            frame_duration,
            state: v.u16(at + 6)?,
            speed: fixed(8)?,
            acceleration: fixed(12)?,
            lateral_speed: fixed(16)?,
            lateral_acceleration: fixed(20)?,
            frame_start: v.u16(at + 24)?,
            frame_end: v.u16(at + 26)?,
            next_animation,
            next_frame: v.u16(at + 30)?,
            state_changes,
            commands,
            keyframes,
        };
        let layout = AnimationLayout {
            keyframe_offset,
            keyframe_size,
            state_changes_index: changes_index,
            dispatch_indices,
            command_offset,
        };
        Ok((animation, layout))
    }

    /// An animation index of the table, made relative to the moveable's first animation.
    fn animation_ref(&self, index: u16, view: &View, at: usize, first: usize) -> Result<i32, ReadError> {
        if index as usize >= self.animation_count {
            return Err(view.error(
                at,
                Problem::IndexOutOfRange {
                    what: "next animation",
                    index: index as u64,
                    len: self.animation_count as u64,
                },
            ));
        }
        Ok(index as i32 - first as i32)
    }

    fn state_changes(
        &mut self,
        index: usize,
        count: usize,
        field_at: usize,
        first: usize,
    ) -> Result<(Vec<StateChange>, Vec<u16>), ReadError> {
        let table = self.state_changes;
        if (index + count) * STATE_CHANGE_SIZE > table.len() {
            return Err(self.animations.error(
                field_at,
                Problem::IndexOutOfRange {
                    what: "state change",
                    index: (index + count).saturating_sub(1) as u64,
                    len: (table.len() / STATE_CHANGE_SIZE) as u64,
                },
            ));
        }
        let mut changes = Vec::with_capacity(count);
        let mut dispatch_indices = Vec::with_capacity(count);
        for i in index..index + count {
            let at = i * STATE_CHANGE_SIZE;
            self.covered.state_changes.cover(at, STATE_CHANGE_SIZE);
            let state = table.u16(at)?;
            let dispatch_count = table.u16(at + 2)? as usize;
            let dispatch_index = table.u16(at + 4)?;
            let dispatches = self
                .dispatches(dispatch_index as usize, dispatch_count, at + 4, first)
                .map_err(|e| e.within(|| format!("state change #{i}")))?;
            changes.push(StateChange { state, dispatches });
            dispatch_indices.push(dispatch_index);
        }
        Ok((changes, dispatch_indices))
    }

    fn dispatches(
        &mut self,
        index: usize,
        count: usize,
        field_at: usize,
        first: usize,
    ) -> Result<Vec<Dispatch>, ReadError> {
        let table = self.dispatches;
        if (index + count) * DISPATCH_SIZE > table.len() {
            return Err(self.state_changes.error(
                field_at,
                Problem::IndexOutOfRange {
                    what: "dispatch",
                    index: (index + count).saturating_sub(1) as u64,
                    len: (table.len() / DISPATCH_SIZE) as u64,
                },
            ));
        }
        (index..index + count)
            .map(|i| {
                let at = i * DISPATCH_SIZE;
                self.covered.dispatches.cover(at, DISPATCH_SIZE);
                Ok(Dispatch {
                    frame_start: table.u16(at)?,
                    frame_end: table.u16(at + 2)?,
                    next_animation: self.animation_ref(table.u16(at + 4)?, &table, at + 4, first)?,
                    next_frame: table.u16(at + 6)?,
                })
            })
            .collect()
    }

    fn commands(
        &mut self,
        offset_words: usize,
        count: usize,
        field_at: usize,
    ) -> Result<Vec<Command>, ReadError> {
        let package = self.commands;
        let start = offset_words * 2;
        if count > 0 && start >= package.len() {
            return Err(self.animations.error(
                field_at,
                Problem::IndexOutOfRange {
                    what: "command offset (in words)",
                    index: offset_words as u64,
                    len: (package.len() / 2) as u64,
                },
            ));
        }
        // Every command takes at least one word: refuse impossible counts before allocating.
        package.slice(start, count * 2)?;
        let mut at = start;
        let mut commands = Vec::with_capacity(count);
        for _ in 0..count {
            let opcode = package.u16(at)?;
            let operand_count = Command::operand_count(opcode)
                .ok_or_else(|| package.error(at, Problem::UnknownCommand(opcode)))?;
            let mut operands = [0u16; 3];
            for (k, w) in operands.iter_mut().take(operand_count).enumerate() {
                *w = package.u16(at + 2 + k * 2)?;
            }
            let command = Command::from_words(opcode, &operands[..operand_count])
                .ok_or_else(|| package.error(at, Problem::UnknownCommand(opcode)))?;
            let len = 2 + operand_count * 2;
            self.covered.commands.cover(at, len);
            commands.push(command);
            at += len;
        }
        Ok(commands)
    }

    fn keyframes(
        &mut self,
        g: usize,
        offset: usize,
        size_words: usize,
        mesh_count: usize,
        record_at: usize,
    ) -> Result<Vec<Keyframe>, ReadError> {
        if size_words == 0 {
            return Ok(Vec::new());
        }
        let package = self.keyframes;
        if offset > package.len() {
            return Err(self.animations.error(
                record_at,
                Problem::IndexOutOfRange {
                    what: "keyframe offset",
                    index: offset as u64,
                    len: package.len() as u64,
                },
            ));
        }
        let too_small = |needed: usize| {
            package.error(
                offset,
                Problem::KeyframeTooSmall {
                    size: size_words as u8,
                    meshes: mesh_count,
                    needed,
                },
            )
        };
        let count = self.keyframe_counts[g];
        if count > 0 && size_words < KEYFRAME_HEADER_WORDS + mesh_count {
            return Err(too_small(KEYFRAME_HEADER_WORDS + mesh_count));
        }
        let mut keyframes = Vec::with_capacity(count);
        let mut words = Vec::with_capacity(size_words);
        for k in 0..count {
            let at = offset + k * size_words * 2;
            let raw = package.slice(at, size_words * 2)?;
            words.clear();
            words.extend(raw.chunks_exact(2).map(|b| u16::from_le_bytes([b[0], b[1]])));
            let signed = |i: usize| words[i] as i16;
            let bounding_box = BoundingBox::from_file_order(std::array::from_fn(signed));
            let root_offset = [signed(6), signed(7), signed(8)];
            let mut used = KEYFRAME_HEADER_WORDS;
            let mut rotations = Vec::with_capacity(mesh_count);
            for m in 0..mesh_count {
                let (rotation, n) = angles::decode(&words[used..])
                    .ok_or_else(|| too_small(used + 1 + (mesh_count - m - 1)))
                    .map_err(|e| e.within(|| format!("keyframe {k}")))?;
                rotations.push(rotation);
                used += n;
            }
            self.covered.keyframes.cover(at, used * 2);
            keyframes.push(Keyframe {
                bounding_box,
                offset: root_offset,
                rotations,
            });
        }
        Ok(keyframes)
    }
}
