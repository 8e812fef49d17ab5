//! Model + layout → WAD file. The canonical path computes a layout first ([`super::canonical`]),
//! so one emitter serves both.

use std::borrow::Cow;
use std::io::Write;

use wadforge_model::catalog::Game;
use wadforge_model::links::parents_from_ops;
use wadforge_model::{Animation, Keyframe, Moveable, ObjectKind, ObjectName, Wad};

use super::bytes::PutLe;
use super::error::WriteError;
use super::layout::{AnimationLayout, Layout, MoveableLayout};
use super::mesh;
use super::package::PackageWriter;
use crate::angles;

/// A WAD file as parts in file order: the texture pages borrowed from the model, the rest
/// encoded. Writing it out part by part never holds the whole file in memory a second time.
#[derive(Debug)]
pub struct EncodedWad<'a> {
    parts: Vec<Cow<'a, [u8]>>,
}

impl EncodedWad<'_> {
    /// The file's size in bytes.
    pub fn size(&self) -> u64 {
        self.parts.iter().map(|p| p.len() as u64).sum()
    }

    /// Writes the file to `out`, part by part.
    pub fn write_to(&self, mut out: impl Write) -> std::io::Result<()> {
        self.parts.iter().try_for_each(|p| out.write_all(p))?;
        out.flush()
    }

    /// The file's bytes.
    pub fn to_vec(&self) -> Vec<u8> {
        self.parts.concat()
    }
}

/// Parts being gathered: small records go into `open`, which becomes a part when a large one
/// (a page, a package) is added as it is.
#[derive(Default)]
struct Parts<'a> {
    done: Vec<Cow<'a, [u8]>>,
    open: Vec<u8>,
}

impl<'a> Parts<'a> {
    fn add(&mut self, part: Cow<'a, [u8]>) {
        if !self.open.is_empty() {
            self.done.push(Cow::Owned(std::mem::take(&mut self.open)));
        }
        self.done.push(part);
    }

    fn finish(self) -> EncodedWad<'a> {
        let Parts { mut done, open } = self;
        done.push(Cow::Owned(open));
        done.retain(|p| !p.is_empty());
        EncodedWad { parts: done }
    }
}

/// Encodes `wad` as `layout` places it, in file order: samples, texture pages, mesh pointers and
/// meshes, the animation-side tables and packages with the moveables, the statics. Every error
/// comes from here, before anything is written.
pub(crate) fn encode<'a>(wad: &'a Wad, layout: &Layout) -> Result<EncodedWad<'a>, WriteError> {
    check_layout(wad, layout)?;
    let mut out = Parts::default();
    out.open.put_u32(wad.version);
    put_samples(&mut out.open, wad)?;
    let texture_bytes = wad.pages.len() * crate::PAGE_BYTES + layout.texture_tail.len();
    out.open.put_u32(count(texture_bytes, "texture bytes")?);
    for page in &wad.pages {
        out.add(Cow::Borrowed(page.rgb()));
    }
    out.add(Cow::Owned(layout.texture_tail.clone()));
    put_meshes(&mut out, wad, layout)?;

    let mut tables = Tables::new(layout)?;
    for (i, (m, ml)) in wad.moveables.iter().zip(&layout.moveables).enumerate() {
        tables
            .moveable(m, ml, layout)
            .map_err(|e| in_object(e, &moveable_name(wad, i)))?;
    }
    let Tables {
        animations,
        state_changes,
        dispatches,
        commands,
        links,
        keyframes,
        moveables,
        ..
    } = tables;
    for (package, unit) in [
        (animations, 40),
        (state_changes, 6),
        (dispatches, 8),
        (commands, 2),
        (links, 4),
        (keyframes, 2),
    ] {
        let bytes = package.finish();
        out.open.put_u32((bytes.len() / unit) as u32);
        out.add(Cow::Owned(bytes));
    }
    out.open.put_u32(count(wad.moveables.len(), "moveables")?);
    out.add(Cow::Owned(moveables));
    put_statics(&mut out.open, wad, layout)?;
    Ok(out.finish())
}

