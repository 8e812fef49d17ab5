//! Hostile WADs and TR1–TR4 levels (docs/hostile-input.md): zlib bombs, tables inflated or named
//! over and over, objects past what a file of their size may make, read by `info`, `import`,
//! `gallery`, `diff` and `check`; each refused with a clear message, or read, within the memory
//! and time limits (`crate::common::measure`).

use std::io::Write;
use std::path::PathBuf;

use crate::common::files::{bytes_under, files_under, write_wad};
use crate::common::forge::{
    animated_copy, standard_on_one_page, table_after, tr4_object_tables, u32_at, wad_of_many_animations,
    TR4_OBJECT_TABLES,
};
use crate::common::measure::{
    assert_in_time, measured, measured_on, memory_limit, refused_within_limits, within_limits, Run,
};
use crate::common::{assert_same_objects, s};

/// zlib bytes of `n` zero bytes: about n / 1030 bytes.
fn zeros_compressed(n: u64) -> Vec<u8> {
    let mut z = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::best());
    let block = vec![0u8; 1 << 20];
    for _ in 0..n / block.len() as u64 {
        z.write_all(&block).unwrap();
    }
    z.finish().unwrap()
}

/// A TR4 level's start: its textile counts and a first (32-bit textiles) chunk; the rest of the
/// file never matters, as the chunk is refused.
fn tr4_with_first_chunk(counts: [u16; 3], claimed: u32, compressed: &[u8]) -> Vec<u8> {
    let mut f = b"TR4\0".to_vec();
    for c in counts {
        f.extend_from_slice(&c.to_le_bytes());
    }
    f.extend_from_slice(&claimed.to_le_bytes());
    f.extend_from_slice(&(compressed.len() as u32).to_le_bytes());
    f.extend_from_slice(compressed);
    f
}

#[test]
fn a_tr4_zlib_bomb_is_refused_within_the_memory_limit() {
    const GIB: u64 = 1 << 30;
    let bomb = zeros_compressed(GIB); // about 1 MB that inflates to 1 GiB
    let tmp = tempfile::tempdir().unwrap();
    for (what, counts, claimed, message) in [
        (
            "a chunk that claims more than its textile counts",
            [0, 2, 0],
            GIB as u32,
            "claims 1073741824 bytes, more than the 524288 its textile counts (room + object + bump) allow",
        ),
        (
            "a chunk that inflates to more than it claims",
            [0, 2, 0],
            524_288,
            "inflates to more than 524288 bytes but its header says 524288",
        ),
        (
            "textile counts that claim a gigabyte of pages",
            [4096, 0, 0],
            GIB as u32,
            "bytes wadforge inflates from a file of this size (16777216 + 8 per file byte",
        ),
        (
            "a chunk that claims 4 GB",
            [u16::MAX; 3],
            u32::MAX,
            "claims 4294967295 bytes from",
        ),
    ] {
        let path = tmp.path().join("bomb.tr4");
        let file = tr4_with_first_chunk(counts, claimed, &bomb);
        std::fs::write(&path, &file).unwrap();
        let run = measured(&["info", s(&path)]);
        eprintln!(
            "{what}: {} bytes, peak {} bytes, {:?}",
            file.len(),
            run.peak_bytes,
            run.took
        );
        assert!(run.stderr.contains("32-bit textiles"), "{what}: {}", run.stderr);
        refused_within_limits(&run, file.len() as u64, message);
    }
}

/// The TR4 fixture with its object tables from mesh data to models replaced by `tables`, its
/// level data compressed again.
fn tr4_with_object_tables(tables: &[Vec<u8>]) -> Vec<u8> {
    let file = wadforge_fixtures::levels::tr4_level();
    let (at, data) = wadforge_fixtures::levels::tr4_level_data(&file);
    let start = wadforge_fixtures::levels::object_tables_at(wadforge_format::catalog::Game::Tr4);
    let rest = table_after(&data, start, &TR4_OBJECT_TABLES);
    let level_data = [&data[..start], &tables.concat(), &data[rest..]].concat();
    let mut z = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::best());
    z.write_all(&level_data).unwrap();
    let zlib = z.finish().unwrap();
    let mut out = file[..at].to_vec();
    out.extend_from_slice(&(level_data.len() as u32).to_le_bytes());
    out.extend_from_slice(&(zlib.len() as u32).to_le_bytes());
    out.extend_from_slice(&zlib);
    out.extend_from_slice(&file[at + 8 + u32_at(&file, at + 4)..]);
    out
}

/// A table of `count` records of `record` bytes.
fn table_of(count: usize, record: &[u8]) -> Vec<u8> {
    let mut t = (count as u32).to_le_bytes().to_vec();
    for _ in 0..count {
        t.extend_from_slice(record);
    }
    t
}

