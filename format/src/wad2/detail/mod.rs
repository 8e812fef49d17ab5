//! Tomb Editor's detail that the model has no place for (vertex colours, glow and movement,
//! weights, blend modes, double-sided polygons, names, exact floats, blend curves and frames,
//! Tomb Engine's commands, static lights, sprites, chunks wadforge does not know), taken back from
//! a base Wad2 into one made from the model.
//!
//! An object takes its detail from the base object of the same kind and id. Whatever the model
//! still holds as the base held it takes the base's exact values, so an unedited object comes
//! back as the base stored it, its textures too (`textures`), and an edited one keeps the detail
//! of every vertex, polygon, keyframe and dispatch the edit left alone.

mod animations;
mod ids;
mod meshes;
mod rounding;
mod textures;

use std::collections::HashMap;

use wadforge_model::ObjectKind;

use crate::wad2::document::{Document, Moveable, Static};
use crate::wad2::objects::losses::Losses;
use crate::wad2::objects::{bone_links, static_box};
pub use ids::{remesh, under_ids};
pub use rounding::{uvs_rounded, UvRounding};
use textures::TextureMatch;

/// What [`keep_detail`] took from the base.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct KeptDetail {
    /// Objects that found a base object of their kind and id.
    pub objects: usize,
    /// Meshes and animations of those that differ from the base's in the model's terms (edited):
    /// they keep the detail of what is unchanged only.
    pub edited_meshes: usize,
    pub edited_animations: usize,
    /// What the base held that the made file cannot take, in words.
    pub dropped: Vec<String>,
    /// Per object that found its base, the polygons whose exact UVs did not come back: rounded
    /// ([`uvs_rounded`] gives what several passes leave).
    pub uv_rounding: Vec<UvRounding>,
}

/// Takes into `made` (a document made from the model) the detail `base` holds of the same
/// objects, and the file's own: game version, sound system, sprites, metadata, unknown chunks.
pub fn keep_detail(made: &mut Document, base: &Document) -> KeptDetail {
    let mut kept = KeptDetail::default();
    keep_file_detail(made, base, &mut kept);
    keep_objects(made, base, &mut kept);
    kept
}

/// [`keep_detail`] of the objects alone, the file's own left as `made` has it: for a second
/// base that knows some objects better (a manifest directory's over the file it patches).
pub fn keep_object_detail(made: &mut Document, base: &Document) -> KeptDetail {
    let mut kept = KeptDetail::default();
    keep_objects(made, base, &mut kept);
    kept
}

/// The file a manifest directory keeps of a Wad2 it was imported from: its document, which
/// [`keep_detail`] reads as the base of a Wad2 built from the directory. It keeps the textures
/// too, though the directory's glTF files show them: a polygon still showing its texels takes
/// its texture back, so an unedited Wad2 builds back to the file itself.
pub fn detail_file(document: &Document) -> Vec<u8> {
    crate::wad2::write_document(document)
}

fn keep_objects(made: &mut Document, base: &Document, kept: &mut KeptDetail) {
    // The first base object of each id, found once: a file from a stranger may hold millions.
    let moveables = first_of_each_id(base.moveables.iter().map(|m| m.id));
    let statics = first_of_each_id(base.statics.iter().map(|s| s.id));
    let Document {
        textures: made_textures,
        moveables: made_moveables,
        statics: made_statics,
        ..
    } = made;
    let textures = TextureMatch::new(made_textures, &base.textures);
    for moveable in made_moveables {
        if let Some(&found) = moveables.get(&moveable.id) {
            kept.objects += 1;
            let mut rounding = UvRounding::new(ObjectKind::Moveable, moveable.id);
            keep_moveable(moveable, &base.moveables[found], &textures, &mut rounding, kept);
            kept.uv_rounding.push(rounding);
        }
    }
    for found in made_statics {
        if let Some(&old) = statics.get(&found.id) {
            kept.objects += 1;
            let mut rounding = UvRounding::new(ObjectKind::Static, found.id);
            keep_static(found, &base.statics[old], &textures, &mut rounding, kept);
            kept.uv_rounding.push(rounding);
        }
    }
    textures::finish(made, &base.textures);
}

/// Each id's first place among `ids`.
fn first_of_each_id(ids: impl Iterator<Item = i64>) -> HashMap<i64, usize> {
    let mut first = HashMap::new();
    for (place, id) in ids.enumerate() {
        first.entry(id).or_insert(place);
    }
    first
}

