//! A second Wad2 reader, in Python (`tests/clients/wad2_summary.py`), written apart from the Rust
//! codec: its summary of each real file (GPL-3.0, read from `../shared/wad2/`, never copied here)
//! must agree with counts and sums taken from the Rust container layer, it must read the Rust
//! writer's compressed form of each file the same, and it must refuse hostile files cleanly.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use crate::common::wad2_built::document_with_every_kind;
use crate::common::wad2_walk::{real_file_paths, visit};
use serde_json::{json, Value};
use wadforge_format::wad2::document::{Animation, AnimationVersion, Mesh, VertexColour};
use wadforge_format::wad2::{self, leb128, Chunk, Document, Wad2File};

fn script() -> PathBuf {
    PathBuf::from(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../tests/clients/wad2_summary.py"
    ))
}

/// Whether `python3` runs; says so when it does not, for the test to skip.
fn python_available() -> bool {
    let found = Command::new("python3")
        .arg("--version")
        .output()
        .is_ok_and(|output| output.status.success());
    if !found {
        println!("skipped: no python3 on PATH");
    }
    found
}

fn run_reader(path: &Path) -> Output {
    Command::new("python3")
        .arg(script())
        .arg(path)
        .output()
        .expect("python3 runs")
}

/// The Python reader's summary of `path`; panics with its message when it refuses the file.
fn summary_of(path: &Path) -> Value {
    let output = run_reader(path);
    assert!(
        output.status.success(),
        "{}: the Python reader refused it: {}",
        path.display(),
        String::from_utf8_lossy(&output.stderr)
    );
    serde_json::from_slice(&output.stdout).expect("the Python reader prints JSON")
}

/// Counts and sums over a file's chunk tree, taken with the Rust container layer.
#[derive(Default)]
struct Tally {
    ids: BTreeMap<String, usize>,
    game_version: Option<i64>,
    moveable_ids: Vec<i64>,
    texture_sizes: Vec<[i64; 2]>,
    index_sum: i64,
    texture_sum: i64,
    position_sum: [f64; 3],
}

impl Tally {
    fn count(&self, ids: &[&str]) -> u64 {
        ids.iter()
            .map(|id| self.ids.get(*id).copied().unwrap_or(0) as u64)
            .sum()
    }

    /// Adds one chunk: its id, and the few values the summary reports that are cheap to decode.
    fn add(&mut self, chunk: &Chunk) {
        *self.ids.entry(chunk.id.clone()).or_default() += 1;
        let bytes = &chunk.content.bytes;
        let numbers = |count: usize| {
            let mut pos = 0;
            (0..count)
                .map(|_| leb128::read(bytes, &mut pos).expect("a number the walk already read"))
                .collect::<Vec<_>>()
        };
        match chunk.id.as_str() {
            "W2SuggestedGameVersion" => self.game_version = Some(numbers(1)[0]),
            "W2Moveable" => self.moveable_ids.push(numbers(1)[0]),
            "W2Txt" => self.texture_sizes.push([numbers(2)[0], numbers(2)[1]]),
            "W2Tr" | "W2Tr2" | "W2Uq" | "W2Uq2" => {
                let corners = if chunk.id.starts_with("W2Uq") { 4 } else { 3 };
                let fields = numbers(corners + 2);
                self.index_sum += fields[..corners].iter().sum::<i64>();
                self.texture_sum += fields[corners + 1];
            }
            "W2Pos" => {
                for (axis, value) in bytes.chunks_exact(4).take(3).enumerate() {
                    self.position_sum[axis] += f64::from(f32::from_le_bytes(value.try_into().unwrap()));
                }
            }
            _ => {}
        }
    }
}

fn tally(bytes: &[u8]) -> Tally {
    let file = wad2::read(bytes).expect("the container reads the real file");
    let mut tally = Tally::default();
    visit(&file.chunks, &mut |chunk| tally.add(chunk)).expect("the walk reaches the leaves");
    tally
}

fn list<'a>(value: &'a Value, key: &str) -> &'a [Value] {
    value[key].as_array().unwrap_or_else(|| panic!("{key} is a list"))
}

