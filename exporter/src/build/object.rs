//! One object on its own: what reading and building it collects (its meshes, images, notes and
//! time), and its merging into the build's numbering.

use std::path::Path;
use std::sync::Arc;
use std::time::Instant;

use wadforge_manifests::{LoadedObject, ManifestDir, ObjectManifest};

use super::{
    moveable, static_object, textures, BuildPhases, MeshSlot, ObjectBuilt, Objects, Pending, PendingMesh,
};
use crate::decoded_images::DecodedImages;
use crate::error::BuildError;
use crate::input::{self, Scene};
use crate::texture::{RgbaImage, SampleStore};

/// What building one object collects besides its moveable or static; mesh and image numbers
/// are the object's own.
pub(super) struct ObjectWork<'a> {
    pub(super) dir: &'a ManifestDir,
    pub(super) tr_units_per_metre: f64,
    pub(super) phases: BuildPhases,
    pub(super) decoded: &'a DecodedImages,
    pub(super) images: Vec<Arc<RgbaImage>>,
    pub(super) meshes: Vec<PendingMesh>,
    pub(super) notes: Vec<String>,
    /// The bytes of the build's manifests and glTF files, which bound the keyframes it samples.
    pub(super) input_bytes: u64,
}

impl ObjectWork<'_> {
    /// Reads a glTF file, counting its reading and decoding time in the object's phases.
    pub(super) fn read(&mut self, path: &Path) -> Result<Scene, String> {
        let scene = input::read(path, self.decoded);
        if let Ok(scene) = &scene {
            self.phases.gltf += scene.read_time;
            self.phases.images += scene.decode_time;
        }
        scene
    }

    /// Adds a mesh built from the object's glTF; returns its slot.
    pub(super) fn add_mesh(&mut self, mesh: PendingMesh) -> MeshSlot {
        self.meshes.push(mesh);
        MeshSlot::Built(self.meshes.len() - 1)
    }
}

/// Reads and builds one object of `dir`: a moveable or a static.
pub(super) fn build_object(
    dir: &ManifestDir,
    object: &LoadedObject,
    (store, decoded, input_bytes): (&SampleStore, &DecodedImages, u64),
) -> Result<ObjectBuilt, BuildError> {
    let started = Instant::now();
    let mut work = ObjectWork {
        dir,
        tr_units_per_metre: dir.project.units.tr_units_per_metre,
        phases: BuildPhases::default(),
        decoded,
        images: Vec::new(),
        meshes: Vec::new(),
        notes: Vec::new(),
        input_bytes,
    };
    let manifest_path = dir.root.join(&object.path);
    let gltf_path = object.gltf_path(&dir.root);
    let (pending, slot) = match &object.manifest {
        ObjectManifest::Moveable(m) => {
            let moveable = moveable::build_moveable(&mut work, m, manifest_path, &gltf_path)?;
            (Pending::Moveable(moveable), m.slot.clone())
        }
        ObjectManifest::Static(s) => {
            let static_ = static_object::build_static(&mut work, s, &gltf_path)?;
            (Pending::Static(static_), s.slot.clone())
        }
    };
    let mut phases = work.phases;
    phases.objects = started.elapsed().saturating_sub(phases.gltf + phases.images);
    // The object's images are needed only for its samples: cut now, they go with this object.
    let cutting = Instant::now();
    let samples = textures::cut_samples(&dir.root, &work.meshes, &work.images, store)?;
    phases.textures = cutting.elapsed();
    Ok(ObjectBuilt {
        pending,
        slot,
        meshes: work.meshes,
        samples,
        notes: work.notes,
        phases,
    })
}

impl Objects {
    /// Adds an object built on its own, its mesh numbers turned into the build's and its samples
    /// after those of the objects before it.
    pub(super) fn merge(&mut self, object: ObjectBuilt) {
        let first_mesh = self.meshes.len();
        self.samples.append(object.samples);
        self.meshes.extend(object.meshes);
        let shift = |slot: MeshSlot| match slot {
            MeshSlot::Built(i) => MeshSlot::Built(first_mesh + i),
            same => same,
        };
        match object.pending {
            Pending::Moveable(mut m) => {
                m.meshes = m.meshes.into_iter().map(shift).collect();
                self.moveables.push(m);
            }
            Pending::Static(mut s) => {
                s.mesh = shift(s.mesh);
                self.statics.push(s);
            }
        }
    }
}