/// Checks that `layout` is one of `wad`: as many moveables, statics and meshes, and packages of
/// whole records.
fn check_layout(wad: &Wad, layout: &Layout) -> Result<(), WriteError> {
    let mismatch = |what: String| WriteError::LayoutMismatch(what);
    if layout.moveables.len() != wad.moveables.len() {
        return Err(mismatch(format!(
            "{} moveables in the model, {} in the layout",
            wad.moveables.len(),
            layout.moveables.len()
        )));
    }
    if layout.statics.len() != wad.statics.len() {
        return Err(mismatch(format!(
            "{} statics in the model, {} in the layout",
            wad.statics.len(),
            layout.statics.len()
        )));
    }
    if layout.mesh_offsets.len() != wad.meshes.len() {
        return Err(mismatch(format!(
            "{} meshes in the model, {} in the layout",
            wad.meshes.len(),
            layout.mesh_offsets.len()
        )));
    }
    for (name, package, unit) in [
        ("meshes", &layout.meshes, 2),
        ("animations", &layout.animations, 40),
        ("state changes", &layout.state_changes, 6),
        ("dispatches", &layout.dispatches, 8),
        ("commands", &layout.commands, 2),
        ("links", &layout.links, 4),
        ("keyframes", &layout.keyframes, 2),
    ] {
        if package.len % unit != 0 || package.len / unit > u32::MAX as usize {
            return Err(mismatch(format!(
                "the {name} package is {} bytes, not a whole number of {unit}-byte units",
                package.len
            )));
        }
    }
    Ok(())
}

/// The sample table: count, then 8 bytes per sample.
fn put_samples(out: &mut Vec<u8>, wad: &Wad) -> Result<(), WriteError> {
    out.put_u32(count(wad.samples.len(), "texture samples")?);
    for (i, s) in wad.samples.iter().enumerate() {
        if !(1..=256).contains(&s.width) || !(1..=256).contains(&s.height) {
            return Err(WriteError::OutOfRange {
                what: format!("sample {i} size {}×{}", s.width, s.height),
                value: s.width.max(s.height) as u64,
                max: 256,
                hint: "samples are 1 to 256 texels wide and high",
            });
        }
        out.extend_from_slice(&[s.x, s.y]);
        out.put_u16(s.page);
        out.extend_from_slice(&[
            s.flip_x as u8,
            (s.width - 1) as u8,
            s.flip_y as u8,
            (s.height - 1) as u8,
        ]);
    }
    Ok(())
}

/// The mesh pointer table and the meshes package: the meshes a pointer names, each at its
/// layout offset.
fn put_meshes(out: &mut Parts, wad: &Wad, layout: &Layout) -> Result<(), WriteError> {
    out.open
        .put_u32(count(layout.mesh_pointers.len(), "mesh pointers")?);
    let mut referenced = vec![false; wad.meshes.len()];
    for &m in &layout.mesh_pointers {
        let offset = *layout.mesh_offsets.get(m).ok_or_else(|| {
            WriteError::LayoutMismatch(format!(
                "a mesh pointer names mesh {m}, the model has {}",
                wad.meshes.len()
            ))
        })?;
        referenced[m] = true;
        out.open.put_u32(offset);
    }
    let mut meshes = PackageWriter::new("meshes", &layout.meshes)?;
    for (i, m) in wad.meshes.iter().enumerate().filter(|(i, _)| referenced[*i]) {
        meshes.put(layout.mesh_offsets[i] as usize, &mesh::encode(m)?)?;
    }
    let meshes = meshes.finish();
    out.open.put_u32((meshes.len() / 2) as u32);
    out.add(Cow::Owned(meshes));
    Ok(())
}

