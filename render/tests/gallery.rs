//! The gallery's files: Lara's picture shows her dressed, each animation holds one frame per
//! keyframe for its frame duration.

use wadforge_format::catalog::Game;
use wadforge_importer::SkewedCorners;
use wadforge_render::gallery::{gallery, Options, Source};
use wadforge_render::scene::Figure;
use wadforge_render::{picture, View};

fn files() -> Vec<(String, Vec<u8>)> {
    let wad = wadforge_fixtures::standard();
    let skewed = SkewedCorners::new();
    let source = Source {
        wad: &wad,
        game: Game::Tr4,
        skewed: &skewed,
        file_name: "standard.wad",
        description: "TRLE WAD",
    };
    gallery(&source, &Options::default())
        .into_iter()
        .map(|f| (f.path, f.bytes))
        .collect()
}

fn decode(png_bytes: &[u8]) -> image::RgbaImage {
    image::load_from_memory(png_bytes).unwrap().to_rgba8()
}

#[test]
fn lara_is_pictured_dressed_in_her_skin() {
    let wad = wadforge_fixtures::standard();
    let files = files();
    let lara_png = &files
        .iter()
        .find(|(p, _)| p == "moveables/000_LARA.png")
        .unwrap()
        .1;
    let shown = decode(lara_png);
    let by_id = |id| wad.moveables.iter().find(|m| m.id == id).unwrap();
    let (lara, skin, joints) = (by_id(0), by_id(8), by_id(9));
    let keyframe = &lara.animations[0].keyframes[0];
    let size = shown.width();
    let draw = |figure: Figure| {
        let placed = figure.pose(&wad, keyframe);
        picture(&wad, &SkewedCorners::new(), &placed, &View::three_quarter(), size)
            .canvas
            .rgba()
            .to_vec()
    };
    assert_eq!(shown.as_raw(), &draw(Figure::dressed(lara, skin, Some(joints))));
    assert_ne!(
        shown.as_raw(),
        &draw(Figure::own(lara)),
        "not in her placeholders"
    );
}

#[test]
fn each_animation_shows_its_keyframes_at_30_ticks_a_second() {
    let wad = wadforge_fixtures::standard();
    let files = files();
    let crocodile = wad.moveables.iter().find(|m| m.id == 51).unwrap();
    for (a, animation) in crocodile.animations.iter().enumerate() {
        let path = format!("animations/051_CROCODILE/{a:03}.png");
        let bytes = &files.iter().find(|(p, _)| *p == path).unwrap().1;
        let mut reader = png::Decoder::new(std::io::Cursor::new(bytes.as_slice()))
            .read_info()
            .unwrap();
        let frames = reader.info().animation_control.unwrap().num_frames as usize;
        assert_eq!(frames, animation.keyframes.len(), "{path}");
        let mut buffer = vec![0; reader.output_buffer_size().unwrap()];
        for _ in 0..frames {
            reader.next_frame(&mut buffer).unwrap();
            let fctl = reader.info().frame_control.unwrap();
            assert_eq!(
                (fctl.delay_num, fctl.delay_den),
                (u16::from(animation.frame_duration.max(1)), 30),
                "{path}"
            );
        }
    }
}
