//! Forged inputs that more than one hostile-file test file makes: WADs from the standard
//! fixture, and the tables of TR4 levels and WADs read in place.

/// Record sizes of a TR4 level's object tables from mesh data to models: mesh data words,
/// mesh pointers, animations, state changes, dispatches, command words, mesh tree words,
/// frame words, models.
pub const TR4_OBJECT_TABLES: [usize; 9] = [2, 4, 40, 6, 8, 2, 4, 2, 18];

/// The TR4 fixture's object tables from mesh data to models (each a 32-bit count and its
/// records, in the file's order).
pub fn tr4_object_tables() -> Vec<Vec<u8>> {
    let (_, data) = wadforge_fixtures::levels::tr4_level_data(&wadforge_fixtures::levels::tr4_level());
    let mut at = wadforge_fixtures::levels::object_tables_at(wadforge_format::catalog::Game::Tr4);
    TR4_OBJECT_TABLES
        .iter()
        .map(|&size| {
            let end = table_after(&data, at, &[size]);
            let table = data[at..end].to_vec();
            at = end;
            table
        })
        .collect()
}

/// The standard fixture with every sample moved to its first page: small files, the same objects.
pub fn standard_on_one_page() -> wadforge_format::Wad {
    let mut wad = wadforge_fixtures::standard();
    wad.pages.truncate(1);
    for sample in &mut wad.samples {
        sample.page = 0;
    }
    wad
}

/// A copy of `wad`'s first animated moveable, under an id no moveable has.
pub fn animated_copy(wad: &wadforge_format::Wad) -> wadforge_format::Moveable {
    let mut moveable = wad
        .moveables
        .iter()
        .find(|m| !m.animations.is_empty())
        .unwrap()
        .clone();
    moveable.id = (0..)
        .find(|id| wad.moveables.iter().all(|m| m.id != *id))
        .unwrap();
    moveable
}

/// The standard fixture on one page, plus `copies` moveables of `joints` joints on `mesh` (or on
/// one mesh without vertices), each with `animations` animations of `keyframes` keyframes that
/// turn every joint.
pub fn wad_of_many_animations(
    joints: usize,
    animations: usize,
    keyframes: usize,
    mesh: Option<usize>,
    copies: usize,
) -> Vec<u8> {
    use wadforge_format::{AngleEncoding, Rotation, Shading};
    let mut wad = standard_on_one_page();
    let mut empty = wad.meshes[0].clone();
    empty.polygons.clear();
    empty.vertices.clear();
    empty.shading = Shading::Normals(Vec::new());
    wad.meshes.push(empty);
    let mut moveable = animated_copy(&wad);
    moveable.meshes = vec![mesh.unwrap_or(wad.meshes.len() - 1); joints];
    moveable.links = vec![Default::default(); joints - 1];
    let mut animation = moveable.animations[0].clone();
    animation.state_changes.clear();
    animation.commands.clear();
    animation.frame_duration = 1;
    animation.frame_end = animation.frame_start + keyframes as u16 - 1;
    animation.next_animation = 0;
    animation.next_frame = animation.frame_start;
    let keyframe = animation.keyframes[0].clone();
    moveable.animations = (0..animations)
        .map(|i| {
            let mut animation = animation.clone();
            let mut keyframe = keyframe.clone();
            keyframe.rotations = (0..joints)
                .map(|j| Rotation {
                    x: ((i + j) % 4096) as u16,
                    y: 0,
                    z: 0,
                    encoding: AngleEncoding::X,
                })
                .collect();
            animation.keyframes = vec![keyframe; keyframes];
            animation
        })
        .collect();
    for _ in 0..copies {
        moveable.id = (0..)
            .find(|id| wad.moveables.iter().all(|m| m.id != *id))
            .unwrap();
        wad.moveables.push(moveable.clone());
    }
    wadforge_format::wad::write(&wad, None).unwrap()
}

/// The 32-bit little-endian word at `at`.
pub fn u32_at(bytes: &[u8], at: usize) -> usize {
    u32::from_le_bytes(bytes[at..at + 4].try_into().unwrap()) as usize
}

/// Where the table or package after those at `at` ends, each a 32-bit count of records of the
/// size given, then the records.
pub fn table_after(wad: &[u8], mut at: usize, record_sizes: &[usize]) -> usize {
    for size in record_sizes {
        at += 4 + size * u32_at(wad, at);
    }
    at
}

/// Where `needle` starts in `bytes`.
pub fn find(bytes: &[u8], needle: &[u8]) -> usize {
    bytes
        .windows(needle.len())
        .position(|w| w == needle)
        .unwrap_or_else(|| panic!("{} not found", String::from_utf8_lossy(needle)))
}