fn keep_file_detail(made: &mut Document, base: &Document, kept: &mut KeptDetail) {
    made.compressed = base.compressed;
    made.game_version = base.game_version.or(made.game_version);
    made.sound_system = base.sound_system.or(made.sound_system);
    if made.sprites.is_empty() && made.sprite_sequences.is_empty() {
        made.sprites.clone_from(&base.sprites);
        made.sprite_sequences.clone_from(&base.sprite_sequences);
    }
    if made.metadata.is_none() {
        made.metadata.clone_from(&base.metadata);
    }
    // Animated texture sets name the base's textures by their place, which the made file's
    // textures (the model's pages) do not keep: only an empty list can be taken.
    if let Some(sets) = &base.animated_texture_sets {
        if sets.content.bytes.len() <= 1 {
            made.animated_texture_sets = Some(sets.clone());
        } else {
            kept.dropped.push(
                "animated texture sets (they name the base's textures, which the built file replaces \
                 with its pages)"
                    .into(),
            );
        }
    }
    made.unknown.0.extend(base.unknown.0.iter().cloned());
}

fn keep_moveable(
    made: &mut Moveable,
    base: &Moveable,
    textures: &TextureMatch,
    rounding: &mut UvRounding,
    kept: &mut KeptDetail,
) {
    // A base bone wearing another bone's mesh puts that mesh in this bone's place in the model.
    let worn = |bone: usize| {
        base.bones
            .get(bone)
            .and_then(|b| b.mesh)
            .and_then(|m| usize::try_from(m).ok())
            .filter(|&m| m < base.meshes.len())
            .unwrap_or(bone)
    };
    for (bone, mesh) in made.meshes.iter_mut().enumerate() {
        if let Some(old) = base.meshes.get(worn(bone)) {
            kept.edited_meshes += usize::from(!meshes::keep_mesh(mesh, old, textures, rounding));
        }
    }
    keep_bones(made, base);
    if made.bones.len() == base.bones.len() {
        made.skin.clone_from(&base.skin);
        // Its polygons name the base's textures, which go after the made file's own.
        let polygons = made.skin.iter_mut().flat_map(|skin| &mut skin.polygons);
        polygons.for_each(|p| p.texture = textures.base_index(p.texture).unwrap_or(p.texture));
    }
    kept.edited_animations += animations::keep_animations(&mut made.animations, &base.animations);
    made.unknown.0.extend(base.unknown.0.iter().cloned());
}

/// Bones hung as the base's take its bones whole (names, exact offsets, unknown chunks) when
/// each wears its own mesh; otherwise they keep the base's names.
fn keep_bones(made: &mut Moveable, base: &Moveable) {
    if made.bones.len() != base.bones.len() {
        return;
    }
    let mut losses = Losses::default();
    let same_links = bone_links(&made.bones, &mut losses) == bone_links(&base.bones, &mut losses);
    let own_meshes = base
        .bones
        .iter()
        .enumerate()
        .all(|(i, b)| b.mesh.is_none_or(|m| m == i as i64));
    if same_links && own_meshes {
        made.bones.clone_from(&base.bones);
    } else {
        for (bone, old) in made.bones.iter_mut().zip(&base.bones) {
            bone.name.clone_from(&old.name);
            bone.unknown = old.unknown.clone();
        }
    }
}

fn keep_static(
    made: &mut Static,
    base: &Static,
    textures: &TextureMatch,
    rounding: &mut UvRounding,
    kept: &mut KeptDetail,
) {
    kept.edited_meshes += usize::from(!meshes::keep_mesh(&mut made.mesh, &base.mesh, textures, rounding));
    made.legacy_light_type = base.legacy_light_type;
    made.ambient_light = base.ambient_light;
    made.shatter = base.shatter;
    made.shatter_sound = base.shatter_sound;
    made.lights.clone_from(&base.lights);
    made.unknown = base.unknown.clone();
    let mut losses = Losses::default();
    let mut same_box = |a, b| static_box(a, &mut losses) == static_box(b, &mut losses);
    if same_box(made.visibility_box, base.visibility_box) {
        made.visibility_box = base.visibility_box;
    }
    if same_box(made.collision_box, base.collision_box) {
        made.collision_box = base.collision_box;
    }
}
