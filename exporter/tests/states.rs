//! Manifest animations → model animations (the inverse of import), and bounding spheres.

use std::path::Path;

use wadforge_exporter::spheres::{bounding_sphere, encloses, enclosing_sphere};
use wadforge_exporter::states::animations;
use wadforge_exporter::{BuildError, Place};
use wadforge_format::{Animation, ObjectKind, ObjectName, Wad};
use wadforge_importer::{import, ImportOptions};
use wadforge_manifests::load::parse;
use wadforge_manifests::{
    AnimationName, CommandManifest, ManifestError, MoveableManifest, ObjectManifest, Sphere,
};

/// Every moveable manifest the importer writes for `wad`, as YAML text, by moveable id.
fn moveable_yaml(wad: &Wad) -> Vec<(u32, String, String)> {
    let options = ImportOptions::wad("fixture.wad", 129);
    let files = import(wad, &options, &mut |_, _, _| {}).expect("import");
    files
        .into_iter()
        .filter(|f| f.path.starts_with("moveables/") && f.path.ends_with(".yaml"))
        .map(|f| {
            let text = String::from_utf8(f.bytes).expect("UTF-8");
            let m = parse_moveable(&f.path, &text).expect("the importer's YAML parses");
            (m.id, f.path, text)
        })
        .collect()
}

fn parse_moveable(path: &str, text: &str) -> Result<MoveableManifest, ManifestError> {
    match parse::<ObjectManifest>(Path::new(path), text)? {
        ObjectManifest::Moveable(m) => Ok(m),
        ObjectManifest::Static(_) => panic!("{path} is a static"),
    }
}

fn place(path: &str, m: &MoveableManifest) -> Place {
    Place {
        file: path.into(),
        object: ObjectName::with_slot(&m.slot, ObjectKind::Moveable, m.id).to_string(),
    }
}

fn without_keyframes(animations: &[Animation]) -> Vec<Animation> {
    animations
        .iter()
        .map(|a| Animation {
            keyframes: Vec::new(),
            ..a.clone()
        })
        .collect()
}

fn round_trip(wad: &Wad) -> usize {
    let manifests = moveable_yaml(wad);
    assert_eq!(manifests.len(), wad.moveables.len());
    let mut checked = 0;
    for (id, path, text) in &manifests {
        let original = wad
            .moveables
            .iter()
            .find(|m| m.id == *id)
            .expect("moveable by id");
        let m = parse_moveable(path, text).unwrap();
        let (built, _) = animations(&m, &place(path, &m)).unwrap_or_else(|e| panic!("{path}: {e}"));
        let expected = without_keyframes(&original.animations);
        assert_eq!(built.len(), expected.len(), "{path}");
        for (i, (b, e)) in built.iter().zip(&expected).enumerate() {
            // Field by field first, for a readable failure; then the whole record.
            assert_eq!(
                (b.frame_duration, b.state, b.frame_start, b.frame_end),
                (e.frame_duration, e.state, e.frame_start, e.frame_end),
                "{path} animation {i}: timing"
            );
            assert_eq!(
                (b.speed, b.acceleration, b.lateral_speed, b.lateral_acceleration),
                (e.speed, e.acceleration, e.lateral_speed, e.lateral_acceleration),
                "{path} animation {i}: speeds"
            );
            assert_eq!(
                (b.next_animation, b.next_frame),
                (e.next_animation, e.next_frame),
                "{path} animation {i}: next"
            );
            assert_eq!(
                b.state_changes, e.state_changes,
                "{path} animation {i}: state changes"
            );
            assert_eq!(b.commands, e.commands, "{path} animation {i}: commands");
            assert_eq!(b, e, "{path} animation {i}");
        }
        checked += built.len();
    }
    checked
}

