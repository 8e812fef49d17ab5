//! WAD file → model + layout.

use wadforge_model::catalog::Game;
use wadforge_model::{
    Animation, Mesh, Moveable, ObjectKind, ObjectName, Page, Sample, Static, UndecodableKeyframes, Wad,
    PAGE_BYTES,
};

use super::bytes::{Cursor, View};
use super::error::{Problem, ReadError, Section};
use super::layout::{AnimationLayout, Layout, MoveableLayout};
use super::mesh;
use crate::angles::AngleWords;
use crate::mesh_draws::MeshDraws;
use crate::records::{
    self, AnimationRecord, AnimationTables, BrokenKeyframe, Covered, KeyframeRun, MeshTable, ModelRecord,
    DISPATCH_SIZE, MODEL_SIZE, STATE_CHANGE_SIZE, STATIC_SIZE,
};

/// Decodes a WAD in stages: its sections, the pages and samples, the meshes, the moveables, the
/// statics, then the layout of what the objects covered.
pub(crate) fn read(bytes: &[u8]) -> Result<(Wad, Layout), ReadError> {
    let sections = Sections::walk(bytes)?;
    let pages: Vec<Page> = sections
        .texture
        .bytes
        .chunks_exact(PAGE_BYTES)
        .map(|rgb| Page::from_rgb(rgb.to_vec()).expect("chunks_exact yields whole pages"))
        .collect();
    let texture_tail = sections.texture.bytes[pages.len() * PAGE_BYTES..].to_vec();
    let samples = read_samples(&sections.samples, pages.len())?;
    crate::sample_texels::check(&samples, pages.len()).map_err(|e| {
        let problem = Problem::TooMuchWork(crate::TooMuchWork::SampleTexels {
            texels: e.texels,
            allowed: e.allowed,
        });
        sections
            .samples
            .error(e.sample * 8, problem)
            .within(|| format!("sample {}", e.sample))
    })?;

    let tables = AnimationTables::new(
        sections.animations,
        (sections.state_changes, sections.dispatches, sections.commands),
        (sections.animation_count, true),
        usize::MAX, // the tables are the file's own bytes
    );
    let mut d = Decoder {
        own_keyframe_data: own_keyframe_data(&tables, &sections.keyframes)?,
        read_on: READ_ON_PER_WORD * sections.keyframes.len() / 2,
        keyframe_words_decodable: records::keyframe_words_decodable(sections.keyframes.len() / 2, usize::MAX),
        tables,
        links: sections.links,
        keyframes: sections.keyframes,
        covered: Covered::default(),
    };
    let MeshTable {
        meshes,
        offsets: mesh_offsets,
        mesh_of_pointer: mesh_pointers,
    } = d.meshes(&sections.meshes, &sections.pointers, samples.len())?;
    let mut draws = MeshDraws::new(&meshes);
    let (moveables, moveable_layouts) = d.moveables(&sections, &mesh_pointers, &mut draws)?;
    let (statics, static_layouts) = read_statics(&sections, &mesh_pointers, &mut draws)?;

    let covered = d.covered;
    let layout = Layout {
        texture_tail,
        mesh_pointers,
        mesh_offsets,
        meshes: covered.meshes.into_package(sections.meshes.bytes),
        animations: covered.animations.into_package(d.tables.animations.bytes),
        state_changes: covered.state_changes.into_package(d.tables.state_changes.bytes),
        dispatches: covered.dispatches.into_package(d.tables.dispatches.bytes),
        commands: covered.commands.into_package(d.tables.commands.bytes),
        links: covered.links.into_package(d.links.bytes),
        keyframes: covered.keyframes.into_package(d.keyframes.bytes),
        moveables: moveable_layouts,
        statics: static_layouts,
    };
    let wad = Wad {
        version: sections.version,
        samples,
        pages,
        meshes,
        moveables,
        statics,
    };
    Ok((wad, layout))
}

/// The sections of a WAD file, in file order.
struct Sections<'a> {
    version: u32,
    samples: View<'a>,
    texture: View<'a>,
    pointers: View<'a>,
    meshes: View<'a>,
    animation_count: usize,
    animations: View<'a>,
    state_changes: View<'a>,
    dispatches: View<'a>,
    commands: View<'a>,
    links: View<'a>,
    keyframes: View<'a>,
    moveable_count: usize,
    moveables: View<'a>,
    static_count: usize,
    statics: View<'a>,
}