#[test]
fn keyframes_inflated_from_a_small_tr4_are_decoded_in_proportion_to_the_file() {
    // Found by review: the keyframe budget counted the inflated frame words, and zlib expands
    // repeated words a thousand times: a model of 246 joints whose 5 animations each play
    // 16 MB of one-axis keyframes (a 270 kB file) took the reader 310 MB.
    let joints = 246;
    let keyframe_words = 9 + joints; // box, offset, one word an angle
                                     // As many as the engine's signed frame numbers reach (32 768 frames): 16 MB each.
    let keyframes = ((16 << 20) / (2 * keyframe_words)).min(32_000);
    let mut animation = vec![0u8; 40];
    animation[4] = 1; // frame duration
    animation[5] = keyframe_words as u8;
    animation[26..28].copy_from_slice(&((keyframes - 1) as u16).to_le_bytes()); // frame end
    let mut keyframe = vec![0u8; 18];
    for _ in 0..joints {
        keyframe.extend_from_slice(&0x4000u16.to_le_bytes()); // about X alone, angle 0
    }
    let mut model = vec![0u8; 18];
    model[..4].copy_from_slice(&7u32.to_le_bytes()); // WOLF
    model[4..6].copy_from_slice(&(joints as u16).to_le_bytes());
    let tables = [
        tr4_object_tables()[0].clone(),
        table_of(joints, &0u32.to_le_bytes()), // every mesh pointer names the first mesh
        table_of(5, &animation),
        table_of(0, &[]),
        table_of(0, &[]),
        table_of(0, &[]),
        table_of((joints - 1) * 4, &0u32.to_le_bytes()),
        table_of(keyframes * keyframe_words, &[]),
        table_of(1, &model),
    ];
    let mut tables = tables.to_vec();
    // The frame words themselves, after their count.
    tables[7].extend(std::iter::repeat_n(&keyframe, keyframes).flatten());
    let bytes = tr4_with_object_tables(&tables);
    let tmp = tempfile::tempdir().unwrap();
    let path = tmp.path().join("frames.tr4");
    std::fs::write(&path, &bytes).unwrap();
    let run = measured(&["info", s(&path)]);
    eprintln!(
        "{} bytes: peak {} bytes, {:?}",
        bytes.len(),
        run.peak_bytes,
        run.took
    );
    refused_within_limits(
        &run,
        bytes.len() as u64,
        "decode their keyframe data more than 5 times over",
    );
    assert!(run.stderr.contains("frames.tr4"), "{}", run.stderr);
}

/// A TR4 mesh of three vertices and `faces` faces, quads or triangles, all on object texture
/// `texture`.
fn tr4_mesh_of_faces(faces: usize, quads: bool, texture: u16) -> Vec<u8> {
    let mut mesh = vec![0u8; 10]; // bounding sphere
    mesh.extend_from_slice(&3i16.to_le_bytes());
    mesh.extend_from_slice(&[0; 18]); // three vertices
    mesh.extend_from_slice(&(-3i16).to_le_bytes());
    mesh.extend_from_slice(&[0; 6]); // three shades
    let corners: &[u16] = if quads { &[0, 1, 2, 0] } else { &[0, 1, 2] };
    for list_of_quads in [true, false] {
        let count = if list_of_quads == quads { faces } else { 0 };
        mesh.extend_from_slice(&(count as i16).to_le_bytes());
        for _ in 0..count {
            for c in corners.iter().chain([&texture, &0]) {
                mesh.extend_from_slice(&c.to_le_bytes()); // corners, texture, effects
            }
        }
    }
    if mesh.len() % 4 != 0 {
        mesh.extend_from_slice(&[0, 0]); // meshes start at 32-bit boundaries
    }
    mesh
}

/// The TR4 fixture with `count` more meshes of `mesh` (and a mesh pointer to each).
fn tr4_with_more_meshes(mesh: &[u8], count: usize) -> Vec<u8> {
    let mut tables = tr4_object_tables();
    let (words, pointers) = (u32_at(&tables[0], 0), u32_at(&tables[1], 0));
    tables[0][..4].copy_from_slice(&((words + count * mesh.len() / 2) as u32).to_le_bytes());
    tables[1][..4].copy_from_slice(&((pointers + count) as u32).to_le_bytes());
    for m in 0..count {
        tables[0].extend_from_slice(mesh);
        tables[1].extend_from_slice(&((words * 2 + m * mesh.len()) as u32).to_le_bytes());
    }
    tr4_with_object_tables(&tables)
}

#[test]
fn meshes_inflated_from_a_small_tr4_are_bounded_by_the_file() {
    // Repeated faces compress a thousand times over: a 294 kB file's level data inflated to
    // 22 MB of quads (1.8 million) took info 76 MB; triangles mapped skewed took import 335 MB
    // (each polygon's exact corners held three times over, at 40 to 80 bytes each).
    let tmp = tempfile::tempdir().unwrap();
    let path = tmp.path().join("meshes.tr4");
    for (what, quads, texture) in [("quads", true, 0), ("triangles mapped skewed", false, 5)] {
        let mesh = tr4_mesh_of_faces(i16::MAX as usize, quads, texture);
        // As many as the file's polygons may be (262 144 plus one per 8 bytes), and as many as
        // its level data may inflate to (16 MiB plus 8 bytes per byte of the file).
        for (count, refused) in [(8, false), ((15 << 20) / mesh.len(), true)] {
            let bytes = tr4_with_more_meshes(&mesh, count);
            std::fs::write(&path, &bytes).unwrap();
            for command in ["info", "import"] {
                let run = measured_on(
                    command,
                    &path,
                    &tmp.path().join(format!("{command}{count}{quads}")),
                );
                if refused {
                    refused_within_limits(&run, bytes.len() as u64, "polygons a level of this size may");
                } else {
                    assert!(run.success, "{what}, {command}: {}", run.stderr);
                    within_limits(command, &run, bytes.len() as u64);
                }
            }
        }
    }
}

