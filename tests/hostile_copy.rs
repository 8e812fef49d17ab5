//! What editing a hostile WAD may cost (docs/hostile-input.md): `copy`, `remove` and `check --fix` of
//! files of tens of thousands of animations, moveables or samples, samples naming their pages
//! over and over, keyframe boxes that would pose billions of vertices; each done, or refused
//! with a clear message, within the memory and time limits (`crate::common::measure`).

use std::io::Write;
use std::path::{Path, PathBuf};

use crate::common::files::{read, write_wad};
use crate::common::forge::{
    animated_copy, find, standard_on_one_page, table_after, tr4_object_tables, u32_at,
    wad_of_many_animations, TR4_OBJECT_TABLES,
};
use crate::common::measure::{measured, measured_logged, refused_within_limits, within_limits, Run};
use crate::common::{s, stdout, wadforge};

/// Copies `only` from `src` (written as `name` in `dir`) into the WAD `dest`, measured; the run,
/// both inputs' bytes, the source's path and the output's.
fn copy_measured(
    dir: &Path,
    (name, src): (&str, &[u8]),
    dest: &[u8],
    only: &str,
) -> (Run, u64, PathBuf, PathBuf) {
    let (src_path, dest_path, out) = (dir.join(name), dir.join("dest.wad"), dir.join("out.wad"));
    std::fs::write(&src_path, src).unwrap();
    std::fs::write(&dest_path, dest).unwrap();
    let input = (src.len() + dest.len()) as u64;
    let run = measured_logged(
        &["copy", s(&src_path), s(&dest_path), "--only", only, "-o", s(&out)],
        input,
    );
    (run, input, src_path, out)
}

/// [`copy_measured`], asserted to succeed within the limits for both inputs; the run, the
/// source's path and the output's.
fn copied_within_the_limits(
    dir: &Path,
    src: (&str, &[u8]),
    dest: &[u8],
    only: &str,
) -> (Run, PathBuf, PathBuf) {
    let (run, input, src_path, out) = copy_measured(dir, src, dest, only);
    assert!(run.success, "{}", run.stderr);
    within_limits("copy", &run, input);
    (run, src_path, out)
}

/// The standard fixture on one page, written as `into.wad` in `dir` (a WAD to copy into).
fn standard_on_one_page_in(dir: &Path) -> PathBuf {
    write_wad(&dir.join("into.wad"), &standard_on_one_page())
}

#[test]
fn a_moveable_of_tens_of_thousands_of_animations_is_written_within_the_limits() {
    // Found by review: laying out a WAD's keyframe data compared each animation with every
    // earlier one of its moveable (20 000 one-keyframe animations: 200 million comparisons).
    let tmp = tempfile::tempdir().unwrap();
    let bytes = wad_of_many_animations(1, 20_000, 1, None, 1);
    let wad = tmp.path().join("many.wad");
    std::fs::write(&wad, &bytes).unwrap();
    let into = standard_on_one_page_in(tmp.path());
    let (read, _) = wadforge_format::wad::read(&bytes).unwrap();
    let id = read
        .moveables
        .iter()
        .find(|m| m.animations.len() == 20_000)
        .unwrap()
        .id
        .to_string();
    let out = tmp.path().join("out.wad");
    let other = read.moveables[0].id.to_string();
    let removed = tmp.path().join("removed.wad");
    for args in [
        vec!["remove", s(&wad), "--only", &other, "-o", s(&removed)],
        vec!["copy", s(&wad), s(&into), "--only", &id, "-o", s(&out)],
    ] {
        let run = measured_logged(&args, bytes.len() as u64);
        assert!(run.success, "{}: {}", args[0], run.stderr);
        within_limits(args[0], &run, bytes.len() as u64);
    }
}

