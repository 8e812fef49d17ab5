//! The WAD reader on malformed input: a typed error naming the section and byte offset, never a
//! panic. Each test breaks one thing in a small valid file.

use wadforge_format::wad::{self, Problem, ReadError, Section};
use wadforge_format::*;

fn texture(sample: u16) -> PolygonTexture {
    PolygonTexture {
        sample,
        shape: 0,
        flipped: false,
    }
}

/// A small valid WAD: one page, two samples, a two-mesh moveable with one animation of two
/// keyframes, a state change, a sound command, and a static.
#[allow(clippy::too_many_lines)] // one literal of fixed data, read best whole
fn small() -> Wad {
    let cube = |quads: usize| Mesh {
        sphere: BoundingSphere {
            center: [0, -50, 0],
            radius: 90,
            flag: 0,
        },
        vertices: vec![
            [-50, 0, -50],
            [50, 0, -50],
            [50, -100, -50],
            [-50, -100, -50],
            [0, -50, 50],
        ],
        shading: Shading::Normals(vec![[0, -16300, 0]; 5]),
        polygons: (0..quads)
            .map(|_| Polygon::quad([0, 1, 2, 3], texture(1), Attributes::default()))
            .chain([Polygon::triangle([0, 1, 4], texture(0), Attributes::default())])
            .collect(),
    };
    let keyframe = |y: u16| Keyframe {
        bounding_box: BoundingBox {
            min: [-50, -200, -50],
            max: [50, 0, 50],
        },
        offset: [0, 0, 0],
        rotations: vec![Rotation::compact(0, y, 0), Rotation::compact(64, 128, 0)],
    };
    Wad {
        version: 129,
        samples: vec![
            Sample {
                x: 0,
                y: 0,
                page: 0,
                flip_x: -1,
                flip_y: -1,
                width: 16,
                height: 16,
            },
            Sample {
                x: 16,
                y: 0,
                page: 0,
                flip_x: -1,
                flip_y: -1,
                width: 32,
                height: 8,
            },
        ],
        pages: vec![Page::filled([10, 20, 30])],
        meshes: vec![cube(1), cube(2)],
        moveables: vec![Moveable {
            id: 12,
            meshes: vec![0, 1],
            links: vec![Link {
                parent: 0,
                offset: [0, -100, 0],
            }],
            animations: vec![Animation {
                frame_duration: 1,
                state: 2,
                frame_start: 0,
                frame_end: 1,
                next_animation: 0,
                state_changes: vec![StateChange {
                    state: 3,
                    dispatches: vec![Dispatch {
                        frame_start: 0,
                        frame_end: 2,
                        next_animation: 0,
                        next_frame: 0,
                    }],
                }],
                commands: vec![Command::PlaySound {
                    frame: 1,
                    sound: 7,
                    on_land: true,
                    in_water: false,
                }],
                keyframes: vec![keyframe(0), keyframe(1024)],
                ..Animation::default()
            }],
        }],
        statics: vec![Static {
            id: 3,
            mesh: 0,
            flags: 2,
            ..Static::default()
        }],
    }
}

/// File offsets of each section's count word, found by walking the sizes.
struct Sections {
    pointers: usize,
    meshes: usize,
    animations: usize,
    commands: usize,
    keyframes: usize,
    moveables: usize,
}

fn sections(bytes: &[u8]) -> Sections {
    let u32_at = |at: usize| u32::from_le_bytes(bytes[at..at + 4].try_into().unwrap()) as usize;
    let mut at = 4;
    at += 4 + u32_at(at) * 8; // samples
    at += 4 + u32_at(at); // texture bytes
    let pointers = at;
    at += 4 + u32_at(at) * 4;
    let meshes = at;
    at += 4 + u32_at(at) * 2;
    let animations = at;
    at += 4 + u32_at(at) * 40;
    at += 4 + u32_at(at) * 6;
    at += 4 + u32_at(at) * 8;
    let commands = at;
    at += 4 + u32_at(at) * 2;
    at += 4 + u32_at(at) * 4;
    let keyframes = at;
    at += 4 + u32_at(at) * 2;
    Sections {
        pointers,
        meshes,
        animations,
        commands,
        keyframes,
        moveables: at,
    }
}

fn put_u16(bytes: &mut [u8], at: usize, v: u16) {
    bytes[at..at + 2].copy_from_slice(&v.to_le_bytes());
}