#[test]
fn standard_round_trips_through_import() {
    let wad = wadforge_fixtures::standard();
    let checked = round_trip(&wad);
    assert!(checked > 10, "only {checked} animations checked");
    // The fixture exercises what the inverse must handle.
    let all: Vec<&Animation> = wad.moveables.iter().flat_map(|m| &m.animations).collect();
    assert!(all.iter().any(|a| !a.state_changes.is_empty()));
    assert!(all.iter().any(|a| a
        .commands
        .iter()
        .any(|c| matches!(c, wadforge_format::Command::PlaySound { .. }))));
    assert!(all.iter().any(|a| a.speed.0 != 0));
}

#[test]
fn largest_round_trips_through_import() {
    let checked = round_trip(&wadforge_fixtures::largest());
    assert!(checked > 100, "only {checked} animations checked");
}

/// The crocodile's manifest, as import wrote it.
fn crocodile() -> (String, String, MoveableManifest) {
    let (_, path, text) = moveable_yaml(&wadforge_fixtures::standard())
        .into_iter()
        .find(|(id, _, _)| *id == 51)
        .expect("CROCODILE");
    let m = parse_moveable(&path, &text).unwrap();
    assert!(m.animations.len() >= 3);
    (path, text, m)
}

fn object_error(e: BuildError) -> (Option<String>, String) {
    match e {
        BuildError::Object { place, message, .. } => (place, message),
        other => panic!("expected an object error, got {other}"),
    }
}

#[test]
fn unknown_target_names_fail_naming_the_animation() {
    let (path, _, mut m) = crocodile();
    let name = m.animations[1].name.clone();
    m.animations[1].next.animation = AnimationName::Name("999_NO_SUCH".into());
    let e = animations(&m, &place(&path, &m)).unwrap_err();
    let text = e.to_string();
    let (at, message) = object_error(e);
    assert_eq!(at.as_deref(), Some(format!("animation {name}").as_str()));
    assert!(
        message.contains("999_NO_SUCH") && message.contains("next"),
        "{message}"
    );
    assert!(
        text.contains(&path) && text.contains("CROCODILE (moveable 51)"),
        "{text}"
    );

    // A dispatch target too.
    let (_, _, mut m) = crocodile();
    let (i, a) = m
        .animations
        .iter_mut()
        .enumerate()
        .find(|(_, a)| !a.state_changes.is_empty())
        .expect("a crocodile animation with state changes");
    a.state_changes[0].dispatches[0].animation = AnimationName::Name("GONE".into());
    let name = a.name.clone();
    let _ = i;
    let (at, message) = object_error(animations(&m, &place(&path, &m)).unwrap_err());
    assert_eq!(at, Some(format!("animation {name}")));
    assert!(
        message.contains("GONE") && message.contains("dispatch"),
        "{message}"
    );
}

#[test]
fn frames_outside_u16_fail_naming_the_animation() {
    let (path, _, m) = crocodile();
    let name = m.animations[2].name.clone();

    // A next frame past the end of the timeline.
    let mut edited = m.clone();
    edited.animations[2].next.frame = 70_000;
    let (at, message) = object_error(animations(&edited, &place(&path, &m)).unwrap_err());
    assert_eq!(at, Some(format!("animation {name}")));
    assert!(
        message.contains("next frame") && message.contains("70000"),
        "{message}"
    );

    // A sound before frame 0 of the timeline.
    let mut edited = m.clone();
    let first = i32::from(edited.animations[2].first_frame.unwrap());
    edited.animations[2].commands.push(CommandManifest::Sound {
        frame: -first - 1,
        id: 12,
        on: wadforge_manifests::SoundPlace::Land,
    });
    let (at, message) = object_error(animations(&edited, &place(&path, &m)).unwrap_err());
    assert_eq!(at, Some(format!("animation {name}")));
    assert!(
        message.contains("sound") && message.contains("frame -1 "),
        "{message}"
    );

    // A speed that a 16.16 field cannot hold.
    let mut edited = m.clone();
    edited.animations[2].lateral_speed = 1.0e6;
    let (at, message) = object_error(animations(&edited, &place(&path, &m)).unwrap_err());
    assert_eq!(at, Some(format!("animation {name}")));
    assert!(message.contains("lateral_speed"), "{message}");
}

