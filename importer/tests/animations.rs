//! One glTF animation per TR animation with keyframes, animations that share keyframe data in
//! the file included.

use std::collections::HashMap;

use wadforge_fixtures::sharing::shared_keyframes;
use wadforge_format::wad;
use wadforge_importer::{import, ImportOptions};
use wadforge_manifests::load::parse;
use wadforge_manifests::ObjectManifest;

#[test]
fn every_animation_with_keyframes_gets_its_gltf_animation_shared_ones_included() {
    // Through a file, as an import sees it: the fixture's shared keyframes stored once there, as
    // Core's tools stored them. Counts come from the fixture as built, not from what the reader
    // made of the file.
    let fixture = wadforge_fixtures::standard();
    let layout = wadforge_fixtures::sharing::layout_sharing_keyframes(&fixture);
    let bytes = wad::write(&fixture, Some(&layout)).unwrap();
    let (model, _) = wad::read(&bytes).unwrap();
    let files = import(
        &model,
        &ImportOptions::wad("standard.wad", 129),
        &mut |_, _, _| {},
    )
    .unwrap();
    let by_path: HashMap<&str, &[u8]> = files.iter().map(|f| (f.path.as_str(), &f.bytes[..])).collect();

    let mut animations = 0;
    for f in files
        .iter()
        .filter(|f| f.path.starts_with("moveables/") && f.path.ends_with(".yaml"))
    {
        let text = std::str::from_utf8(&f.bytes).unwrap();
        let ObjectManifest::Moveable(manifest) = parse(std::path::Path::new(&f.path), text).unwrap() else {
            panic!("{} is a moveable manifest", f.path);
        };
        let i = model.moveables.iter().position(|m| m.id == manifest.id).unwrap();
        let m = &fixture.moveables[i];
        let gltf = gltf::Gltf::from_slice(by_path[format!("moveables/{}", manifest.gltf).as_str()]).unwrap();
        let keys: HashMap<String, usize> = gltf
            .animations()
            .map(|a| {
                let input = a.samplers().next().expect("a sampler").input();
                (a.name().unwrap_or_default().to_string(), input.count())
            })
            .collect();
        let with_keyframes: Vec<(&String, usize)> = manifest
            .animations
            .iter()
            .zip(&m.animations)
            .filter(|(_, a)| !a.keyframes.is_empty())
            .map(|(am, a)| (&am.name, a.keyframes.len()))
            .collect();
        assert_eq!(
            keys.len(),
            with_keyframes.len(),
            "{}: glTF animations",
            manifest.slot
        );
        for (name, count) in with_keyframes {
            assert_eq!(keys.get(name), Some(&count), "{} {name}: keys", manifest.slot);
        }
        animations += keys.len();
    }
    let shared = shared_keyframes(&bytes).unwrap().len();
    assert!(
        shared >= 4,
        "the fixture file shares keyframe data ({shared} animations)"
    );
    assert_eq!(
        animations,
        fixture
            .moveables
            .iter()
            .flat_map(|m| &m.animations)
            .filter(|a| !a.keyframes.is_empty())
            .count()
    );
}
