//! The canonical layout of a model: meshes deduplicated by content, each moveable's links,
//! animations, state changes, dispatches, commands and keyframes contiguous and in order.
//!
//! Every animation with keyframes gets words of its own, right after the previous one's, so
//! keyframe offsets increase in table order and the WAD document's count (the distance to the
//! next animation's offset over twice the keyframe size), which TombLib's WadTool, wadblender and
//! older tools use, gives exactly the keyframes the game plays. Files by Core's tools share
//! keyframe words between animations; no keyframe data is shared here, since those tools then
//! read some animations short or across another's keyframes.
//!
//! Animations no reader can decode ([`crate::UndecodableKeyframes`]) are the exception, laid out
//! as Core's tools laid them: one whose words are its own (its played keyframes run past the
//! data) keeps them in its place; any other starts on the next animation's first word with no
//! words of its own, so the document's count gives it none and every reader skips it (given
//! words of its own, readers would decode garbage keyframes and run off the data's end).

use std::collections::HashMap;

use wadforge_model::links::ops_from_parents;
use wadforge_model::{Animation, Mesh, MeshIndex, Moveable, Wad};

use super::error::WriteError;
use super::layout::{AnimationLayout, Layout, MoveableLayout, Package};
use super::mesh;
use super::writer::{keyframe_words, moveable_name};

/// The canonical layout of `wad`: its meshes placed, then each moveable's records after the
/// previous one's, then the statics' mesh pointers.
pub(crate) fn layout(wad: &Wad) -> Result<Layout, WriteError> {
    let MeshPlacement {
        mesh_offsets,
        mesh_pointers,
        meshes_len,
    } = place_meshes(wad)?;
    let mut next = Cursors::default();
    let mut moveables = Vec::with_capacity(wad.moveables.len());
    let mut pointer = 0usize;
    for (i, m) in wad.moveables.iter().enumerate() {
        let object = || moveable_name(wad, i);
        let pointers_index = pointer;
        pointer += m.meshes.len();
        moveables.push(next.moveable(m, pointers_index, &object)?);
    }
    let statics = (0..wad.statics.len())
        .map(|i| to_u16(pointer + i, "mesh pointers before this static"))
        .collect::<Result<_, _>>()?;
    // Tables cannot be longer than their u16 indices reach plus their own last records.
    let plain = |len: usize| Package {
        len,
        gaps: Vec::new(),
    };
    Ok(Layout {
        texture_tail: Vec::new(),
        mesh_pointers,
        mesh_offsets: mesh_offsets.into_iter().map(|o| o.unwrap_or(0)).collect(),
        meshes: plain(meshes_len),
        animations: plain(next.animations * 40),
        state_changes: plain(next.state_changes * 6),
        dispatches: plain(next.dispatches * 8),
        commands: plain(next.command_words * 2),
        links: plain(next.link_words * 4),
        keyframes: plain(next.keyframe_words * 2),
        moveables,
        statics,
    })
}

/// Where the meshes go: one mesh pointer per object mesh, in object order, and each mesh at the
/// offset of the first mesh of the same content.
struct MeshPlacement {
    /// The offset of each mesh of the model, `None` for meshes no object names.
    mesh_offsets: Vec<Option<u32>>,
    mesh_pointers: Vec<MeshIndex>,
    /// Bytes of the meshes package.
    meshes_len: usize,
}

fn place_meshes(wad: &Wad) -> Result<MeshPlacement, WriteError> {
    let mut mesh_offsets: Vec<Option<u32>> = vec![None; wad.meshes.len()];
    let mut by_content: HashMap<&Mesh, u32> = HashMap::new();
    let mut meshes_len = 0usize;
    let mut mesh_pointers = Vec::new();
    let references = wad
        .moveables
        .iter()
        .flat_map(|m| m.meshes.iter())
        .chain(wad.statics.iter().map(|s| &s.mesh));
    for &index in references {
        let mesh = wad.meshes.get(index).ok_or_else(|| {
            WriteError::Invalid(format!(
                "an object names mesh {index}, but there are {} meshes",
                wad.meshes.len()
            ))
        })?;
        if mesh_offsets[index].is_none() {
            let offset = *by_content.entry(mesh).or_insert_with(|| {
                let offset = meshes_len as u32;
                meshes_len += mesh::encoded_size(mesh);
                offset
            });
            mesh_offsets[index] = Some(offset);
        }
        mesh_pointers.push(index);
    }
    if meshes_len > u32::MAX as usize {
        return Err(out_of_range(
            "bytes of mesh data",
            meshes_len,
            u32::MAX as usize,
            "use fewer or smaller meshes",
        ));
    }
    Ok(MeshPlacement {
        mesh_offsets,
        mesh_pointers,
        meshes_len,
    })
}

/// The link opcodes of `m`'s mesh tree, which must be in depth-first order; `object` names it.
fn link_ops(m: &Moveable, object: &dyn Fn() -> String) -> Result<Vec<i32>, WriteError> {
    let parents: Vec<usize> = m.links.iter().map(|l| l.parent).collect();
    if m.links.len() != m.meshes.len().saturating_sub(1) {
        return Err(WriteError::Invalid(format!(
            "{}: {} links for {} meshes (a moveable has one link per mesh after the root)",
            object(),
            m.links.len(),
            m.meshes.len()
        )));
    }
    ops_from_parents(&parents).map_err(|mesh| {
        WriteError::Invalid(format!(
            "{}: mesh {mesh} hangs from mesh {}, which a depth-first mesh order cannot reach at that point; \
             order the meshes depth-first",
            object(),
            parents.get(mesh - 1).copied().unwrap_or(0)
        ))
    })
}