/// The statics table: count, then per static its id, mesh pointer, boxes and flags.
fn put_statics(out: &mut Vec<u8>, wad: &Wad, layout: &Layout) -> Result<(), WriteError> {
    out.put_u32(count(wad.statics.len(), "statics")?);
    for (i, (s, &pointer)) in wad.statics.iter().zip(&layout.statics).enumerate() {
        if layout.mesh_pointers.get(pointer as usize) != Some(&s.mesh) {
            return Err(WriteError::LayoutMismatch(format!(
                "{}: mesh pointer {pointer} does not name mesh {}",
                ObjectName::new(Game::Tr4, ObjectKind::Static, s.id)
                    .in_list(i, wad.statics.iter().map(|s| s.id)),
                s.mesh
            )));
        }
        out.put_u32(s.id);
        out.put_u16(pointer);
        for v in s
            .visibility
            .to_file_order()
            .into_iter()
            .chain(s.collision.to_file_order())
        {
            out.put_i16(v);
        }
        out.put_u16(s.flags);
    }
    Ok(())
}

fn count(n: usize, what: &str) -> Result<u32, WriteError> {
    u32::try_from(n).map_err(|_| WriteError::OutOfRange {
        what: format!("number of {what}"),
        value: n as u64,
        max: u32::MAX as u64,
        hint: "the WAD format cannot hold this many",
    })
}

/// How errors name moveable `i` of `wad` (TR4's catalogue, as WADs are TR4's).
pub(super) fn moveable_name(wad: &Wad, i: usize) -> String {
    ObjectName::new(Game::Tr4, ObjectKind::Moveable, wad.moveables[i].id)
        .in_list(i, wad.moveables.iter().map(|m| m.id))
}

fn in_object(e: WriteError, object: &str) -> WriteError {
    match e {
        WriteError::LayoutMismatch(s) => WriteError::LayoutMismatch(format!("{object}: {s}")),
        WriteError::OutOfRange {
            what,
            value,
            max,
            hint,
        } => WriteError::OutOfRange {
            what: format!("{object}: {what}"),
            value,
            max,
            hint,
        },
        WriteError::Invalid(s) => WriteError::Invalid(format!("{object}: {s}")),
    }
}

/// The hint of a count the WAD's 16-bit fields cannot hold.
const TABLES_FULL: &str = "the WAD's tables cannot hold more";

fn to_u16(v: i64, what: &str, max: u64, hint: &'static str) -> Result<u16, WriteError> {
    u16::try_from(v)
        .ok()
        .filter(|&x| (x as u64) <= max)
        .ok_or(WriteError::OutOfRange {
            what: what.to_string(),
            value: v.max(0) as u64,
            max,
            hint,
        })
}

/// The animation-side tables and packages being filled.
struct Tables {
    animation_count: usize,
    animations: PackageWriter,
    state_changes: PackageWriter,
    dispatches: PackageWriter,
    commands: PackageWriter,
    links: PackageWriter,
    keyframes: PackageWriter,
    moveables: Vec<u8>,
}

impl Tables {
    fn new(layout: &Layout) -> Result<Self, WriteError> {
        Ok(Tables {
            animation_count: layout.animations.len / 40,
            animations: PackageWriter::new("animations", &layout.animations)?,
            state_changes: PackageWriter::new("state changes", &layout.state_changes)?,
            dispatches: PackageWriter::new("dispatches", &layout.dispatches)?,
            commands: PackageWriter::new("commands", &layout.commands)?,
            links: PackageWriter::new("links", &layout.links)?,
            keyframes: PackageWriter::new("keyframes", &layout.keyframes)?,
            moveables: Vec::new(),
        })
    }