#[test]
fn animations_naming_others_of_tens_of_thousands_of_moveables_check_and_edit_within_the_limits() {
    // Found by review: each reference to another moveable's animation searched all moveables
    // for the one whose range holds it (check, copy, remove, diff), and copy's placing of each
    // searched all output objects: 32 000 moveables each naming the last one's animation.
    let mut wad = standard_on_one_page();
    let animated = animated_copy(&wad);
    let mut animation = animated.animations[0].clone();
    animation.state_changes.clear();
    animation.commands.clear();
    animation.keyframes.clear();
    let count: i32 = 32_000; // a WAD's animation table holds at most 32 768 before its last moveable
    let first_id = 100_000;
    for i in 0..count {
        let mut a = animation.clone();
        // Relative to its own first animation: the last moveable's, one each in table order.
        a.next_animation = count - 1 - i;
        a.next_frame = a.frame_start;
        wad.moveables.push(wadforge_format::Moveable {
            id: first_id + i as u32,
            meshes: Vec::new(),
            links: Vec::new(),
            animations: vec![a],
        });
    }
    let bytes = wadforge_format::wad::write(&wad, None).unwrap();
    let tmp = tempfile::tempdir().unwrap();
    let path = tmp.path().join("references.wad");
    std::fs::write(&path, &bytes).unwrap();
    let into = standard_on_one_page_in(tmp.path());
    let (out, last) = (
        tmp.path().join("out.wad"),
        (first_id + count as u32 - 1).to_string(),
    );
    for args in [
        vec!["check", s(&path)],
        vec!["remove", s(&path), "--only", &last, "-o", s(&out)],
        vec!["copy", s(&into), s(&path), "--only", "0", "-o", s(&out)],
    ] {
        let run = measured_logged(&args, bytes.len() as u64);
        assert!(
            run.success || args[0] == "check" && run.stderr.is_empty(),
            "{}: {}",
            args[0],
            run.stderr
        );
        within_limits(args[0], &run, bytes.len() as u64);
    }
}

/// Gives the CROCODILE's first mesh one quad on each of `samples`.
fn crocodile_quads_on_samples(wad: &mut wadforge_format::Wad, samples: std::ops::Range<usize>) {
    let moveable = wad.moveables.iter().position(|m| m.id == 51).unwrap();
    let mesh = wad.moveables[moveable].meshes[0];
    let polygons = &mut wad.meshes[mesh].polygons;
    let quad = polygons.iter().find(|p| p.is_quad).copied().unwrap();
    *polygons = samples
        .map(|k| {
            let mut p = quad;
            p.texture.sample = k as u16;
            p
        })
        .collect();
}

#[test]
fn thousands_of_small_samples_copied_into_full_pages_within_the_limits() {
    // Found by review: each sample a copy needed looked over every page of the destination for
    // free space, making each page's table again, and searched all samples for its record:
    // 16 384 distinct one-texel samples into a WAD of 10 full pages. Into free space, each
    // looked over the places taken before it and made its page's table again: 32 000 of them
    // into a blank page took 3 s (0.1 s now).
    use wadforge_format::{Page, Sample};
    for (count, full_pages) in [(16_384usize, true), (32_000, false)] {
        let mut src = standard_on_one_page();
        let mut page = Page::filled([0, 0, 0]);
        for k in 0..count {
            page.set_texel(k % 256, k / 256, [k as u8, (k >> 8) as u8, 7]);
        }
        src.pages = vec![page];
        let one_texel = |k: usize| Sample {
            x: (k % 256) as u8,
            y: (k / 256) as u8,
            page: 0,
            flip_x: -1,
            flip_y: -1,
            width: 1,
            height: 1,
        };
        src.samples = (0..count).map(one_texel).collect();
        crocodile_quads_on_samples(&mut src, 0..count);
        for m in src.meshes.iter_mut().filter(|m| !m.polygons.is_empty()) {
            for p in &mut m.polygons {
                p.texture.sample %= count as u16;
            }
        }
        let mut dest = standard_on_one_page();
        while dest.pages.len() < if full_pages { 10 } else { 2 } {
            dest.pages.push(Page::filled([1, 2, 3]));
        }
        let full = |page: usize| Sample {
            page: page as u16,
            x: 0,
            y: 0,
            width: 256,
            height: 256,
            ..one_texel(0)
        };
        if full_pages {
            dest.samples.extend((0..dest.pages.len()).map(full));
        }
        let dest_bytes = wadforge_format::wad::write(&dest, None).unwrap();
        let src_bytes = wadforge_format::wad::write(&src, None).unwrap();
        let tmp = tempfile::tempdir().unwrap();
        let (run, ..) = copied_within_the_limits(tmp.path(), ("src.wad", &src_bytes), &dest_bytes, "51");
        let into = if full_pages {
            "0 in free page space"
        } else {
            "0 on 0 new pages"
        };
        assert!(run.stderr.contains(into), "{}", run.stderr);
    }
}

