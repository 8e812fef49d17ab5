//! One glTF document per object: a moveable as a skinned, animated armature, a static as one mesh.

use gltf::json::accessor::Type;
use gltf::json::animation::Property;
use gltf::json::texture::{MagFilter, MinFilter, Sampler, WrappingMode};
use gltf::json::validation::Checked::Valid;
use gltf::json::{self, Index};
use wadforge_format::catalog::{sound_name, Game};
use wadforge_format::{Animation, Command, Mesh, Moveable, Rotation, Shading, SkewedCorners, Static, Wad};
use wadforge_manifests::gltf_contract::{
    JointExtras, MeshNodeExtras, MeshRole, ObjectExtras, ObjectKind, SceneExtras, STATIC_MESH,
};

use crate::atlas::{Atlas, Images};
use crate::document::{extras, index, Document, Scene};
use crate::geometry::{primitives, Materials, MeshSet, Part};
use crate::names::NameSet;
use crate::space::{quaternion, Space};
use crate::stored;

/// What the glTF of a moveable shows instead of its own meshes, when other moveables dress it.
pub(crate) struct Dress<'a> {
    pub body: &'a Moveable,
    pub joints: Option<&'a Moveable>,
}

/// What the glTF of a moveable shows.
pub(crate) enum Shows<'a> {
    /// Its own meshes, animated.
    Own,
    /// The meshes of the moveables that dress it, animated.
    Dressed(Dress<'a>),
    /// Its own meshes of these joints alone, without animations: the placeholders of a dressed
    /// skeleton that no other object shows, kept for build apart from the glTF an artist opens.
    Placeholders(&'a [usize]),
}

pub(crate) struct MoveableNames<'a> {
    /// The game whose catalogue names the sounds of the animations' commands.
    pub game: Game,
    pub slot: &'a str,
    pub bones: &'a [String],
    pub animations: &'a [String],
}

/// What every glTF of an import is made with: the scale, a level's skewed mappings, the
/// import's texture images, and where a large buffer may spill (see [`crate::buffer`]).
#[derive(Clone, Copy)]
pub(crate) struct Making<'a> {
    pub space: &'a Space,
    pub skewed: &'a SkewedCorners,
    pub images: &'a Images,
    pub spill: Option<&'a std::path::Path>,
}

/// The glTF of a moveable: one joint per TR mesh (rest pose = link offsets, identity rotations),
/// one skinned mesh with every vertex weighted 1.0 to its joint, one animation per TR animation
/// that has keyframes (none for [`Shows::Placeholders`]).
pub(crate) fn moveable(
    wad: &Wad,
    m: &Moveable,
    shows: &Shows,
    names_of: &MoveableNames,
    making: &Making,
) -> Document {
    let Making {
        space,
        skewed,
        images,
        spill,
    } = *making;
    let mut doc = Document::new(spill);
    let mut names = NameSet::default();
    let slot = names_of.slot;
    let joint_count = m.meshes.len();
    let bones: Vec<String> = names_of.bones.iter().map(|b| names.unique(b)).collect();
    let origins = m.bind_origins();
    let Shown { body, joints, roles } = shown_parts(wad, m, shows, &origins);
    // Each mesh this glTF builds, as stored (a dressed skeleton's come from its dressing).
    let mut stored = match shows {
        Shows::Dressed(_) => stored::scene_extras([]),
        Shows::Own | Shows::Placeholders(_) => {
            stored::scene_extras(body.iter().map(|p| (bones[p.joint as usize].as_str(), p.mesh)))
        }
    };
    push_joint_nodes(&mut doc, m, &bones, space);

    let mut scene_nodes = Vec::new();
    if joint_count > 0 {
        scene_nodes.push(Index::new(0));
    }
    let (atlas, texture) = texture(&mut doc, wad, body.iter().chain(&joints), slot, images);

    let mut materials = Materials::new(slot, texture);
    let mut mesh_nodes = Vec::new();
    // The joint meshes of a dressed skeleton are their own object, as in TR's tools: the stored
    // keyframe boxes enclose the body alone.
    let (lit, shades) = split_by_lighting(body);
    for (parts, role) in [(&lit, roles[0]), (&shades, roles[1]), (&joints, MeshRole::Joints)] {
        let shown = MeshSet {
            parts,
            atlas: &atlas,
            role,
            skewed,
        };
        if let Some(node) = mesh_node(
            &mut doc,
            &mut names,
            &mut materials,
            wad,
            &shown,
            space,
            joint_count > 0,
        ) {
            mesh_nodes.push(node);
        }
    }
    if !mesh_nodes.is_empty() && joint_count > 0 {
        push_skin(&mut doc, &mut names, slot, &origins, &mesh_nodes, space);
    }
    scene_nodes.extend(mesh_nodes);

    if joint_count > 0 && !matches!(shows, Shows::Placeholders(_)) {
        push_animations(&mut doc, &mut names, m, names_of, space, &mut stored);
    }

    doc.scene(Scene {
        extras: stored,
        name: slot.to_string(),
        nodes: scene_nodes,
    });
    doc.extras = Some(ObjectExtras {
        wadforge_id: m.id,
        wadforge_kind: ObjectKind::Moveable,
        wadforge_slot: slot.to_string(),
    });
    doc
}