/// Every mesh of a summary: moveables' meshes and skins, statics' meshes.
fn meshes(summary: &Value) -> Vec<&Value> {
    let moveables = list(summary, "moveables");
    let mut meshes: Vec<&Value> = moveables.iter().flat_map(|m| list(m, "meshes").iter()).collect();
    meshes.extend(moveables.iter().map(|m| &m["skin"]).filter(|s| !s.is_null()));
    meshes.extend(
        list(summary, "statics")
            .iter()
            .map(|s| &s["mesh"])
            .filter(|m| !m.is_null()),
    );
    meshes
}

fn animations(summary: &Value) -> Vec<&Value> {
    list(summary, "moveables")
        .iter()
        .flat_map(|m| list(m, "animations").iter())
        .collect()
}

/// The sum of an integer `key` over `items`.
fn sum(items: &[&Value], key: &str) -> u64 {
    items
        .iter()
        .map(|item| item[key].as_u64().unwrap_or_else(|| panic!("{key} is a count")))
        .sum()
}

/// How many of `items` have a non-null `key`.
fn present(items: &[&Value], key: &str) -> u64 {
    items.iter().filter(|item| !item[key].is_null()).count() as u64
}

fn len_sum(items: &[&Value], key: &str) -> u64 {
    items.iter().map(|item| list(item, key).len() as u64).sum()
}

/// (what, count from the Rust walk, count from the Python summary) for each checked count.
fn counts(tally: &Tally, summary: &Value) -> Vec<(&'static str, u64, u64)> {
    let moveables: Vec<&Value> = list(summary, "moveables").iter().collect();
    let meshes = meshes(summary);
    let animations = animations(summary);
    let sequences: Vec<u64> = list(summary, "sprite_sequences")
        .iter()
        .map(|s| s[1].as_u64().unwrap())
        .collect();
    vec![
        ("W2Moveable", tally.count(&["W2Moveable"]), moveables.len() as u64),
        (
            "W2Static2+W2Static",
            tally.count(&["W2Static2", "W2Static"]),
            list(summary, "statics").len() as u64,
        ),
        (
            "W2Txt",
            tally.count(&["W2Txt"]),
            list(summary, "textures").len() as u64,
        ),
        (
            "W2Spr",
            tally.count(&["W2Spr"]),
            summary["sprites"].as_u64().unwrap(),
        ),
        (
            "W2SpriteSeq",
            tally.count(&["W2SpriteSeq"]),
            sequences.len() as u64,
        ),
        (
            "W2SpritePtr",
            tally.count(&["W2SpritePtr"]),
            sequences.iter().sum(),
        ),
        ("W2Mesh", tally.count(&["W2Mesh"]), meshes.len() as u64),
        (
            "W2MovSkin",
            tally.count(&["W2MovSkin"]),
            present(&moveables, "skin"),
        ),
        (
            "W2Bone2+W2Bone",
            tally.count(&["W2Bone2", "W2Bone"]),
            len_sum(&moveables, "bones"),
        ),
        (
            "W2Ani*",
            tally.count(&["W2Ani", "W2Anm", "W2Ani2", "W2Ani3"]),
            animations.len() as u64,
        ),
        ("W2Kf", tally.count(&["W2Kf"]), sum(&animations, "keyframes")),
        ("W2KfA", tally.count(&["W2KfA"]), sum(&animations, "angles")),
        (
            "W2StCh",
            tally.count(&["W2StCh"]),
            sum(&animations, "state_changes"),
        ),
        (
            "W2Disp+W2Disp2",
            tally.count(&["W2Disp", "W2Disp2"]),
            sum(&animations, "dispatches"),
        ),
        (
            "W2Cmd2+W2Cmd",
            tally.count(&["W2Cmd2", "W2Cmd"]),
            len_sum(&animations, "commands"),
        ),
        (
            "W2AniV",
            tally.count(&["W2AniV"]),
            present(&animations, "velocities"),
        ),
        (
            "W2AnmName",
            tally.count(&["W2AnmName"]),
            present(&animations, "name"),
        ),
        (
            "W2MeshName",
            tally.count(&["W2MeshName"]),
            present(&meshes, "name"),
        ),
        ("W2Pos", tally.count(&["W2Pos"]), sum(&meshes, "positions")),
        ("W2N", tally.count(&["W2N"]), sum(&meshes, "normals")),
        ("W2VxCol", tally.count(&["W2VxCol"]), sum(&meshes, "colours")),
        ("W2Shd", tally.count(&["W2Shd"]), sum(&meshes, "shades")),
        ("W2VrtWght", tally.count(&["W2VrtWght"]), sum(&meshes, "weights")),
        ("W2VxAttr", tally.count(&["W2VxAttr"]), sum(&meshes, "attributes")),
        (
            "W2Tr2+W2Tr",
            tally.count(&["W2Tr2", "W2Tr"]),
            sum(&meshes, "triangles"),
        ),
        (
            "W2Uq2+W2Uq",
            tally.count(&["W2Uq2", "W2Uq"]),
            sum(&meshes, "quads"),
        ),
    ]
}