#[test]
fn samples_naming_their_pages_over_and_over_are_copied_onto_as_many_pages_within_the_limits() {
    // Found by review: a copy brought each sample's texels apart, so samples naming their pages
    // 8 times over (what the readers allow) took 8 times the source's pages: from a TR4 level,
    // whose pages are compressed, far more than the memory limit. The samples of a page of which
    // any two overlap come as the rectangle round them now. Here 8 pages (2 MB), each named by
    // 32 overlapping 128×128 samples of the CROCODILE (8 times over: 65 new pages before, 9
    // now), or by 3 overlapping 129×129 samples (no two fit a page: 24 new pages before).
    use wadforge_format::Sample;
    let pages = 8usize;
    let over_and_over: Vec<(u8, u8, u16)> = (0..32).map(|k| (k * 4, k * 4, 128)).collect();
    let over_half: Vec<(u8, u8, u16)> = vec![(0, 0, 129), (127, 0, 129), (0, 127, 129)];
    for layout in [over_and_over, over_half] {
        let mut src = standard_on_one_page();
        let first = src.samples.len();
        src.pages.extend(noise_pages(pages));
        for page in 0..pages {
            src.samples.extend(layout.iter().map(|&(x, y, size)| Sample {
                page: (1 + page) as u16,
                x,
                y,
                flip_x: -1,
                flip_y: -1,
                width: size,
                height: size,
            }));
        }
        let last = src.samples.len();
        crocodile_quads_on_samples(&mut src, first..last);
        let src_bytes = wadforge_format::wad::write(&src, None).unwrap();
        let dest_bytes = wadforge_format::wad::write(&standard_on_one_page(), None).unwrap();
        let tmp = tempfile::tempdir().unwrap();
        let (run, src_path, out) =
            copied_within_the_limits(tmp.path(), ("src.wad", &src_bytes), &dest_bytes, "51");
        let copied = read(&out);
        // The CROCODILE's other samples come from the first page (the one it replaces held them).
        let new_pages = copied.pages.len() - 1;
        assert!(
            new_pages <= src.pages.len(),
            "{new_pages} new pages for samples on {}: {}",
            src.pages.len(),
            run.stderr
        );
        // Every object shows what it showed (the destination's are the source's but the CROCODILE).
        let diff = measured(&["diff", s(&src_path), s(&out)]);
        assert!(diff.success, "{}", diff.stderr);
    }
}

/// `count` pages of noise: texels no two samples of other places share.
fn noise_pages(count: usize) -> Vec<wadforge_format::Page> {
    let mut noise = 0x9e37_79b9u32;
    (0..count)
        .map(|_| {
            let mut page = wadforge_format::Page::filled([0, 0, 0]);
            for y in 0..256 {
                for x in 0..256 {
                    noise ^= noise << 13;
                    noise ^= noise >> 17;
                    noise ^= noise << 5;
                    let [r, g, b, _] = noise.to_le_bytes();
                    page.set_texel(x, y, [r, g, b]);
                }
            }
            page
        })
        .collect()
}

