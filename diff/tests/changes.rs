//! Every single changed value is reported, at its place; tolerances and scopes hold; the report
//! reads as promised.

use wadforge_diff::{diff, Field, ObjectKind, Options, Report, Scope};
use wadforge_model::{Command as AnimationCommand, Moveable, Sample, Shading, StateChange, Static, Wad};

const CROCODILE: u32 = 51;
const PUZZLE_ITEM1: u32 = 175;
const PLANT0: u32 = 0;
const ROCK0: u32 = 20;
/// The crocodile's mesh the geometry changes touch (its own: no other reference names it).
const MESH: usize = 3;
/// The crocodile's animation the animation changes touch (state changes, dispatches, a command).
const ANIMATION: usize = 1;

fn moveable(w: &mut Wad, id: u32) -> &mut Moveable {
    w.moveables
        .iter_mut()
        .find(|m| m.id == id)
        .expect("the fixture has this moveable")
}

fn static_object(w: &mut Wad, id: u32) -> &mut Static {
    w.statics
        .iter_mut()
        .find(|s| s.id == id)
        .expect("the fixture has this static")
}

/// The crocodile's mesh [`MESH`], checked to be named by no other reference.
fn mesh(w: &mut Wad) -> &mut wadforge_model::Mesh {
    let index = moveable(w, CROCODILE).meshes[MESH];
    let references = w
        .moveables
        .iter()
        .flat_map(|m| &m.meshes)
        .filter(|&&i| i == index)
        .count()
        + w.statics.iter().filter(|s| s.mesh == index).count();
    assert_eq!(references, 1, "the crocodile's mesh {MESH} is its own");
    &mut w.meshes[index]
}

fn plant_mesh(w: &mut Wad) -> &mut wadforge_model::Mesh {
    let index = static_object(w, PLANT0).mesh;
    &mut w.meshes[index]
}

fn normals(m: &mut wadforge_model::Mesh) -> &mut Vec<[i16; 3]> {
    match &mut m.shading {
        Shading::Normals(n) => n,
        Shading::Shades(_) => panic!("a moveable mesh has normals"),
    }
}

fn shades(m: &mut wadforge_model::Mesh) -> &mut Vec<i16> {
    match &mut m.shading {
        Shading::Shades(s) => s,
        Shading::Normals(_) => panic!("a static mesh has shades"),
    }
}

/// The first quad and the first triangle of the crocodile's mesh [`MESH`].
fn quad_and_triangle(w: &Wad) -> (usize, usize) {
    let mut w = w.clone();
    let m = mesh(&mut w);
    let quad = m.polygons.iter().position(|p| p.is_quad).expect("a quad");
    let triangle = m.polygons.iter().position(|p| !p.is_quad).expect("a triangle");
    (quad, triangle)
}

/// Gives polygon `polygon` of the crocodile's mesh its own copy of its sample, on a new page:
/// a change of layout only, after which its texels can change without touching other polygons.
fn own_sample(w: &mut Wad, polygon: usize) -> Sample {
    let sample_index = mesh(w).polygons[polygon].texture.sample;
    let mut sample = w.samples[sample_index as usize];
    w.pages.push(w.pages[sample.page as usize].clone());
    sample.page = (w.pages.len() - 1) as u16;
    w.samples.push(sample);
    mesh(w).polygons[polygon].texture.sample = (w.samples.len() - 1) as u16;
    sample
}

/// One change: what it does, and the differences (place, field) expected on which object.
struct Case {
    name: &'static str,
    change: Box<dyn Fn(&mut Wad)>,
    object: ObjectRef,
    expected: Vec<Found>,
}

fn case(
    name: &'static str,
    object: ObjectRef,
    expected: &[(&str, Field)],
    change: impl Fn(&mut Wad) + 'static,
) -> Case {
    Case {
        name,
        change: Box::new(change),
        object,
        expected: expected.iter().map(|(p, f)| (p.to_string(), *f)).collect(),
    }
}