    fn moveable(&mut self, m: &Moveable, ml: &MoveableLayout, layout: &Layout) -> Result<(), WriteError> {
        let mismatch = WriteError::LayoutMismatch;
        let first = ml.pointers_index as usize;
        if layout.mesh_pointers.get(first..first + m.meshes.len()) != Some(&m.meshes[..]) {
            return Err(mismatch(format!(
                "mesh pointers {first}.. do not name its meshes"
            )));
        }
        let parents: Vec<usize> = m.links.iter().map(|l| l.parent).collect();
        if ml.link_ops.len() != m.links.len() || parents_from_ops(&ml.link_ops) != parents {
            return Err(mismatch("the link opcodes do not give its hierarchy".into()));
        }
        for (i, (link, &op)) in m.links.iter().zip(&ml.link_ops).enumerate() {
            let mut record = Vec::with_capacity(16);
            record.put_i32(op);
            link.offset.iter().for_each(|&c| record.put_i32(c));
            self.links.put(ml.links_index as usize * 4 + i * 16, &record)?;
        }
        if ml.animations.len() != m.animations.len() || (!m.animations.is_empty() && ml.animations_index < 0)
        {
            return Err(mismatch(
                "its animations are not where the layout puts them".into(),
            ));
        }
        for (k, (a, al)) in m.animations.iter().zip(&ml.animations).enumerate() {
            let first = ml.animations_index as i64;
            self.animation(a, al, (first + k as i64, first), m.meshes.len())
                .map_err(|e| in_object(e, &format!("animation {k}")))?;
        }
        let record = &mut self.moveables;
        record.put_u32(m.id);
        record.put_u16(to_u16(
            m.meshes.len() as i64,
            "meshes in a moveable",
            0xFFFF,
            "use fewer meshes",
        )?);
        record.put_u16(ml.pointers_index);
        record.put_u32(ml.links_index);
        record.put_u32(ml.keyframe_offset);
        record.put_i16(ml.animations_index);
        Ok(())
    }

    /// Writes animation `global` of the table (its moveable's first is `first`; it has `meshes`
    /// meshes): its record, state changes with their dispatches, commands and keyframes, where
    /// `al` places them.
    fn animation(
        &mut self,
        a: &Animation,
        al: &AnimationLayout,
        (global, first): (i64, i64),
        meshes: usize,
    ) -> Result<(), WriteError> {
        let record = self.animation_record(a, al, first)?;
        let at = usize::try_from(global)
            .map_err(|_| WriteError::LayoutMismatch("negative animation index".into()))?;
        self.animations.put(at * 40, &record)?;
        self.state_changes_of(a, al, first)?;
        let mut words = Vec::new();
        for c in &a.commands {
            words.push(c.opcode());
            words.extend(c.operands());
        }
        self.commands
            .put(al.command_offset as usize * 2, &words_to_bytes(&words))?;
        self.keyframes_of(a, al, meshes)
    }

    /// The table index of animation `relative` of the moveable whose first is `first`.
    fn animation_ref(&self, first: i64, relative: i32) -> Result<u16, WriteError> {
        to_u16(
            first + relative as i64,
            "animation reference",
            self.animation_count.saturating_sub(1) as u64,
            "refer to an animation of this object",
        )
    }

    /// The 40-byte animation record.
    fn animation_record(
        &self,
        a: &Animation,
        al: &AnimationLayout,
        first: i64,
    ) -> Result<Vec<u8>, WriteError> {
        let mut record = Vec::with_capacity(40);
        record.put_u32(al.keyframe_offset);
        record.push(a.frame_duration);
        record.push(al.keyframe_size);
        record.put_u16(a.state);
        for f in [a.speed, a.acceleration, a.lateral_speed, a.lateral_acceleration] {
            record.put_i32(f.0);
        }
        record.put_u16(a.frame_start);
        record.put_u16(a.frame_end);
        record.put_u16(self.animation_ref(first, a.next_animation)?);
        record.put_u16(a.next_frame);
        record.put_u16(to_u16(
            a.state_changes.len() as i64,
            "state changes of an animation",
            0xFFFF,
            TABLES_FULL,
        )?);
        record.put_u16(al.state_changes_index);
        record.put_u16(to_u16(
            a.commands.len() as i64,
            "commands of an animation",
            0xFFFF,
            TABLES_FULL,
        )?);
        record.put_u16(al.command_offset);
        Ok(record)
    }