/// Where the next record of each table or package goes.
#[derive(Default)]
struct Cursors {
    animations: usize,
    state_changes: usize,
    dispatches: usize,
    command_words: usize,
    link_words: usize,
    keyframe_words: usize,
}

impl Cursors {
    /// The layout of moveable `m` (`object` names it), whose mesh pointers start at
    /// `pointers_index`: its links, animations and keyframes go where the cursors are.
    fn moveable(
        &mut self,
        m: &Moveable,
        pointers_index: usize,
        object: &dyn Fn() -> String,
    ) -> Result<MoveableLayout, WriteError> {
        let link_ops = link_ops(m, object)?;
        let links_index = self.link_words;
        self.link_words += link_ops.len() * 4;

        let animations_index = if m.animations.is_empty() {
            -1
        } else {
            i16::try_from(self.animations).map_err(|_| {
                out_of_range(
                    "animations before this moveable's",
                    self.animations,
                    i16::MAX as usize,
                    "use fewer animations",
                )
            })?
        };
        let keyframe_offset = self.keyframe_words * 2;
        let animations = m
            .animations
            .iter()
            .map(|a| self.animation(a, m.meshes.len(), object))
            .collect::<Result<_, _>>()?;
        Ok(MoveableLayout {
            pointers_index: to_u16(pointers_index, "mesh pointers before this moveable")?,
            links_index: to_u32(links_index, "link words")?,
            link_ops,
            keyframe_offset: to_u32(keyframe_offset, "bytes of keyframes")?,
            animations_index,
            animations,
        })
    }

    /// The layout of animation `a` of a moveable of `meshes` meshes: its records and its
    /// keyframes go where the cursors are.
    fn animation(
        &mut self,
        a: &Animation,
        meshes: usize,
        object: &dyn Fn() -> String,
    ) -> Result<AnimationLayout, WriteError> {
        let (keyframe_size, keyframe_words) = keyframe_extent(a, meshes, object)?;
        let state_changes_index = to_u16(self.state_changes, "state changes before this animation")?;
        let mut dispatch_indices = Vec::with_capacity(a.state_changes.len());
        for change in &a.state_changes {
            dispatch_indices.push(to_u16(self.dispatches, "dispatches before this state change")?);
            self.dispatches += change.dispatches.len();
        }
        self.state_changes += a.state_changes.len();
        let command_offset = to_u16(self.command_words, "command words before this animation")?;
        self.command_words += a.commands.iter().map(|c| 1 + c.operands().len()).sum::<usize>();
        // An animation without keyframe words points at the end of the data so far: where the
        // next animation with keyframes starts.
        let keyframe_offset = self.keyframe_words;
        self.keyframe_words += keyframe_words;
        self.animations += 1;
        Ok(AnimationLayout {
            keyframe_offset: to_u32(keyframe_offset * 2, "bytes of keyframes")?,
            keyframe_size,
            state_changes_index,
            dispatch_indices,
            command_offset,
        })
    }
}

/// The keyframe size (words) of animation `a`, of a moveable of `meshes` meshes, and the words
/// its keyframes take: its longest keyframe, each keyframe padded to it; or its keyframe words
/// kept as stored, where they are its own (none otherwise).
fn keyframe_extent(
    a: &Animation,
    meshes: usize,
    object: &dyn Fn() -> String,
) -> Result<(u8, usize), WriteError> {
    if let Some(stored) = &a.undecodable_keyframes {
        if !a.keyframes.is_empty() {
            return Err(WriteError::Invalid(format!(
                "{}: an animation has both decoded keyframes and keyframe words kept as stored",
                object()
            )));
        }
        let own = if stored.owns_words(meshes) {
            stored.words.len()
        } else {
            0
        };
        return Ok((stored.size, own));
    }
    let size = a
        .keyframes
        .iter()
        .map(|k| keyframe_words(k).len())
        .max()
        .unwrap_or(0);
    let size = u8::try_from(size).map_err(|_| {
        out_of_range(
            &format!("{}: words per keyframe", object()),
            size,
            u8::MAX as usize,
            "a keyframe holds at most 123 three-axis rotations: use fewer meshes",
        )
    })?;
    Ok((size, a.keyframes.len() * size as usize))
}

fn out_of_range(what: &str, value: usize, max: usize, hint: &'static str) -> WriteError {
    WriteError::OutOfRange {
        what: what.to_string(),
        value: value as u64,
        max: max as u64,
        hint,
    }
}

fn to_u16(v: usize, what: &str) -> Result<u16, WriteError> {
    u16::try_from(v).map_err(|_| {
        out_of_range(
            what,
            v,
            u16::MAX as usize,
            "the WAD's 16-bit indices cannot reach further",
        )
    })
}

fn to_u32(v: usize, what: &str) -> Result<u32, WriteError> {
    u32::try_from(v).map_err(|_| {
        out_of_range(
            what,
            v,
            u32::MAX as usize,
            "the WAD's 32-bit offsets cannot reach further",
        )
    })
}
