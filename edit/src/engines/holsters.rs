//! Lara's holster objects (LARA_HOLSTERS and its pistol, uzi and revolver kinds): the classic
//! engines draw the holsters from meshes 4 and 8 of a 17-mesh object, Tomb Engine from meshes 1
//! and 4 (the thighs) of one laid out as LARA, 15 meshes (Tomb Editor's
//! `TombEngineConverter.ConvertMoveable`; Tomb Editor issue #695).

use wadforge_format::{Link, Wad};

use super::{remesh, Direction};

/// Tomb Engine's names of the holster slots.
const HOLSTERS: [&str; 4] = [
    "LARA_HOLSTERS",
    "LARA_HOLSTERS_PISTOLS",
    "LARA_HOLSTERS_UZIS",
    "LARA_HOLSTERS_REVOLVER",
];

/// The classic layout: the left and right holsters' meshes, and the object's mesh count.
const CLASSIC: ([usize; 2], usize) = ([4, 8], 17);
/// Tomb Engine's layout: LARA's left and right thighs, and LARA's mesh count.
const TOMB_ENGINE: ([usize; 2], usize) = ([1, 4], 15);

/// Whether `ten_name` (a slot's Tomb Engine name) is a holster object's.
pub(super) fn is_holster(ten_name: &str) -> bool {
    HOLSTERS.contains(&ten_name)
}

/// Moves the holsters of moveable `index` to the meshes the written engine draws them from,
/// the other meshes empty, and says what it did (or why it left the object as it is).
pub(super) fn reshape(wad: &mut Wad, index: usize, direction: Direction) -> Vec<String> {
    let ((from_at, _), (to_at, count)) = match direction {
        Direction::ToTombEngine => (CLASSIC, TOMB_ENGINE),
        Direction::ToClassic => (TOMB_ENGINE, CLASSIC),
    };
    let moveable = &wad.moveables[index];
    let held = moveable.meshes.len();
    if held <= from_at[1] {
        return vec![format!(
            "left as it is: {held} meshes, so no mesh {} to hold the right holster (the holsters are meshes \
             {} and {} here); give it its holsters there and convert again",
            from_at[1], from_at[0], from_at[1]
        )];
    }
    let sources: Vec<Option<usize>> = (0..count)
        .map(|i| (to_at.iter().position(|&at| at == i)).map(|side| from_at[side]))
        .collect();
    let (links, skeleton) = match lara_links(wad, count) {
        // As Tomb Editor does: the holsters hang where LARA's thighs do.
        Some(links) => (links, "LARA's links"),
        None => (
            hung_where_they_were(wad, index, &sources),
            "links that keep each holster where it was",
        ),
    };
    let undecoded = remesh(wad, index, &sources, links);
    let mut lines = vec![format!(
        "{held} meshes → {count}: the holsters moved from meshes {} and {} to {} and {} (where {} draws them), \
         the other meshes empty, {skeleton}, keyframe rotations moved with the meshes",
        from_at[0],
        from_at[1],
        to_at[0],
        to_at[1],
        direction.engine()
    )];
    if undecoded > 0 {
        lines.push(format!(
            "{undecoded} animations keep keyframe words that do not decode, as stored, for {held} meshes"
        ));
    }
    lines
}

/// LARA's links, when the file holds a LARA of `count` meshes (the holster object's skeleton in
/// Tomb Engine's layout, whose thighs the holsters hang from).
fn lara_links(wad: &Wad, count: usize) -> Option<Vec<Link>> {
    let lara = wad.moveables.iter().find(|m| m.id == 0)?;
    (lara.meshes.len() == count && lara.links.len() + 1 == count).then(|| lara.links.clone())
}

/// Links hanging every new mesh from the root at the bind-pose pivot its old mesh had (the root
/// for an empty one), so that the holsters stay where they were.
fn hung_where_they_were(wad: &Wad, index: usize, sources: &[Option<usize>]) -> Vec<Link> {
    let origins = wad.moveables[index].bind_origins();
    (sources.iter().skip(1))
        .map(|source| Link {
            parent: 0,
            offset: source.and_then(|s| origins.get(s)).map_or([0; 3], |o| {
                o.map(|c| i32::try_from(c).unwrap_or(if c < 0 { i32::MIN } else { i32::MAX }))
            }),
        })
        .collect()
}
