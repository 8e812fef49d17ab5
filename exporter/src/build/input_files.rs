//! The files a build reads, measured before any is read: their size bounds the build's other
//! work ([`super::keyframe_budget`], the texture store), and how often they are read is bounded.
//!
//! Any number of object manifests may name one glTF file, and each object reads and builds its
//! own: 1000 short manifests naming one 5 MB GLB would have build read 5 GB. Objects built from
//! one shared file are rare (a model reused in another slot), so the glTF files a build reads,
//! counted once per object, may total what [`Limits::gltf_reads`] allows for the distinct files.

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use wadforge_format::{Limits, ObjectKind, ObjectName};
use wadforge_manifests::{ManifestDir, ObjectManifest};

use crate::error::{BuildError, Place};

/// Bytes of `dir`'s object manifests and their glTF files, each file counted once (a `.gltf`'s
/// buffers and images not counted); an error when the glTF files, read once per object, would
/// be read more than the bound allows.
pub(crate) fn input_bytes(dir: &ManifestDir) -> Result<u64, BuildError> {
    let size = |path: &Path| std::fs::metadata(path).map_or(0, |m| m.len());
    // The same file under two spellings (`a/../x.glb`) counts once.
    let key = |path: PathBuf| path.canonicalize().unwrap_or(path);
    let mut seen: HashSet<PathBuf> = HashSet::new();
    let mut distinct = 0;
    let mut gltf_reads = Vec::with_capacity(dir.objects.len());
    for object in &dir.objects {
        for path in [dir.root.join(&object.path), object.gltf_path(&dir.root)] {
            if seen.insert(key(path.clone())) {
                distinct += size(&path);
            }
        }
        gltf_reads.push(size(&object.gltf_path(&dir.root)));
    }
    let mut read = 0u64;
    for (object, bytes) in dir.objects.iter().zip(gltf_reads) {
        read = read.saturating_add(bytes);
        if let Err(too_much) = Limits::DEFAULT.gltf_reads.check(read, distinct) {
            let (slot, kind, id) = match &object.manifest {
                ObjectManifest::Moveable(m) => (&m.slot, ObjectKind::Moveable, m.id),
                ObjectManifest::Static(s) => (&s.slot, ObjectKind::Static, s.id),
            };
            let place = Place {
                file: dir.root.join(&object.path),
                object: ObjectName::with_slot(slot, kind, id).to_string(),
            };
            return Err(place.error(None, format!("the build would take {too_much}")));
        }
    }
    Ok(distinct)
}
