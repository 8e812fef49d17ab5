//! Level models → moveables: one per model, animations from its first to the next model's first
//! (indices made relative to the moveable), mesh-tree links, frames in the game's encoding
//! ([`super::frames`]).

use std::cell::Cell;

use wadforge_model::catalog::Game;
use wadforge_model::{Animation, Moveable, ObjectKind, ObjectName};

use super::error::LevelError;
use super::frames::{FrameRange, Frames};
use super::tables::{ObjectTables, Tables};
use crate::mesh_draws::MeshDraws;
use crate::records::{self, AnimationTables, Coverage, Covered, ModelRecord};

/// The moveables of `t`, whose mesh pointers name the meshes `mesh_of_pointer` gives.
pub(super) fn read_moveables(
    t: &Tables,
    mesh_of_pointer: &[usize],
    draws: &mut MeshDraws,
) -> Result<Vec<Moveable>, LevelError> {
    let o = &t.objects;
    let d = Decoder {
        o,
        tables: AnimationTables::new(
            o.animations,
            (o.state_changes, o.dispatches, o.commands),
            (o.animation_count, matches!(t.game, Game::Tr4 | Game::Tr5)),
            t.file_len,
        ),
        frames: Frames {
            game: t.game,
            data: o.frames,
            fill_budget: Cell::new(t.file_len / 2),
            decodable: crate::records::keyframe_words_decodable(o.frames.len() / 2, t.file_len),
        },
    };
    let records: Vec<ModelRecord> = (0..o.model_count)
        .map(|i| ModelRecord::read(&o.models, i))
        .collect::<Result<_, _>>()?;
    let first_animations = ModelRecord::first_animations(&records);
    let mut moveables = Vec::with_capacity(records.len());
    for r in &records {
        let m = d
            .moveable(r, mesh_of_pointer, &first_animations)
            .and_then(|m| {
                draws.draw(&o.models, r.pointer_field_at(), &m.meshes)?;
                Ok(m)
            })
            .map_err(|e| e.within(|| ObjectName::new(t.game, ObjectKind::Moveable, r.id).to_string()))?;
        moveables.push(m);
    }
    Ok(moveables)
}

struct Decoder<'a, 'o> {
    o: &'o ObjectTables<'a>,
    tables: AnimationTables<'a, LevelError>,
    frames: Frames<'a>,
}

impl Decoder<'_, '_> {
    fn moveable(
        &self,
        r: &ModelRecord,
        mesh_of_pointer: &[usize],
        first_animations: &[usize],
    ) -> Result<Moveable, LevelError> {
        let models = &self.o.models;
        let meshes = r.meshes(models, mesh_of_pointer)?;
        let field = (models, r.at + 8, "mesh tree index (in 32-bit words)");
        let link_count = meshes.len().saturating_sub(1);
        let (links, _) = records::links(
            &self.o.mesh_trees,
            r.first_link,
            link_count,
            field,
            &mut Coverage::default(),
        )?;
        let range = r.animations(models, first_animations, self.o.animation_count)?;
        let start = range.start;
        let animations = range
            .map(|g| {
                self.animation(g, start, meshes.len())
                    .map_err(|e| e.within(|| format!("animation {} (#{g} in the table)", g - start)))
            })
            .collect::<Result<_, _>>()?;
        Ok(Moveable {
            id: r.id,
            meshes: meshes.to_vec(),
            links,
            animations,
        })
    }

    fn animation(&self, g: usize, first: usize, mesh_count: usize) -> Result<Animation, LevelError> {
        let r = self.tables.record(g)?;
        let mut animation = self
            .tables
            .animation(&r, first, &mut Covered::default())?
            .animation;
        self.tables.check_frame_offset(&r, &self.o.frames)?;
        let range = FrameRange {
            offset: r.frame_offset as usize,
            size: r.frame_size,
            count: animation.played_keyframes(),
        };
        animation.keyframes = self.frames.keyframes(&range, mesh_count)?;
        Ok(animation)
    }
}
