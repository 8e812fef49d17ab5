//! The assembly: every object's manifest and glTF → one model, textures packed once for all
//! objects, shared meshes resolved, a base WAD patched.

use std::collections::HashMap;
use std::time::{Duration, Instant};

use wadforge_format::catalog::{self, Game};
use wadforge_format::pose::posed_bounding_box;
use wadforge_format::{
    BoundingBox, BoundingSphere, Mesh, MeshIndex, Moveable, Polygon, Shading, Static, Wad,
};
use wadforge_manifests::{Lighting, ManifestDir, MeshInfo, MeshRef, ObjectManifest};

use crate::bone_meshes::{add_images, BoneMeshes};
use crate::error::{BuildError, Place};
use crate::geometry::{gather, RawMesh, Target};
use crate::input::{self, MeshNode};
use crate::skeleton::{skeleton, world_rest};
use crate::texture::{build_textures, PolygonUvs, RgbaImage, TextureStart};
use crate::{keyframes, spheres, states};

/// How far (TR units) a manifest's keyframe box may sit from the box of the built pose and still
/// be kept: real files' boxes differ from their poses by a few units, an edit moves them more.
pub const KEPT_BOX_TOLERANCE: i32 = 8;

/// A built model and what the build did.
pub struct BuildOutput {
    pub wad: Wad,
    /// Slot names in file order, moveables then statics (the `.was` file's lines).
    pub names: Vec<String>,
    /// Things worth telling the user (reordered bones, recomputed boxes, resampled textures).
    pub notes: Vec<String>,
    /// Where the build's time went.
    pub phases: BuildPhases,
}

/// Where build's time went. The per-object phases are summed over objects (on several threads
/// the sum exceeds the wall time): reading glTF files (JSON and buffers), decoding their images,
/// the objects' skeletons, geometry and keyframes; then, once for all objects, texture samples
/// and pages, and the assembly of the model (shared meshes, spheres, keyframe boxes).
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct BuildPhases {
    pub gltf: Duration,
    pub images: Duration,
    pub objects: Duration,
    pub textures: Duration,
    pub assembly: Duration,
}

impl BuildPhases {
    fn add(&mut self, other: &BuildPhases) {
        self.gltf += other.gltf;
        self.images += other.images;
        self.objects += other.objects;
        self.textures += other.textures;
        self.assembly += other.assembly;
    }
}

/// What one object gives the build: numbers in `pending` (raw meshes) and in the raw meshes'
/// polygons (images) are local to the object until merged.
struct ObjectBuilt {
    pending: Pending,
    slot: String,
    raws: Vec<(RawMesh, MeshInfo, Place, String)>,
    images: Vec<RgbaImage>,
    notes: Vec<String>,
    phases: BuildPhases,
}

enum Pending {
    Moveable(PendingMoveable),
    Static(PendingStatic),
}

/// `make` applied to every object on rayon's threads, results in object order; `progress` is
/// called on this thread as objects finish.
fn in_parallel<T: Sync>(
    objects: &[T],
    make: impl Fn(&T) -> Result<ObjectBuilt, BuildError> + Sync,
    progress: &mut dyn FnMut(usize, usize, &str),
) -> Vec<Result<ObjectBuilt, BuildError>> {
    use rayon::prelude::*;
    let total = objects.len();
    let (done_tx, done_rx) = std::sync::mpsc::channel::<String>();
    let make = &make;
    std::thread::scope(|scope| {
        let worker = scope.spawn(move || {
            objects
                .par_iter()
                .map(|o| {
                    let made = make(o);
                    if let Ok(made) = &made {
                        // The receiver lives until the scope ends: a send cannot fail before.
                        let _ = done_tx.send(made.slot.clone());
                    }
                    made
                })
                .collect::<Vec<_>>()
        });
        for (done, slot) in done_rx.iter().enumerate() {
            progress(done + 1, total, &slot);
        }
        worker
            .join()
            .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
    })
}

/// One TR mesh of an object: built from its glTF, or the same as another object's.
enum MeshSlot {
    /// Index into the build's raw meshes (and so into the built meshes).
    Built(usize),
    Same(MeshRef),
}

struct PendingMoveable {
    place: Place,
    id: u32,
    slot: String,
    bones: Vec<String>,
    meshes: Vec<MeshSlot>,
    links: Vec<wadforge_format::Link>,
    animations: Vec<wadforge_format::Animation>,
    boxes: Vec<Vec<wadforge_manifests::BoxBounds>>,
    fingerprints: Vec<Option<String>>,
    dressed_by: Option<u32>,
}