fn put_u32(bytes: &mut [u8], at: usize, v: u32) {
    bytes[at..at + 4].copy_from_slice(&v.to_le_bytes());
}

fn read_err(bytes: &[u8]) -> ReadError {
    wad::read(bytes).expect_err("the damaged file must be refused")
}

fn valid() -> Vec<u8> {
    wad::write(&small(), None).unwrap()
}

#[test]
fn the_small_wad_round_trips() {
    let bytes = valid();
    let (model, layout) = wad::read(&bytes).unwrap();
    assert_eq!(model, small());
    assert_eq!(wad::write(&model, Some(&layout)).unwrap(), bytes);
}

#[test]
fn every_truncation_is_a_truncation_or_count_error() {
    let bytes = valid();
    for len in 0..bytes.len() {
        let e = read_err(&bytes[..len]);
        assert!(
            matches!(
                e.problem,
                Problem::Truncated { .. } | Problem::CountTooLarge { .. }
            ),
            "cut at {len}: {e}"
        );
        assert!(
            e.offset as usize <= len,
            "cut at {len}: error points past the end: {e}"
        );
    }
}

#[test]
fn an_unknown_version_is_refused() {
    let mut bytes = valid();
    put_u32(&mut bytes, 0, 4);
    let e = read_err(&bytes);
    assert_eq!(
        (e.section, e.offset, e.problem),
        (Section::Version, 0, Problem::UnsupportedVersion(4))
    );
}

#[test]
fn a_count_larger_than_the_file_is_refused_before_allocating() {
    let mut bytes = valid();
    let at = sections(&bytes).animations;
    put_u32(&mut bytes, at, u32::MAX);
    let e = read_err(&bytes);
    assert_eq!((e.section, e.offset), (Section::Animations, at as u64));
    assert!(
        matches!(e.problem, Problem::CountTooLarge { count, .. } if count == u32::MAX as u64),
        "{e}"
    );
}

#[test]
fn a_mesh_pointer_into_the_middle_of_a_mesh_is_refused() {
    let mut bytes = valid();
    let at = sections(&bytes).pointers;
    // The second pointer names a word inside the first mesh.
    put_u32(&mut bytes, at + 8, 2);
    let e = read_err(&bytes);
    assert_eq!((e.section, e.offset), (Section::MeshPointers, (at + 8) as u64));
    assert_eq!(
        e.problem,
        Problem::MeshPointerNotAtMeshStart {
            pointer: 1,
            offset: 2,
            inside: 0
        }
    );
}

/// Offset of the first polygon record of the first mesh (5 vertices, 5 normals).
fn first_polygon(bytes: &[u8]) -> usize {
    sections(bytes).meshes + 4 + 10 + 2 + 5 * 6 + 2 + 5 * 6 + 2
}

#[test]
fn a_vertex_index_out_of_range_is_refused() {
    let mut bytes = valid();
    let at = first_polygon(&bytes);
    put_u16(&mut bytes, at + 4, 9);
    let e = read_err(&bytes);
    assert_eq!((e.section, e.offset), (Section::Meshes, (at + 4) as u64));
    assert_eq!(
        e.problem,
        Problem::IndexOutOfRange {
            what: "vertex index",
            index: 9,
            len: 5
        }
    );
    assert!(e.to_string().contains("mesh at offset 0"), "{e}");
}

#[test]
fn a_texture_sample_out_of_range_is_refused() {
    let mut bytes = valid();
    let at = first_polygon(&bytes) + 2 + 8; // quad texture word
    put_u16(&mut bytes, at, 5);
    let e = read_err(&bytes);
    assert_eq!(
        e.problem,
        Problem::IndexOutOfRange {
            what: "texture sample",
            index: 5,
            len: 2
        }
    );
}

#[test]
fn an_unknown_polygon_shape_is_refused() {
    let mut bytes = valid();
    let at = first_polygon(&bytes);
    put_u16(&mut bytes, at, 7);
    let e = read_err(&bytes);
    assert_eq!(
        (e.section, e.offset, e.problem),
        (Section::Meshes, at as u64, Problem::UnknownPolygonShape(7))
    );
}