fn cases(original: &Wad) -> Vec<Case> {
    use Field::*;
    let croc = (ObjectKind::Moveable, CROCODILE);
    let plant = (ObjectKind::Static, PLANT0);
    let (quad, triangle) = quad_and_triangle(original);
    let m = format!("mesh {MESH}");
    let q = format!("mesh {MESH}, polygon {quad}");
    let t = format!("mesh {MESH}, polygon {triangle}");
    let last = mesh(&mut original.clone()).polygons.len() - 1;
    let popped = format!("mesh {MESH}, polygon {last}");
    let first = format!("mesh {MESH}, polygon 0");
    let a = format!("animation {ANIMATION}");
    let sc = format!("{a}, state change 0");
    let dispatch = format!("{sc}, dispatch 0");
    let keyframe = format!("{a}, keyframe 1");
    fn with_animation(w: &mut Wad, f: impl FnOnce(&mut wadforge_model::Animation)) {
        f(&mut moveable(w, CROCODILE).animations[ANIMATION]);
    }
    vec![
        // Meshes.
        case(
            "vertex coordinate",
            croc,
            &[(&format!("{m}, vertex 2"), Vertex)],
            |w| mesh(w).vertices[2][1] += 1,
        ),
        case(
            "normal component",
            croc,
            &[(&format!("{m}, vertex 2"), Normal)],
            |w| normals(mesh(w))[2][0] += 1,
        ),
        case("shade", plant, &[("mesh, vertex 1", Shade)], |w| {
            shades(plant_mesh(w))[1] += 1
        }),
        case("static vertex", plant, &[("mesh, vertex 0", Vertex)], |w| {
            plant_mesh(w).vertices[0][0] -= 1
        }),
        case("lighting kind", croc, &[(&m, Lighting)], |w| {
            let n = mesh(w).vertices.len();
            mesh(w).shading = Shading::Shades(vec![0; n])
        }),
        case(
            "extra unused vertex",
            croc,
            &[(&m, VertexCount), (&m, NormalCount)],
            |w| {
                let m = mesh(w);
                m.vertices.push([1, 2, 3]);
                normals(m).push([0, -16300, 0]);
            },
        ),
        case("sphere centre", croc, &[(&m, SphereCentre)], |w| {
            mesh(w).sphere.center[2] += 1
        }),
        case("sphere radius", croc, &[(&m, SphereRadius)], |w| {
            mesh(w).sphere.radius += 1
        }),
        case("sphere flag", croc, &[(&m, SphereFlag)], |w| {
            mesh(w).sphere.flag ^= 1
        }),
        // The last polygon removed: the count, and that polygon, in A only.
        case(
            "polygon count",
            croc,
            &[(&m, PolygonCount), (&popped, Polygon)],
            |w| {
                mesh(w).polygons.pop();
            },
        ),
        // The first removed: that polygon alone, not every other shifted by one.
        case(
            "first polygon removed",
            croc,
            &[(&m, PolygonCount), (&first, Polygon)],
            |w| {
                mesh(w).polygons.remove(0);
            },
        ),
        case(
            "polygon corner",
            croc,
            &[(&format!("{t}, corner 1"), VertexIndex)],
            move |w| {
                let p = &mut mesh(w).polygons[triangle];
                p.vertices[1] = if p.vertices[1] == 0 { 1 } else { 0 };
            },
        ),
        case("quad to triangle", croc, &[(&q, PolygonKind)], move |w| {
            mesh(w).polygons[quad].is_quad = false
        }),
        case("triangle to quad", croc, &[(&t, PolygonKind)], move |w| {
            mesh(w).polygons[triangle].is_quad = true
        }),
        case("attribute byte", croc, &[(&q, Attributes)], move |w| {
            let a = &mut mesh(w).polygons[quad].attributes;
            a.additive = !a.additive;
        }),
        case("shine intensity", croc, &[(&t, Attributes)], move |w| {
            let a = &mut mesh(w).polygons[triangle].attributes;
            a.shine_intensity ^= 1;
        }),
        case("unused byte", croc, &[(&t, UnusedByte)], move |w| {
            mesh(w).polygons[triangle].unused ^= 0x10
        }),
        case("triangle shape", croc, &[(&t, TextureCorners)], move |w| {
            let texture = &mut mesh(w).polygons[triangle].texture;
            texture.shape = (texture.shape + 2) % 8;
        }),
        case("quad flip", croc, &[(&q, TextureCorners)], move |w| {
            let texture = &mut mesh(w).polygons[quad].texture;
            texture.flipped = !texture.flipped;
        }),
        case(
            "texel",
            croc,
            &[(&format!("{q}, texel (1, 2)"), Texels)],
            move |w| {
                let s = own_sample(w, quad);
                let page = w.pages.last_mut().unwrap();
                let (x, y) = (s.x as usize + 1, s.y as usize + 2);
                let texel = page.texel(x, y);
                page.set_texel(x, y, [texel[0] ^ 1, texel[1], texel[2]]);
            },
        ),
        case("sample size", croc, &[(&q, SampleSize)], move |w| {
            own_sample(w, quad);
            w.samples.last_mut().unwrap().width -= 1;
        }),
        case("missing sample", croc, &[(&q, Sample)], move |w| {
            mesh(w).polygons[quad].texture.sample = 4000;
        }),
        case("mesh index", croc, &[(&m, Mesh)], |w| {
            moveable(w, CROCODILE).meshes[MESH] = 10_000
        }),
        case(
            "extra mesh",
            (ObjectKind::Moveable, PUZZLE_ITEM1),
            &[
                ("", MeshCount),
                ("", LinkCount),
                ("animation 0, keyframe 0", RotationCount),
            ],
            |w| {
                let p = moveable(w, PUZZLE_ITEM1);
                p.meshes.push(p.meshes[0]);
                p.links.push(wadforge_model::Link {
                    parent: 0,
                    offset: [0, -100, 0],
                });
                let rotation = p.animations[0].keyframes[0].rotations[0];
                p.animations[0].keyframes[0].rotations.push(rotation);
            },
        ),
        // Links.
        case("link offset", croc, &[(&m, LinkOffset)], |w| {
            moveable(w, CROCODILE).links[MESH - 1].offset[0] += 1
        }),
        // Mesh 5 hangs from mesh 1; from mesh 4 (the one before) it can still be written.
        case("link parent", croc, &[("mesh 5", LinkParent)], |w| {
            let link = &mut moveable(w, CROCODILE).links[4];
            assert_eq!(link.parent, 1);
            link.parent = 4;
        }),
        // Animations.
        // A dispatch that went to the dropped animation now names another object's: that is told too.
        case(
            "animation count",
            croc,
            &[
                ("", AnimationCount),
                ("animation 0, state change 4, dispatch 0", DispatchNextAnimation),
            ],
            |w| {
                moveable(w, CROCODILE).animations.pop();
            },
        ),
        case("frame duration", croc, &[(&a, FrameDuration)], |w| {
            with_animation(w, |a| a.frame_duration += 1)
        }),
        case("state", croc, &[(&a, State)], |w| {
            with_animation(w, |a| a.state += 1)
        }),
        case("speed", croc, &[(&a, Speed)], |w| {
            with_animation(w, |a| a.speed.0 += 1)
        }),
        case("acceleration", croc, &[(&a, Acceleration)], |w| {
            with_animation(w, |a| a.acceleration.0 -= 1)
        }),
        case("lateral speed", croc, &[(&a, LateralSpeed)], |w| {
            with_animation(w, |a| a.lateral_speed.0 += 1)
        }),
        case("lateral acceleration", croc, &[(&a, LateralAcceleration)], |w| {
            with_animation(w, |a| a.lateral_acceleration.0 += 1)
        }),
        case("frame start", croc, &[(&a, FrameStart)], |w| {
            with_animation(w, |a| a.frame_start += 1)
        }),
        case("frame end", croc, &[(&a, FrameEnd)], |w| {
            with_animation(w, |a| a.frame_end += 1)
        }),
        case("next animation", croc, &[(&a, NextAnimation)], |w| {
            with_animation(w, |a| a.next_animation += 1)
        }),
        case("next frame", croc, &[(&a, NextFrame)], |w| {
            with_animation(w, |a| a.next_frame += 1)
        }),
        case("state change count", croc, &[(&a, StateChangeCount)], |w| {
            with_animation(w, |a| {
                a.state_changes.push(StateChange {
                    state: 9,
                    dispatches: vec![],
                })
            })
        }),
        case("state change state", croc, &[(&sc, StateChangeState)], |w| {
            with_animation(w, |a| a.state_changes[0].state += 1)
        }),
        case("dispatch count", croc, &[(&sc, DispatchCount)], |w| {
            with_animation(w, |a| {
                let d = a.state_changes[0].dispatches[0];
                a.state_changes[0].dispatches.push(d);
            })
        }),
        case(
            "dispatch frame start",
            croc,
            &[(&dispatch, DispatchFrameStart)],
            |w| with_animation(w, |a| a.state_changes[0].dispatches[0].frame_start += 1),
        ),
        case(
            "dispatch frame end",
            croc,
            &[(&dispatch, DispatchFrameEnd)],
            |w| with_animation(w, |a| a.state_changes[0].dispatches[0].frame_end += 1),
        ),
        case(
            "dispatch next animation",
            croc,
            &[(&dispatch, DispatchNextAnimation)],
            |w| with_animation(w, |a| a.state_changes[0].dispatches[0].next_animation += 1),
        ),
        case(
            "dispatch next frame",
            croc,
            &[(&dispatch, DispatchNextFrame)],
            |w| with_animation(w, |a| a.state_changes[0].dispatches[0].next_frame += 1),
        ),
        case("command", croc, &[(&format!("{a}, command 0"), Command)], |w| {
            with_animation(w, |a| match &mut a.commands[0] {
                AnimationCommand::PlaySound { on_land, .. } => *on_land = !*on_land,
                other => panic!("the crocodile's animation {ANIMATION} starts with a sound, not {other:?}"),
            })
        }),
        case("command count", croc, &[(&a, CommandCount)], |w| {
            with_animation(w, |a| a.commands.push(AnimationCommand::Kill))
        }),
        case("keyframe count", croc, &[(&a, KeyframeCount)], |w| {
            with_animation(w, |a| {
                a.keyframes.pop();
            })
        }),
        case("keyframe offset", croc, &[(&keyframe, KeyframeOffset)], |w| {
            with_animation(w, |a| a.keyframes[1].offset[1] += 1)
        }),
        case("keyframe box", croc, &[(&keyframe, KeyframeBox)], |w| {
            with_animation(w, |a| a.keyframes[1].bounding_box.max[2] += 1)
        }),
        case("angle", croc, &[(&format!("{keyframe}, mesh 4"), Angles)], |w| {
            with_animation(w, |a| {
                let r = &mut a.keyframes[1].rotations[4];
                r.y = (r.y + 1) % 4096;
            })
        }),
        case("rotation count", croc, &[(&keyframe, RotationCount)], |w| {
            with_animation(w, |a| {
                a.keyframes[1].rotations.pop();
            })
        }),
        // Statics.
        case("visibility box", plant, &[("", VisibilityBox)], |w| {
            static_object(w, PLANT0).visibility.min[0] -= 1
        }),
        case("collision box", plant, &[("", CollisionBox)], |w| {
            static_object(w, PLANT0).collision.max[1] += 1
        }),
        case("static flags", plant, &[("", Flags)], |w| {
            static_object(w, PLANT0).flags ^= 1
        }),
        // Objects.
        case("missing moveable", croc, &[("", Object)], |w| {
            w.moveables.retain(|m| m.id != CROCODILE)
        }),
        case("extra static", (ObjectKind::Static, 99), &[("", Object)], |w| {
            let mut extra = w.statics[0];
            extra.id = 99;
            w.statics.push(extra);
        }),
    ]
}