#[test]
fn copying_into_a_wad_of_millions_of_samples_stays_within_the_limits() {
    // Found by review: copy told apart the texels of every sample of the destination, each set
    // costing some 270 bytes against the 160 its 8 bytes of file allow: 8 pages of noise with a
    // sample at every place of six small sizes (3.1 million samples, a 27 MB WAD) took 857 MB
    // (limit 602). Only sets the copied samples may show are kept now: 166 MB. The copy is
    // refused in the end (new quad samples past 32 767 cannot be addressed), but not by memory.
    let mut dest = standard_on_one_page();
    let first_page = dest.pages.len() as u16;
    dest.pages.extend(noise_pages(8));
    for page in first_page..dest.pages.len() as u16 {
        for (width, height) in [(1u16, 1u16), (1, 2), (2, 1), (2, 2), (1, 3), (3, 1)] {
            for y in 0..=256 - height {
                for x in 0..=256 - width {
                    dest.samples.push(wadforge_format::Sample {
                        page,
                        x: x as u8,
                        y: y as u8,
                        flip_x: -1,
                        flip_y: -1,
                        width,
                        height,
                    });
                }
            }
        }
    }
    let dest_bytes = wadforge_format::wad::write(&dest, None).unwrap();
    let src_bytes = wadforge_format::wad::write(&wadforge_fixtures::standard(), None).unwrap();
    let tmp = tempfile::tempdir().unwrap();
    let (run, input, ..) = copy_measured(tmp.path(), ("src.wad", &src_bytes), &dest_bytes, "CROCODILE");
    refused_within_limits(&run, input, "beyond what a quad can address");
}

