//! Tomb Editor's detail taken back from a base Wad2 (`wad2::keep_detail`): a document made from
//! the model of a real file, given its own file as the base, is that file but for its textures;
//! an edit keeps the detail of what it left alone.

use crate::common::wad2_built::document_with_every_kind;
use crate::common::wad2_walk::real_files;
use wadforge_fixtures::wad2_compare::same_but_textures;
use wadforge_format::catalog::Game;
use wadforge_format::wad2::document::{Document, Image, Polygon, VertexColour};
use wadforge_format::wad2::{self, keep_detail};
use wadforge_format::{Page, PAGE_SIZE};

/// The document made from `base`'s model, with the detail of `base` kept.
fn made_with_detail(base: &Document) -> (Document, wad2::KeptDetail) {
    let objects = wad2::to_model(base).unwrap();
    let mut made = wad2::from_model(&objects.model, &objects.skewed, wad2::game_of(base))
        .unwrap()
        .document;
    let kept = keep_detail(&mut made, base);
    (made, kept)
}

#[test]
fn real_files_made_from_the_model_with_their_detail_are_themselves_byte_for_byte() {
    for (name, bytes) in real_files() {
        let base = wad2::read_document(&bytes).unwrap();
        let (made, kept) = made_with_detail(&base);
        same_but_textures(&made, &base).unwrap_or_else(|d| panic!("{name}: {d}"));
        // Every polygon shows its texels as the file did: each takes its texture back.
        assert!(
            wad2::write_document(&made) == bytes,
            "{name}: not the file itself"
        );
        assert_eq!(kept.objects, base.moveables.len() + base.statics.len(), "{name}");
        assert_eq!((kept.edited_meshes, kept.edited_animations), (0, 0), "{name}");
    }
}

#[test]
fn every_kind_of_chunk_is_kept_from_the_base() {
    let base = document_with_every_kind();
    let (made, _) = made_with_detail(&base);
    same_but_textures(&made, &base).unwrap();
}

/// A document whose 8×8 texture holds a different colour at every texel, which its polygons use.
fn document_with_a_texture() -> Document {
    let mut base = document_with_every_kind();
    let bgra = (0..64u8).flat_map(|i| [i, 2 * i, 255 - i, 255]).collect();
    let texture = &mut base.textures[0];
    texture.image = Some(Image {
        width: 8,
        height: 8,
        bgra,
    });
    (texture.width, texture.height) = (8, 8);
    base
}

fn polygons(document: &Document) -> Vec<&Polygon> {
    let moveables = document.moveables.iter().flat_map(|m| &m.meshes);
    let meshes = moveables.chain(document.statics.iter().map(|s| &s.mesh));
    meshes.flat_map(|m| &m.polygons).collect()
}

#[test]
fn polygons_showing_their_texels_take_their_texture_back_and_an_edited_one_its_page() {
    let base = document_with_a_texture();
    let (made, _) = made_with_detail(&base);
    assert_eq!(made.textures, base.textures, "only the file's texture, as it was");
    let textured = |d: &Document| -> Vec<(i64, [[f32; 2]; 4])> {
        polygons(d).iter().map(|p| (p.texture, p.uvs)).collect()
    };
    assert_eq!(textured(&made), textured(&base));

    // One texel under the quads (the triangles' rectangle, texels 0..4, leaves it out) painted.
    let objects = wad2::to_model(&base).unwrap();
    let mut model = objects.model;
    let quad = model
        .meshes
        .iter()
        .flat_map(|m| &m.polygons)
        .find(|p| p.is_quad)
        .unwrap();
    let sample = model.samples[usize::from(quad.texture.sample)];
    // The quad's rectangle starts at texel (1, 1) of the texture: (6, 6) is 5 in.
    let (x, y) = (usize::from(sample.x) + 5, usize::from(sample.y) + 5);
    let mut rgb = model.pages[usize::from(sample.page)].rgb().to_vec();
    rgb[(y * PAGE_SIZE + x) * 3] ^= 0x80;
    model.pages[usize::from(sample.page)] = Page::from_rgb(rgb).unwrap();
    let mut edited = wad2::from_model(&model, &objects.skewed, wad2::game_of(&base))
        .unwrap()
        .document;
    keep_detail(&mut edited, &base);
    assert_eq!(edited.textures.len(), 2, "the file's texture and the page");
    let page = edited
        .textures
        .iter()
        .position(|t| t.width == PAGE_SIZE as i64)
        .unwrap() as i64;
    for p in polygons(&edited) {
        match p.quad {
            true => assert_eq!(p.texture, page, "an edited quad shows its page"),
            false => assert_eq!(p.texture, 1 - page, "a triangle takes the file's texture"),
        }
    }
}

#[test]
fn an_edited_mesh_keeps_the_detail_of_the_vertices_it_left_alone() {
    let Some((name, bytes)) = real_files()
        .into_iter()
        .find(|(n, _)| n.starts_with("TEN_Pulley"))
    else {
        return;
    };
    let base = wad2::read_document(&bytes).unwrap();
    let coloured = &base.statics[0].mesh;
    let white = VertexColour::Colour([1.0; 3]);
    assert!(
        coloured.colours.iter().any(|&c| c != white),
        "{name}: a static of coloured vertices"
    );
    let objects = wad2::to_model(&base).unwrap();
    let mut model = objects.model;
    // Move vertex 0 of the static's mesh: only it loses the base's colour.
    let mesh = model.statics[0].mesh;
    model.meshes[mesh].vertices[0][0] += 100;
    let mut made = wad2::from_model(&model, &objects.skewed, Game::Ten)
        .unwrap()
        .document;
    let kept = keep_detail(&mut made, &base);
    assert_eq!(kept.edited_meshes, 1, "{name}");
    let made_colours = &made.statics[0].mesh.colours;
    assert_eq!(
        made_colours[1..],
        coloured.colours[1..],
        "{name}: untouched vertices keep their colour"
    );
    assert_ne!(
        made_colours[0], coloured.colours[0],
        "{name}: the moved vertex takes the model's grey"
    );
    assert_eq!(
        made.statics[0].lights, base.statics[0].lights,
        "{name}: the static's lights"
    );
}

#[test]
fn an_edited_keyframe_leaves_the_other_keyframes_and_the_blend_curve_exact() {
    let Some((name, bytes)) = real_files()
        .into_iter()
        .find(|(n, _)| n.starts_with("TR2_Falling"))
    else {
        return;
    };
    let base = wad2::read_document(&bytes).unwrap();
    let objects = wad2::to_model(&base).unwrap();
    let mut model = objects.model;
    let (animation, _) = base.moveables[0]
        .animations
        .iter()
        .enumerate()
        .find(|(_, a)| a.keyframes.len() > 1)
        .expect("an animation of two keyframes");
    let turned = &mut model.moveables[0].animations[animation].keyframes[0].offset;
    turned[0] += 50;
    let mut made = wad2::from_model(&model, &objects.skewed, Game::Tr2)
        .unwrap()
        .document;
    let kept = keep_detail(&mut made, &base);
    assert_eq!(kept.edited_animations, 1, "{name}");
    let (made, old) = (
        &made.moveables[0].animations[animation],
        &base.moveables[0].animations[animation],
    );
    assert_ne!(made.keyframes[0], old.keyframes[0], "{name}: the edited keyframe");
    assert_eq!(
        made.keyframes[1..],
        old.keyframes[1..],
        "{name}: the others, exact"
    );
    assert_eq!(
        (&made.name, made.curve, made.version),
        (&old.name, old.curve, old.version),
        "{name}"
    );
}