/// An object: its kind and id.
type ObjectRef = (ObjectKind, u32);
/// A difference: its place and field.
type Found = (String, Field);

/// Every differing object, and each difference.
fn found(report: &Report) -> (Vec<ObjectRef>, Vec<Found>) {
    let objects = report.objects.iter().filter(|o| !o.is_identical());
    (
        objects.clone().map(|o| (o.kind, o.id)).collect(),
        objects
            .flat_map(|o| &o.differences)
            .map(|d| (d.place.clone(), d.what))
            .collect(),
    )
}

#[test]
fn every_single_changed_value_is_reported_at_its_place() {
    let original = wadforge_fixtures::standard();
    assert!(diff(&original, &original, &Options::default()).is_identical());
    let cases = cases(&original);
    for c in &cases {
        let mut changed = original.clone();
        (c.change)(&mut changed);
        assert_ne!(changed, original, "{}: the change changes the model", c.name);
        let report = diff(&original, &changed, &Options::default());
        assert!(!report.is_identical(), "{}: not reported", c.name);
        let (objects, differences) = found(&report);
        assert_eq!(objects, vec![c.object], "{}: {:?}", c.name, differences);
        assert_eq!(differences, c.expected, "{}", c.name);
        // Both values are given, A's first.
        let reverse = diff(&changed, &original, &Options::default());
        let (a, b) = (&report.objects, &reverse.objects);
        for (x, y) in a
            .iter()
            .flat_map(|o| &o.differences)
            .zip(b.iter().flat_map(|o| &o.differences))
        {
            assert_ne!(x.a, x.b, "{}: {x}", c.name);
            assert_eq!((&x.a, &x.b), (&y.b, &y.a), "{}: {x} reversed is {y}", c.name);
        }
    }
}