    /// The state change records of `a` and their dispatch records.
    fn state_changes_of(
        &mut self,
        a: &Animation,
        al: &AnimationLayout,
        first: i64,
    ) -> Result<(), WriteError> {
        if al.dispatch_indices.len() != a.state_changes.len() {
            return Err(WriteError::LayoutMismatch(
                "state changes are not where the layout puts them".into(),
            ));
        }
        for (j, (change, &dispatch_index)) in a.state_changes.iter().zip(&al.dispatch_indices).enumerate() {
            let mut r = Vec::with_capacity(6);
            r.put_u16(change.state);
            r.put_u16(to_u16(
                change.dispatches.len() as i64,
                "dispatches of a state change",
                0xFFFF,
                TABLES_FULL,
            )?);
            r.put_u16(dispatch_index);
            self.state_changes
                .put((al.state_changes_index as usize + j) * 6, &r)?;
            for (d, dispatch) in change.dispatches.iter().enumerate() {
                let mut r = Vec::with_capacity(8);
                r.put_u16(dispatch.frame_start);
                r.put_u16(dispatch.frame_end);
                r.put_u16(self.animation_ref(first, dispatch.next_animation)?);
                r.put_u16(dispatch.next_frame);
                self.dispatches.put((dispatch_index as usize + d) * 8, &r)?;
            }
        }
        Ok(())
    }

    /// The keyframes of `a` (of a moveable of `meshes` meshes), each in a record of the layout's
    /// keyframe size; or its words kept as stored where they are its own (no reader could decode
    /// others: the animation then owns no words, see [`crate::UndecodableKeyframes::owns_words`]).
    fn keyframes_of(&mut self, a: &Animation, al: &AnimationLayout, meshes: usize) -> Result<(), WriteError> {
        let size = al.keyframe_size as usize;
        if let Some(stored) = &a.undecodable_keyframes {
            if !a.keyframes.is_empty() || stored.size != al.keyframe_size {
                return Err(WriteError::LayoutMismatch(format!(
                    "keyframe words kept as stored (size {}) beside {} decoded keyframes of size {size}",
                    stored.size,
                    a.keyframes.len()
                )));
            }
            if !stored.owns_words(meshes) {
                return Ok(());
            }
            return self
                .keyframes
                .put(al.keyframe_offset as usize, &words_to_bytes(&stored.words));
        }
        for (k, keyframe) in a.keyframes.iter().enumerate() {
            let words = keyframe_words(keyframe);
            if words.len() > size {
                return Err(WriteError::LayoutMismatch(format!(
                    "keyframe {k} needs {} words, the layout gives {size}",
                    words.len()
                )));
            }
            self.keyframes.put(
                al.keyframe_offset as usize + k * size * 2,
                &words_to_bytes(&words),
            )?;
        }
        Ok(())
    }
}

/// The keyframes package of `wad` laid out by `layout`, alone.
pub(super) fn keyframe_package(wad: &Wad, layout: &Layout) -> Result<Vec<u8>, WriteError> {
    let mut tables = Tables::new(layout)?;
    for (m, ml) in wad.moveables.iter().zip(&layout.moveables) {
        for (a, al) in m.animations.iter().zip(&ml.animations) {
            tables.keyframes_of(a, al, m.meshes.len())?;
        }
    }
    Ok(tables.keyframes.finish())
}

/// A keyframe as stored: box, root offset, then each angle set (no padding).
pub(super) fn keyframe_words(keyframe: &Keyframe) -> Vec<u16> {
    let mut words: Vec<u16> = keyframe
        .bounding_box
        .to_file_order()
        .iter()
        .map(|&v| v as u16)
        .collect();
    words.extend(keyframe.offset.iter().map(|&v| v as u16));
    keyframe
        .rotations
        .iter()
        .for_each(|r| angles::encode(r, &mut words));
    words
}

fn words_to_bytes(words: &[u16]) -> Vec<u8> {
    words.iter().flat_map(|w| w.to_le_bytes()).collect()
}