#[test]
fn a_missing_quad_padding_word_is_refused() {
    // One mesh with one quad, then cut the package before its padding word.
    let mut model = small();
    model.moveables[0].meshes = vec![0, 0];
    let bytes = wad::write(&model, None).unwrap();
    let s = sections(&bytes);
    let words = u32::from_le_bytes(bytes[s.meshes..s.meshes + 4].try_into().unwrap());
    let mut damaged = bytes[..s.meshes].to_vec();
    damaged.extend_from_slice(&(words - 1).to_le_bytes());
    damaged.extend_from_slice(&bytes[s.meshes + 4..s.meshes + 4 + (words as usize - 1) * 2]);
    damaged.extend_from_slice(&bytes[s.meshes + 4 + words as usize * 2..]);
    let e = read_err(&damaged);
    assert_eq!(
        (e.section, e.problem),
        (Section::Meshes, Problem::MissingQuadPadding)
    );
}

#[test]
fn an_unknown_command_opcode_is_refused() {
    let mut bytes = valid();
    let at = sections(&bytes).commands + 4;
    put_u16(&mut bytes, at, 9);
    let e = read_err(&bytes);
    assert_eq!(
        (e.section, e.offset, e.problem.clone()),
        (Section::Commands, at as u64, Problem::UnknownCommand(9))
    );
    assert!(e.to_string().contains("LARA_REVOLVER_LASER (moveable 12)"), "{e}");
}

#[test]
fn a_keyframe_record_smaller_than_its_angles_is_read_and_written_so_no_reader_decodes_it() {
    // Real files hold such animations: the game reads whatever words are there, so the file is
    // read. No tool can decode its words: the model keeps its keyframe size and no words (the
    // bytes stay in the layout, so the file is written back as it was), and a file laid out
    // anew gives it none, so the WAD document's count gives it no keyframes.
    let mut bytes = valid();
    let s = sections(&bytes);
    // Keyframe size byte of the only animation: 9 header words + 2 angles need at least 11.
    let size_at = s.animations + 4 + 5;
    assert_eq!(bytes[size_at], 12);
    bytes[size_at] = 10;
    let (model, layout) = wad::read(&bytes).unwrap();
    let animation = &model.moveables[0].animations[0];
    assert!(animation.keyframes.is_empty());
    let stored = animation.undecodable_keyframes.as_ref().expect("kept as stored");
    assert_eq!((stored.size, stored.words.len()), (10, 0));
    assert_eq!(stored.kind(2), wadforge_format::Undecodable::TooSmall);
    // The package's two keyframes of 12 words are bytes the layout keeps.
    assert_eq!(
        layout.keyframes.gaps.iter().map(|g| g.bytes.len()).sum::<usize>(),
        48
    );
    assert_eq!(wad::write(&model, Some(&layout)).unwrap(), bytes);
    let canonical = wad::write(&model, None).unwrap();
    let (again, again_layout) = wad::read(&canonical).unwrap();
    assert_eq!(again, model);
    assert_eq!(again_layout.keyframes.len, 0, "no words of its own");
}

#[test]
fn a_link_index_past_the_links_is_refused() {
    let mut bytes = valid();
    let at = sections(&bytes).moveables + 4 + 8;
    put_u32(&mut bytes, at, 1000);
    let e = read_err(&bytes);
    assert_eq!((e.section, e.offset), (Section::Moveables, at as u64));
    assert!(
        matches!(e.problem, Problem::IndexOutOfRange { index: 1000, .. }),
        "{e}"
    );
}

#[test]
fn trailing_bytes_are_refused() {
    let mut bytes = valid();
    let len = bytes.len();
    bytes.extend_from_slice(&[0, 0, 0]);
    let e = read_err(&bytes);
    assert_eq!((e.offset, e.problem), (len as u64, Problem::TrailingBytes(3)));
}

#[test]
fn an_extra_pop_at_the_end_of_a_link_pack_hangs_the_mesh_from_the_root() {
    let mut bytes = valid();
    let s = sections(&bytes);
    let links_index = u32::from_le_bytes(bytes[s.moveables + 12..s.moveables + 16].try_into().unwrap());
    // The links package count sits before the keyframes section; find its data start by walking back.
    let links_count_at = s.keyframes - 4 - 16;
    assert_eq!(links_index, 0);
    put_u32(&mut bytes, links_count_at + 4, 1); // opcode: pop on an empty stack
    let (model, layout) = wad::read(&bytes).unwrap();
    assert_eq!(model.moveables[0].links[0].parent, 0);
    assert_eq!(layout.moveables[0].link_ops, vec![1]);
    assert_eq!(wad::write(&model, Some(&layout)).unwrap(), bytes);
}
