//! The Wad2 container codec over Tomb Editor's real files (GPL-3.0, read from `../shared/wad2/`
//! and never copied here): every chunk down to the leaves parses, and writing gives the input back.

use std::collections::{BTreeMap, BTreeSet};

use crate::common::wad2_walk::{real_files, visit};
use wadforge_format::wad2::{self, leb128, Chunk, Wad2Error, Wad2File};

/// What a walk found in one file.
#[derive(Default, Debug)]
struct Census {
    ids: BTreeMap<String, usize>,
    /// (id, size width) of chunks whose size is wider than its minimal encoding.
    padded: BTreeSet<(String, u8)>,
    /// Chunks whose id length was padded (not expected).
    padded_id_lengths: usize,
    deepest: u32,
}

impl Census {
    fn count(&self, ids: &[&str]) -> usize {
        ids.iter().map(|id| self.ids.get(*id).copied().unwrap_or(0)).sum()
    }
}

/// Walks `chunks` and every known parent's children to the leaves.
fn walk(chunks: &[Chunk], census: &mut Census) -> Result<(), String> {
    visit(chunks, &mut |chunk| {
        *census.ids.entry(chunk.id.clone()).or_default() += 1;
        census.deepest = census.deepest.max(chunk.content.depth);
        let size = chunk.content.bytes.len() as i64;
        if usize::from(chunk.widths.size) > leb128::minimal_width(size) {
            census.padded.insert((chunk.id.clone(), chunk.widths.size));
        }
        if usize::from(chunk.widths.id_length) > leb128::minimal_width(chunk.id.len() as i64) {
            census.padded_id_lengths += 1;
        }
    })
}

/// Reads a file and walks it to the leaves; Err when the container refuses it.
fn read_and_walk(bytes: &[u8]) -> Result<(Wad2File, Census), String> {
    let file = wad2::read(bytes).map_err(|e: Wad2Error| e.to_string())?;
    let mut census = Census::default();
    walk(&file.chunks, &mut census)?;
    Ok((file, census))
}

/// Ids this walk saw that docs/notes name nowhere: worth a look by the next slice.
const NOTED: &[&str] = &[
    "W2SuggestedGameVersion",
    "W2SoundSystem",
    "W2Textures",
    "W2Txt",
    "W2TxtName",
    "W2TxtRelPath",
    "W2TxtData",
    "W2Sprites",
    "W2Spr",
    "W2Index",
    "W2SprSides",
    "W2SpriteSequences",
    "W2SpriteSeq",
    "W2SpritePtr",
    "W2Moveables",
    "W2Moveable",
    "W2Mesh",
    "W2MovSkin",
    "W2Bone2",
    "W2BoneTrans",
    "W2BoneMesh",
    "W2Ani2",
    "W2Ani3",
    "W2CurveStart",
    "W2CurveEnd",
    "W2CurveHStart",
    "W2CurveHEnd",
    "W2AnmName",
    "W2Kf",
    "W2KfOffs",
    "W2KfBB",
    "W2BBMin",
    "W2BBMax",
    "W2KfA",
    "W2StCh",
    "W2Disp",
    "W2Disp2",
    "W2Cmd2",
    "W2Cmd",
    "W2AniV",
    "W2AniRM",
    "W2Statics",
    "W2Static2",
    "W2Static",
    "W2StaticAmbientLight",
    "W2StaticShatter",
    "W2StaticShatterSound",
    "W2StaticLight",
    "W2StaticVB",
    "W2StaticCB",
    "W2Metadata",
    "W2Timestamp",
    "W2UserNotes",
    "W2AnimatedTextureSets",
    "W2MeshName",
    "W2MeshSphere",
    "W2SphC",
    "W2SphR",
    "W2BBox",
    "W2VrtPos",
    "W2Pos",
    "W2VrtNorm",
    "W2N",
    "W2VrtShd",
    "W2VxCol",
    "W2Shd",
    "W2VrtWghts",
    "W2VrtWght",
    "W2VrtAttr",
    "W2VxAttr",
    "W2MeshLightType",
    "W2MeshVisible",
    "W2Polys",
    "W2Tr2",
    "W2Uq2",
    "W2Tr",
    "W2Uq",
    "W2Bone",
    "W2Ani",
    "W2Anm",
    "W2Frame",
];

#[test]
fn real_files_parse_to_the_leaves_and_write_back_byte_for_byte() {
    for (name, bytes) in real_files() {
        let (file, census) = read_and_walk(&bytes).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(wad2::write(&file), bytes, "{name}: writing back differs");
        let moveables = census.count(&["W2Moveable"]);
        let meshes = census.count(&["W2Mesh"]);
        let animations = census.count(&["W2Ani", "W2Anm", "W2Ani2", "W2Ani3"]);
        let textures = census.count(&["W2Txt"]);
        println!("{name}: {moveables} moveables, {meshes} meshes, {animations} animations, {textures} textures, {} levels deep", census.deepest + 1);
        println!(
            "  padded sizes: {:?}; padded id lengths: {}",
            census.padded, census.padded_id_lengths
        );
        let unnoted: Vec<_> = census
            .ids
            .keys()
            .filter(|id| !NOTED.contains(&id.as_str()))
            .collect();
        println!("  ids the notes do not list: {unnoted:?}");
        println!("  ids: {:?}", census.ids);
        assert!(
            moveables > 0 && meshes > 0,
            "{name} should hold a moveable with meshes"
        );
        assert!(textures > 0, "{name} should hold textures");
    }
}

