//! The model's objects as a Wad2 [`Document`], as Tomb Editor converts a classic WAD: each page a
//! polygon uses becomes a texture (magenta transparent), each polygon's sample its corners' pixel
//! UVs on it (a level's skewed polygons their own corners), shades grey vertex colours, Y negated,
//! links bones, animations numbered from their own first frame, speeds start and end velocities.
//! [`super::to_model`] reads such a document back to the same objects.

pub(crate) mod animations;
mod meshes;

use wadforge_model::catalog::Game;
use wadforge_model::links;
use wadforge_model::skewed::SkewedCorners;
use wadforge_model::{Command, Moveable, Static, Wad};

use crate::wad2::document::{self, Bone, Document, UnknownChunks};
use crate::wad2::objects::losses::{self, Loss, LossKind, Losses};
use meshes::{flip, MeshWriting};

/// A moveable whose links no bone list expresses (a child hung from a mesh neither the previous
/// one nor on the stack): the model allows it, a Wad2's link words do not.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("moveable {index} (id {id}): mesh {mesh}'s parent is neither the mesh before it nor one a link word can return to; a Wad2's bones cannot say it")]
pub struct FromModelError {
    pub index: usize,
    pub id: u32,
    pub mesh: usize,
}

/// A Wad2 document made from the model, and what it could not hold.
#[derive(Debug, Clone)]
pub struct FromModel {
    pub document: Document,
    pub losses: Vec<Loss>,
}

/// `wad`'s objects as a Wad2 document for `game` (its W2SuggestedGameVersion; ids stay as they
/// are). `skewed` gives the corners of polygons that map their texture skewed (a level's).
pub fn from_model(wad: &Wad, skewed: &SkewedCorners, game: Game) -> Result<FromModel, FromModelError> {
    let mut writing = MeshWriting::new(wad, skewed);
    let mut losses = Losses::default();
    let flagged = |meshes: &mut dyn Iterator<Item = usize>| {
        meshes
            .filter(|&m| wad.meshes.get(m).is_some_and(|mesh| mesh.sphere.flag != 0))
            .count()
    };
    let mut moveables = Vec::with_capacity(wad.moveables.len());
    for (index, moveable) in wad.moveables.iter().enumerate() {
        losses.object(losses::moveable_name(game, moveable.id));
        losses.add(
            LossKind::SphereFlags,
            flagged(&mut moveable.meshes.iter().copied()),
        );
        count_attributes(wad, &moveable.meshes, true, &mut losses);
        let both = |c: &Command| {
            matches!(
                c,
                Command::PlaySound {
                    on_land: true,
                    in_water: true,
                    ..
                }
            )
        };
        let commands = moveable.animations.iter().flat_map(|a| &a.commands);
        losses.add(
            LossKind::SoundOnLandAndInWater,
            commands.filter(|c| both(c)).count(),
        );
        let undecodable = moveable
            .animations
            .iter()
            .filter(|a| a.undecodable_keyframes.is_some());
        losses.add(LossKind::UndecodableKeyframes, undecodable.count());
        moveables.push(write_moveable(moveable, index, &mut writing)?);
    }
    let mut statics = Vec::with_capacity(wad.statics.len());
    for found in &wad.statics {
        losses.object(losses::static_name(game, found.id));
        losses.add(LossKind::SphereFlags, flagged(&mut std::iter::once(found.mesh)));
        count_attributes(wad, &[found.mesh], false, &mut losses);
        statics.push(write_static(found, &mut writing));
    }
    let document = Document {
        compressed: false,
        game_version: Some(game.wad2_version()),
        // TombLib refuses a file without it: sounds live in an XML file beside the Wad2.
        sound_system: Some(1),
        textures: writing.textures(),
        moveables,
        statics,
        ..Document::default()
    };
    Ok(FromModel {
        document,
        losses: losses.finish(),
    })
}

/// Counts the polygons of `meshes` whose attribute byte reads back otherwise: a Wad2 keeps the
/// additive bit and the shine strength, and the shine bit follows from them on a moveable.
fn count_attributes(wad: &Wad, meshes: &[usize], moveable: bool, losses: &mut Losses) {
    let polygons = meshes
        .iter()
        .filter_map(|&m| wad.meshes.get(m))
        .flat_map(|mesh| &mesh.polygons);
    let lost = polygons
        .filter(|p| {
            let a = p.attributes;
            a.unknown_bit || a.shine != (moveable && a.shine_intensity > 0)
        })
        .count();
    losses.add(LossKind::PolygonAttributes, lost);
}

fn write_moveable(
    moveable: &Moveable,
    index: usize,
    writing: &mut MeshWriting,
) -> Result<document::Moveable, FromModelError> {
    let parents: Vec<usize> = moveable.links.iter().map(|l| l.parent).collect();
    let ops = links::ops_from_parents(&parents).map_err(|mesh| FromModelError {
        index,
        id: moveable.id,
        mesh,
    })?;
    let meshes = moveable.meshes.iter().map(|&m| writing.mesh(m)).collect();
    let bones = (0..moveable.meshes.len())
        .map(|bone| {
            let (opcode, translation) = match bone.checked_sub(1) {
                Some(link) => (
                    ops.get(link).copied().unwrap_or(0),
                    moveable.links.get(link).map_or([0; 3], |l| l.offset),
                ),
                None => (0, [0; 3]),
            };
            Bone {
                opcode: i64::from(opcode),
                name: if bone == 0 {
                    "bone_0_root".into()
                } else {
                    format!("bone_{bone}")
                },
                translation: flip(translation.map(|c| c as f32)),
                mesh: Some(bone as i64),
                unknown: UnknownChunks::default(),
            }
        })
        .collect();
    Ok(document::Moveable {
        id: i64::from(moveable.id),
        meshes,
        skin: None,
        bones,
        animations: animations::animations(&moveable.animations),
        unknown: UnknownChunks::default(),
    })
}

fn write_static(found: &Static, writing: &mut MeshWriting) -> document::Static {
    let bounds = |b: wadforge_model::BoundingBox| document::BoundingBox {
        min: flip(b.min.map(f32::from)),
        max: flip(b.max.map(f32::from)),
    };
    document::Static {
        id: i64::from(found.id),
        flags: i64::from(found.flags),
        mesh: writing.mesh(found.mesh),
        visibility_box: Some(bounds(found.visibility)),
        collision_box: Some(bounds(found.collision)),
        ..document::Static::default()
    }
}