#[test]
fn copying_from_a_tr4_whose_samples_name_its_inflated_pages_over_and_over_stays_within_the_limits() {
    // Found by review: copy cut out every sample the copied meshes use before telling their
    // texels apart. A TR4 level's pages are compressed: 62 pages of one colour (a 0.14 MB file),
    // each named by 9 nearly page-sized samples of one static, took 129 MB (limit 75 with the
    // WAD copied into). Samples are told apart on their pages now, and each rectangle brought is
    // cut out once: 33 MB.
    let pages = 62;
    let file = wadforge_fixtures::levels::tr4_level();
    let (at, data) = wadforge_fixtures::levels::tr4_level_data(&file);
    let start = wadforge_fixtures::levels::object_tables_at(wadforge_format::catalog::Game::Tr4);
    let statics_at = table_after(&data, start, &TR4_OBJECT_TABLES);
    let static_id = u32_at(&data, statics_at + 4);
    let static_pointer = u16::from_le_bytes([data[statics_at + 8], data[statics_at + 9]]) as usize;
    let statics_end = table_after(&data, statics_at, &[32]);
    let textures_at = statics_end + find(&data[statics_end..], b"TEX") + 3;
    let textures_before = u32_at(&data, textures_at);
    let textures_end = table_after(&data, textures_at, &[38]);
    // Object textures: 9 rectangles of 255 or 256 texels a side on each page, each its own size
    // and place.
    let mut textures = Vec::new();
    for page in 0..pages as u16 {
        for [x0, y0, x1, y1] in [
            [0u16, 0, 256, 256],
            [0, 0, 255, 256],
            [1, 0, 256, 256],
            [0, 0, 256, 255],
            [0, 1, 256, 256],
            [0, 0, 255, 255],
            [1, 0, 256, 255],
            [0, 1, 255, 256],
            [1, 1, 256, 256],
        ] {
            let (near, far) = (|e: u16| e << 8, |e: u16| ((e - 1) << 8) | 0xFF);
            let mut t = [0u16, page, 0]
                .iter()
                .flat_map(|w| w.to_le_bytes())
                .collect::<Vec<u8>>();
            for [x, y] in [
                [near(x0), near(y0)],
                [far(x1), near(y0)],
                [far(x1), far(y1)],
                [near(x0), far(y1)],
            ] {
                t.extend(x.to_le_bytes().into_iter().chain(y.to_le_bytes()));
            }
            for v in [x0, y0, x1 - x0, y1 - y0] {
                t.extend_from_slice(&u32::from(v).to_le_bytes());
            }
            textures.push(t);
        }
    }
    // The static's mesh: a square of one quad on each new object texture.
    let mut mesh = vec![0u8; 10]; // bounding sphere
    mesh.extend_from_slice(&4i16.to_le_bytes());
    for v in [[-512i16, 0, -512], [512, 0, -512], [512, 0, 512], [-512, 0, 512]] {
        mesh.extend(v.iter().flat_map(|c| c.to_le_bytes()));
    }
    mesh.extend_from_slice(&(-4i16).to_le_bytes());
    mesh.extend_from_slice(&[0; 8]); // four shades
    mesh.extend_from_slice(&(textures.len() as i16).to_le_bytes());
    for k in 0..textures.len() {
        let texture = (textures_before + k) as u16;
        mesh.extend([0u16, 1, 2, 3, texture, 0].iter().flat_map(|w| w.to_le_bytes()));
    }
    mesh.extend_from_slice(&0i16.to_le_bytes()); // no triangles
    let mut tables = tr4_object_tables();
    let words = u32_at(&tables[0], 0);
    tables[0][..4].copy_from_slice(&((words + mesh.len() / 2) as u32).to_le_bytes());
    tables[0].extend_from_slice(&mesh);
    let pointer = 4 + 4 * static_pointer;
    tables[1][pointer..pointer + 4].copy_from_slice(&((words * 2) as u32).to_le_bytes());
    let mut texture_table = ((textures_before + textures.len()) as u32).to_le_bytes().to_vec();
    texture_table.extend_from_slice(&data[textures_at + 4..textures_end]);
    texture_table.extend(textures.concat());
    let level_data = [
        &data[..start],
        &tables.concat(),
        &data[statics_at..textures_at],
        &texture_table,
        &data[textures_end..],
    ]
    .concat();
    let chunk = |bytes: &[u8]| {
        let mut z = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::best());
        z.write_all(bytes).unwrap();
        let zlib = z.finish().unwrap();
        let mut out = (bytes.len() as u32).to_le_bytes().to_vec();
        out.extend_from_slice(&(zlib.len() as u32).to_le_bytes());
        out.extend(zlib);
        out
    };
    // The object pages (32-bit, opaque black) in the first chunk; the fixture's other chunks.
    let mut level = b"TR4\0".to_vec();
    level.extend([0u16, pages as u16, 0].iter().flat_map(|c| c.to_le_bytes()));
    let opaque_black: Vec<u8> = (0..pages * 65_536).flat_map(|_| [0, 0, 0, 255]).collect();
    level.extend(chunk(&opaque_black));
    let second_chunk = 10 + 8 + u32_at(&file, 14);
    level.extend_from_slice(&file[second_chunk..at]);
    level.extend(chunk(&level_data));
    level.extend_from_slice(&file[at + 8 + u32_at(&file, at + 4)..]);

    let dest_bytes = wadforge_format::wad::write(&standard_on_one_page(), None).unwrap();
    let tmp = tempfile::tempdir().unwrap();
    let only = static_id.to_string();
    let (run, ..) = copied_within_the_limits(tmp.path(), ("level.tr4", &level), &dest_bytes, &only);
    assert!(
        run.stderr.contains(&format!("{} on 1 new pages", pages * 9)),
        "every sample of the static, on one page of black: {}",
        run.stderr
    );
}

