//! Writes each target's seed corpus from the fixtures (nothing of it is kept in the repository):
//! `write-seeds DIR` makes DIR/<target>/ for every target.
// Linked for the coverage callbacks the instrumented libraries call (this binary only writes seeds).
use libfuzzer_sys as _;
use std::path::Path;

use wadforge_format::wad;
use wadforge_fuzz::{
    example, standard_one_page, texture_seed, tr4_file, tr4_level_data_of, FILE_SEPARATOR, MANIFEST_FILES,
};

fn main() {
    let root = std::env::args().nth(1).expect("usage: write-seeds DIR");
    let root = Path::new(&root);
    let seed = |target: &str, name: &str, bytes: &[u8]| {
        let dir = root.join(target);
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join(name), bytes).unwrap();
    };
    // The standard fixture on one page (every sample moved to it), and its quirk variants
    // as they are: the reader's paths without megabytes of texels.
    let small = standard_one_page();
    let standard = wad::write(&small, None).unwrap();
    let mut statics_only = small.clone();
    statics_only.moveables.clear();
    let statics_only = wad::write(&statics_only, None).ok();
    for target in ["wad", "import"] {
        seed(target, "standard_one_page.wad", &standard);
        if let Some(bytes) = &statics_only {
            seed(target, "statics_only.wad", bytes);
        }
    }
    // The standard fixture as Tomb Editor would hold it (Wad2 written from the model), its page
    // shrunk to a 4×4 texture (UVs scaled with it) so that a run reads it thousands of times a
    // second.
    let standard_wad2 = wadforge_format::wad2::from_model(
        &small,
        &wadforge_format::SkewedCorners::new(),
        wadforge_format::catalog::Game::Tr4,
    )
    .map(|made| {
        let mut document = made.document;
        for texture in &mut document.textures {
            texture.width = 4;
            texture.height = 4;
            texture.image = texture
                .image
                .take()
                .map(|image| wadforge_format::wad2::document::Image {
                    width: 4,
                    height: 4,
                    bgra: image.bgra[..64].to_vec(),
                });
        }
        let polygons = document.moveables.iter_mut().flat_map(|m| &mut m.meshes);
        let meshes = polygons.chain(document.statics.iter_mut().map(|s| &mut s.mesh));
        for uv in meshes.flat_map(|m| &mut m.polygons).flat_map(|p| &mut p.uvs) {
            *uv = uv.map(|c| (c / 64.0).floor());
        }
        let small = wadforge_format::wad2::write_document(&document);
        // The same on a 300×4 texture, wider than a page: polygons across its tiles are cut
        // and shrunk.
        for texture in &mut document.textures {
            texture.width = 300;
            texture.image = texture
                .image
                .take()
                .map(|image| wadforge_format::wad2::document::Image {
                    width: 300,
                    height: 4,
                    bgra: image.bgra.iter().copied().cycle().take(300 * 4 * 4).collect(),
                });
        }
        let meshes = document.moveables.iter_mut().flat_map(|m| &mut m.meshes);
        let meshes = meshes.chain(document.statics.iter_mut().map(|s| &mut s.mesh));
        for uv in meshes.flat_map(|m| &mut m.polygons).flat_map(|p| &mut p.uvs) {
            uv[0] *= 75.0;
        }
        (small, wadforge_format::wad2::write_document(&document))
    })
    .ok();
    for target in ["wad2_container", "wad2_objects"] {
        seed(target, "one_moveable.wad2", &wad2_seed());
        if let Some((small, wide)) = &standard_wad2 {
            seed(target, "standard_one_page.wad2", small);
            seed(target, "standard_wide_texture.wad2", wide);
        }
    }
    use wadforge_fixtures::levels;
    seed("level_tr1", "tr1_level.phd", &levels::tr1_level());
    seed("level_tr2", "tr2_level.tr2", &levels::tr2_level());
    seed("level_tr3", "tr3_level.tr2", &levels::tr3_level());
    let tr4 = levels::tr4_level();
    seed("level_tr4", "tr4_level.tr4", &tr4);
    let tr5 = levels::tr5_fixture().bytes;
    seed("level_tr5", "tr5_level.trc", &tr5);
    let tr4_level_data = tr4_level_data_of(&tr4);
    seed("tr4_level_data", "tr4_level_data.bin", &tr4_level_data);
    // A seed its reader refuses would leave the fuzzer to find its way past the refusal alone.
    for (target, level) in [
        ("level_tr1", levels::tr1_level()),
        ("level_tr2", levels::tr2_level()),
        ("level_tr3", levels::tr3_level()),
        ("level_tr4", tr4),
        ("level_tr5", tr5),
        ("tr4_level_data", tr4_file(&tr4_level_data)),
    ] {
        if let Err(e) = wadforge_format::level::read(&level) {
            panic!("the {target} seed is refused by its reader: {e}");
        }
    }
    let mut dir = Vec::new();
    for (i, file) in MANIFEST_FILES.iter().enumerate() {
        if i > 0 {
            dir.extend_from_slice(FILE_SEPARATOR);
        }
        dir.extend_from_slice(&std::fs::read(example().join(file)).unwrap());
    }
    seed("manifest_dir", "switch_and_plant", &dir);
    for glb in ["moveables/306_SWITCH_TYPE1.glb", "statics/000_PLANT0.glb"] {
        let name = Path::new(glb).file_name().unwrap().to_str().unwrap();
        seed("glb", name, &std::fs::read(example().join(glb)).unwrap());
    }
    seed("texture", "plant0.png", &texture_seed());
    sound_seeds(&seed);
}

