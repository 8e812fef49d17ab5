//! Walked level tables (TR1–TR4) → model, in stages:
//!
//! - object textures: read and checked against the textiles;
//! - pages: the textiles ([`super::pages`]); then, when coloured faces occur (TR1–TR3), one page
//!   of 4×4 solid cells, colour `i` at `(i % 64 · 4, i / 64 · 4)`;
//! - meshes and their samples ([`super::meshes`]);
//! - moveables ([`super::moveables`]);
//! - statics: one per static mesh, boxes in file order.

use wadforge_model::catalog::Game;
use wadforge_model::skewed::SkewedCorners;
use wadforge_model::{ObjectKind, ObjectName, Static, Wad};

use super::appended::Appended;
use super::error::{LevelError, Problem};
use super::meshes::{self, LevelMeshes};
use super::moveables;
use super::pages;
use super::sounds::{self, LevelSounds};
use super::tables::{Tables, OBJECT_TEXTURE_SIZE, TR4_OBJECT_TEXTURE_SIZE};
use super::texture::ObjectTexture;
use crate::mesh_draws::MeshDraws;
use crate::records;

/// A level's objects in the WAD model.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Level {
    /// The game the file belongs to; object ids keep that game's meaning.
    pub game: Game,
    /// The version word of the file.
    pub version: u32,
    /// The objects: pages (TR1's textiles through the palette, TR2/TR3's 16-bit textiles, TR4's
    /// 32-bit ones, plus one page of solid colours when coloured faces occur), samples, meshes, moveables and statics. `wad.version` is
    /// [`Wad::VERSION`] so the model can be written as a WAD as it is.
    pub wad: Wad,
    /// Polygons whose object texture is not an axis-aligned rectangle in a legal WAD arrangement
    /// (skewed or twisted mappings), with their exact corners; each got a sample from the
    /// bounding rectangle of its UV corners with shape 0, unflipped: an approximation that a
    /// later step resamples.
    pub skewed: SkewedCorners,
    /// Data an engine appended after the level proper (TRX's injections), passed over.
    pub appended: Option<Appended>,
    /// The level's own sounds (its sound map and details); `None` where they are not read (TR5).
    pub sounds: Option<LevelSounds>,
}

/// Builds the model of a walked file.
pub(super) fn build(t: &Tables) -> Result<Level, LevelError> {
    let object_textures = object_textures(t)?;
    // The textiles as pages, and the palette coloured faces index.
    let (mut pages, palette) = pages::pages(t, &object_textures);
    let LevelMeshes {
        meshes,
        mesh_of_pointer,
        samples,
        skewed,
        any_colour,
    } = meshes::read_meshes(t, &object_textures, pages.len() as u16)?;
    if any_colour {
        pages.push(pages::colour_page(&palette));
    }
    // The samples come from the object textures: the error points at their table.
    crate::sample_texels::check(&samples, pages.len()).map_err(|e| {
        let problem = Problem::TooMuchWork(crate::TooMuchWork::SampleTexels {
            texels: e.texels,
            allowed: e.allowed,
        });
        t.object_textures.error(0, problem)
    })?;
    let mut draws = MeshDraws::new(&meshes);
    let moveables = moveables::read_moveables(t, &mesh_of_pointer, &mut draws)?;
    let statics = read_statics(t, &mesh_of_pointer, &mut draws)?;
    Ok(Level {
        game: t.game,
        version: t.version,
        wad: Wad {
            version: Wad::VERSION,
            samples,
            pages,
            meshes,
            moveables,
            statics,
        },
        skewed,
        appended: t.appended.clone(),
        sounds: t.sounds.as_ref().map(|s| sounds::read(s, t.game)).transpose()?,
    })
}

/// The object textures of `t`, each checked to name one of its textiles.
fn object_textures(t: &Tables) -> Result<Vec<ObjectTexture>, LevelError> {
    let object_textures: Vec<ObjectTexture> = if matches!(t.game, Game::Tr4 | Game::Tr5) {
        t.object_textures
            .bytes
            .chunks_exact(TR4_OBJECT_TEXTURE_SIZE)
            .map(ObjectTexture::from_tr4_bytes)
            .collect()
    } else {
        t.object_textures
            .bytes
            .chunks_exact(OBJECT_TEXTURE_SIZE)
            .map(ObjectTexture::from_bytes)
            .collect()
    };
    let object_texture_size = t.object_textures.len() / object_textures.len().max(1);
    let tile_count = t.textile_count;
    for (i, o) in object_textures.iter().enumerate() {
        if o.tile as usize >= tile_count {
            return Err(t.object_textures.error(
                i * object_texture_size + 2,
                Problem::IndexOutOfRange {
                    what: "textile",
                    index: o.tile as u64,
                    len: tile_count as u64,
                },
            ));
        }
    }
    Ok(object_textures)
}

/// The statics of `t`, one per static mesh.
fn read_statics(
    t: &Tables,
    mesh_of_pointer: &[usize],
    draws: &mut MeshDraws,
) -> Result<Vec<Static>, LevelError> {
    let view = &t.objects.statics;
    (0..t.objects.static_count)
        .map(|i| {
            let (s, _) = records::static_record(view, i, mesh_of_pointer, t.game)?;
            draws
                .draw(view, records::static_pointer_at(i), &[s.mesh])
                .map_err(|e| e.within(|| ObjectName::new(t.game, ObjectKind::Static, s.id).to_string()))?;
            Ok(s)
        })
        .collect()
}
