//! The gallery's files: Lara's picture shows her dressed, each animation holds one frame per
//! keyframe for its frame duration.

use wadforge_model::catalog::Game;
use wadforge_model::SkewedCorners;
use wadforge_render::gallery::{gallery, Options, Source};
use wadforge_render::scene::Figure;
use wadforge_render::{picture, View};

fn files() -> Vec<(String, Vec<u8>)> {
    files_of(&wadforge_fixtures::standard())
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

/// The gallery's files of `wad` (a TR4 WAD).
fn files_of(wad: &wadforge_model::Wad) -> Vec<(String, Vec<u8>)> {
    let skewed = SkewedCorners::new();
    let source = Source {
        wad,
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

#[test]
fn an_object_alone_in_its_file_is_pictured_whole_however_often_its_polygons_cover_the_picture() {
    // Found by review: the stills of a file share 6 times their pixels on average, and a plant of
    // 10 crossed planes alone in its WAD lost some. A file of a few objects may draw each up to
    // the cap, as alone.
    let mut wad = wadforge_fixtures::standard();
    wad.moveables.clear();
    wad.statics.truncate(1);
    let mesh = &mut wad.meshes[wad.statics[0].mesh];
    let quad = *mesh.polygons.iter().find(|p| p.is_quad).unwrap();
    // 10 upright planes crossing at the middle, both sides: some 20 triangles seen, each over
    // much of the picture, the nearer hiding parts of the farther.
    let planes = 10;
    mesh.vertices = (0..planes)
        .flat_map(|k| {
            let angle = std::f64::consts::PI * k as f64 / planes as f64;
            let (x, z) = ((500.0 * angle.cos()) as i16, (500.0 * angle.sin()) as i16);
            [[x, -500, z], [-x, -500, -z], [-x, 500, -z], [x, 500, z]]
        })
        .collect();
    mesh.shading = wadforge_model::Shading::Shades(vec![0; mesh.vertices.len()]);
    mesh.polygons = (0..planes as u16)
        .flat_map(|k| {
            let [a, b, c, d] = [0, 1, 2, 3].map(|i| 4 * k + i);
            [[a, b, c, d], [d, c, b, a]].map(|vertices| wadforge_model::Polygon { vertices, ..quad })
        })
        .collect();
    let files = files_of(&wad);
    let (path, png) = files.iter().find(|(p, _)| p.starts_with("statics/")).unwrap();
    let shown = decode(png);
    let placed = wadforge_render::scene::placed_static(&wad, &wad.statics[0]);
    let alone = picture(
        &wad,
        &SkewedCorners::new(),
        &placed,
        &View::three_quarter(),
        shown.width(),
    );
    assert_eq!(shown.as_raw(), alone.canvas.rgba(), "{path}");
}

#[test]
fn each_animation_lists_the_sounds_it_plays_by_name() {
    let wad = wadforge_fixtures::standard();
    let page = files_of(&wad)
        .into_iter()
        .find(|(path, _)| path.ends_with("index.html"))
        .map(|(_, bytes)| String::from_utf8(bytes).unwrap())
        .expect("the gallery writes its page");
    let mut listed = 0;
    for m in &wad.moveables {
        for a in &m.animations {
            for command in &a.commands {
                if let wadforge_model::Command::PlaySound { sound, .. } = *command {
                    let name = wadforge_model::catalog::sound_name(Game::Tr4, u32::from(sound))
                        .map_or_else(|| sound.to_string(), str::to_string);
                    assert!(page.contains(&name), "sound {sound} ({name}) is not on the page");
                    listed += 1;
                }
            }
        }
    }
    assert!(listed > 0, "the fixture plays sounds");
    assert!(page.contains("<br>sounds: "), "a caption lists sounds");
}
