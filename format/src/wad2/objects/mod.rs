//! A Wad2 [`Document`]'s objects as the model's ([`Wad`]), for every command that reads objects:
//! textures copied whole onto pages, polygons textured by the samples round their corners (those
//! no classic arrangement gives kept among the [`SkewedCorners`], as a level's are), meshes and
//! keyframes with Y negated and rounded to 16-bit words, bones as links, animations on each
//! moveable's timeline. Ids stay the file's own (the catalogue of its game names them).
//!
//! What the model cannot hold is counted per object in [`Wad2Objects::losses`], never dropped
//! unsaid.

pub(crate) mod animations;
pub(crate) mod losses;
pub(crate) mod meshes;
mod pages;

pub use losses::{Loss, LossKind};

use wadforge_model::catalog::Game;
use wadforge_model::links;
use wadforge_model::skewed::{Gathering, SkewedCorners};
use wadforge_model::{BoundingBox, Link, Moveable, Static, Wad};

use crate::level::texture::Samples;
use crate::wad2::document::{self, Document};
use losses::Losses;
use meshes::{point, DistinctMeshes, MeshMapping};

/// The model of a Wad2's objects, and what it could not hold.
#[derive(Debug, Clone)]
pub struct Wad2Objects {
    pub model: Wad,
    pub skewed: SkewedCorners,
    pub losses: Vec<Loss>,
}

/// What keeps a Wad2's objects from the model: the place (object, mesh, polygon) and why.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("Wad2 {place}: {problem}; the file is damaged: open and save it in WadTool")]
pub struct ObjectError {
    pub place: String,
    pub problem: String,
}

impl ObjectError {
    fn texture(index: usize, problem: &str) -> ObjectError {
        ObjectError {
            place: format!("texture {index}"),
            problem: problem.to_owned(),
        }
    }

    /// Polygon `polygon` of model mesh `mesh`.
    fn polygon((mesh, polygon): (usize, usize), problem: String) -> ObjectError {
        ObjectError {
            place: format!("mesh {mesh}, polygon {polygon}"),
            problem,
        }
    }
}

/// The game whose catalogue names a Wad2's objects: the one its W2SuggestedGameVersion names;
/// a file that names no game (or a code no catalogue has) reads as TRLE's TR4 ids.
pub fn game_of(document: &Document) -> Game {
    document
        .game_version
        .and_then(Game::from_wad2_version)
        .unwrap_or(Game::Tr4)
}

/// Maps `document`'s moveables and statics into the model.
pub fn to_model(document: &Document) -> Result<Wad2Objects, ObjectError> {
    let (pages, placements) = pages::place(&document.textures, &texture_use(document))?;
    let mut mapping = MeshMapping {
        placements: &placements,
        samples: Samples::default(),
        skewed: Gathering::default(),
        losses: Losses::default(),
        distinct: DistinctMeshes::default(),
    };
    let mut model = Wad {
        version: Wad::VERSION,
        pages,
        ..Wad::default()
    };
    file_losses(document, &mut mapping.losses);
    let game = game_of(document);
    for moveable in &document.moveables {
        let id = moveable.id.clamp(0, i64::from(u32::MAX)) as u32;
        mapping.losses.object(losses::moveable_name(game, id));
        let mapped = map_moveable(moveable, &mut mapping, &mut model)?;
        model.moveables.push(mapped);
    }
    for found in &document.statics {
        let id = found.id.clamp(0, i64::from(u32::MAX)) as u32;
        mapping.losses.object(losses::static_name(game, id));
        let mesh = mapping.add_mesh(&mut model, &found.mesh, false)?;
        model.statics.push(map_static(found, mesh, &mut mapping.losses));
    }
    model.samples = mapping.samples.list;
    keep_sample_zero_off_flipped_quads(&mut model);
    Ok(Wad2Objects {
        model,
        skewed: mapping.skewed.finish(),
        losses: mapping.losses.finish(),
    })
}

/// A flipped quad's texture word is its sample negated, so it cannot name sample 0: when one
/// does, sample 0 trades places with the first sample no flipped quad uses (or, when every
/// sample is, with a new 1×1 sample, as TRLE's own WADs begin with one). For whatever renumbers
/// a model's samples (`edit`'s repacking too).
pub fn keep_sample_zero_off_flipped_quads(model: &mut Wad) {
    let mut by_flipped_quad = vec![false; model.samples.len()];
    let polygons = model.meshes.iter().flat_map(|m| &m.polygons);
    for p in polygons.filter(|p| p.is_quad && p.texture.flipped) {
        if let Some(slot) = by_flipped_quad.get_mut(usize::from(p.texture.sample)) {
            *slot = true;
        }
    }
    if !by_flipped_quad.first().copied().unwrap_or(false) {
        return;
    }
    let other = match by_flipped_quad.iter().position(|&used| !used) {
        Some(other) => other,
        None => {
            let first = model.samples[0];
            model.samples.push(wadforge_model::Sample {
                x: first.x,
                y: first.y,
                width: 1,
                height: 1,
                ..first
            });
            model.samples.len() - 1
        }
    };
    model.samples.swap(0, other);
    // Past u16, sample indices could not have been made (Samples::get stops there).
    let other = other as u16;
    for polygon in model.meshes.iter_mut().flat_map(|m| &mut m.polygons) {
        let sample = &mut polygon.texture.sample;
        *sample = match *sample {
            0 => other,
            s if s == other => 0,
            s => s,
        };
    }
}