/// The sound files the tests lay beside the standard fixture (a TRLE map), the same grown to
/// TRNG's 2048-id map, and their sounds as Tomb Editor catalogues: one as wadforge writes it,
/// named by the catalogue, and one shaped as Tomb Editor's (byte order mark, declaration,
/// comment, entities, defaults left out, an element the reader does not know).
fn sound_seeds(seed: &impl Fn(&str, &str, &[u8])) {
    use wadforge_format::catalog::{sound_name, Game};
    use wadforge_format::sounds::{sfx, xml};
    let sfx_seed = |sfx: &[u8], sam: &str| [sfx, FILE_SEPARATOR, sam.as_bytes()].concat();
    let trle = wadforge_fixtures::sounds::sound_files_for(&wadforge_fixtures::standard());
    seed("sounds_sfx", "standard_trle", &sfx_seed(&trle.sfx, &trle.sam));
    let mut sounds = sfx::read(&trle.sfx, &trle.sam).expect("the fixture's sound files read");
    let (_, first) = sounds
        .sounds
        .first_key_value()
        .expect("the fixture defines sounds");
    sounds.sounds.insert(1500, first.clone());
    let trng = sfx::write(&sounds).expect("a TRNG map of the fixture's sounds");
    seed("sounds_sfx", "standard_trng", &sfx_seed(&trng.sfx, &trng.sam));
    for (&id, info) in &mut sounds.sounds {
        info.name = sound_name(Game::Tr4, u32::from(id)).map(str::to_owned);
    }
    seed("sounds_xml", "standard.xml", xml::write(&sounds).as_bytes());
    let tomb_editor = "\u{feff}<?xml version=\"1.0\" encoding=\"utf-8\"?>\r\n<!-- sounds -->\r\n\
        <WadSounds xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\">\r\n  <SoundInfos>\r\n    \
        <WadSoundInfo>\r\n      <Id>12</Id>\r\n      <Name>DOOR &amp; GATE</Name>\r\n      \
        <Volume>50</Volume>\r\n      <Chance>0</Chance>\r\n      <PitchFactor>-20</PitchFactor>\r\n      \
        <RandomizePitch>true</RandomizePitch>\r\n      <LoopBehaviour>OneShotRewound</LoopBehaviour>\r\n      \
        <Samples>\r\n        <WadSample><FileName>DOOR&#95;1.wav</FileName></WadSample>\r\n        \
        <WadSample><FileName>DOOR_2.wav</FileName></WadSample>\r\n      </Samples>\r\n      \
        <Unknown a='1'/>\r\n    </WadSoundInfo>\r\n    <WadSoundInfo>\r\n      <Id>400</Id>\r\n      \
        <Samples />\r\n      <Global>true</Global>\r\n    </WadSoundInfo>\r\n  </SoundInfos>\r\n</WadSounds>\r\n";
    seed("sounds_xml", "tomb_editor_style.xml", tomb_editor.as_bytes());
    // A seed its reader refuses would leave the fuzzer to find its way past the refusal alone.
    let trle = (&trle.sfx[..], trle.sam.as_str());
    for (name, (sfx, sam)) in [("standard_trle", trle), ("standard_trng", (&trng.sfx, &trng.sam))] {
        if let Err(e) = sfx::read(sfx, sam) {
            panic!("the sounds_sfx seed {name} is refused by its reader: {e}");
        }
    }
    for text in [xml::write(&sounds).as_str(), tomb_editor] {
        if let Err(e) = xml::read(text) {
            panic!("a sounds_xml seed is refused by its reader: {e}");
        }
    }
}

/// A small Wad2 of one moveable (a mesh of one triangle, a bone, an animation of one keyframe)
/// and one texture, built with the container codec (real Wad2 files are GPL-3.0: none are kept).
fn wad2_seed() -> Vec<u8> {
    use wadforge_format::wad2::{self, Chunk, Wad2File};
    let triangle = [0, 1, 2, 0, 0]
        .iter()
        .copied()
        .chain([0; 24])
        .chain([0, 1])
        .collect::<Vec<u8>>();
    let positions = Chunk::parent("W2VrtPos", &[], &vec![Chunk::new("W2Pos", vec![0; 12]); 3]);
    let polygons = Chunk::parent("W2Polys", &[], &[Chunk::parent("W2Tr", &triangle, &[])]);
    let mesh = Chunk::parent("W2Mesh", &[], &[positions, polygons]);
    let bone = Chunk::parent(
        "W2Bone2",
        &[0, 4, 0, 0, 0, b'r', b'o', b'o', b't'],
        &[Chunk::new("W2BoneMesh", vec![0])],
    );
    let keyframe = Chunk::parent(
        "W2Kf",
        &[],
        &[
            Chunk::new("W2KfOffs", vec![0; 12]),
            Chunk::new("W2KfA", vec![0; 12]),
        ],
    );
    let animation = Chunk::parent("W2Ani2", &[2, 0, 1, 0, 0], &[keyframe]);
    let moveable = Chunk::parent("W2Moveable", &[0], &[mesh, bone, animation]);
    let texture = Chunk::parent("W2Txt", &[1, 1], &[Chunk::new("W2TxtData", vec![255; 4])]);
    let chunks = vec![
        Chunk::new("W2SuggestedGameVersion", vec![18]),
        Chunk::new("W2SoundSystem", vec![1]),
        Chunk::parent("W2Textures", &[], &[texture]),
        Chunk::parent("W2Moveables", &[], &[moveable]),
    ];
    wad2::write(&Wad2File {
        compressed: false,
        chunks,
    })
}