impl<'a> Sections<'a> {
    /// Walks the file: the version (129 or 130), then each table or package, each bounds-checked
    /// against the bytes left; nothing may follow the statics.
    fn walk(bytes: &'a [u8]) -> Result<Self, ReadError> {
        let mut c = Cursor::new(bytes);
        let version = c.u32(Section::Version)?;
        if !super::VERSIONS.contains(&version) {
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
        let (animation_count, animations) =
            c.table("animations", AnimationRecord::size(true), Section::Animations)?;
        let (_, state_changes) = c.table("state changes", STATE_CHANGE_SIZE, Section::StateChanges)?;
        let (_, dispatches) = c.table("dispatches", DISPATCH_SIZE, Section::Dispatches)?;
        let commands = c.package("command words", 2, Section::Commands)?;
        let links = c.package("link words", 4, Section::Links)?;
        let keyframes = c.package("keyframe words", 2, Section::Keyframes)?;
        let (moveable_count, moveables) = c.table("moveables", MODEL_SIZE, Section::Moveables)?;
        let (static_count, statics) = c.table("statics", STATIC_SIZE, Section::Statics)?;
        if c.remaining() > 0 {
            return Err(ReadError {
                section: Section::Statics,
                offset: c.pos as u64,
                context: None,
                problem: Problem::TrailingBytes(c.remaining() as u64),
            });
        }
        Ok(Sections {
            version,
            samples,
            texture,
            pointers,
            meshes,
            animation_count,
            animations,
            state_changes,
            dispatches,
            commands,
            links,
            keyframes,
            moveable_count,
            moveables,
            static_count,
            statics,
        })
    }
}

/// The statics and the mesh pointer each names.
fn read_statics(
    sections: &Sections,
    mesh_pointers: &[usize],
    draws: &mut MeshDraws,
) -> Result<(Vec<Static>, Vec<u16>), ReadError> {
    let mut statics = Vec::with_capacity(sections.static_count);
    let mut layouts = Vec::with_capacity(sections.static_count);
    for i in 0..sections.static_count {
        let (record, pointer) = records::static_record(&sections.statics, i, mesh_pointers, Game::Tr4)?;
        draws
            .draw(&sections.statics, records::static_pointer_at(i), &[record.mesh])
            .map_err(|e| {
                e.within(|| ObjectName::new(Game::Tr4, ObjectKind::Static, record.id).to_string())
            })?;
        statics.push(record);
        layouts.push(pointer);
    }
    Ok((statics, layouts))
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

/// The animation-side tables and packages, and what of them the objects explain.
struct Decoder<'a> {
    tables: AnimationTables<'a, ReadError>,
    links: View<'a>,
    keyframes: View<'a>,
    /// Each animation's own keyframe data (see [`own_keyframe_data`]).
    own_keyframe_data: Vec<std::ops::Range<usize>>,
    /// Keyframe words the animations may still read past their own data, in data stored for
    /// others: a few times the keyframe data, far more than files that share keyframes need.
    read_on: usize,
    /// Keyframe words all animations may still decode, their own included.
    keyframe_words_decodable: std::cell::Cell<usize>,
    covered: Covered,
}

/// How many times over the animations may read the keyframe data past their own.
const READ_ON_PER_WORD: usize = 4;

/// The byte range of each animation's own keyframe data, by the WAD document's rule: from its
/// offset to the offset of the next animation with keyframes (or the package end). This is what
/// other tools (TombLib, wadblender) read for it. Animations that share keyframes with a later
/// one (same offset) own none; so do animations without keyframes.
fn own_keyframe_data(
    tables: &AnimationTables<ReadError>,
    keyframes: &View,
) -> Result<Vec<std::ops::Range<usize>>, ReadError> {
    let n = tables.animation_count;
    let mut own = vec![0..0; n];
    let mut next_start = keyframes.len();
    for a in (0..n).rev() {
        let r = tables.record(a)?;
        let offset = r.frame_offset as usize;
        if r.frame_size > 0 {
            let end = next_start.min(keyframes.len());
            own[a] = offset.min(end)..end;
            next_start = offset;
        }
    }
    Ok(own)
}

impl Decoder<'_> {
    /// The meshes, one per distinct pointer offset; the bytes each takes count as covered.
    fn meshes(
        &mut self,
        meshes: &View,
        pointers: &View,
        sample_count: usize,
    ) -> Result<MeshTable<Mesh>, ReadError> {
        let covered_meshes = &mut self.covered.meshes;
        records::mesh_table(meshes, pointers, |offset| {
            let decoded = mesh::decode(meshes, offset, sample_count)?;
            covered_meshes.cover(offset, decoded.data_end - offset);
            Ok((decoded.mesh, decoded.end))
        })
    }

    /// The moveables and where their records sit.
    fn moveables(
        &mut self,
        sections: &Sections,
        mesh_pointers: &[usize],
        draws: &mut MeshDraws,
    ) -> Result<(Vec<Moveable>, Vec<MoveableLayout>), ReadError> {
        let view = &sections.moveables;
        let records: Vec<ModelRecord> = (0..sections.moveable_count)
            .map(|i| ModelRecord::read(view, i))
            .collect::<Result<_, _>>()?;
        let first_animations = ModelRecord::first_animations(&records);
        let mut moveables = Vec::with_capacity(sections.moveable_count);
        let mut layouts = Vec::with_capacity(sections.moveable_count);
        for record in &records {
            let (m, l) = self
                .moveable(record, view, mesh_pointers, &first_animations)
                .and_then(|(m, l)| {
                    draws.draw(view, record.pointer_field_at(), &m.meshes)?;
                    Ok((m, l))
                })
                .map_err(|e| {
                    e.within(|| ObjectName::new(Game::Tr4, ObjectKind::Moveable, record.id).to_string())
                })?;
            moveables.push(m);
            layouts.push(l);
        }
        Ok((moveables, layouts))
    }