/// The parts a moveable's glTF shows, the joint meshes of a dressed skeleton, and the roles of
/// the mesh objects (meshes lit by normals, meshes lit by shades).
struct Shown<'a> {
    body: Vec<Part<'a>>,
    joints: Vec<Part<'a>>,
    roles: [MeshRole; 2],
}

fn shown_parts<'a>(wad: &'a Wad, m: &'a Moveable, shows: &Shows<'a>, origins: &[[i64; 3]]) -> Shown<'a> {
    match shows {
        Shows::Own => Shown {
            body: place(wad, m, origins),
            joints: Vec::new(),
            roles: [MeshRole::Body, MeshRole::Shaded],
        },
        Shows::Dressed(d) => Shown {
            body: place(wad, d.body, origins),
            joints: d.joints.map(|j| place(wad, j, origins)).unwrap_or_default(),
            roles: [MeshRole::Body, MeshRole::Shaded],
        },
        Shows::Placeholders(kept) => Shown {
            body: place(wad, m, origins)
                .into_iter()
                .filter(|p| kept.contains(&(p.joint as usize)))
                .collect(),
            joints: Vec::new(),
            roles: [MeshRole::Placeholders, MeshRole::PlaceholdersShaded],
        },
    }
}

/// The meshes whose samples the texture of `m` shown as `shows` holds (see [`texture`]).
pub(crate) fn textured_meshes<'a>(wad: &'a Wad, m: &'a Moveable, shows: &Shows<'a>) -> Vec<&'a Mesh> {
    let Shown { body, joints, .. } = shown_parts(wad, m, shows, &m.bind_origins());
    body.iter().chain(&joints).map(|p| p.mesh).collect()
}

/// `owner`'s meshes as parts at the joints' bind-pose pivots `origins` (joints `owner` has no
/// mesh for are left out).
fn place<'a>(wad: &'a Wad, owner: &Moveable, origins: &[[i64; 3]]) -> Vec<Part<'a>> {
    let mesh_of = |i: usize| {
        let k = *owner.meshes.get(i)?;
        wad.meshes.get(k).map(|mesh| (k, mesh))
    };
    origins
        .iter()
        .enumerate()
        .filter_map(|(joint, origin)| {
            mesh_of(joint).map(|(mesh_index, mesh)| Part {
                joint: joint as u16,
                origin: *origin,
                mesh,
                mesh_index,
            })
        })
        .collect()
}

/// The parts lit by normals and those lit by shades. Meshes lit by shades (TR1–TR3 moveables may
/// mix them with lit ones) are their own object: Blender 5.0's importer pairs a mesh's custom
/// attributes with their data in hash order, so no glTF mesh may carry both _TR_NORMAL and
/// _TR_SHADE. When all are shaded they stay in the first list.
fn split_by_lighting(body: Vec<Part>) -> (Vec<Part>, Vec<Part>) {
    let shaded = |p: &&Part| matches!(p.mesh.shading, Shading::Shades(_));
    if body.iter().any(|p| !shaded(&p)) {
        body.into_iter().partition(|p| !shaded(&p))
    } else {
        (body, Vec::new())
    }
}

/// One node per joint, first in the file so that node i is joint i: its bone name, TR mesh
/// index, translation (the link offset from its parent) and children.
fn push_joint_nodes(doc: &mut Document, m: &Moveable, bones: &[String], space: &Space) {
    let joint_count = m.meshes.len();
    let mut children: Vec<Vec<Index<json::Node>>> = vec![Vec::new(); joint_count];
    for (i, link) in m.links.iter().enumerate() {
        if i + 1 < joint_count && link.parent < joint_count {
            children[link.parent].push(index(i + 1));
        }
    }
    for ((j, bone), children) in bones.iter().enumerate().zip(children) {
        let translation = (j > 0).then(|| {
            let offset = m.links[j - 1].offset.map(|c| c as f64);
            space.point(offset)
        });
        doc.push(json::Node {
            children: (!children.is_empty()).then_some(children),
            extras: extras(&JointExtras { tr_mesh: j }),
            name: Some(bone.clone()),
            translation,
            ..json::Node::default()
        });
    }
}