#[test]
fn alpha_tested_textures_covering_their_page_over_and_over_read_within_the_limits() {
    // Found by review: TR1's alpha-tested object textures make index 0 of their rectangle
    // transparent, and each rectangle was filled texel by texel: 400 000 page-sized ones (an
    // 8 MB file) made 26 billion steps, 10 s.
    let mut file = wadforge_fixtures::levels::tr1_level();
    let header = 8 + 65_536 * u32_at(&file, 4);
    let tables = header + wadforge_fixtures::levels::object_tables_at(wadforge_format::catalog::Game::Tr1);
    // Mesh data, mesh pointers, animations, state changes, dispatches, commands, mesh trees,
    // frames, models, statics; then the object textures.
    let textures = table_after(&file, tables, &[2, 4, 32, 6, 8, 2, 4, 2, 18, 32]);
    let count = u32_at(&file, textures);
    let mut page_sized = vec![1, 0, 0, 0]; // alpha-tested, on tile 0
    for [x, y] in [[0u16, 0], [0xFFFF, 0], [0xFFFF, 0xFFFF], [0, 0xFFFF]] {
        page_sized.extend_from_slice(&x.to_le_bytes());
        page_sized.extend_from_slice(&y.to_le_bytes());
    }
    let more = 400_000;
    file[textures..textures + 4].copy_from_slice(&((count + more) as u32).to_le_bytes());
    let end = textures + 4 + 20 * count;
    let tail = file.split_off(end);
    file.extend(std::iter::repeat_n(&page_sized, more).flatten());
    file.extend(tail);
    let tmp = tempfile::tempdir().unwrap();
    let path = tmp.path().join("alpha.phd");
    std::fs::write(&path, &file).unwrap();
    for command in ["info", "gallery"] {
        let run = measured_on(command, &path, &tmp.path().join(command));
        assert!(run.success, "{command}: {}", run.stderr);
        within_limits(command, &run, file.len() as u64);
    }
}

#[test]
fn moveables_sharing_an_id_import_and_draw_each_to_files_of_its_own() {
    // Found by review: objects of one id wrote the same files, from several threads at once (the
    // import failed with "No such file or directory" as one renamed the other's temporary file
    // away).
    let mut wad = standard_on_one_page();
    wad.moveables.retain(|m| m.id != 0 && m.id != 8 && m.id != 9);
    let count = 300;
    for id in std::iter::repeat_n(0, count).chain([8]) {
        wad.moveables.push(wadforge_format::Moveable {
            id,
            meshes: Vec::new(),
            links: Vec::new(),
            animations: Vec::new(),
        });
    }
    let bytes = wadforge_format::wad::write(&wad, None).unwrap();
    let tmp = tempfile::tempdir().unwrap();
    let path = tmp.path().join("laras.wad");
    std::fs::write(&path, &bytes).unwrap();
    let out = tmp.path().join("out");
    let run = measured(&["import", "-q", s(&path), "-o", s(&out)]);
    eprintln!(
        "import: {} bytes, peak {} bytes, {:?}",
        bytes.len(),
        run.peak_bytes,
        run.took
    );
    assert!(run.success, "{}", run.stderr);
    within_limits("import", &run, bytes.len() as u64);
    let laras = std::fs::read_dir(out.join("moveables"))
        .unwrap()
        .filter(|f| {
            let name = f.as_ref().unwrap().file_name().into_string().unwrap();
            name.starts_with("000_LARA") && name.ends_with(".yaml")
        })
        .count();
    assert_eq!(laras, count, "a manifest for each");
    assert!(out.join(format!("moveables/000_LARA_{count}.yaml")).is_file());
    // The gallery names its pictures the same way (it failed, or wrote a truncated picture).
    let gallery = tmp.path().join("gallery");
    let run = measured(&["gallery", "-q", s(&path), "-o", s(&gallery)]);
    assert!(run.success, "{}", run.stderr);
    let pictures = std::fs::read_dir(gallery.join("moveables")).unwrap();
    let laras = pictures
        .filter(|f| {
            f.as_ref()
                .unwrap()
                .file_name()
                .to_string_lossy()
                .starts_with("000_LARA")
        })
        .count();
    assert_eq!(laras, count, "a picture for each");
}