/// A small file built with the codec, for the mutation test when `../shared` is absent.
fn hand_built() -> Vec<u8> {
    let number = |value| {
        let mut out = Vec::new();
        leb128::write(value, &mut out);
        out
    };
    let triangle = [
        &number(0)[..],
        &number(1),
        &number(2),
        &number(0),
        &number(0),
        &[0; 24],
        &number(0),
        &[1],
    ]
    .concat();
    let mesh = Chunk::parent(
        "W2Mesh",
        &[],
        &[
            Chunk::parent(
                "W2VrtPos",
                &[],
                &[Chunk::new("W2Pos", vec![0; 12]), Chunk::new("W2Pos", vec![0; 12])],
            ),
            Chunk::parent("W2Polys", &[], &[Chunk::parent("W2Tr", &triangle, &[])]),
        ],
    );
    let keyframe = Chunk::parent(
        "W2Kf",
        &[],
        &[
            Chunk::new("W2KfOffs", vec![0; 12]),
            Chunk::new("W2KfA", vec![0; 12]),
        ],
    );
    let animation = Chunk::parent(
        "W2Ani2",
        &[2, 0, 1, 0, 0],
        &[Chunk::new("W2AnmName", b"idle".to_vec()), keyframe],
    );
    let bone = Chunk::parent(
        "W2Bone2",
        &[[0, 4, 0, 0, 0].as_slice(), b"root"].concat(),
        &[Chunk::new("W2BoneMesh", vec![0])],
    );
    let moveable = Chunk::parent("W2Moveable", &number(70), &[mesh, bone, animation]);
    let texture = Chunk::parent("W2Txt", &[1, 1], &[Chunk::new("W2TxtData", vec![255; 4])]);
    let file = Wad2File {
        compressed: false,
        chunks: vec![
            Chunk::new("W2SuggestedGameVersion", number(18)),
            Chunk::new("W2SoundSystem", number(1)),
            Chunk::parent("W2Textures", &[], &[texture]),
            Chunk::parent("W2Moveables", &[], &[moveable]),
        ],
    };
    wad2::write(&file)
}

#[test]
fn hand_built_file_walks() {
    let bytes = hand_built();
    let (file, census) = read_and_walk(&bytes).unwrap();
    assert_eq!(wad2::write(&file), bytes);
    assert_eq!(
        census.count(&["W2Moveable", "W2Mesh", "W2Ani2", "W2Txt", "W2Tr"]),
        5
    );
}

/// Truncations at every length and flips of every byte (two ways) of `bytes`: each gives an error
/// or a tree, never a panic (a panic fails the test).
fn mutate_everywhere(name: &str, bytes: &[u8]) -> (usize, usize) {
    let (mut errors, mut trees) = (0, 0);
    let mut tally = |result: Result<_, String>| match result {
        Ok(_) => trees += 1,
        Err(_) => errors += 1,
    };
    for length in 0..bytes.len() {
        tally(read_and_walk(&bytes[..length]));
    }
    for index in 0..bytes.len() {
        for mask in [0xFF, 0x80, 0x01] {
            let mut flipped = bytes.to_vec();
            flipped[index] ^= mask;
            tally(read_and_walk(&flipped));
        }
    }
    println!("{name}: {errors} mutations refused, {trees} still parse");
    (errors, trees)
}

#[test]
fn mutations_never_panic() {
    let (errors, _) = mutate_everywhere("hand-built", &hand_built());
    assert!(errors > 0);
    for (name, bytes) in real_files().into_iter().filter(|(_, bytes)| bytes.len() < 20_000) {
        mutate_everywhere(&name, &bytes);
    }
}

#[test]
fn big_files_survive_random_flips_and_cuts() {
    // xorshift: deterministic, so a failure reproduces.
    let mut state: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    for (name, bytes) in real_files()
        .into_iter()
        .filter(|(_, bytes)| bytes.len() >= 20_000)
    {
        for _ in 0..40 {
            let mut mutated = bytes.clone();
            let index = (next() % bytes.len() as u64) as usize;
            mutated[index] ^= (next() % 255 + 1) as u8;
            if next() % 4 == 0 {
                mutated.truncate((next() % bytes.len() as u64) as usize);
            }
            let _ = read_and_walk(&mutated);
        }
        println!("{name}: 40 random mutations, no panic");
    }
}
