//! `copy` between a classic game and Tomb Engine reshapes what the engines lay out differently,
//! as `convert` does, and lists each change (`docs/engines.md`): a classic WAD's holsters
//! (meshes 4 and 8 of 17) land on meshes 1 and 4 of 15 in a Tomb Engine Wad2, and back again;
//! the shotgun's back weapon moves from mesh 14 to 7. And a Wad2 written from a Wad2 (`convert`,
//! `copy`) gives back every exact UV it can and lists per object the polygons whose UVs it had to
//! leave rounded to whole texels, only those.

use std::path::{Path, PathBuf};

use wadforge_fixtures::engines::{
    self, CLASSIC_BACK_GUN, CLASSIC_HOLSTERS, TOMB_ENGINE_BACK_GUN, TOMB_ENGINE_HOLSTERS,
};
use wadforge_format::catalog::{self, Game};
use wadforge_format::skewed::SkewedCorners;
use wadforge_format::wad2::document::{Document, Polygon};
use wadforge_format::{wad2, Vertex, Wad};

use crate::common::files::write_wad;
use crate::common::{s, stderr, wadforge};

fn model_of(path: &Path) -> Wad {
    wadforge_format::open(&std::fs::read(path).unwrap())
        .unwrap()
        .model
}

/// The vertices of each mesh of `game`'s moveable `name` in `wad`.
fn meshes_of(wad: &Wad, game: Game, name: &str) -> Vec<Vec<Vertex>> {
    let id = catalog::moveable_id(game, name).unwrap();
    let moveable = (wad.moveables.iter())
        .find(|m| m.id == id)
        .unwrap_or_else(|| panic!("no {name} ({id})"));
    (moveable.meshes.iter())
        .map(|&m| wad.meshes[m].vertices.clone())
        .collect()
}

/// Runs wadforge with `args`, which must succeed; what it wrote to stderr.
fn run(args: &[&str]) -> String {
    let o = wadforge(args);
    assert!(o.status.success(), "{}", stderr(&o));
    stderr(&o)
}

/// The `changed:` lines of `said` about `object` (as messages name it).
fn changes_of<'a>(said: &'a str, object: &str) -> Vec<&'a str> {
    let prefix = format!("changed: {object}: ");
    said.lines().filter(|l| l.starts_with(&prefix)).collect()
}

/// The classic fixture as a WAD and the Tomb Engine fixture as a Wad2, in `dir`.
fn classic_and_tomb_engine(dir: &Path) -> (PathBuf, PathBuf) {
    let classic = write_wad(&dir.join("classic.wad"), &engines::classic());
    let ten = dir.join("ten.wad2");
    std::fs::write(&ten, engines::tomb_engine_wad2()).unwrap();
    (classic, ten)
}

#[test]
fn a_classic_wads_holsters_copied_into_a_tomb_engine_wad2_lie_on_meshes_1_and_4_of_15() {
    let tmp = tempfile::tempdir().unwrap();
    let (classic, ten) = classic_and_tomb_engine(tmp.path());
    let out = tmp.path().join("out.wad2");
    let said = run(&[
        "copy",
        s(&classic),
        s(&ten),
        "-o",
        s(&out),
        "--only",
        "LARA_HOLSTERS_PISTOLS,SHOTGUN_ANIM",
    ]);
    let (source, copied) = (engines::classic(), model_of(&out));
    let ([classic_left, classic_right], _) = CLASSIC_HOLSTERS;
    let ([left, right], count) = TOMB_ENGINE_HOLSTERS;
    let before = meshes_of(&source, Game::Tr4, "LARA_HOLSTERS_PISTOLS");
    let after = meshes_of(&copied, Game::Ten, "LARA_HOLSTERS_PISTOLS");
    assert_eq!(after.len(), count);
    assert_eq!(
        (&after[left], &after[right]),
        (&before[classic_left], &before[classic_right])
    );
    assert!(
        (0..count)
            .filter(|&i| i != left && i != right)
            .all(|i| after[i].is_empty()),
        "the other meshes are empty"
    );
    let holsters = format!(
        "LARA_HOLSTERS_PISTOLS (moveable {})",
        catalog::moveable_id(Game::Ten, "LARA_HOLSTERS_PISTOLS").unwrap()
    );
    let listed = changes_of(&said, &holsters);
    assert!(
        listed
            .iter()
            .any(|l| l.contains("17 meshes → 15: the holsters moved from meshes 4 and 8 to 1 and 4")),
        "{said}"
    );
    // The back weapon: mesh 14 of the classic object is mesh 7 in Tomb Engine's, moved.
    let gun = &meshes_of(&source, Game::Tr4, "SHOTGUN_ANIM")[CLASSIC_BACK_GUN];
    let moved = &meshes_of(&copied, Game::Ten, "SHOTGUN_ANIM")[TOMB_ENGINE_BACK_GUN];
    assert_eq!(moved.len(), gun.len());
    assert_ne!(moved, gun, "moved where Tomb Engine draws it");
    let shotgun = format!(
        "SHOTGUN_ANIM (moveable {})",
        catalog::moveable_id(Game::Ten, "SHOTGUN_ANIM").unwrap()
    );
    assert!(
        changes_of(&said, &shotgun)
            .iter()
            .any(|l| l.contains("the back weapon moved from mesh 14 to mesh 7")),
        "{said}"
    );
    let quiet = run(&[
        "copy",
        "-q",
        s(&classic),
        s(&ten),
        "-o",
        s(&tmp.path().join("quiet.wad2")),
        "--only",
        "LARA_HOLSTERS_PISTOLS",
    ]);
    assert!(!quiet.contains("changed:"), "--quiet lists nothing: {quiet}");
}

