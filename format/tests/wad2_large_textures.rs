//! Wad2 textures larger than a 256×256 page reach the model in pieces: the tiles polygons use,
//! pieces cut for polygons across tiles, and pieces shrunk for polygons over more than a page of
//! texels, with every polygon showing the texels it showed.

use wadforge_fixtures::compare::{differences, Tolerance};
use wadforge_format::catalog::Game;
use wadforge_format::wad2::document::{Document, Image};
use wadforge_format::wad2::{self, LossKind};
use wadforge_format::SkewedCorners;

/// The standard fixture as a Wad2, each of its pages a 256×256 texture.
fn standard_document() -> Document {
    let model = wadforge_fixtures::standard();
    wad2::from_model(&model, &SkewedCorners::new(), Game::Tr4)
        .unwrap()
        .document
}

/// `document` with its textures side by side in one, `margin` texels from its left edge, each
/// texel `scale` × `scale` texels: its polygons' UVs moved and scaled with them.
fn in_one_texture(document: &Document, margin: u32, scale: u32) -> Document {
    let side = 256;
    let count = document.textures.len() as u32;
    let (width, height) = ((margin + side * count) * scale, side * scale);
    let mut bgra = vec![0u8; (width * height * 4) as usize];
    for (t, texture) in document.textures.iter().enumerate() {
        let image = texture.image.as_ref().unwrap();
        for y in 0..height {
            for x in 0..side * scale {
                let from = (((y / scale) * side + x / scale) * 4) as usize;
                let to = ((y * width + (margin + side * t as u32) * scale + x) * 4) as usize;
                bgra[to..to + 4].copy_from_slice(&image.bgra[from..from + 4]);
            }
        }
    }
    let mut one = document.clone();
    one.textures.truncate(1);
    one.textures[0].width = i64::from(width);
    one.textures[0].height = i64::from(height);
    one.textures[0].image = Some(Image { width, height, bgra });
    let meshes = one
        .moveables
        .iter_mut()
        .flat_map(|m| &mut m.meshes)
        .chain(one.statics.iter_mut().map(|s| &mut s.mesh));
    for polygon in meshes.flat_map(|m| &mut m.polygons) {
        let left = (margin + side * polygon.texture as u32) as f32;
        for uv in &mut polygon.uvs {
            *uv = [(uv[0] + left) * scale as f32, uv[1] * scale as f32];
        }
        polygon.texture = 0;
    }
    one
}

fn shrunk(objects: &wad2::Wad2Objects) -> usize {
    let shrunk = objects
        .losses
        .iter()
        .filter(|l| l.kind == LossKind::TexturesShrunk);
    shrunk.map(|l| l.count).sum()
}

#[test]
fn a_large_texture_shows_each_polygon_the_texels_it_showed() {
    let document = standard_document();
    assert!(document.textures.len() > 1, "a texture of several pages' width");
    let expected = wad2::to_model(&document).unwrap();
    // Tile-aligned (each polygon in one tile), then 100 texels off the tiles (polygons across
    // two are cut pieces of their own).
    for margin in [0, 100] {
        let large = wad2::to_model(&in_one_texture(&document, margin, 1)).unwrap();
        let d = differences(&expected.model, &large.model, Tolerance::default());
        assert!(d.is_empty(), "margin {margin}: {:#?}", &d[..d.len().min(5)]);
        assert_eq!(shrunk(&large), 0, "margin {margin}: nothing shrunk");
    }
}

#[test]
fn a_polygon_over_more_than_a_page_of_texels_is_shrunk_and_said_so() {
    let mut document = standard_document();
    // A 1024×1024 texture whose every texel says where it is, under one quad of the first
    // static, from corner to corner.
    let side = 1024u32;
    let colour = |x: u32, y: u32| [(x % 251) as u8, (y % 241) as u8, ((x / 4 + y / 4) % 256) as u8];
    let mut bgra = Vec::with_capacity((side * side * 4) as usize);
    for y in 0..side {
        for x in 0..side {
            let [r, g, b] = colour(x, y);
            bgra.extend([b, g, r, 255]);
        }
    }
    let mut texture = document.textures[0].clone();
    texture.image = Some(Image {
        width: side,
        height: side,
        bgra,
    });
    document.textures.push(texture);
    let mesh = &mut document.statics[0].mesh;
    let quad = mesh.polygons.iter().position(|p| p.quad).expect("a quad");
    mesh.polygons[quad].texture = document.textures.len() as i64 - 1;
    let s = side as f32;
    mesh.polygons[quad].uvs = [[0.0, 0.0], [s, 0.0], [s, s], [0.0, s]];
    let objects = wad2::to_model(&document).unwrap();
    assert_eq!(shrunk(&objects), 1);
    assert!(objects
        .losses
        .iter()
        .any(|l| l.kind == LossKind::TexturesShrunk && l.to_string().contains("shrunk to fit a page")));
    let model = &objects.model;
    let polygon = &model.meshes[model.statics[0].mesh].polygons[quad];
    let shown = wadforge_fixtures::compare::polygon_texture(model, polygon);
    assert_eq!(shown.size, (256, 256), "a quarter of the texels each way");
    for (i, texel) in shown.texels.iter().enumerate() {
        let (x, y) = ((i % 256) as u32, (i / 256) as u32);
        assert_eq!(
            *texel,
            colour(4 * x, 4 * y),
            "texel ({x}, {y}) is the texture's every fourth"
        );
    }
}