    fn moveable(
        &mut self,
        r: &ModelRecord,
        view: &View,
        mesh_pointers: &[usize],
        first_animations: &[usize],
    ) -> Result<(Moveable, MoveableLayout), ReadError> {
        let meshes = r.meshes(view, mesh_pointers)?;
        let link_count = meshes.len().saturating_sub(1);
        let field = (view, r.at + 8, "link index (in 32-bit words)");
        let (links, link_ops) = records::links(
            &self.links,
            r.first_link,
            link_count,
            field,
            &mut self.covered.links,
        )?;

        let range = r.animations(view, first_animations, self.tables.animation_count)?;
        let start = range.start;
        let mut animations = Vec::with_capacity(range.len());
        let mut animation_layouts = Vec::with_capacity(range.len());
        for g in range {
            let (a, l) = self
                .animation(g, start, meshes.len())
                .map_err(|e| e.within(|| format!("animation {} (#{g} in the table)", g - start)))?;
            animations.push(a);
            animation_layouts.push(l);
        }

        let moveable = Moveable {
            id: r.id,
            meshes: meshes.to_vec(),
            links,
            animations,
        };
        let layout = MoveableLayout {
            pointers_index: r.first_pointer,
            links_index: r.first_link,
            link_ops,
            keyframe_offset: r.keyframe_offset,
            animations_index: r.first_animation,
            animations: animation_layouts,
        };
        Ok((moveable, layout))
    }

    /// Decodes animation `g` of the table for a moveable whose animations start at `first`.
    fn animation(
        &mut self,
        g: usize,
        first: usize,
        mesh_count: usize,
    ) -> Result<(Animation, AnimationLayout), ReadError> {
        let r = self.tables.record(g)?;
        let decoded = self.tables.animation(&r, first, &mut self.covered)?;
        let mut animation = decoded.animation;
        if r.frame_size > 0 {
            self.tables.check_frame_offset(&r, &self.keyframes)?;
            self.keyframes_of(&mut animation, &r, g, mesh_count)?;
        }
        let layout = AnimationLayout {
            keyframe_offset: r.frame_offset,
            keyframe_size: r.frame_size,
            state_changes_index: r.change_index,
            dispatch_indices: decoded.dispatch_indices,
            command_offset: r.command_offset,
        };
        Ok((animation, layout))
    }

    /// The keyframes the game plays for `animation` (record `r`, `g` in the table), decoded with
    /// its own keyframe size from wherever they are stored: several animations may share one
    /// stretch of keyframe data. When they do not all decode, the animation's words are kept as
    /// stored instead.
    fn keyframes_of(
        &mut self,
        animation: &mut Animation,
        r: &AnimationRecord,
        g: usize,
        mesh_count: usize,
    ) -> Result<(), ReadError> {
        let size = r.frame_size as usize;
        let own = self.own_keyframe_data[g].clone();
        let run = KeyframeRun {
            offset: r.frame_offset as usize,
            size_words: size,
            count: animation.played_keyframes(),
            own: own.len() / (2 * size),
            broken: BrokenKeyframe::EndsRun,
            mesh_count,
            angle_words: AngleWords::Tr4,
        };
        // What the keyframes cover counts only if they all decode: otherwise the words kept
        // are what the animation explains, and bytes past them stay gaps to write back.
        let mut covered = crate::records::Coverage::default();
        let keyframes = records::keyframes(
            &self.keyframes,
            &run,
            &mut covered,
            &mut self.read_on,
            &self.keyframe_words_decodable,
        )?;
        if keyframes.len() == run.count {
            animation.keyframes = keyframes;
            self.covered.keyframes.ranges.extend(covered.ranges);
            return Ok(());
        }
        // Its own words, which other tools read for it, kept where they decode as keyframes (its
        // played ones run past the data); otherwise it owns none the model keeps: the bytes stay
        // gaps of the layout, and a canonical write puts it on the next animation's start.
        let word_count = own.len() / 2;
        // Charged like decoding them: a damaged file may give many animations one long stretch.
        if !records::take(&self.keyframe_words_decodable, word_count) {
            return Err(self.keyframes.error(
                own.start,
                Problem::TooMuchWork(crate::TooMuchWork::KeyframeDecodings),
            ));
        }
        let bytes = self.keyframes.slice(own.start, word_count * 2)?;
        let mut stored = UndecodableKeyframes {
            size: r.frame_size,
            words: bytes
                .chunks_exact(2)
                .map(|b| u16::from_le_bytes([b[0], b[1]]))
                .collect(),
        };
        if stored.owns_words(mesh_count) {
            self.covered.keyframes.cover(own.start, word_count * 2);
        } else {
            stored.words.clear();
        }
        animation.undecodable_keyframes = Some(stored);
        Ok(())
    }
}