#[test]
fn holsters_copied_into_tomb_engine_and_back_into_a_classic_wad_lie_on_meshes_4_and_8_of_17() {
    let tmp = tempfile::tempdir().unwrap();
    let (classic, ten) = classic_and_tomb_engine(tmp.path());
    let there = tmp.path().join("there.wad2");
    let only = ["--only", "LARA_HOLSTERS,SHOTGUN_ANIM"];
    run(&[&["copy", "-q", s(&classic), s(&ten), "-o", s(&there)][..], &only].concat());
    // Back into the fixture's standard WAD, which holds no holsters: they join it.
    let plain = write_wad(&tmp.path().join("plain.wad"), &wadforge_fixtures::standard());
    let back = tmp.path().join("back.wad");
    let said = run(&[&["copy", s(&there), s(&plain), "-o", s(&back)][..], &only].concat());
    let (source, returned) = (engines::classic(), model_of(&back));
    let ([left, right], count) = CLASSIC_HOLSTERS;
    let before = meshes_of(&source, Game::Tr4, "LARA_HOLSTERS");
    let after = meshes_of(&returned, Game::Tr4, "LARA_HOLSTERS");
    assert_eq!(after.len(), count);
    assert_eq!((&after[left], &after[right]), (&before[left], &before[right]));
    assert_eq!(after.iter().filter(|m| m.is_empty()).count(), count - 2);
    let holsters = format!(
        "LARA_HOLSTERS (moveable {})",
        catalog::moveable_id(Game::Tr4, "LARA_HOLSTERS").unwrap()
    );
    assert!(
        changes_of(&said, &holsters)
            .iter()
            .any(|l| l.contains("15 meshes → 17: the holsters moved from meshes 1 and 4 to 4 and 8")),
        "{said}"
    );
    // The back weapon is where it was, to the unit.
    assert_eq!(
        meshes_of(&returned, Game::Tr4, "SHOTGUN_ANIM")[CLASSIC_BACK_GUN],
        meshes_of(&source, Game::Tr4, "SHOTGUN_ANIM")[CLASSIC_BACK_GUN]
    );
    assert!(
        said.contains("the back weapon moved from mesh 7 to mesh 14"),
        "{said}"
    );
}

#[test]
fn a_copy_within_one_engine_reshapes_nothing() {
    let tmp = tempfile::tempdir().unwrap();
    let (classic, _) = classic_and_tomb_engine(tmp.path());
    let plain = write_wad(&tmp.path().join("plain.wad"), &wadforge_fixtures::standard());
    let out = tmp.path().join("out.wad");
    let said = run(&[
        "copy",
        s(&classic),
        s(&plain),
        "-o",
        s(&out),
        "--only",
        "LARA_HOLSTERS",
    ]);
    assert!(!said.contains("changed:"), "{said}");
    assert_eq!(
        meshes_of(&model_of(&out), Game::Tr4, "LARA_HOLSTERS"),
        meshes_of(&engines::classic(), Game::Tr4, "LARA_HOLSTERS")
    );
}

const CROCODILE: i64 = 51;

/// The UVs of a quad spanning more texels than a page holds (300 × 300, every corner half a
/// texel off): the model shrinks its texels onto a page, so its exact UVs cannot come back.
const WIDE: [[f32; 2]; 4] = [[0.5, 0.5], [300.5, 0.5], [300.5, 300.5], [0.5, 300.5]];
/// How far WIDE's UVs move to whole texels: half a texel on each axis.
const WIDE_MOVED: &str = "0.707";