struct PendingStatic {
    manifest: wadforge_manifests::StaticManifest,
    mesh: MeshSlot,
}

/// Builds the model of `dir`, on top of `base` when given.
pub fn build(
    dir: &ManifestDir,
    base: Option<&Wad>,
    progress: &mut dyn FnMut(usize, usize, &str),
) -> Result<BuildOutput, BuildError> {
    let scale = dir.project.units.tr_units_per_metre;
    let game = game(&dir.project.game);
    let mut notes = Vec::new();
    let mut images: Vec<RgbaImage> = Vec::new();
    // Each raw mesh with its manifest entry and where it came from (for error messages).
    let mut raws: Vec<(RawMesh, MeshInfo, Place, String)> = Vec::new();
    let mut moveables = Vec::new();
    let mut statics = Vec::new();

    // Objects are independent: each is read and built on its own (in parallel), then merged in
    // directory order, so the result does not depend on the thread count.
    let one = |object: &wadforge_manifests::LoadedObject| -> Result<ObjectBuilt, BuildError> {
        let started = Instant::now();
        let mut phases = BuildPhases::default();
        let mut images: Vec<RgbaImage> = Vec::new();
        let mut raws: Vec<(RawMesh, MeshInfo, Place, String)> = Vec::new();
        let mut notes = Vec::new();
        let mut read = |path: &std::path::Path| {
            let scene = input::read(path);
            if let Ok(scene) = &scene {
                phases.gltf += scene.read_time;
                phases.images += scene.decode_time;
            }
            scene
        };
        let manifest_path = dir.root.join(&object.path);
        let gltf_path = object.gltf_path(&dir.root);
        let (pending, slot) = match &object.manifest {
            ObjectManifest::Moveable(m) => {
                let place = Place {
                    file: manifest_path,
                    object: format!("{} (moveable {})", m.slot, m.id),
                };
                let gltf_place = Place {
                    file: gltf_path.clone(),
                    object: place.object.clone(),
                };
                let scene = read(&gltf_path).map_err(|e| gltf_place.error(None, e))?;
                let skinned: Vec<&MeshNode> = scene.meshes.iter().filter(|n| n.skin.is_some()).collect();
                let names: Vec<String> = m.bones.iter().map(|b| b.name.clone()).collect();
                let (skeleton, note) =
                    skeleton(&scene, &skinned, &names).map_err(|e| gltf_place.error(None, e))?;
                notes.extend(note.map(|n| format!("{}: {n}", place.object)));
                let links = skeleton.links(scale).map_err(|e| gltf_place.error(None, e))?;
                let bone_info: HashMap<&str, &MeshInfo> =
                    m.bones.iter().map(|b| (b.name.as_str(), &b.mesh)).collect();

                // Geometry: skinned meshes (one or several), and meshes parented to bones. A dressed
                // skeleton shows other objects' meshes: its own come from `same_as`, or from its
                // placeholders glTF when no other object shows them.
                let shown = BoneMeshes::new(&scene, &skeleton, scale, &mut images);
                let shown_nodes = shown.shown();
                let gathered = match &m.dressed_by {
                    None => shown
                        .gather(&shown_nodes)
                        .map_err(|e| gltf_place.error(None, e))?,
                    Some(dressing) => {
                        // Say so if the dressing meshes were edited here.
                        let shown = shown
                            .gather(&shown_nodes)
                            .map_err(|e| gltf_place.error(None, e))?;
                        if let Some(edited) = edited_dressing(dir, dressing.body, &skeleton.names, &shown) {
                            notes.push(format!(
                                "{}: the meshes in its glTF differ from those of moveable {} that dresses it (bone {edited}); \
                                 a dressed skeleton's meshes are not built from its glTF: edit the dressing object's glTF instead",
                                place.object, dressing.body
                            ));
                        }
                        match &dressing.placeholders {
                            Some(file) => {
                                let path = place.file.parent().unwrap_or(&dir.root).join(file);
                                let placeholders_place = Place {
                                    file: path.clone(),
                                    object: place.object.clone(),
                                };
                                let fail = |e: String| placeholders_place.error(None, e);
                                let scene = read(&path).map_err(fail)?;
                                let skinned: Vec<&MeshNode> =
                                    scene.meshes.iter().filter(|n| n.skin.is_some()).collect();
                                let (own, _) = crate::skeleton::skeleton(&scene, &skinned, &skeleton.names)
                                    .map_err(fail)?;
                                let placeholders = BoneMeshes::new(&scene, &own, scale, &mut images);
                                placeholders.gather(&placeholders.shown()).map_err(fail)?
                            }
                            None => shown.iter().map(|_| RawMesh::default()).collect(),
                        }
                    }
                };
                let mut meshes = Vec::with_capacity(gathered.len());
                for (j, raw) in gathered.into_iter().enumerate() {
                    let bone = &skeleton.names[j];
                    let info = (*bone_info[bone.as_str()]).clone();
                    meshes.push(match info.same_as.clone() {
                        Some(r) => MeshSlot::Same(r),
                        None => {
                            raws.push((raw, info, gltf_place.clone(), format!("bone {bone}")));
                            MeshSlot::Built(raws.len() - 1)
                        }
                    });
                }

                let mut animations = states::animations(m, &place)?;
                for (a, manifest_a) in animations.iter_mut().zip(&m.animations) {
                    match scene.animations.iter().find(|x| x.name == manifest_a.name) {
                        Some(gltf_a) => {
                            a.keyframes =
                                keyframes::keyframes(&scene, &skeleton, gltf_a, a, scale, manifest_a)
                                    .map_err(|e| {
                                        gltf_place.error(Some(format!("animation {}", manifest_a.name)), e)
                                    })?;
                        }
                        None if !manifest_a.kept_exactly.keyframe_boxes.is_empty() => {
                            return Err(gltf_place.error(
                                Some(format!("animation {}", manifest_a.name)),
                                "the glTF has no animation of this name; keep the action's name in Blender (or remove the animation from the manifest)",
                            ));
                        }
                        None => {}
                    }
                }
                let pending = Pending::Moveable(PendingMoveable {
                    id: m.id,
                    slot: m.slot.clone(),
                    bones: skeleton.names.clone(),
                    meshes,
                    links,
                    boxes: m
                        .animations
                        .iter()
                        .map(|a| a.kept_exactly.keyframe_boxes.clone())
                        .collect(),
                    fingerprints: m
                        .animations
                        .iter()
                        .map(|a| a.kept_exactly.pose_fingerprint.clone())
                        .collect(),
                    animations,
                    dressed_by: m.dressed_by.as_ref().map(|d| d.body),
                    place,
                });
                (pending, m.slot.clone())
            }
            ObjectManifest::Static(s) => {
                let place = Place {
                    file: gltf_path.clone(),
                    object: format!("{} (static {})", s.slot, s.id),
                };
                let scene = read(&gltf_path).map_err(|e| place.error(None, e))?;
                let mesh = match s.mesh.same_as.clone() {
                    Some(r) => MeshSlot::Same(r),
                    None => {
                        let nodes: Vec<&MeshNode> = scene.meshes.iter().collect();
                        let (first_image, solid) = add_images(&mut images, &scene);
                        let stored = [scene.stored.get(input::STATIC_MESH)];
                        let target = Target {
                            scene: &scene,
                            meshes: 1,
                            tr_units_per_metre: scale,
                            pivots: &[[0.0; 3]],
                            stored: &stored,
                            first_image,
                            solid_images: &solid,
                        };
                        let world = |n: &MeshNode| world_rest(&scene, n.node);
                        let mut gathered = gather(&target, &nodes, &|_, _, _| Some(0), &world)
                            .map_err(|e| place.error(None, e))?;
                        raws.push((gathered.remove(0), s.mesh.clone(), place.clone(), "mesh".into()));
                        MeshSlot::Built(raws.len() - 1)
                    }
                };
                let pending = Pending::Static(PendingStatic {
                    manifest: s.clone(),
                    mesh,
                });
                (pending, s.slot.clone())
            }
        };
        phases.objects = started.elapsed().saturating_sub(phases.gltf + phases.images);
        Ok(ObjectBuilt {
            pending,
            slot,
            raws,
            images,
            notes,
            phases,
        })
    };
    let made = in_parallel(&dir.objects, one, progress);
    let mut phases = BuildPhases::default();
    for object in made {
        let object = object?;
        phases.add(&object.phases);
        notes.extend(object.notes);
        // Local image and raw mesh numbers → the build's.
        let (first_image, first_raw) = (images.len(), raws.len());
        images.extend(object.images);
        raws.extend(object.raws.into_iter().map(|(mut raw, info, place, what)| {
            raw.polygons.iter_mut().for_each(|p| p.image += first_image);
            (raw, info, place, what)
        }));
        let shift = |slot: MeshSlot| match slot {
            MeshSlot::Built(i) => MeshSlot::Built(first_raw + i),
            same => same,
        };
        match object.pending {
            Pending::Moveable(mut m) => {
                m.meshes = m.meshes.into_iter().map(shift).collect();
                moveables.push(m);
            }
            Pending::Static(mut s) => {
                s.mesh = shift(s.mesh);
                statics.push(s);
            }
        }
    }

    // Textures of every polygon at once: samples shared across objects are stored once.
    let polygons: Vec<PolygonUvs> = raws
        .iter()
        .flat_map(|(raw, ..)| raw.polygons.iter())
        .map(|p| PolygonUvs {
            image: p.image,
            uvs: p.uvs.clone(),
            is_quad: p.corners.len() == 4,
        })
        .collect();
    let start = TextureStart {
        first_sample: base.map_or(0, |b| b.samples.len()),
        first_page: base.map_or(0, |b| b.pages.len()) as u16,
        reuse: base,
    };
    let textures_started = Instant::now();
    let textures = build_textures(&images, &polygons, start).map_err(|e| {
        // Name the object, the bone and the polygon within its mesh.
        let mut index = e.polygon();
        for (raw, _, place, what) in &raws {
            if index < raw.polygons.len() {
                let message = e.to_string().replacen(
                    &format!("polygon {}", e.polygon()),
                    &format!("polygon {index}"),
                    1,
                );
                return place.error(Some(format!("{what}, polygon {index}")), message);
            }
            index -= raw.polygons.len();
        }
        BuildError::Object {
            file: dir.root.clone(),
            object: "textures".into(),
            place: None,
            message: e.to_string(),
        }
    })?;
    phases.textures = textures_started.elapsed();
    let assembly_started = Instant::now();
    let resampled = textures.polygons.iter().filter(|p| p.resampled).count();
    if resampled > 0 {
        notes.push(format!(
            "{resampled} polygons had UVs off the sample grid: their texels were resampled"
        ));
    }

    let mut wad = base.cloned().unwrap_or(Wad {
        version: Wad::VERSION,
        ..Wad::default()
    });
    wad.samples.extend(textures.samples);
    wad.pages.extend(textures.pages);
    let mut polygon_textures = textures.polygons.into_iter();
    let mut built: Vec<MeshIndex> = Vec::with_capacity(raws.len());
    for (raw, info, _, _) in raws {
        let polygons = raw
            .polygons
            .iter()
            .map(|p| {
                let out = polygon_textures.next().expect("one texture per polygon");
                let n = p.corners.len();
                let corners: Vec<u16> = (0..n).map(|i| p.corners[(i + out.shift as usize) % n]).collect();
                let mut polygon = if n == 4 {
                    Polygon::quad(
                        [corners[0], corners[1], corners[2], corners[3]],
                        out.texture,
                        p.attributes,
                    )
                } else {
                    Polygon::triangle([corners[0], corners[1], corners[2]], out.texture, p.attributes)
                };
                polygon.unused = p.unused;
                polygon
            })
            .collect();
        let mut mesh = Mesh {
            vertices: raw.vertices,
            polygons,
            ..Mesh::default()
        };
        // An unedited mesh keeps its sphere as it was, even one that never enclosed it.
        let unedited = info.fingerprint.as_deref() == Some(&format!("{:016x}", mesh.positions_fingerprint()));
        mesh.sphere = if unedited {
            BoundingSphere {
                center: info.sphere.center,
                radius: info.sphere.radius,
                flag: info.sphere.flag,
            }
        } else {
            spheres::bounding_sphere(&mesh.vertices, &info.sphere)
        };
        mesh.shading = match info.lighting {
            Lighting::Normals if info.recompute_normals || !raw.has_normals => Shading::Normals(
                mesh.area_weighted_normals()
                    .iter()
                    .map(|n| n.map(|c| (c * Shading::NORMAL_LENGTH).round() as i16))
                    .collect(),
            ),
            Lighting::Normals => Shading::Normals(raw.normals),
            Lighting::Shades if raw.has_shades => Shading::Shades(raw.shades),
            Lighting::Shades => {
                Shading::Shades(mesh.area_weighted_normals().iter().map(computed_shade).collect())
            }
        };
        built.push(wad.meshes.len());
        wad.meshes.push(mesh);
    }

    // Shared meshes: a bone or static that is `same_as` another object's takes that mesh.
    let mut by_bone: HashMap<(u32, &str), &MeshSlot> = HashMap::new();
    for m in &moveables {
        for (bone, slot) in m.bones.iter().zip(&m.meshes) {
            by_bone.insert((m.id, bone.as_str()), slot);
        }
    }
    let by_static: HashMap<u32, &MeshSlot> = statics.iter().map(|s| (s.manifest.id, &s.mesh)).collect();
    let resolve = |slot: &MeshSlot, place: &Place, what: &str| -> Result<MeshIndex, BuildError> {
        let mut slot = slot;
        for _ in 0..64 {
            let r = match slot {
                MeshSlot::Built(i) => return Ok(built[*i]),
                MeshSlot::Same(r) => r,
            };
            let next = match r {
                MeshRef::Moveable { id, bone } => by_bone.get(&(*id, bone.as_str())).copied(),
                MeshRef::Static { id } => by_static.get(id).copied(),
            };
            match next {
                Some(n) => slot = n,
                None => {
                    return base_mesh(base, game, r).ok_or_else(|| {
                        place.error(
                            Some(what.to_string()),
                            format!(
                            "same_as names {r:?}, which is neither in this directory nor in the base WAD; \
                                 import that object too or build with --base"
                        ),
                        )
                    })
                }
            }
        }
        Err(place.error(Some(what.to_string()), "same_as references form a loop"))
    };

    let mut new_moveables = Vec::with_capacity(moveables.len());
    for m in &moveables {
        let meshes = m
            .bones
            .iter()
            .zip(&m.meshes)
            .map(|(bone, slot)| resolve(slot, &m.place, &format!("bone {bone}")))
            .collect::<Result<Vec<_>, _>>()?;
        new_moveables.push((m, meshes));
    }
    // Keyframe boxes pose the body the game poses: a dressed skeleton's dressing body.
    let body_of = |id: u32, own: &[MeshIndex]| -> Vec<MeshIndex> {
        new_moveables
            .iter()
            .find(|(m, _)| m.id == id)
            .map(|(_, meshes)| meshes.clone())
            .or_else(|| {
                wad.moveables
                    .iter()
                    .find(|m| m.id == id)
                    .map(|m| m.meshes.clone())
            })
            .unwrap_or_else(|| own.to_vec())
    };
    let mut recomputed = 0usize;
    let mut finished = Vec::with_capacity(new_moveables.len());
    for (m, meshes) in &new_moveables {
        let body_indices = m
            .dressed_by
            .map_or_else(|| meshes.clone(), |id| body_of(id, meshes));
        let body: Vec<&Mesh> = body_indices.iter().map(|&i| &wad.meshes[i]).collect();
        let mut animations = m.animations.clone();
        for ((a, boxes), fingerprint) in animations.iter_mut().zip(&m.boxes).zip(&m.fingerprints) {
            // Unedited poses keep their stored boxes exactly, whatever the pose rule gives.
            let unedited = boxes.len() == a.keyframes.len()
                && fingerprint.as_deref() == Some(&format!("{:016x}", a.poses_fingerprint()));
            for (k, keyframe) in a.keyframes.iter_mut().enumerate() {
                let posed = posed_bounding_box(&m.links, keyframe, &body);
                keyframe.bounding_box = match boxes.get(k) {
                    Some(b) if unedited || close(posed, b) => BoundingBox {
                        min: b.min,
                        max: b.max,
                    },
                    _ => {
                        recomputed += 1;
                        posed
                    }
                };
            }
        }
        finished.push(Moveable {
            id: m.id,
            meshes: meshes.clone(),
            links: m.links.clone(),
            animations,
        });
    }
    if recomputed > 0 {
        notes.push(format!(
            "{recomputed} keyframe bounding boxes were recomputed from the posed meshes (edited poses)"
        ));
    }
    let mut finished_statics = Vec::with_capacity(statics.len());
    for s in &statics {
        let place = Place {
            file: dir.root.clone(),
            object: format!("{} (static {})", s.manifest.slot, s.manifest.id),
        };
        let mesh = resolve(&s.mesh, &place, "mesh")?;
        finished_statics.push(Static {
            id: s.manifest.id,
            mesh,
            visibility: BoundingBox {
                min: s.manifest.visibility_box.min,
                max: s.manifest.visibility_box.max,
            },
            collision: BoundingBox {
                min: s.manifest.collision_box.min,
                max: s.manifest.collision_box.max,
            },
            flags: s.manifest.flags,
        });
    }

    // Objects of the directory replace the base's of the same id, or are added.
    for m in finished {
        match wad.moveables.iter_mut().find(|x| x.id == m.id) {
            Some(existing) => *existing = m,
            None => wad.moveables.push(m),
        }
    }
    for s in finished_statics {
        match wad.statics.iter_mut().find(|x| x.id == s.id) {
            Some(existing) => *existing = s,
            None => wad.statics.push(s),
        }
    }
    let slot_of: HashMap<u32, &str> = moveables.iter().map(|m| (m.id, m.slot.as_str())).collect();
    let static_slot_of: HashMap<u32, &str> = statics
        .iter()
        .map(|s| (s.manifest.id, s.manifest.slot.as_str()))
        .collect();
    let names = wad
        .moveables
        .iter()
        .map(|m| {
            slot_of
                .get(&m.id)
                .map_or_else(|| catalog::moveable_slot(game, m.id), |s| s.to_string())
        })
        .chain(wad.statics.iter().map(|s| {
            static_slot_of
                .get(&s.id)
                .map_or_else(|| catalog::static_slot(game, s.id), |n| n.to_string())
        }))
        .collect();
    phases.assembly = assembly_started.elapsed();
    Ok(BuildOutput {
        wad,
        names,
        notes,
        phases,
    })
}