#[test]
fn i16_overflow_is_refused() {
    let (path, text, _) = crocodile();
    // Command offsets are i16 in the schema: a value that does not fit fails when the manifest
    // is read, with its line and column, before build sees it.
    for command in [
        "- set_position: [40000, 0, 0]",
        "- jump: {vertical: -32769, horizontal: 0}",
    ] {
        let edited = text.replacen(
            "\n    frames:",
            &format!("\n    commands:\n    {command}\n    frames:"),
            1,
        );
        assert_ne!(edited, text);
        match parse_moveable(&path, &edited) {
            Err(ManifestError::Syntax {
                location, message, ..
            }) => {
                assert!(location.is_some(), "{message}");
                assert!(message.contains("i16"), "{command}: {message}");
            }
            other => panic!("{command}: expected a syntax error, got {other:?}"),
        }
    }
}

#[test]
fn without_first_frame_animations_follow_each_other() {
    let (path, text, m) = crocodile();
    // As a builder would edit the file: every `first_frame:` line removed.
    let edited: String = text
        .lines()
        .filter(|l| !l.trim_start().starts_with("first_frame:"))
        .map(|l| format!("{l}\n"))
        .collect();
    let stripped = parse_moveable(&path, &edited).unwrap();
    assert!(stripped.animations.iter().all(|a| a.first_frame.is_none()));
    let (built, _) = animations(&stripped, &place(&path, &m)).unwrap();
    let mut next = 0u16;
    for (b, a) in built.iter().zip(&stripped.animations) {
        assert_eq!(b.frame_start, next, "{}", a.name);
        assert_eq!(b.frame_end, next + a.frames - 1, "{}", a.name);
        next = b.frame_end + 1;
    }
    // Relative frames moved with their animations.
    let (original, _) = animations(&m, &place(&path, &m)).unwrap();
    for (b, o) in built.iter().zip(&original) {
        let shift = |x: u16, from: u16, to: u16| i32::from(x) - i32::from(from) + i32::from(to);
        for (bc, oc) in b.state_changes.iter().zip(&o.state_changes) {
            for (bd, od) in bc.dispatches.iter().zip(&oc.dispatches) {
                assert_eq!(
                    i32::from(bd.frame_start),
                    shift(od.frame_start, o.frame_start, b.frame_start)
                );
                assert_eq!(bd.next_animation, od.next_animation);
                let target = usize::try_from(od.next_animation).unwrap();
                assert_eq!(
                    i32::from(bd.next_frame),
                    shift(
                        od.next_frame,
                        original[target].frame_start,
                        built[target].frame_start
                    )
                );
            }
        }
    }
    // Mixed: one animation placed, the next ones after it.
    let mut mixed = stripped.clone();
    mixed.animations[1].first_frame = Some(500);
    let (built, _) = animations(&mixed, &place(&path, &m)).unwrap();
    assert_eq!(built[0].frame_start, 0);
    assert_eq!(built[1].frame_start, 500);
    assert_eq!(built[2].frame_start, 500 + mixed.animations[1].frames);
}

// --- bounding spheres ---

/// xorshift64*, for reproducible point sets.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    fn range(&mut self, lo: i32, hi: i32) -> i16 {
        (lo + (self.next() % (hi - lo + 1) as u64) as i32) as i16
    }

    fn points(&mut self, n: usize, half: i32) -> Vec<[i16; 3]> {
        let (cx, cy, cz) = (
            self.range(-2000, 2000),
            self.range(-2000, 2000),
            self.range(-2000, 2000),
        );
        (0..n)
            .map(|_| {
                [
                    cx + self.range(-half, half),
                    cy + self.range(-half, half),
                    cz + self.range(-half, half),
                ]
            })
            .collect()
    }
}

type P = [f64; 3];