/// The standard fixture as a Tomb Editor Wad2 whose crocodile maps its first polygon over
/// [`WIDE`] of a 512 × 512 texture and its second a quarter texel off the texels it showed.
fn wad2_with_fractional_uvs(dir: &Path) -> (PathBuf, [[f32; 2]; 4]) {
    let (mut document, big) = crate::common::files::standard_wad2_with_big_texture(512);
    let polygons = &mut crocodile_of(&mut document).meshes[0].polygons;
    (polygons[0].texture, polygons[0].uvs) = (big, WIDE);
    let quarter_off = polygons[1].uvs.map(|[u, v]| [u + 0.25, v - 0.25]);
    polygons[1].uvs = quarter_off;
    let path = dir.join("fractional.wad2");
    std::fs::write(&path, wad2::write_document(&document)).unwrap();
    (path, quarter_off)
}

fn crocodile_of(document: &mut Document) -> &mut wadforge_format::wad2::document::Moveable {
    (document.moveables.iter_mut())
        .find(|m| m.id == CROCODILE)
        .expect("the fixture's CROCODILE")
}

fn crocodile_polygons(path: &Path) -> Vec<Polygon> {
    let mut document = wad2::read_document(&std::fs::read(path).unwrap()).unwrap();
    crocodile_of(&mut document).meshes[0].polygons.clone()
}

/// The one line `said` gives of the crocodile's rounded UVs.
fn rounding_line(said: &str) -> Vec<&str> {
    changes_of(said, "CROCODILE (moveable 51)")
        .into_iter()
        .filter(|l| l.contains("UVs"))
        .collect()
}

#[test]
fn a_wad2_converted_to_a_wad2_lists_the_polygons_whose_fractional_uvs_it_rounds() {
    let tmp = tempfile::tempdir().unwrap();
    let (input, quarter_off) = wad2_with_fractional_uvs(tmp.path());
    let out = tmp.path().join("out.wad2");
    let said = run(&["convert", s(&input), s(&out), "--game", "trle"]);
    assert_eq!(
        rounding_line(&said),
        [format!(
            "changed: CROCODILE (moveable 51): UVs of 1 polygons moved to whole texels (by at most {WIDE_MOVED} \
             texels): the model holds a polygon's texture as whole texels on a page, and their exact UVs could \
             not be taken back from the input (their texels do not show the same way there)"
        )
        .as_str()],
        "{said}"
    );
    let written = crocodile_polygons(&out);
    assert!(
        written[0].uvs.iter().flatten().all(|c| c.fract() == 0.0),
        "the wide quad rounded: {:?}",
        written[0].uvs
    );
    assert_eq!(
        written[1].uvs, quarter_off,
        "the other fractional UVs come back exactly"
    );
    // No polygon rounded, nothing listed: the input without its wide quad.
    let mut document = wad2::read_document(&std::fs::read(&input).unwrap()).unwrap();
    crocodile_of(&mut document).meshes[0].polygons.remove(0);
    let exact = tmp.path().join("exact.wad2");
    std::fs::write(&exact, wad2::write_document(&document)).unwrap();
    let said = run(&[
        "convert",
        s(&exact),
        s(&tmp.path().join("exact_out.wad2")),
        "--game",
        "trle",
    ]);
    assert!(rounding_line(&said).is_empty(), "{said}");
}

#[test]
fn a_copy_between_wad2_files_lists_the_polygons_whose_fractional_uvs_it_rounds() {
    let tmp = tempfile::tempdir().unwrap();
    let (input, quarter_off) = wad2_with_fractional_uvs(tmp.path());
    let dest = tmp.path().join("dest.wad2");
    let made = wad2::from_model(&wadforge_fixtures::standard(), &SkewedCorners::new(), Game::Tr4).unwrap();
    std::fs::write(&dest, wad2::write_document(&made.document)).unwrap();
    let out = tmp.path().join("out.wad2");
    let said = run(&["copy", s(&input), s(&dest), "-o", s(&out), "--only", "CROCODILE"]);
    let line = rounding_line(&said);
    assert_eq!(line.len(), 1, "{said}");
    assert!(
        line[0].contains(&format!(
            "UVs of 1 polygons moved to whole texels (by at most {WIDE_MOVED} texels)"
        )),
        "{said}"
    );
    assert_eq!(crocodile_polygons(&out)[1].uvs, quarter_off);
}