#[test]
fn removing_from_a_wad_of_overlapping_page_sized_samples_stays_within_the_limits() {
    // Found by review: remove packed every sample again to see whether fewer pages would do,
    // cutting each one's texels and making every page packing needed: 270 overlapping samples
    // of 129×129 on one page need a page each.
    let mut wad = standard_on_one_page();
    let count = 270; // what the sample budget allows a one-page file, about
    let first = wad.samples.len();
    let template = wad.samples[0];
    wad.samples.extend((0..count).map(|k| wadforge_format::Sample {
        page: 0,
        x: (k % 127) as u8,
        y: (k / 127) as u8,
        width: 129,
        height: 129,
        ..template
    }));
    crocodile_quads_on_samples(&mut wad, first..first + count);
    let bytes = wadforge_format::wad::write(&wad, None).unwrap();
    let tmp = tempfile::tempdir().unwrap();
    let path = tmp.path().join("overlapping.wad");
    std::fs::write(&path, &bytes).unwrap();
    let other = wadforge_format::catalog::static_slot(wadforge_format::catalog::Game::Tr4, wad.statics[0].id);
    let out = tmp.path().join("out.wad");
    let run = measured(&["remove", s(&path), "--only", &other, "-o", s(&out)]);
    eprintln!(
        "remove: {} bytes, peak {} bytes, {:?}",
        bytes.len(),
        run.peak_bytes,
        run.took
    );
    assert!(run.success, "{}", run.stderr);
    within_limits("remove", &run, bytes.len() as u64);
}

#[test]
fn checking_boxes_that_would_pose_billions_of_vertices_is_bounded() {
    // Found by hand: 65 535 keyframes of a 32 761-vertex mesh (2.4 MB) took `check --fix` 9.5 s
    // to pose 2 billion vertices. Here 10 000 keyframes: 330 million, past what 0.6 MB allows.
    use wadforge_format::{AngleEncoding, Rotation, Shading};
    let mut wad = standard_on_one_page();
    let side = 181;
    let mut mesh = wad.meshes[0].clone();
    let quad = *wad
        .meshes
        .iter()
        .flat_map(|m| m.polygons.iter())
        .find(|p| p.is_quad)
        .unwrap();
    mesh.vertices = (0..side * side)
        .map(|i| [(i % side) as i16 * 4, 0, (i / side) as i16 * 4])
        .collect();
    mesh.shading = Shading::Normals(vec![[0, -16300, 0]; side * side]);
    mesh.polygons = vec![quad; 1];
    mesh.polygons[0].vertices = [0, 1, side as u16 + 1, side as u16];
    wad.meshes.push(mesh);
    let mut moveable = animated_copy(&wad);
    moveable.meshes = vec![wad.meshes.len() - 1];
    moveable.links.clear();
    let mut animation = moveable.animations[0].clone();
    animation.state_changes.clear();
    animation.commands.clear();
    let mut keyframe = animation.keyframes[0].clone();
    keyframe.rotations = vec![Rotation {
        x: 0,
        y: 0,
        z: 0,
        encoding: AngleEncoding::X,
    }];
    animation.keyframes = vec![keyframe; 10_000];
    (
        animation.frame_duration,
        animation.frame_start,
        animation.frame_end,
    ) = (1, 0, 9_999);
    (animation.next_animation, animation.next_frame) = (0, 0);
    moveable.animations = vec![animation];
    wad.moveables.push(moveable);
    let bytes = wadforge_format::wad::write(&wad, None).unwrap();
    let tmp = tempfile::tempdir().unwrap();
    let path = tmp.path().join("posing.wad");
    std::fs::write(&path, &bytes).unwrap();
    let fixed = tmp.path().join("fixed.wad");
    let run = measured(&["check", s(&path), "--fix", "-o", s(&fixed)]);
    refused_within_limits(&run, bytes.len() as u64, "cannot recompute the keyframe boxes");
    assert!(!fixed.exists(), "nothing is written");
    let report = stdout(&wadforge(&["check", s(&path)]));
    assert!(report.contains("keyframe boxes were not checked"), "{report}");
}