#[test]
fn thousands_of_moveables_dressed_in_one_large_body_are_refused_at_once() {
    // Found by review: no mesh pointer counts the body a dressed moveable shows (TR4's LARA wears
    // LARA_SKIN), so 2000 moveables of Lara's id on one empty mesh, each dressed in a body of
    // 60 000 polygons (a 0.9 MB WAD), had import and the gallery draw 120 million polygons.
    let mut wad = standard_on_one_page();
    wad.moveables.retain(|m| ![0, 8, 9].contains(&m.id));
    let textured = wad.meshes.iter().position(|m| !m.polygons.is_empty()).unwrap();
    let mut large = wad.meshes[textured].clone();
    large.polygons = large.polygons.iter().cycle().take(30_000).cloned().collect();
    let mut empty = large.clone();
    empty.polygons.clear();
    empty.vertices.clear();
    empty.shading = wadforge_format::Shading::Normals(Vec::new());
    let mut other = large.clone();
    other.vertices[0][0] ^= 1; // not the same mesh, which the writer would store once
    let first = wad.meshes.len();
    wad.meshes.extend([large, other, empty]);
    let joints = |meshes: Vec<usize>| wadforge_format::Moveable {
        id: 0,
        links: vec![Default::default(); meshes.len() - 1],
        meshes,
        animations: Vec::new(),
    };
    let copies = 2000;
    wad.moveables
        .extend(std::iter::repeat_n(joints(vec![first + 2; 2]), copies));
    wad.moveables.push(wadforge_format::Moveable {
        id: 8, // LARA_SKIN: the body of LARA (0)
        ..joints(vec![first, first + 1])
    });
    let bytes = wadforge_format::wad::write(&wad, None).unwrap();
    let tmp = tempfile::tempdir().unwrap();
    let path = tmp.path().join("dressed.wad");
    std::fs::write(&path, &bytes).unwrap();
    for command in ["import", "gallery"] {
        let run = measured_on(command, &path, &tmp.path().join(command));
        refused_within_limits(&run, bytes.len() as u64, "dressing included, more than");
    }
    // Dressed once, as game files dress Lara, it imports.
    wad.moveables
        .drain(wad.moveables.len() - copies..wad.moveables.len() - 2);
    write_wad(&path, &wad);
    let run = measured(&["import", "-q", s(&path), "-o", s(&tmp.path().join("once"))]);
    assert!(run.success, "{}", run.stderr);
}

#[test]
fn a_file_of_thousands_of_empty_objects_is_refused_by_import_and_gallery_at_once() {
    // Found by review: each object's files (a glTF and a manifest, or a picture) cost a fixed
    // time, and an empty moveable is 18 bytes: 58 000 of them (1 MB) took minutes.
    let mut wad = standard_on_one_page();
    let first = 100_000;
    wad.moveables.extend((0..5000).map(|i| wadforge_format::Moveable {
        id: first + i,
        ..Default::default()
    }));
    let bytes = wadforge_format::wad::write(&wad, None).unwrap();
    let tmp = tempfile::tempdir().unwrap();
    let path = tmp.path().join("empty.wad");
    std::fs::write(&path, &bytes).unwrap();
    for command in ["import", "gallery"] {
        let run = measured_on(command, &path, &tmp.path().join(command));
        refused_within_limits(&run, bytes.len() as u64, "objects, more than the 4096 allowed");
    }
    // A few of them, chosen, import.
    let only = format!("{first},{}", first + 1);
    let out = tmp.path().join("some");
    let run = measured(&["import", "-q", s(&path), "-o", s(&out), "--only", &only]);
    assert!(run.success, "{}", run.stderr);
}

/// The standard fixture on one page, plus a mesh of `polygons` triangles (a small mesh's first
/// polygon over and over) and a moveable of `joints` joints that all draw it.
fn wad_drawing_one_mesh(polygons: usize, joints: usize) -> Vec<u8> {
    let mut wad = standard_on_one_page();
    let mut big = wad.meshes[0].clone();
    big.polygons = vec![big.polygons[0]; polygons];
    wad.meshes.push(big);
    let mut moveable = wad.moveables[0].clone();
    moveable.id = (0..)
        .find(|id| wad.moveables.iter().all(|m| m.id != *id))
        .unwrap();
    moveable.meshes = vec![wad.meshes.len() - 1; joints];
    moveable.links = vec![Default::default(); joints - 1];
    moveable.animations.clear();
    wad.moveables.push(moveable);
    wadforge_format::wad::write(&wad, None).unwrap()
}

#[test]
fn a_wad_whose_joints_draw_one_large_mesh_over_and_over_is_refused_at_once() {
    // Found by hand: 2000 joints on one 3900-polygon mesh, 0.7 MB, took an import over 2
    // minutes and 2 GB (and a gallery 22 s), as every joint's copy was made.
    let tmp = tempfile::tempdir().unwrap();
    let bytes = wad_drawing_one_mesh(3900, 2000);
    let wad = tmp.path().join("joints.wad");
    std::fs::write(&wad, &bytes).unwrap();
    let out = |name: &str| tmp.path().join(name);
    for args in [
        vec!["import", "-q", s(&wad), "-o", s(&out("dir"))],
        vec!["gallery", "-q", s(&wad), "-o", s(&out("gallery"))],
        vec!["diff", s(&wad), s(&wad)],
        vec!["info", s(&wad)],
    ] {
        let run = measured(&args);
        refused_within_limits(
            &run,
            bytes.len() as u64,
            "meshes, vertices and polygons through mesh pointers",
        );
        assert!(run.stderr.contains("joints.wad"), "{}", run.stderr);
    }
    // Sharing as real files share stays readable: a few joints on the same mesh.
    let shared = tmp.path().join("shared.wad");
    std::fs::write(&shared, wad_drawing_one_mesh(3900, 3)).unwrap();
    let run = measured(&["import", "-q", s(&shared), "-o", s(&out("shared"))]);
    assert!(run.success, "{}", run.stderr);
}