#[test]
fn a_tomb_engine_wad2_converted_to_a_trng_wad2_keeps_its_objects_exact_uvs() {
    // The objects move to TR4's ids: each still finds its exact UVs in the input under the id
    // it had there.
    let tmp = tempfile::tempdir().unwrap();
    let mut document = wad2::read_document(&engines::tomb_engine_wad2()).unwrap();
    let crocodile = i64::from(catalog::moveable_id(Game::Ten, "CROCODILE").unwrap());
    let polygons = &mut (document.moveables.iter_mut())
        .find(|m| m.id == crocodile)
        .expect("the Tomb Engine fixture's CROCODILE")
        .meshes[0]
        .polygons;
    let quarter_off = polygons[0].uvs.map(|[u, v]| [u + 0.25, v + 0.25]);
    polygons[0].uvs = quarter_off;
    let input = tmp.path().join("ten.wad2");
    std::fs::write(&input, wad2::write_document(&document)).unwrap();
    let out = tmp.path().join("trng.wad2");
    let said = run(&["convert", s(&input), s(&out), "--game", "trng"]);
    assert!(rounding_line(&said).is_empty(), "{said}");
    assert_eq!(crocodile_polygons(&out)[0].uvs, quarter_off, "{said}");
}

/// The Tomb Engine fixture as a Wad2 whose LARA_HOLSTERS maps its left holster's (mesh 1's)
/// first polygon a quarter texel off; the path and those UVs.
fn tomb_engine_holsters_off_texels(dir: &Path) -> (PathBuf, [[f32; 2]; 4]) {
    let mut document = wad2::read_document(&engines::tomb_engine_wad2()).unwrap();
    let holsters = i64::from(catalog::moveable_id(Game::Ten, "LARA_HOLSTERS").unwrap());
    let ([left, _], _) = TOMB_ENGINE_HOLSTERS;
    let polygon = &mut (document.moveables.iter_mut())
        .find(|m| m.id == holsters)
        .expect("the fixture's LARA_HOLSTERS")
        .meshes[left]
        .polygons[0];
    polygon.uvs = polygon.uvs.map(|[u, v]| [u + 0.25, v + 0.25]);
    let uvs = polygon.uvs;
    let path = dir.join("ten_holsters.wad2");
    std::fs::write(&path, wad2::write_document(&document)).unwrap();
    (path, uvs)
}

/// The UVs of the first polygon of mesh `mesh` of TR4's LARA_HOLSTERS in the Wad2 at `path`.
fn classic_holster_uvs(path: &Path, mesh: usize) -> [[f32; 2]; 4] {
    let document = wad2::read_document(&std::fs::read(path).unwrap()).unwrap();
    let holsters = i64::from(catalog::moveable_id(Game::Tr4, "LARA_HOLSTERS").unwrap());
    let moveable = (document.moveables.iter())
        .find(|m| m.id == holsters)
        .expect("LARA_HOLSTERS");
    moveable.meshes[mesh].polygons[0].uvs
}

#[test]
fn reshaped_holsters_keep_their_exact_uvs_into_a_classic_wad2_by_convert_and_by_copy() {
    let tmp = tempfile::tempdir().unwrap();
    let (ten, uvs) = tomb_engine_holsters_off_texels(tmp.path());
    let ([classic_left, _], _) = CLASSIC_HOLSTERS;
    let converted = tmp.path().join("trng.wad2");
    let said = run(&["convert", s(&ten), s(&converted), "--game", "trng"]);
    assert!(said.contains("15 meshes → 17"), "{said}");
    assert!(!said.contains("UVs of"), "{said}");
    assert_eq!(classic_holster_uvs(&converted, classic_left), uvs);
    // copy into a classic Wad2 (TRNG's), which the fixture's standard objects make.
    let dest = tmp.path().join("dest.wad2");
    let mut made =
        wad2::from_model(&wadforge_fixtures::standard(), &SkewedCorners::new(), Game::Tr4).unwrap();
    made.document.game_version = Some(16);
    std::fs::write(&dest, wad2::write_document(&made.document)).unwrap();
    let copied = tmp.path().join("copied.wad2");
    let said = run(&[
        "copy",
        s(&ten),
        s(&dest),
        "-o",
        s(&copied),
        "--only",
        "LARA_HOLSTERS",
    ]);
    assert!(said.contains("15 meshes → 17"), "{said}");
    assert!(!said.contains("UVs of"), "{said}");
    assert_eq!(classic_holster_uvs(&copied, classic_left), uvs);
}