#[test]
fn single_changes_survive_a_wad_file() {
    // The changes a WAD can hold, written and read back: still found, at the same place.
    let original = wadforge_fixtures::standard();
    for c in cases(&original) {
        // Not writable as a WAD: a mesh or sample that is not there, a keyframe without every
        // mesh's angles; and a frame duration, start or end alone (a WAD gives an animation the
        // keyframes its frame range plays at its frame duration: the keyframe count follows, and
        // a keyframe count of its own cannot be written).
        let not_writable = ["mesh index", "missing sample", "rotation count"];
        let timing = ["frame duration", "frame start", "frame end", "keyframe count"];
        if not_writable.contains(&c.name) || timing.contains(&c.name) {
            continue;
        }
        let mut changed = original.clone();
        (c.change)(&mut changed);
        let bytes = wadforge_format::wad::write(&changed, None).unwrap_or_else(|e| panic!("{}: {e}", c.name));
        let (read, _) = wadforge_format::wad::read(&bytes).unwrap_or_else(|e| panic!("{}: {e}", c.name));
        let (objects, differences) = found(&diff(&original, &read, &Options::default()));
        assert_eq!(objects, vec![c.object], "{}", c.name);
        assert_eq!(differences, c.expected, "{}", c.name);
    }
}

#[test]
fn a_change_in_a_level_is_found() {
    let level = wadforge_fixtures::levels::tr1_fixture();
    let read = wadforge_format::level::read(&level.bytes).unwrap().wad;
    let mut changed = read.clone();
    let wolf = &mut changed.moveables[0];
    let (id, mesh) = (wolf.id, wolf.meshes[1]);
    wolf.animations[0].keyframes[0].rotations[2].x += 8;
    changed.meshes[mesh].vertices[0][2] += 1;
    let (objects, differences) = found(&diff(&read, &changed, &Options::default()));
    assert!(objects.contains(&(ObjectKind::Moveable, id)), "{objects:?}");
    assert!(differences.contains(&("animation 0, keyframe 0, mesh 2".into(), Field::Angles)));
    assert!(differences
        .iter()
        .any(|d| d.1 == Field::Vertex && d.0.ends_with("vertex 0")));
}