/// The values both sides decode: game version, slot ids, texture sizes, polygon and position sums.
fn check_values(name: &str, tally: &Tally, summary: &Value) {
    assert_eq!(
        summary["game_version"].as_i64(),
        tally.game_version,
        "{name}: game version"
    );
    let moveable_ids: Vec<i64> = list(summary, "moveables")
        .iter()
        .map(|m| m["id"].as_i64().unwrap())
        .collect();
    assert_eq!(moveable_ids, tally.moveable_ids, "{name}: moveable slot ids");
    let texture_sizes: Vec<[i64; 2]> = list(summary, "textures")
        .iter()
        .map(|t| [t[0].as_i64().unwrap(), t[1].as_i64().unwrap()])
        .collect();
    assert_eq!(texture_sizes, tally.texture_sizes, "{name}: texture sizes");
    let meshes = meshes(summary);
    let signed = |key: &str| meshes.iter().map(|m| m[key].as_i64().unwrap()).sum::<i64>();
    assert_eq!(signed("index_sum"), tally.index_sum, "{name}: corner index sum");
    assert_eq!(
        signed("texture_sum"),
        tally.texture_sum,
        "{name}: texture index sum"
    );
    for axis in 0..3 {
        let python: f64 = meshes
            .iter()
            .map(|m| m["position_sum"][axis].as_f64().unwrap())
            .sum();
        let rust = tally.position_sum[axis];
        assert!(
            (python - rust).abs() <= 1e-9 * rust.abs().max(1.0),
            "{name}: position sum on axis {axis}: Python {python}, Rust {rust}"
        );
    }
    for id in list(summary, "unknown") {
        let id = id.as_str().unwrap();
        assert!(
            tally.ids.contains_key(id),
            "{name}: unknown {id} is not in the chunk tree"
        );
    }
}

fn print_counts(name: &str, summary: &Value) {
    let meshes = meshes(summary);
    let animations = animations(summary);
    println!(
        "{name}: {} moveables, {} meshes, {} animations, {} keyframes, {} textures, unknown {}",
        list(summary, "moveables").len(),
        meshes.len(),
        animations.len(),
        sum(&animations, "keyframes"),
        list(summary, "textures").len(),
        summary["unknown"]
    );
}

#[test]
fn python_summary_agrees_with_the_container_walk() {
    if !python_available() {
        return;
    }
    for path in real_file_paths() {
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let summary = summary_of(&path);
        assert_eq!(summary["file"], name.as_str());
        let tally = tally(&std::fs::read(&path).unwrap());
        for (what, rust, python) in counts(&tally, &summary) {
            assert_eq!(
                rust, python,
                "{name}: {what}: Rust walk {rust}, Python summary {python}"
            );
        }
        check_values(&name, &tally, &summary);
        print_counts(&name, &summary);
    }
}

#[test]
fn python_reads_the_rust_writers_compressed_form_alike() {
    if !python_available() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    for path in real_file_paths() {
        let name = path.file_name().unwrap();
        let mut file = wad2::read(&std::fs::read(&path).unwrap()).unwrap();
        file.compressed = true;
        let compressed = dir.path().join(name);
        std::fs::write(&compressed, wad2::write(&file)).unwrap();
        assert_eq!(
            summary_of(&compressed),
            summary_of(&path),
            "{}: compressed and plain summaries differ",
            name.to_string_lossy()
        );
    }
}