/// The standard fixture on one page, whose first static's mesh is `n` quads, each textured by
/// a sample of its own: `size`×`size` texels, each rectangle one texel on from the last.
fn wad_of_overlapping_samples(n: usize, size: u16) -> Vec<u8> {
    let mut wad = standard_on_one_page();
    let span = 257 - size as usize;
    let first = wad.samples.len();
    wad.samples.extend((0..n).map(|i| wadforge_format::Sample {
        x: (i % span) as u8,
        y: (i / span % span) as u8,
        page: 0,
        flip_x: -1,
        flip_y: -1,
        width: size,
        height: size,
    }));
    let mut mesh = wad.meshes[wad.statics[0].mesh].clone();
    let quad = *mesh.polygons.iter().find(|p| p.is_quad).unwrap();
    mesh.polygons = (0..n)
        .map(|i| {
            let mut q = quad;
            q.texture.sample = (first + i) as u16;
            q
        })
        .collect();
    wad.meshes.push(mesh);
    wad.statics[0].mesh = wad.meshes.len() - 1;
    wadforge_format::wad::write(&wad, None).unwrap()
}

#[test]
fn samples_naming_a_page_over_and_over_are_refused_at_once() {
    // Found by hand: 3000 overlapping 200×200 samples on one page, 0.3 MB, had an import take
    // 2.2 GB and write 128 MB, and a copy of the static write a 590 MB WAD.
    let tmp = tempfile::tempdir().unwrap();
    let bytes = wad_of_overlapping_samples(3000, 200);
    let wad = tmp.path().join("samples.wad");
    std::fs::write(&wad, &bytes).unwrap();
    let dest = write_wad(&tmp.path().join("dest.wad"), &wadforge_fixtures::standard());
    let out = |name: &str| tmp.path().join(name);
    for args in [
        vec!["import", "-q", s(&wad), "-o", s(&out("dir"))],
        vec![
            "copy",
            "-q",
            s(&wad),
            s(&dest),
            "-o",
            s(&out("copy.wad")),
            "--only",
            "PLANT0",
        ],
        vec!["check", s(&wad)],
    ] {
        let run = measured(&args);
        refused_within_limits(
            &run,
            bytes.len() as u64 + 700_000,
            "the samples up to this one name",
        );
        assert!(run.stderr.contains("samples.wad"), "{}", run.stderr);
    }
}

#[test]
fn a_polygon_repeated_thousands_of_times_imports_and_builds_back_within_the_limits() {
    // Found by hand: 585 000 polygons, each of 1170 repeated 500 times, took import 162 s (each
    // repeat searched every copy of its vertices the ones before it took); 3 s now.
    let tmp = tempfile::tempdir().unwrap();
    let mut wad = standard_on_one_page();
    // The quad of the largest sample: 20 000 cuts of it are far past the bound on texels cut.
    let area = |p: &&wadforge_format::Polygon| {
        let sample = &wad.samples[p.texture.sample as usize];
        sample.width as usize * sample.height as usize
    };
    let quads = wad
        .meshes
        .iter()
        .flat_map(|m| m.polygons.iter())
        .filter(|p| p.is_quad);
    let quad = *quads.max_by_key(area).unwrap();
    let mut mesh = wad.meshes[wad.statics[0].mesh].clone();
    mesh.polygons = vec![quad; 20_000];
    wad.meshes.push(mesh);
    wad.statics[0].mesh = wad.meshes.len() - 1;
    let bytes = wadforge_format::wad::write(&wad, None).unwrap();
    let path = tmp.path().join("repeated.wad");
    std::fs::write(&path, &bytes).unwrap();
    let dir = tmp.path().join("dir");
    let import = measured(&["import", "-q", s(&path), "-o", s(&dir)]);
    // And back: polygons of the same UVs are cut once (20 000 cuts of its sample had gone past
    // the build's bound on texels cut, refusing an unedited file).
    let built = tmp.path().join("built.wad");
    let build = measured(&["build", "-q", s(&dir), "-o", s(&built)]);
    for (job, run) in [("import", &import), ("build", &build)] {
        assert!(run.success, "{job}: {}", run.stderr);
        assert!(
            run.peak_bytes < memory_limit(bytes.len() as u64),
            "{job}: peak {} bytes",
            run.peak_bytes
        );
        assert_in_time(job, run.took);
    }
    assert_same_objects(&path, &built);
}

/// A file written into a scratch directory (removed when this is dropped) and imported.
struct Imported {
    tmp: tempfile::TempDir,
    path: PathBuf,
    dir: PathBuf,
    run: Run,
}

/// Writes `bytes` as `name` into a scratch directory and imports it into `dir` there.
fn imported(bytes: &[u8], name: &str) -> Imported {
    let tmp = tempfile::tempdir().unwrap();
    let path = tmp.path().join(name);
    std::fs::write(&path, bytes).unwrap();
    let dir = tmp.path().join("dir");
    let run = measured(&["import", "-q", s(&path), "-o", s(&dir)]);
    Imported { tmp, path, dir, run }
}