fn croc_normal_and_angle(w: &mut Wad, normal: i16, angle: i32) {
    normals(mesh(w))[0][1] += normal;
    let r = &mut moveable(w, CROCODILE).animations[ANIMATION].keyframes[0].rotations[0];
    r.z = ((r.z as i32 + angle).rem_euclid(4096)) as u16;
}

#[test]
fn tolerances_pass_changes_within_and_fail_beyond() {
    let original = wadforge_fixtures::standard();
    let options = |normal, angle| Options {
        normal_tolerance: normal,
        angle_tolerance: angle,
        scope: Scope::All,
    };
    for (delta, tolerance, identical) in [
        (5, 5, true),
        (6, 5, false),
        (-5, 5, true),
        (-6, 5, false),
        (1, 0, false),
    ] {
        let mut w = original.clone();
        croc_normal_and_angle(&mut w, delta, 0);
        let report = diff(&original, &w, &options(tolerance, 0));
        assert_eq!(
            report.is_identical(),
            identical,
            "normal {delta:+} with tolerance {tolerance}"
        );
        let mut w = original.clone();
        croc_normal_and_angle(&mut w, 0, delta as i32);
        let report = diff(&original, &w, &options(0, tolerance));
        assert_eq!(
            report.is_identical(),
            identical,
            "angle {delta:+} with tolerance {tolerance}"
        );
    }
    // Angles wrap round the turn: 4094 and 2 are 4 apart; 4096 + a is a.
    let mut a = original.clone();
    let mut b = original.clone();
    moveable(&mut a, CROCODILE).animations[ANIMATION].keyframes[0].rotations[0].z = 4094;
    moveable(&mut b, CROCODILE).animations[ANIMATION].keyframes[0].rotations[0].z = 2;
    assert!(diff(&a, &b, &options(0, 4)).is_identical());
    assert!(!diff(&a, &b, &options(0, 3)).is_identical());
    moveable(&mut b, CROCODILE).animations[ANIMATION].keyframes[0].rotations[0].z = 4094 + 4096;
    assert!(diff(&a, &b, &options(0, 0)).is_identical());
    // A negative tolerance is no tolerance, not a failure of equal values.
    assert!(diff(&original, &original.clone(), &options(-3, -3)).is_identical());
    let mut w = original.clone();
    croc_normal_and_angle(&mut w, 1, 1);
    assert_eq!(found(&diff(&original, &w, &options(-3, -3))).1.len(), 2);
    // Shades have no tolerance.
    let mut w = original.clone();
    shades(plant_mesh(&mut w))[0] += 1;
    assert!(!diff(&original, &w, &options(100, 100)).is_identical());
}

