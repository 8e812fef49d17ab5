//! The glTF JSON import writes: as a JSON value writes it (keys sorted, f32 numbers through
//! f64), as import has always written it, and with extras the contract types read back whole.

use gltf::json::{Extras, Root};
use serde::de::DeserializeOwned;
use wadforge_importer::{import, GltfFormat, ImportOptions};
use wadforge_manifests::gltf_contract::{
    MaterialExtras, MeshNodeExtras, MeshRole, SceneExtras, StoredMeshes,
};

fn extras<T: DeserializeOwned>(extras: &Extras) -> T {
    serde_json::from_str(extras.as_ref().expect("extras").get()).unwrap()
}

#[test]
fn import_writes_canonical_json_whose_extras_the_contract_reads() {
    let wad = wadforge_fixtures::standard();
    let mut options = ImportOptions::wad("standard.wad", 129);
    options.format = GltfFormat::Separate;
    let files = import(&wad, &options, &mut |_, _, _| {}).unwrap();
    let roles = [
        MeshRole::Body,
        MeshRole::Shaded,
        MeshRole::Joints,
        MeshRole::Placeholders,
        MeshRole::PlaceholdersShaded,
    ]
    .map(MeshRole::name);
    let mut gltfs = 0;
    for file in files.iter().filter(|f| f.path.ends_with(".gltf")) {
        gltfs += 1;
        let value: serde_json::Value = serde_json::from_slice(&file.bytes).unwrap();
        assert!(
            serde_json::to_vec(&value).unwrap() == file.bytes,
            "{} is written as its JSON value writes it",
            file.path
        );
        let root: Root = serde_json::from_slice(&file.bytes).unwrap();
        for material in &root.materials {
            let e: MaterialExtras = extras(&material.extras);
            assert!(e.tr_additive.is_some() && e.tr_shine.is_some(), "{}", file.path);
            assert!(e.tr_shine_intensity.is_some() && e.tr_unknown_bit.is_some());
        }
        for node in root.nodes.iter().filter(|n| n.mesh.is_some()) {
            let role = extras::<MeshNodeExtras>(&node.extras).tr_role.unwrap();
            assert!(roles.contains(&role.as_str()), "{role}");
        }
        for scene in &root.scenes {
            let stored = extras::<SceneExtras>(&scene.extras).tr_meshes;
            assert!(matches!(stored, Some(StoredMeshes::Records(_))), "{}", file.path);
        }
    }
    assert!(gltfs > 10, "{gltfs} glTF files");
}
