//! Names in a glTF file: meaningful where the catalogue knows them, unique across joints,
//! meshes, skins and materials, and at most 63 bytes (Blender truncates longer ones).

use std::collections::HashSet;

use wadforge_format::catalog::{self, Game};

/// Longest name Blender keeps whole.
pub const MAX_NAME_BYTES: usize = 63;

/// Hands out unique names within one glTF file.
#[derive(Default)]
pub(crate) struct NameSet {
    taken: HashSet<String>,
}

impl NameSet {
    /// `wanted`, shortened to fit and suffixed `_2`, `_3`… if already taken.
    pub fn unique(&mut self, wanted: &str) -> String {
        let mut n = 1;
        loop {
            let suffix = if n == 1 { String::new() } else { format!("_{n}") };
            let candidate = format!("{}{suffix}", truncate(wanted, MAX_NAME_BYTES - suffix.len()));
            if self.taken.insert(candidate.clone()) {
                return candidate;
            }
            n += 1;
        }
    }
}

fn truncate(s: &str, max: usize) -> &str {
    let mut end = s.len().min(max);
    while !s.is_char_boundary(end) {
        end -= 1;
    }
    &s[..end]
}

/// Bone names of a moveable in TR mesh order: the catalogue's (Lara's HIPS, LEFT_THIGH…) when it
/// knows this object and the mesh count agrees, `mesh_NN` otherwise.
pub fn bone_names(game: Game, moveable_id: u32, mesh_count: usize) -> Vec<String> {
    match catalog::mesh_names(game, moveable_id) {
        Some(names) if names.len() == mesh_count => names.iter().map(|n| n.to_string()).collect(),
        _ => (0..mesh_count).map(|i| format!("mesh_{i:02}")).collect(),
    }
}

/// glTF animation names: zero-padded index first (Blender sorts animations by name), then the
/// state's name when the catalogue knows it, `state_N` otherwise.
pub fn animation_names(game: Game, moveable_id: u32, states: &[u16]) -> Vec<String> {
    let width = (states.len().saturating_sub(1)).to_string().len().max(3);
    states
        .iter()
        .enumerate()
        .map(
            |(i, &state)| match catalog::state_name(game, moveable_id, state) {
                Some(name) => format!("{i:0width$}_{name}"),
                None => format!("{i:0width$}_state_{state}"),
            },
        )
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_unique_and_fit_blender() {
        let mut names = NameSet::default();
        let long = "X".repeat(80);
        let a = names.unique(&long);
        let b = names.unique(&long);
        assert_eq!(a.len(), 63);
        assert_eq!(b.len(), 63);
        assert_ne!(a, b);
        assert!(b.ends_with("_2"));
    }

    #[test]
    fn lara_bones_come_from_the_catalogue() {
        let bones = bone_names(Game::Tr4, 8, 15);
        assert_eq!(bones[0], "HIPS");
        assert_eq!(bone_names(Game::Tr4, 8, 3), ["mesh_00", "mesh_01", "mesh_02"]);
    }

    #[test]
    fn animation_names_put_the_index_first() {
        let names = animation_names(Game::Tr4, 0, &[1, 9999]);
        assert_eq!(names[0], "000_RUN_FORWARD");
        assert_eq!(names[1], "001_state_9999");
    }
}