#[test]
fn scopes_compare_only_their_part() {
    let original = wadforge_fixtures::standard();
    let mut w = original.clone();
    mesh(&mut w).vertices[0][0] += 1;
    moveable(&mut w, CROCODILE).links[0].offset[2] += 1;
    moveable(&mut w, CROCODILE).animations[ANIMATION].speed.0 += 1;
    static_object(&mut w, PLANT0).flags ^= 1;
    let scoped = |scope| {
        let options = Options {
            scope,
            ..Options::default()
        };
        let mut fields: Vec<Field> = found(&diff(&original, &w, &options))
            .1
            .into_iter()
            .map(|d| d.1)
            .collect();
        fields.sort();
        fields
    };
    assert_eq!(
        scoped(Scope::All),
        [Field::LinkOffset, Field::Vertex, Field::Speed, Field::Flags]
    );
    assert_eq!(scoped(Scope::Geometry), [Field::Vertex, Field::Flags]);
    assert_eq!(scoped(Scope::Animation), [Field::LinkOffset, Field::Speed]);
    // A missing object differs in every scope.
    let mut missing = original.clone();
    missing.statics.retain(|s| s.id != PLANT0);
    assert!(!diff(
        &original,
        &missing,
        &Options {
            scope: Scope::Animation,
            ..Options::default()
        }
    )
    .is_identical());
}