/// The skin of every joint (inverse bind matrices from the bind-pose pivots `origins`), set on
/// each of `mesh_nodes`.
fn push_skin(
    doc: &mut Document,
    names: &mut NameSet,
    slot: &str,
    origins: &[[i64; 3]],
    mesh_nodes: &[Index<json::Node>],
    space: &Space,
) {
    let inverse_binds: Vec<[f32; 16]> = origins
        .iter()
        .map(|o| {
            let t = space.point(o.map(|c| c as f64));
            [
                1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, -t[0], -t[1], -t[2], 1.0,
            ]
        })
        .collect();
    let matrices = doc.matrices(&inverse_binds);
    let skin = doc.push(json::Skin {
        inverse_bind_matrices: Some(matrices),
        joints: (0..origins.len()).map(index).collect(),
        name: Some(names.unique(slot)),
        skeleton: Some(Index::new(0)),
        extensions: None,
        extras: None,
    });
    for &node in mesh_nodes {
        doc.node_mut(node).skin = Some(skin);
    }
}

/// The glTF animation `name` of `a`: the root's translation and each joint's rotation at every
/// keyframe, LINEAR; returns the name written (unique in the document).
/// Each animation of `m` with keyframes, the scene extras listing them and the sounds they play.
fn push_animations(
    doc: &mut Document,
    names: &mut NameSet,
    m: &Moveable,
    names_of: &MoveableNames,
    space: &Space,
    stored: &mut SceneExtras,
) {
    let mut actions = std::collections::BTreeMap::new();
    let mut sounds = std::collections::BTreeMap::new();
    for (index, (a, name)) in m.animations.iter().zip(names_of.animations).enumerate() {
        if a.keyframes.is_empty() {
            continue;
        }
        let written = push_animation(doc, names, a, name, m.meshes.len(), space);
        let played = sound_commands(a, names_of.game);
        if !played.is_empty() {
            sounds.insert(written.clone(), played);
        }
        actions.insert(written, index as u32);
    }
    stored.tr_actions = Some(actions).filter(|a| !a.is_empty());
    stored.tr_sounds = Some(sounds).filter(|s| !s.is_empty());
}

/// The sounds `a` plays, as `SceneExtras::tr_sounds` writes them: `SOUND@FRAME; ...`, the sound
/// by its catalogue name, else its id, the frame from the animation's first.
fn sound_commands(a: &Animation, game: Game) -> String {
    let played: Vec<String> = a
        .commands
        .iter()
        .filter_map(|c| match *c {
            Command::PlaySound { frame, sound, .. } => {
                let name =
                    sound_name(game, u32::from(sound)).map_or_else(|| sound.to_string(), str::to_string);
                Some(format!("{name}@{}", i32::from(frame) - i32::from(a.frame_start)))
            }
            _ => None,
        })
        .collect();
    played.join("; ")
}

fn push_animation(
    doc: &mut Document,
    names: &mut NameSet,
    a: &Animation,
    name: &str,
    joint_count: usize,
    space: &Space,
) -> String {
    // One rounding of k × duration / 30 s: build samples at exactly these times.
    let tick = a.frame_duration.max(1) as f64 / 30.0;
    let times: Vec<f32> = (0..a.keyframes.len()).map(|k| (k as f64 * tick) as f32).collect();
    let input = doc.floats(Type::Scalar, &times, true, false);
    let mut channels = Vec::with_capacity(joint_count + 1);
    let mut channel = |node: Index<json::Node>, path, output| channels.push((node, path, input, output));
    let offsets: Vec<f32> = a
        .keyframes
        .iter()
        .flat_map(|k| space.point(k.offset.map(|c| c as f64)))
        .collect();
    let output = doc.floats(Type::Vec3, &offsets, false, false);
    channel(Index::new(0), Property::Translation, output);
    for j in 0..joint_count {
        let mut previous = [0.0, 0.0, 0.0, 1.0];
        let mut quaternions = Vec::with_capacity(a.keyframes.len() * 4);
        for k in &a.keyframes {
            let r = k.rotations.get(j).copied().unwrap_or(Rotation::default());
            let mut q = quaternion(&r);
            // Keep consecutive keys in one hemisphere so LINEAR takes the short way.
            if (0..4).map(|i| q[i] * previous[i]).sum::<f64>() < 0.0 {
                q = q.map(|c| -c);
            }
            previous = q;
            quaternions.extend(q.map(|c| c as f32));
        }
        let output = doc.floats(Type::Vec4, &quaternions, false, false);
        channel(index(j), Property::Rotation, output);
    }
    let name = names.unique(name);
    doc.animation(name.clone(), &channels);
    name
}