/// Builds what `imported` made back into a WAD and asserts `diff` finds it the same as the
/// file; the build's run.
fn built_back_the_same(imported: &Imported) -> Run {
    let built = imported.tmp.path().join("built.wad");
    let build = measured(&["build", "-q", s(&imported.dir), "-o", s(&built)]);
    assert!(build.success, "{}", build.stderr);
    assert_same_objects(&imported.path, &built);
    build
}

#[test]
fn an_object_of_800_000_polygons_imports_and_builds_back_within_the_limits() {
    // Found by hand: a moveable whose 21 meshes each repeat one triangle 40 000 times (10 MB)
    // makes a 186 MB glTF, 18 times the file; held whole it took import 620 MB and 5.2 s, past
    // the limits (117 MB and 1.7 s now). Its buffer spills to an unnamed file beside the output,
    // and vertices are held as what they are made from.
    let mut wad = standard_on_one_page();
    let moveable = (0..wad.moveables.len())
        .max_by_key(|&i| wad.moveables[i].meshes.len())
        .unwrap();
    let all_polygons = wad.meshes.iter().flat_map(|m| m.polygons.iter());
    let mut triangle = *all_polygons.clone().find(|p| !p.is_quad).unwrap();
    triangle.vertices = [0, 1, 2, 0];
    for joint in 0..wad.moveables[moveable].meshes.len() {
        let mut mesh = wad.meshes[wad.moveables[moveable].meshes[joint]].clone();
        // Distinct meshes: a WAD stores a mesh drawn twice once.
        let x = joint as i16;
        mesh.vertices = vec![[x, 0, 0], [x + 256, 0, 0], [x, 0, 256]];
        mesh.shading = wadforge_format::Shading::Normals(vec![[0, -16300, 0]; 3]);
        mesh.polygons = vec![triangle; 40_000];
        wad.meshes.push(mesh);
        wad.moveables[moveable].meshes[joint] = wad.meshes.len() - 1;
    }
    let bytes = wadforge_format::wad::write(&wad, None).unwrap();
    let large = imported(&bytes, "large.wad");
    assert!(large.run.success, "{}", large.run.stderr);
    let (dir_bytes, files) = (bytes_under(&large.dir), files_under(&large.dir));
    assert!(
        dir_bytes > 10 * bytes.len() as u64,
        "the glTF is the large object ({dir_bytes} bytes of files)"
    );
    assert!(
        files
            .iter()
            .all(|f| f.extension().is_some_and(|e| e == "glb" || e == "yaml")),
        "no spill or temporary file is left: {files:?}"
    );
    let build = built_back_the_same(&large);
    within_limits("import", &large.run, bytes.len() as u64);
    within_limits("build", &build, dir_bytes);
}

/// The standard fixture on one page, plus `copies` moveables of `joints` joints on one mesh
/// without vertices, each with `animations` animations of one keyframe that turns every joint.
fn wad_of_many_joints(joints: usize, animations: usize, copies: usize) -> Vec<u8> {
    wad_of_many_animations(joints, animations, 1, None, copies)
}

#[test]
fn thousands_of_animations_of_a_moveable_of_hundreds_of_joints_are_refused_at_once() {
    // Found by hand: 2000 one-keyframe animations of a 240-joint moveable (1.3 MB) make 482 000
    // glTF animation channels, a 102 MB glTF: import took 191 MB.
    let tmp = tempfile::tempdir().unwrap();
    let bytes = wad_of_many_joints(240, 2000, 1);
    let wad = tmp.path().join("animations.wad");
    std::fs::write(&wad, &bytes).unwrap();
    let run = measured(&["import", "-q", s(&wad), "-o", s(&tmp.path().join("dir"))]);
    refused_within_limits(&run, bytes.len() as u64, "glTF animation channels");
    assert!(run.stderr.contains("animations.wad"), "{}", run.stderr);
    // A tenth of them stays within what a file that size may make.
    let fewer = wad_of_many_joints(240, 200, 1);
    std::fs::write(&wad, &fewer).unwrap();
    let run = measured(&["import", "-q", s(&wad), "-o", s(&tmp.path().join("fewer"))]);
    assert!(run.success, "{}", run.stderr);
    within_limits("import", &run, fewer.len() as u64);
}

#[test]
fn moveables_of_sixteen_thousand_joints_import_within_the_limits() {
    // Found by hand: four moveables of 16 000 joints on one empty mesh (1.5 MB) took import
    // 160 MB: each joint's node and manifest bone were made as JSON and YAML values (1.3 and 4.4
    // kB a joint).
    let bytes = wad_of_many_joints(16_000, 0, 4);
    let joints = imported(&bytes, "joints.wad");
    assert!(joints.run.success, "{}", joints.run.stderr);
    within_limits("import", &joints.run, bytes.len() as u64);
}