/// A small valid file built with the codec: one moveable whose mesh has two positions and a
/// triangle with corners `corners`.
fn one_triangle(corners: [i64; 3]) -> Vec<u8> {
    let number = |value| {
        let mut out = Vec::new();
        leb128::write(value, &mut out);
        out
    };
    let mut triangle: Vec<u8> = corners.iter().flat_map(|&c| number(c)).collect();
    triangle.extend([number(0), number(0), vec![0; 24], number(0), vec![1]].concat());
    let positions = vec![Chunk::new("W2Pos", vec![0; 12]), Chunk::new("W2Pos", vec![0; 12])];
    let mesh = Chunk::parent(
        "W2Mesh",
        &[],
        &[
            Chunk::parent("W2VrtPos", &[], &positions),
            Chunk::parent("W2Polys", &[], &[Chunk::parent("W2Tr", &triangle, &[])]),
        ],
    );
    let moveable = Chunk::parent("W2Moveable", &number(70), &[mesh]);
    wad2::write(&Wad2File {
        compressed: false,
        chunks: vec![
            Chunk::new("W2SoundSystem", number(1)),
            Chunk::parent("W2Moveables", &[], &[moveable]),
        ],
    })
}

/// Runs the reader on `bytes` and checks it refuses them: exit code 1, a message with a byte
/// offset that contains `expected`, nothing on stdout, no Python traceback.
fn assert_refused(what: &str, bytes: &[u8], expected: &str) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("hostile.wad2");
    std::fs::write(&path, bytes).unwrap();
    let output = run_reader(&path);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(
        output.status.code(),
        Some(1),
        "{what}: exit code; stderr {stderr}"
    );
    assert!(output.stdout.is_empty(), "{what}: printed a summary");
    assert!(
        !stderr.contains("Traceback"),
        "{what}: a Python traceback: {stderr}"
    );
    assert!(stderr.contains("offset "), "{what}: no offset in {stderr}");
    assert!(stderr.contains(expected), "{what}: {expected:?} not in {stderr}");
    println!("{what}: {}", stderr.trim());
}

#[test]
fn python_refuses_hostile_files_with_an_offset() {
    if !python_available() {
        return;
    }
    let valid = one_triangle([0, 1, 1]);
    assert!(
        run_reader_on(&valid).status.success(),
        "the valid hand-built file"
    );
    let real = real_file_paths().first().map(|path| std::fs::read(path).unwrap());
    let cut = real.as_deref().unwrap_or(&valid);
    assert_refused("a truncated file", &cut[..cut.len() / 2], "left");
    let mut huge = b"WAD2\0\0\0\0".to_vec();
    leb128::write(4, &mut huge);
    huge.extend(b"W2Xx");
    leb128::write(1 << 62, &mut huge);
    huge.push(0);
    assert_refused("a chunk size of 2^62", &huge, "size 4611686018427387904");
    let mut magic = valid.clone();
    magic[..4].copy_from_slice(b"WADX");
    assert_refused("a bad magic", &magic, "offset 0: magic");
    assert_refused(
        "a corner out of range",
        &one_triangle([0, 1, 2]),
        "corner index 2 out of range",
    );
}

fn run_reader_on(bytes: &[u8]) -> Output {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("file.wad2");
    std::fs::write(&path, bytes).unwrap();
    run_reader(&path)
}

/// The Python reader's summary, made from the typed document layer instead (but for "file" and
/// "unknown", which the document keeps as chunks).
fn document_summary(document: &Document) -> Value {
    let moveables: Vec<Value> = document
        .moveables
        .iter()
        .map(|moveable| {
            let bones: Vec<Value> = moveable
                .bones
                .iter()
                .map(|b| json!([b.opcode, b.name, b.translation, b.mesh]))
                .collect();
            json!({
                "id": moveable.id,
                "meshes": moveable.meshes.iter().map(mesh_summary).collect::<Vec<_>>(),
                "skin": moveable.skin.as_ref().map(mesh_summary),
                "bones": bones,
                "animations": moveable.animations.iter().map(animation_summary).collect::<Vec<_>>(),
            })
        })
        .collect();
    let statics: Vec<Value> = document
        .statics
        .iter()
        .map(|s| json!({"id": s.id, "flags": s.flags, "mesh": mesh_summary(&s.mesh)}))
        .collect();
    let sequences: Vec<Value> = document
        .sprite_sequences
        .iter()
        .map(|s| json!([s.id, s.sprites.len()]))
        .collect();
    json!({
        "game_version": document.game_version,
        "sound_system": document.sound_system,
        "textures": document.textures.iter().map(|t| [t.width, t.height]).collect::<Vec<_>>(),
        "sprites": document.sprites.len(),
        "sprite_sequences": sequences,
        "moveables": moveables,
        "statics": statics,
    })
}