fn d2(a: P, b: P) -> f64 {
    (0..3).map(|k| (a[k] - b[k]).powi(2)).sum()
}

fn solve3(m: [[f64; 3]; 3], r: [f64; 3]) -> Option<P> {
    let det = |m: [[f64; 3]; 3]| {
        m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1]) - m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0])
            + m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0])
    };
    let d = det(m);
    if d.abs() < 1e-9 {
        return None;
    }
    Some(std::array::from_fn(|c| {
        let mut mc = m;
        for row in 0..3 {
            mc[row][c] = r[row];
        }
        det(mc) / d
    }))
}

/// The smallest sphere through the support points: diametral (2), circumcircle's (3),
/// circumsphere (4).
fn through(s: &[P]) -> Option<(P, f64)> {
    let a = s[0];
    let rel: Vec<P> = s[1..]
        .iter()
        .map(|p| std::array::from_fn(|k| p[k] - a[k]))
        .collect();
    let dot = |x: P, y: P| x[0] * y[0] + x[1] * y[1] + x[2] * y[2];
    let x = match rel.len() {
        1 => std::array::from_fn(|k| rel[0][k] / 2.0),
        2 => {
            // In the plane of the three points: x = α u + β v with 2x·u = |u|², 2x·v = |v|².
            let (u, v) = (rel[0], rel[1]);
            let (uu, uv, vv) = (dot(u, u), dot(u, v), dot(v, v));
            let det = uu * vv - uv * uv;
            if det.abs() < 1e-9 * uu * vv {
                return None;
            }
            let alpha = (uu * vv - vv * uv) / (2.0 * det);
            let beta = (vv * uu - uu * uv) / (2.0 * det);
            std::array::from_fn(|k| alpha * u[k] + beta * v[k])
        }
        3 => solve3(
            [rel[0], rel[1], rel[2]].map(|r| r.map(|c| 2.0 * c)),
            [dot(rel[0], rel[0]), dot(rel[1], rel[1]), dot(rel[2], rel[2])],
        )?,
        _ => unreachable!(),
    };
    let c: P = std::array::from_fn(|k| a[k] + x[k]);
    Some((c, d2(c, a).sqrt()))
}

/// The minimal enclosing sphere's radius by trying every support set of 2 to 4 points.
fn brute_force_radius(points: &[[i16; 3]]) -> f64 {
    let ps: Vec<P> = points.iter().map(|p| p.map(f64::from)).collect();
    let n = ps.len();
    let mut best = f64::INFINITY;
    let mut consider = |s: &[P]| {
        if let Some((c, r)) = through(s) {
            if r < best && ps.iter().all(|&p| d2(c, p).sqrt() <= r * (1.0 + 1e-9) + 1e-6) {
                best = r;
            }
        }
    };
    for i in 0..n {
        for j in i + 1..n {
            consider(&[ps[i], ps[j]]);
            for k in j + 1..n {
                consider(&[ps[i], ps[j], ps[k]]);
                for l in k + 1..n {
                    consider(&[ps[i], ps[j], ps[k], ps[l]]);
                }
            }
        }
    }
    best
}

fn manifest_sphere(center: [i16; 3], radius: u16, flag: u16) -> Sphere {
    Sphere { center, radius, flag }
}

#[test]
fn fixture_spheres_are_kept() {
    for wad in [wadforge_fixtures::standard(), wadforge_fixtures::largest()] {
        for (i, mesh) in wad.meshes.iter().enumerate() {
            let s = mesh.sphere;
            let built = bounding_sphere(&mesh.vertices, &manifest_sphere(s.center, s.radius, s.flag), &[]);
            assert_eq!(built, s, "mesh {i}");
        }
    }
}