#[test]
fn an_animation_of_a_hundred_thousand_exact_angle_sets_imports_within_the_limits() {
    // Found by hand: 1000 keyframes of a 100-joint moveable turned 90° about X (0.66 MB): each
    // rotation needs its angles kept exactly, and the manifest's value tree of the animation
    // took import 174 MB (1.6 kB an entry).
    use wadforge_format::{AngleEncoding, Rotation};
    let mut wad = standard_on_one_page();
    let mut moveable = animated_copy(&wad);
    let joints = 100;
    moveable.meshes = vec![moveable.meshes[0]; joints];
    moveable.links = vec![Default::default(); joints - 1];
    moveable.animations.truncate(1);
    let animation = &mut moveable.animations[0];
    animation.state_changes.clear();
    animation.commands.clear();
    animation.next_animation = 0;
    let template = animation.keyframes[0].clone();
    animation.keyframes = (0..1000)
        .map(|k| {
            let mut keyframe = template.clone();
            keyframe.rotations = (0..joints)
                .map(|j| Rotation {
                    x: 1024,
                    y: (4 * ((j + k) % 1000)) as u16,
                    z: 200,
                    encoding: AngleEncoding::ThreeAxes,
                })
                .collect();
            keyframe
        })
        .collect();
    animation.frame_duration = 1;
    animation.frame_end = animation.frame_start + 999;
    animation.next_frame = animation.frame_start;
    wad.moveables.push(moveable);
    let bytes = wadforge_format::wad::write(&wad, None).unwrap();
    let angles = imported(&bytes, "angles.wad");
    assert!(angles.run.success, "{}", angles.run.stderr);
    within_limits("import", &angles.run, bytes.len() as u64);
    let files = files_under(&angles.dir);
    let manifest = files
        .iter()
        .map(|f| std::fs::read_to_string(f).unwrap_or_default())
        .find(|text| text.contains("exact_angles"))
        .unwrap();
    assert!(
        manifest.matches("{keyframe: ").count() >= 100_000,
        "every rotation's angles are kept"
    );
}

#[test]
fn an_animation_of_sixty_five_thousand_dispatches_imports_within_the_limits() {
    // Found by hand: 260 state changes of 250 dispatches in one animation (0.76 MB, near the
    // 65 535 dispatches a WAD's indices reach) took import 83 MB, over the limit for its size.
    use wadforge_format::{Dispatch, StateChange};
    let mut wad = standard_on_one_page();
    let moveable = wad
        .moveables
        .iter_mut()
        .find(|m| !m.animations.is_empty())
        .unwrap();
    let animation = &mut moveable.animations[0];
    let (start, end) = (animation.frame_start, animation.frame_end);
    animation.state_changes = (0..260)
        .map(|state| StateChange {
            state,
            dispatches: (0..250)
                .map(|d| Dispatch {
                    frame_start: start,
                    frame_end: end,
                    next_animation: 0,
                    next_frame: start + (d % 2),
                })
                .collect(),
        })
        .collect();
    let bytes = wadforge_format::wad::write(&wad, None).unwrap();
    let dispatches = imported(&bytes, "dispatches.wad");
    assert!(dispatches.run.success, "{}", dispatches.run.stderr);
    within_limits("import", &dispatches.run, bytes.len() as u64);
    built_back_the_same(&dispatches);
}

#[test]
fn an_object_whose_texture_needs_more_pages_than_an_image_holds_is_refused() {
    // 65 overlapping 200×200 samples: within what the samples may name, but each takes a page
    // of its own, one more than an image holds (and build reads back).
    let tmp = tempfile::tempdir().unwrap();
    let out = |name: &str| tmp.path().join(name);
    let most = wad_of_overlapping_samples(64, 200);
    std::fs::write(out("most.wad"), &most).unwrap();
    let run = measured(&["import", "-q", s(&out("most.wad")), "-o", s(&out("most"))]);
    assert!(run.success, "{}", run.stderr);
    assert!(
        run.peak_bytes < memory_limit(most.len() as u64),
        "peak {}",
        run.peak_bytes
    );

    let bytes = wad_of_overlapping_samples(65, 200);
    std::fs::write(out("over.wad"), &bytes).unwrap();
    let run = measured(&["import", "-q", s(&out("over.wad")), "-o", s(&out("over"))]);
    refused_within_limits(
        &run,
        bytes.len() as u64,
        "65 pages of 256×256 in its texture image",
    );
    assert!(
        run.stderr.contains("over.wad") && run.stderr.contains("PLANT0"),
        "{}",
        run.stderr
    );
}

/// `wad` (a WAD file) forged so that no animation has state changes or commands (nor keyframes,
/// unless `keyframes`), and `copies` moveables of one mesh join, each naming the animations of the
/// moveable whose come first.
fn moveables_sharing_animations(wad: &[u8], copies: usize, keyframes: bool) -> Vec<u8> {
    let mut wad = wad.to_vec();
    let animations_at = table_after(&wad, 4, &[8, 1, 4, 2]);
    for a in 0..u32_at(&wad, animations_at) {
        let record = animations_at + 4 + 40 * a;
        if !keyframes {
            wad[record + 5] = 0; // keyframe size
        }
        wad[record + 32..record + 34].fill(0); // change count
        wad[record + 36..record + 38].fill(0); // command count
    }
    // Animations, state changes, dispatches, command words, link words, keyframe words.
    let moveables_at = table_after(&wad, animations_at, &[40, 6, 8, 2, 4, 2]);
    let count = u32_at(&wad, moveables_at);
    let records = moveables_at + 4;
    let rest = records + 18 * count;
    let animations_of =
        |m: usize| u16::from_le_bytes([wad[records + 18 * m + 16], wad[records + 18 * m + 17]]);
    let first = (0..count).min_by_key(|&m| animations_of(m)).unwrap();
    let mut out = wad[..moveables_at].to_vec();
    out.extend_from_slice(&((count + copies) as u32).to_le_bytes());
    out.extend_from_slice(&wad[records..rest]);
    for c in 0..copies {
        let mut copy = wad[records + 18 * first..][..18].to_vec();
        copy[..4].copy_from_slice(&(10_000 + c as u32).to_le_bytes());
        copy[4..6].copy_from_slice(&1u16.to_le_bytes()); // one mesh
        out.extend_from_slice(&copy);
    }
    out.extend_from_slice(&wad[rest..]);
    out
}