/// The first bone whose mesh in a dressed skeleton's glTF differs from the dressing body's mesh
/// (by positions fingerprint), when the body is in the directory.
fn edited_dressing(dir: &ManifestDir, body: u32, bones: &[String], shown: &[RawMesh]) -> Option<String> {
    let body = dir.objects.iter().find_map(|o| match &o.manifest {
        ObjectManifest::Moveable(m) if m.id == body => Some(m),
        _ => None,
    })?;
    for ((bone, raw), body_bone) in bones.iter().zip(shown).zip(&body.bones) {
        let expected = body_bone.mesh.fingerprint.as_deref()?;
        let mesh = raw.untextured();
        if format!("{:016x}", mesh.positions_fingerprint()) != expected {
            return Some(bone.clone());
        }
    }
    None
}

/// A shade for a mesh that has none: lit from above and in front (TR −Y is up), never black.
fn computed_shade(normal: &[f64; 3]) -> i16 {
    let light = [0.0, -0.857, 0.514];
    let facing = (0..3).map(|k| normal[k] * light[k]).sum::<f64>().max(0.0);
    let grey = 0.4 + 0.6 * facing;
    ((1.0 - grey) * 8191.0).round() as i16
}

/// Whether a manifest box is within [`KEPT_BOX_TOLERANCE`] of the posed box on every side.
fn close(posed: BoundingBox, kept: &wadforge_manifests::BoxBounds) -> bool {
    (0..3).all(|k| {
        (posed.min[k] as i32 - kept.min[k] as i32).abs() <= KEPT_BOX_TOLERANCE
            && (posed.max[k] as i32 - kept.max[k] as i32).abs() <= KEPT_BOX_TOLERANCE
    })
}

/// A mesh of the base WAD that a `same_as` names: bones by the names import gives them.
fn base_mesh(base: Option<&Wad>, game: Game, r: &MeshRef) -> Option<MeshIndex> {
    let base = base?;
    match r {
        MeshRef::Static { id } => base.statics.iter().find(|s| s.id == *id).map(|s| s.mesh),
        MeshRef::Moveable { id, bone } => {
            let m = base.moveables.iter().find(|m| m.id == *id)?;
            let index = match catalog::mesh_names(game, *id) {
                Some(names) if names.len() == m.meshes.len() => names.iter().position(|n| n == bone),
                _ => bone.strip_prefix("mesh_").and_then(|n| n.parse().ok()),
            }?;
            m.meshes.get(index).copied()
        }
    }
}

fn game(name: &str) -> Game {
    match name {
        "TR1" => Game::Tr1,
        "TR2" => Game::Tr2,
        "TR3" => Game::Tr3,
        _ => Game::Tr4,
    }
}
