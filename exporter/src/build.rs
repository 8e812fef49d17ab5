//! The assembly: every object's manifest and glTF → one model, textures packed once for all
//! objects, shared meshes resolved, a base WAD patched.
//!
//! The stages, in the order [`build`] runs them (docs/build.md):
//! - per object, on its own and in parallel ([`object`]): a moveable's skeleton, geometry and
//!   animations with their keyframes ([`moveable`]; a dressed skeleton's meshes in [`dressing`]),
//!   a static's mesh ([`static_object`]), and its polygons' samples cut from its images (which
//!   then go; [`textures::cut_samples`]); then merged in directory order;
//! - the samples of every polygon numbered and packed at once ([`textures`]);
//! - the assembly ([`assembly`]): the meshes with their textures, spheres and lighting
//!   ([`meshes`]), shared meshes resolved ([`shared_meshes`]), keyframe boxes
//!   ([`keyframe_boxes`]), the objects put into the model.

mod action_properties;
mod actions;
mod assembly;
mod dressing;
mod input_files;
mod keyframe_boxes;
mod keyframe_budget;
mod memory;
mod meshes;
mod moveable;
mod object;
mod references;
mod shared_meshes;
mod static_object;
mod textures;

use std::time::{Duration, Instant};

use wadforge_files::in_parallel;
use wadforge_format::catalog::Game;
use wadforge_format::Wad;
use wadforge_manifests::{ManifestDir, MeshInfo, MeshRef};

use crate::decoded_images::DecodedImages;
use crate::error::{BuildError, Place};
use crate::geometry::RawMesh;
use crate::texture::{PolygonSamples, SampleStore};

/// A built model and what the build did.
pub struct BuildOutput {
    pub wad: Wad,
    /// Slot names in file order, moveables then statics (the `.was` file's lines).
    pub names: Vec<String>,
    /// Things worth telling the user (reordered bones, recomputed boxes, resampled textures).
    pub notes: Vec<String>,
    /// What the user may not mean: references to other objects' animations that the output
    /// does not have, now pointing at their own animation.
    pub warnings: Vec<String>,
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

/// What one object gives the build: mesh numbers in `pending` are local to the object until
/// merged; `samples` are its polygons' samples, cut from its images (which are gone).
struct ObjectBuilt {
    pending: Pending,
    slot: String,
    meshes: Vec<PendingMesh>,
    samples: PolygonSamples,
    notes: Vec<String>,
    phases: BuildPhases,
}

enum Pending {
    Moveable(PendingMoveable),
    Static(PendingStatic),
}

/// One TR mesh of an object: built from its glTF, or the same as another object's.
enum MeshSlot {
    /// Index into the build's pending meshes (and so into the built meshes); the object's own
    /// until merged.
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
    /// References to other objects' animations, pointed at them once the model is put together.
    other_targets: Vec<crate::states::OtherTarget>,
    boxes: Vec<Vec<wadforge_manifests::BoxBounds>>,
    fingerprints: Vec<Option<String>>,
    dressed_by: Option<u32>,
}

struct PendingStatic {
    manifest: wadforge_manifests::StaticManifest,
    mesh: MeshSlot,
}

/// A mesh built from an object's glTF, before texturing: with its manifest entry and where it
/// came from (for error messages).
struct PendingMesh {
    raw: RawMesh,
    info: MeshInfo,
    place: Place,
    /// `bone NAME` or `mesh`.
    what: String,
}

/// Every object of the directory, built and merged in directory order: mesh numbers are the
/// build's, and `samples` are those of the polygons of `meshes`, in order.
#[derive(Default)]
struct Objects {
    moveables: Vec<PendingMoveable>,
    statics: Vec<PendingStatic>,
    meshes: Vec<PendingMesh>,
    samples: PolygonSamples,
}

/// The WAD a build patches, and where each of its moveables' animations started in its table
/// ([`wadforge_format::Opened::animation_starts`]): its references to other objects'
/// animations count from there.
pub struct Base<'a> {
    pub model: &'a Wad,
    pub starts: Vec<usize>,
}

impl<'a> Base<'a> {
    /// A base whose animation table lies one moveable after the other, as `wad::write` writes it.
    pub fn canonical(model: &'a Wad) -> Self {
        Base {
            model,
            starts: wadforge_format::references::canonical_starts(&model.moveables),
        }
    }
}

/// Builds the model of `dir`, on top of `base` (laid out as `wad::write` writes it) when given.
pub fn build(
    dir: &ManifestDir,
    base: Option<&Wad>,
    progress: &mut dyn FnMut(usize, usize, &str),
) -> Result<BuildOutput, BuildError> {
    build_on(dir, base.map(Base::canonical).as_ref(), progress)
}

/// Builds the model of `dir`, on top of `base` when given.
pub fn build_on(
    dir: &ManifestDir,
    base: Option<&Base>,
    progress: &mut dyn FnMut(usize, usize, &str),
) -> Result<BuildOutput, BuildError> {
    let game = game(&dir.project.game);
    let input_bytes = input_files::input_bytes(dir)?;
    keyframe_budget::check(dir, input_bytes)?;
    // Objects are independent: each is read and built on its own (in parallel), then merged in
    // directory order, so the result does not depend on the thread count.
    let store = SampleStore::bounded(input_bytes);
    let decoded = DecodedImages::default();
    let made = in_parallel(
        &dir.objects,
        |loaded| object::build_object(dir, loaded, (&store, &decoded, input_bytes)),
        |made| made.as_ref().ok().map(|m| m.slot.clone()),
        progress,
    );
    let mut objects = Objects::default();
    let mut phases = BuildPhases::default();
    let mut notes = Vec::new();
    for made in made {
        let mut made = made?;
        phases.add(&made.phases);
        notes.append(&mut made.notes);
        objects.merge(made);
    }
    drop(decoded);

    // What the objects' reading freed (decoded images, glTF documents) sits in the worker
    // threads' malloc arenas, where the packing below cannot reuse it: give it back first.
    memory::release_freed();
    let textures_started = Instant::now();
    let samples = std::mem::take(&mut objects.samples);
    let textures = textures::texture_samples(&dir.root, base.map(|b| b.model), &objects.meshes, samples)?;
    phases.textures += textures_started.elapsed();
    let assembly_started = Instant::now();
    notes.extend(textures::resampled_note(&textures));
    let mut warnings = Vec::new();
    let told = assembly::Told {
        notes: &mut notes,
        warnings: &mut warnings,
    };
    let (wad, names) = assembly::assemble(&dir.root, base, game, objects, textures, (told, input_bytes))?;
    phases.assembly = assembly_started.elapsed();
    Ok(BuildOutput {
        wad,
        names,
        notes,
        warnings,
        phases,
    })
}

/// The game a manifest directory names (its loader accepts only known names).
fn game(name: &str) -> Game {
    Game::from_name(name).unwrap_or(Game::Tr4)
}