#[test]
fn text_report_lists_each_object_then_a_summary() {
    let original = wadforge_fixtures::standard();
    let mut w = original.clone();
    for v in &mut mesh(&mut w).vertices {
        v[0] += 1; // one difference per vertex: more than the lines shown
    }
    static_object(&mut w, PLANT0).flags ^= 1;
    w.statics.retain(|s| s.id != ROCK0);
    let report = diff(&original, &w, &Options::default());
    let vertices = mesh(&mut w.clone()).vertices.len();
    let mut text = Vec::new();
    report
        .write_text(&mut text, |kind, id| format!("{kind:?}{id}"), 4)
        .unwrap();
    let text = String::from_utf8(text).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    let total = original.moveables.len() + original.statics.len();
    assert_eq!(
        lines.last().copied(),
        Some(&*format!("{} of {total} objects identical (3 differ)", total - 3))
    );
    assert!(text.contains("Moveable0 (moveable 0): identical\n"), "{text}");
    assert!(
        text.contains(&format!("Moveable51 (moveable 51): {vertices} differences\n")),
        "{text}"
    );
    assert!(
        text.contains(&format!("    … and {} more\n", vertices - 4)),
        "{text}"
    );
    assert!(
        text.contains(&format!("    mesh {MESH}, vertex 0: vertex (")),
        "{text}"
    );
    assert!(
        text.contains("Static0 (static 0): 1 difference\n    flags "),
        "{text}"
    );
    // Object lines, difference lines (4 + "more"), the plant's line, the summary.
    assert_eq!(lines.len(), total + 5 + 1 + 1, "{text}");
    assert_eq!(
        diff(&original, &original, &Options::default()).summary(),
        format!("{total} of {total} objects identical")
    );
}

#[test]
fn json_lists_every_difference() {
    let original = wadforge_fixtures::standard();
    let mut w = original.clone();
    mesh(&mut w).vertices[1][2] += 7;
    let report = diff(&original, &w, &Options::default());
    let json = serde_json::to_value(&report).unwrap();
    let croc = json["objects"]
        .as_array()
        .unwrap()
        .iter()
        .find(|o| o["id"] == CROCODILE && o["kind"] == "moveable")
        .unwrap();
    let d = &croc["differences"][0];
    assert_eq!(d["place"], format!("mesh {MESH}, vertex 1"));
    assert_eq!(d["what"], "vertex");
    let v = w.meshes[w.moveables.iter().find(|m| m.id == CROCODILE).unwrap().meshes[MESH]].vertices[1];
    assert_eq!(d["b"], format!("({}, {}, {})", v[0], v[1], v[2]));
    assert_eq!(d["a"], format!("({}, {}, {})", v[0], v[1], v[2] - 7));
}

#[test]
fn a_report_lists_its_first_differences_and_counts_the_rest() {
    // A difference is a few bytes of a file and some 200 bytes listed.
    let a = wadforge_fixtures::standard();
    let mut b = a.clone();
    let m = b.moveables.iter_mut().find(|m| !m.animations.is_empty()).unwrap();
    let keyframe = m.animations[0].keyframes[0].clone();
    let joints = keyframe.rotations.len();
    let keyframes = wadforge_diff::LISTED_DIFFERENCES / joints + 100;
    m.animations[0].keyframes = vec![keyframe; keyframes];
    let mut a = a;
    let id = m.id;
    let original = a.moveables.iter_mut().find(|m| m.id == id).unwrap();
    let mut turned = m.animations[0].keyframes[0].clone();
    for r in &mut turned.rotations {
        r.y = r.y.wrapping_add(1024);
    }
    original.animations[0].keyframes = vec![turned; keyframes];
    let report = diff(&a, &b, &Options::default());
    let listed: usize = report.objects.iter().map(|o| o.differences.len()).sum();
    let all: usize = report.objects.iter().map(|o| o.count()).sum();
    assert_eq!(listed, wadforge_diff::LISTED_DIFFERENCES);
    assert!(all >= keyframes * joints, "{all}");
    let text = {
        let mut out = Vec::new();
        report.write_text(&mut out, |_, id| id.to_string(), 3).unwrap();
        String::from_utf8(out).unwrap()
    };
    assert!(text.contains(&format!("{all} differences")), "{text}");
    assert!(text.contains(&format!("… and {} more", all - 3)), "{text}");
}