#[test]
fn fixture_meshes_rebuilt_from_scratch() {
    // Every fixture mesh with its sphere shrunk to nothing: the rebuilt sphere encloses it and is
    // no larger than the fixture's own (the sphere about the middle of the box, never below the
    // optimum) plus the integer rounding.
    let wad = wadforge_fixtures::largest();
    let mut rebuilt = 0;
    for (i, mesh) in wad.meshes.iter().enumerate() {
        let s = mesh.sphere;
        let built = bounding_sphere(&mesh.vertices, &manifest_sphere(s.center, 1, s.flag), &[]);
        assert!(encloses(&mesh.vertices, built.center, built.radius), "mesh {i}");
        assert!(
            built.radius <= s.radius + 2,
            "mesh {i}: {} vs {}",
            built.radius,
            s.radius
        );
        assert_eq!(built.flag, s.flag);
        rebuilt += usize::from(mesh.vertices.len() > 1);
    }
    assert!(rebuilt > 50, "{rebuilt}");
}

#[test]
fn enclosing_sphere_is_kept() {
    let vertices = [[0, 0, 0], [10, 0, 0], [0, 10, 0], [0, 0, 10], [-10, -10, -10]];
    // Generous, off-centre and flagged: kept as it is.
    let m = manifest_sphere([5, 5, 5], 40, 1);
    let s = bounding_sphere(&vertices, &m, &[]);
    assert_eq!((s.center, s.radius, s.flag), ([5, 5, 5], 40, 1));
    // Exactly touching the farthest vertex (|(-15,-15,-15)|² = 675 ≤ 26² = 676).
    let m = manifest_sphere([5, 5, 5], 26, 0);
    assert_eq!(bounding_sphere(&vertices, &m, &[]).radius, 26);
}

#[test]
fn moved_vertex_rebuilds_the_sphere() {
    let mut vertices = vec![[0, 0, 0], [100, 0, 0], [0, 100, 0], [0, 0, 100], [100, 100, 100]];
    let m = manifest_sphere([50, 50, 50], 87, 1);
    assert!(encloses(&vertices, m.center, m.radius));
    assert_eq!(bounding_sphere(&vertices, &m, &[]).radius, 87);
    vertices[4] = [300, 100, 100];
    let s = bounding_sphere(&vertices, &m, &[]);
    assert_ne!((s.center, s.radius), (m.center, m.radius));
    assert_eq!(s.flag, 1, "the flag word is kept");
    assert!(encloses(&vertices, s.center, s.radius));
    let optimum = brute_force_radius(&vertices);
    assert!(f64::from(s.radius) <= optimum + 1.9, "{} vs {optimum}", s.radius);
}

#[test]
fn empty_mesh_keeps_the_manifest_sphere() {
    let m = manifest_sphere([1, -2, 3], 0, 1);
    let s = bounding_sphere(&[], &m, &[]);
    assert_eq!((s.center, s.radius, s.flag), ([1, -2, 3], 0, 1));
}

#[test]
fn rebuilt_spheres_enclose_and_are_tight_on_small_sets() {
    let mut rng = Rng(0x5EED_1234_ABCD_0001);
    for trial in 0..300 {
        let n = 2 + trial % 13;
        let half = [5, 60, 900, 12_000][trial % 4];
        let vertices = rng.points(n, half);
        // A manifest sphere far away from every vertex: certainly rebuilt.
        let s = bounding_sphere(&vertices, &manifest_sphere([i16::MIN; 3], 1, 0), &[]);
        assert!(
            encloses(&vertices, s.center, s.radius),
            "trial {trial}: {vertices:?}"
        );
        let optimum = brute_force_radius(&vertices);
        let r = f64::from(s.radius);
        // The integer centre costs at most √3/2 and rounding the radius up at most 1.
        assert!(
            r <= optimum + 1.87,
            "trial {trial}: radius {r}, optimum {optimum}: {vertices:?}"
        );
        assert!(
            r + 1e-9 >= optimum,
            "trial {trial}: radius {r} below the optimum {optimum}"
        );
    }
}