/// Each polygon's texture and the rectangle of its texels, in the order they are mapped; none
/// for a polygon naming a texture the file lacks (mapping it reports that).
fn texture_use(document: &Document) -> Vec<(usize, pages::Rect)> {
    let meshes = document
        .moveables
        .iter()
        .flat_map(|m| &m.meshes)
        .chain(document.statics.iter().map(|s| &s.mesh));
    // A texture without pixels is still listed: placing it says what is wrong.
    let size = |t: usize| {
        let texture = document.textures.get(t)?;
        Some(texture.image.as_ref().map_or([0, 0], |i| [i.width, i.height]))
    };
    meshes
        .flat_map(|m| &m.polygons)
        .filter_map(|polygon| {
            let texture = usize::try_from(polygon.texture).ok()?;
            let corners = meshes::texel_corners(polygon, size(texture)?);
            Some((texture, corners.rect))
        })
        .collect()
}

/// What the file holds beside its objects that the model has no place for.
fn file_losses(document: &Document, losses: &mut Losses) {
    losses.object("file".into());
    losses.add(
        LossKind::Sprites,
        document.sprites.len() + document.sprite_sequences.len(),
    );
    let sets = document.animated_texture_sets.as_ref();
    losses.add(
        LossKind::AnimatedTextures,
        usize::from(sets.is_some_and(|s| s.content.bytes.len() > 1)),
    );
    losses.add(LossKind::UnknownChunks, document.unknown.0.len());
}

fn map_moveable(
    moveable: &document::Moveable,
    mapping: &mut MeshMapping,
    model: &mut Wad,
) -> Result<Moveable, ObjectError> {
    let mut indices = Vec::with_capacity(moveable.meshes.len());
    for mesh in &moveable.meshes {
        indices.push(mapping.add_mesh(model, mesh, true)?);
    }
    let losses = &mut mapping.losses;
    losses.add(LossKind::Skin, usize::from(moveable.skin.is_some()));
    losses.add(LossKind::UnknownChunks, moveable.unknown.0.len());
    let count = moveable.meshes.len();
    if moveable.bones.len() != count {
        return Err(ObjectError {
            place: format!("moveable id {}", moveable.id),
            problem: format!("has {} bones for {count} meshes (one each)", moveable.bones.len()),
        });
    }
    // Bone i wears the mesh its W2BoneMesh names (its own, as TombLib writes it).
    let meshes = moveable
        .bones
        .iter()
        .enumerate()
        .map(|(bone, b)| {
            let named = b
                .mesh
                .and_then(|m| usize::try_from(m).ok())
                .filter(|&m| m < count);
            indices[named.unwrap_or(bone)]
        })
        .collect();
    Ok(Moveable {
        id: moveable.id.clamp(0, i64::from(u32::MAX)) as u32,
        meshes,
        links: bone_links(&moveable.bones, losses),
        animations: animations::animations(&moveable.animations, losses),
    })
}

/// The links of a moveable's bones: parents from their link words, offsets Y negated.
pub(crate) fn bone_links(bones: &[document::Bone], losses: &mut Losses) -> Vec<Link> {
    let ops: Vec<i32> = bones
        .iter()
        .skip(1)
        .map(|b| b.opcode.clamp(0, 3) as i32)
        .collect();
    links::parents_from_ops(&ops)
        .into_iter()
        .zip(bones.iter().skip(1))
        .map(|(parent, bone)| {
            let offset = point(bone.translation, losses).map(i32::from);
            Link { parent, offset }
        })
        .collect()
}

fn map_static(found: &document::Static, mesh: usize, losses: &mut Losses) -> Static {
    let lighting = found.lights.len()
        + usize::from(found.ambient_light.is_some_and(|a| a >= 0))
        + usize::from(found.shatter == Some(true));
    losses.add(LossKind::StaticLighting, lighting);
    losses.add(LossKind::UnknownChunks, found.unknown.0.len());
    Static {
        id: found.id.clamp(0, i64::from(u32::MAX)) as u32,
        mesh,
        visibility: static_box(found.visibility_box, losses),
        collision: static_box(found.collision_box, losses),
        flags: found.flags.clamp(0, i64::from(u16::MAX)) as u16,
    }
}

/// A static's box (none is all zero) in classic terms.
pub(crate) fn static_box(b: Option<document::BoundingBox>, losses: &mut Losses) -> BoundingBox {
    let b = b.unwrap_or_default();
    let [a, c] = [point(b.min, losses), point(b.max, losses)];
    // Negating Y swaps which corner is lower.
    BoundingBox {
        min: [0, 1, 2].map(|k| a[k].min(c[k])),
        max: [0, 1, 2].map(|k| a[k].max(c[k])),
    }
}