/// The glTF of a static: one mesh node, shades as vertex colours.
pub(crate) fn static_object(wad: &Wad, s: &Static, slot: &str, making: &Making) -> Document {
    let mut doc = Document::new(making.spill);
    let mut names = NameSet::default();
    let parts: Vec<Part> = wad
        .meshes
        .get(s.mesh)
        .map(|mesh| Part {
            joint: 0,
            origin: [0; 3],
            mesh,
            mesh_index: s.mesh,
        })
        .into_iter()
        .collect();
    let (atlas, texture) = texture(&mut doc, wad, &parts, slot, making.images);
    let mut materials = Materials::new(slot, texture);
    let shown = MeshSet {
        parts: &parts,
        atlas: &atlas,
        role: MeshRole::Body,
        skewed: making.skewed,
    };
    let space = making.space;
    let nodes: Vec<Index<json::Node>> =
        mesh_node(&mut doc, &mut names, &mut materials, wad, &shown, space, false)
            .into_iter()
            .collect();
    let stored = stored::scene_extras(parts.iter().map(|p| (STATIC_MESH, p.mesh)));
    doc.scene(Scene {
        extras: stored,
        name: slot.to_string(),
        nodes,
    });
    doc.extras = Some(ObjectExtras {
        wadforge_id: s.id,
        wadforge_kind: ObjectKind::Static,
        wadforge_slot: slot.to_string(),
    });
    doc
}

/// The texture image of the pages `parts` use, and the glTF texture showing it.
fn texture<'a>(
    doc: &mut Document,
    wad: &Wad,
    parts: impl IntoIterator<Item = &'a Part<'a>>,
    slot: &str,
    images: &Images,
) -> (std::sync::Arc<Atlas>, Option<Index<json::Texture>>) {
    let started = std::time::Instant::now();
    let atlas = Atlas::for_meshes(wad, parts.into_iter().map(|p| p.mesh as &Mesh), images);
    let png = (!atlas.is_empty()).then(|| atlas.png());
    doc.image_time += started.elapsed();
    let texture = png.map(|png| {
        let image = doc.png(&format!("{slot}_texture"), png);
        // Texels are texels: no filtering, no wrapping.
        let sampler = doc.push(Sampler {
            mag_filter: Some(Valid(MagFilter::Nearest)),
            min_filter: Some(Valid(MinFilter::Nearest)),
            name: None,
            wrap_s: Valid(WrappingMode::ClampToEdge),
            wrap_t: Valid(WrappingMode::ClampToEdge),
            extensions: None,
            extras: None,
        });
        doc.push(json::Texture {
            name: None,
            sampler: Some(sampler),
            source: image,
            extensions: None,
            extras: None,
        })
    });
    (atlas, texture)
}

/// The mesh of `shown` and the node that shows it; `None` when it has no polygons.
fn mesh_node(
    doc: &mut Document,
    names: &mut NameSet,
    materials: &mut Materials,
    wad: &Wad,
    shown: &MeshSet,
    space: &Space,
    skinned: bool,
) -> Option<Index<json::Node>> {
    let slot = materials.prefix();
    if shown.parts.iter().all(|p| p.mesh.polygons.is_empty()) {
        return None;
    }
    let primitives = primitives(doc, names, materials, wad, shown, space, skinned);
    let role = shown.role.name();
    let mesh = doc.push(json::Mesh {
        name: Some(names.unique(&format!("{slot}_{role}_mesh"))),
        primitives,
        weights: None,
        extensions: None,
        extras: None,
    });
    let role_extras = MeshNodeExtras {
        tr_role: Some(role.to_string()),
    };
    Some(doc.push(json::Node {
        extras: extras(&role_extras),
        mesh: Some(mesh),
        name: Some(names.unique(&format!("{slot}_{role}"))),
        ..json::Node::default()
    }))
}
