//! The file name of each object, shared by import (its glTF and manifest) and the gallery (its
//! pictures), so that both name an object's files alike.

use std::collections::HashMap;

/// The file name of each object of one kind: its id and slot (`007_WOLF`), and a number after
/// those of a file that holds two objects of one id (`007_WOLF_2`; `check` reports them), so that
/// no two objects write one file. (The slot follows from the id, so a numbered name is never
/// another object's plain one.)
pub fn file_stems(ids: impl Iterator<Item = u32>, slots: &[String]) -> Vec<String> {
    let mut seen: HashMap<u32, usize> = HashMap::new();
    ids.zip(slots)
        .map(|(id, slot)| {
            let n = seen.entry(id).or_default();
            *n += 1;
            match *n {
                1 => format!("{id:03}_{slot}"),
                n => format!("{id:03}_{slot}_{n}"),
            }
        })
        .collect()
}