#[test]
fn degenerate_sets() {
    let cases: Vec<Vec<[i16; 3]>> = vec![
        // Duplicates.
        vec![[7, 7, 7]; 5],
        vec![[0, 0, 0], [0, 0, 0], [10, 0, 0], [10, 0, 0]],
        // Collinear.
        (0..20).map(|i| [i * 3, i * 3, -i]).collect(),
        // Coplanar grid (a door leaf) and a cocircular ring.
        (0..8)
            .flat_map(|x| (0..6).map(move |y| [x * 128 - 512, y * 200 - 1000, 0]))
            .collect(),
        (0..24)
            .map(|i| {
                let t = i as f64 * std::f64::consts::TAU / 24.0;
                [
                    (t.cos() * 1000.0).round() as i16,
                    (t.sin() * 1000.0).round() as i16,
                    40,
                ]
            })
            .collect(),
        // A cube's corners (eight cospherical points).
        (0..8)
            .map(|c| {
                [
                    if c & 1 == 0 { -300 } else { 300 },
                    if c & 2 == 0 { -300 } else { 300 },
                    if c & 4 == 0 { -300 } else { 300 },
                ]
            })
            .collect(),
        // The extremes of the i16 range.
        vec![
            [i16::MIN, i16::MIN, i16::MIN],
            [i16::MAX, i16::MAX, i16::MAX],
            [i16::MIN, i16::MAX, 0],
        ],
    ];
    for (i, vertices) in cases.iter().enumerate() {
        let (c, r) = enclosing_sphere(vertices);
        assert!(encloses(vertices, c, r), "case {i}");
        if vertices.len() <= 30 {
            let optimum = brute_force_radius(vertices);
            assert!(f64::from(r) <= optimum + 1.87, "case {i}: {r} vs {optimum}");
        }
    }
    // The cube: radius √3·300 ≈ 519.6 → 520 around the origin.
    assert_eq!(enclosing_sphere(&cases[5]), ([0, 0, 0], 520));
}

#[test]
fn rebuilt_spheres_are_tight_on_large_sets() {
    let mut rng = Rng(0xC0FF_EE00_0000_0042);
    for trial in 0..20 {
        let mut vertices = rng.points(3000, 1500);
        // Mostly inside a ball, as a mesh's vertices are, with a few far ones.
        vertices.extend(rng.points(5, 3000));
        let (c, r) = enclosing_sphere(&vertices);
        assert!(encloses(&vertices, c, r), "trial {trial}");
        let f: Vec<P> = vertices.iter().map(|v| v.map(f64::from)).collect();
        let centroid: P = std::array::from_fn(|k| f.iter().map(|p| p[k]).sum::<f64>() / f.len() as f64);
        let from_centroid = f.iter().map(|&p| d2(p, centroid)).fold(0.0, f64::max).sqrt();
        // Never worse than the sphere about the centroid.
        assert!(
            f64::from(r) <= from_centroid + 1.0,
            "trial {trial}: {r} vs {from_centroid}"
        );
        // A lower bound on the optimum: the minimal sphere of any subset. The farthest points
        // from the rebuilt centre hold the optimum's support points, so this bound is the optimum
        // itself unless the rebuilt centre were far off.
        let mut by_distance = vertices.clone();
        by_distance.sort_by_key(|v| {
            std::cmp::Reverse(
                (0..3)
                    .map(|k| (i64::from(v[k]) - i64::from(c[k])).pow(2))
                    .sum::<i64>(),
            )
        });
        let lower = brute_force_radius(&by_distance[..16]);
        assert!(f64::from(r) + 1e-9 >= lower);
        assert!(
            f64::from(r) <= lower + 1.87,
            "trial {trial}: {r} vs lower bound {lower}"
        );
    }
}

#[test]
fn a_sphere_of_radius_zero_keeps_collision_off() {
    let vertices = [[0, 0, 0], [100, 0, 0], [0, -300, 40]];
    let s = bounding_sphere(&vertices, &manifest_sphere([0, -100, 0], 0, 0), &[]);
    assert_eq!((s.center, s.radius), ([0, -100, 0], 0));
}