#[test]
fn moveables_naming_the_same_animations_over_and_over_are_refused_at_once() {
    // With keyframes, the keyframe budget refuses them. Found by review: animations without
    // keyframes, state changes or commands cost no other budget, so 2700 moveables naming 1600 of
    // them (a 100 kB file) made 4.3 million animations, about 450 MB.
    let tmp = tempfile::tempdir().unwrap();
    let plain = wadforge_format::wad::write(&wadforge_fixtures::standard(), None).unwrap();
    for (keyframes, message) in [
        (true, "decode their keyframe data more than 5 times over"),
        (false, "name the animation records more than 4 times over"),
    ] {
        let bytes = moveables_sharing_animations(&plain, 5000, keyframes);
        let wad = tmp.path().join("shared.wad");
        std::fs::write(&wad, &bytes).unwrap();
        let run = measured(&["info", s(&wad)]);
        refused_within_limits(&run, bytes.len() as u64, message);
        assert!(run.stderr.contains("shared.wad"), "{}", run.stderr);
        // Shared as little as real files share, the forged file reads.
        let few = tmp.path().join("few.wad");
        std::fs::write(&few, moveables_sharing_animations(&plain, 2, keyframes)).unwrap();
        let run = measured(&["info", s(&few)]);
        assert!(run.success, "{}", run.stderr);
    }
}

/// `wad` (a WAD file) forged so that every animation names all state changes and every state
/// change all dispatches, after `more` copies of the first of each are appended to their tables.
fn every_animation_naming_every_dispatch(wad: &[u8], more: usize) -> Vec<u8> {
    let u32_at = |at: usize| u32_at(wad, at);
    let at = table_after(wad, 4, &[8, 1, 4, 2]); // samples, texture bytes, mesh pointers, mesh words
    let (animations, animations_at) = (u32_at(at), at + 4);
    let changes_count_at = animations_at + 40 * animations;
    let (changes, changes_at) = (u32_at(changes_count_at), changes_count_at + 4);
    let dispatches_count_at = changes_at + 6 * changes;
    let (dispatches, dispatches_at) = (u32_at(dispatches_count_at), dispatches_count_at + 4);
    let rest = dispatches_at + 8 * dispatches;
    let (all_changes, all_dispatches) = (changes + more, dispatches + more);
    let mut out = wad[..changes_count_at].to_vec();
    for a in 0..animations {
        let counts = animations_at + 40 * a + 32; // change count and index, after the speeds
        out[counts..counts + 4].copy_from_slice(&[all_changes as u16, 0u16].map(u16::to_le_bytes).concat());
    }
    out.extend_from_slice(&(all_changes as u32).to_le_bytes());
    for c in 0..all_changes {
        let state = &wad[changes_at + 6 * c.min(changes - 1)..][..2];
        out.extend_from_slice(state);
        out.extend_from_slice(&[all_dispatches as u16, 0u16].map(u16::to_le_bytes).concat());
    }
    out.extend_from_slice(&(all_dispatches as u32).to_le_bytes());
    for d in 0..all_dispatches {
        out.extend_from_slice(&wad[dispatches_at + 8 * d.min(dispatches - 1)..][..8]);
    }
    out.extend_from_slice(&wad[rest..]);
    out
}

#[test]
fn animations_naming_the_same_dispatches_over_and_over_are_refused_at_once() {
    // Found by hand: 32 animations each naming 2035 state changes of 2043 dispatches each, a
    // 0.26 MB WAD, took `info` 9.8 s and 3.6 GB.
    let tmp = tempfile::tempdir().unwrap();
    let standard = standard_on_one_page();
    let plain = wadforge_format::wad::write(&standard, None).unwrap();
    let bytes = every_animation_naming_every_dispatch(&plain, 2000);
    let wad = tmp.path().join("dispatches.wad");
    std::fs::write(&wad, &bytes).unwrap();
    for args in [
        vec!["info", s(&wad)],
        vec!["import", "-q", s(&wad), "-o", s(&tmp.path().join("dir"))],
    ] {
        let run = measured(&args);
        refused_within_limits(
            &run,
            bytes.len() as u64,
            "name their dispatches more than 4 times over",
        );
        assert!(run.stderr.contains("dispatches.wad"), "{}", run.stderr);
    }
}