fn mesh_summary(mesh: &Mesh) -> Value {
    let polygons = &mesh.polygons;
    let mut position_sum = [0.0f64; 3];
    for position in &mesh.positions {
        for (sum, value) in position_sum.iter_mut().zip(position) {
            *sum += f64::from(*value);
        }
    }
    let mut blend_modes: Vec<i64> = polygons.iter().map(|p| p.blend_mode).collect();
    blend_modes.sort_unstable();
    blend_modes.dedup();
    let shades = mesh
        .colours
        .iter()
        .filter(|c| matches!(c, VertexColour::Shade(_)))
        .count();
    json!({
        "name": mesh.name,
        "positions": mesh.positions.len(),
        "normals": mesh.normals.len(),
        "colours": mesh.colours.len() - shades,
        "shades": shades,
        "weights": mesh.weights.as_ref().map_or(0, Vec::len),
        "attributes": mesh.attributes.len(),
        "triangles": polygons.iter().filter(|p| !p.quad).count(),
        "quads": polygons.iter().filter(|p| p.quad).count(),
        "index_sum": polygons.iter().map(|p| p.corners[..p.corner_count()].iter().sum::<i64>()).sum::<i64>(),
        "texture_sum": polygons.iter().map(|p| p.texture).sum::<i64>(),
        "position_sum": position_sum,
        "blend_modes": blend_modes,
        "double_sided": polygons.iter().filter(|p| p.double_sided).count(),
    })
}

fn animation_summary(animation: &Animation) -> Value {
    let kind = match animation.version {
        AnimationVersion::Obsolete { .. } => "W2Anm",
        AnimationVersion::Legacy { .. } => "W2Ani",
        AnimationVersion::Current => "W2Ani2",
        AnimationVersion::Blended { .. } => "W2Ani3",
    };
    let commands: Vec<Value> = animation
        .commands
        .iter()
        .map(|c| json!([c.kind, c.parameters[0], c.parameters[1], c.parameters[2]]))
        .collect();
    json!({
        "kind": kind,
        "state": animation.state,
        "end_frame": animation.end_frame,
        "frame_rate": animation.frame_rate,
        "next_animation": animation.next_animation,
        "next_frame": animation.next_frame,
        "keyframes": animation.keyframes.len(),
        "angles": animation.keyframes.iter().map(|k| k.angles.len()).sum::<usize>(),
        "state_changes": animation.state_changes.len(),
        "dispatches": animation.state_changes.iter().map(|s| s.dispatches.len()).sum::<usize>(),
        "commands": commands,
        "velocities": animation.velocities,
        "name": animation.name,
    })
}

/// The Python summary without what [`document_summary`] leaves out.
fn comparable(mut summary: Value) -> Value {
    let object = summary.as_object_mut().expect("a summary is an object");
    object.remove("file");
    object.remove("unknown");
    summary
}

#[test]
fn python_and_the_typed_document_read_every_file_alike() {
    if !python_available() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let built = dir.path().join("every_kind.wad2");
    std::fs::write(&built, wad2::write_document(&document_with_every_kind())).unwrap();
    let mut paths = real_file_paths();
    paths.push(built);
    for path in paths {
        let document = wad2::read_document(&std::fs::read(&path).unwrap()).unwrap();
        let ours = document_summary(&document);
        let theirs = comparable(summary_of(&path));
        assert!(
            ours == theirs,
            "{}: the readers differ\nRust:   {ours}\nPython: {theirs}",
            path.display()
        );
    }
}
