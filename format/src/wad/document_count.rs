//! The WAD document's count of an animation's keyframes, against the game's.
//!
//! The document (by StrPix's author) counts an animation's keyframes as the distance from its
//! keyframe offset to the offset of the next animation with keyframes (or the end of the
//! keyframe data), over twice its keyframe size. Tomb Editor's WadTool (TombLib), wadblender and
//! the older tools decide by that count which words belong to which animation. The game plays
//! [`crate::Animation::played_keyframes`] keyframes from the animation's own offset and never looks at
//! other animations. Where the two disagree (keyframe words shared between animations, or
//! offsets out of table order, as Core's tools wrote some), the game plays the file right and
//! those tools read the animation short, or across another's keyframes.

use wadforge_model::{MoveableIndex, Wad};

use super::layout::Layout;

/// An animation the document's count reads with other keyframes than the game plays.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Miscounted {
    /// Position of the moveable in the model's list (not its id).
    pub moveable: MoveableIndex,
    /// Index of the animation in the moveable.
    pub animation: usize,
    /// Keyframes by the document's count.
    pub document: usize,
    /// Keyframes the game plays.
    pub played: usize,
}

/// Every animation of `wad`, laid out as `layout` says, whose keyframes the document's count
/// gives otherwise than the game plays them, in table order. Animations whose keyframe words do
/// not decode ([`crate::Animation::undecodable_keyframes`]) are left out: no layout reads them right.
pub fn miscounted_animations(wad: &Wad, layout: &Layout) -> Vec<Miscounted> {
    // (table index, offset, size, moveable, animation) of every animation with keyframes.
    let mut stored: Vec<(i64, usize, usize, usize, usize)> = Vec::new();
    for (i, ml) in layout.moveables.iter().enumerate() {
        for (k, al) in ml.animations.iter().enumerate() {
            if al.keyframe_size > 0 {
                let table_index = ml.animations_index as i64 + k as i64;
                stored.push((
                    table_index,
                    al.keyframe_offset as usize,
                    al.keyframe_size as usize,
                    i,
                    k,
                ));
            }
        }
    }
    stored.sort_unstable_by_key(|s| s.0);
    let mut miscounted = Vec::new();
    for (n, &(_, offset, size, i, k)) in stored.iter().enumerate() {
        let Some(animation) = wad.moveables.get(i).and_then(|m| m.animations.get(k)) else {
            continue;
        };
        if animation.undecodable_keyframes.is_some() {
            continue;
        }
        let next = stored.get(n + 1).map_or(layout.keyframes.len, |s| s.1);
        let document = next.saturating_sub(offset) / (2 * size);
        let played = animation.played_from_data();
        if document != played {
            miscounted.push(Miscounted {
                moveable: MoveableIndex(i),
                animation: k,
                document,
                played,
            });
        }
    }
    miscounted
}

#[cfg(test)]
mod tests {
    use super::*;
    use wadforge_model::{Animation, Keyframe, Mesh, Moveable, Rotation};

    fn moveable(keyframe_counts: &[usize]) -> Moveable {
        let animations = keyframe_counts
            .iter()
            .map(|&n| Animation {
                frame_duration: 1,
                frame_end: n.saturating_sub(1) as u16,
                keyframes: vec![
                    Keyframe {
                        rotations: vec![Rotation::default()],
                        ..Keyframe::default()
                    };
                    n
                ],
                ..Animation::default()
            })
            .collect();
        Moveable {
            meshes: vec![0],
            animations,
            ..Moveable::default()
        }
    }

    #[test]
    fn a_canonical_layout_reads_as_the_game_plays() {
        let wad = Wad {
            version: 129,
            meshes: vec![Mesh::default()],
            moveables: vec![moveable(&[3, 0, 1]), moveable(&[2])],
            ..Wad::default()
        };
        let bytes = super::super::write(&wad, None).unwrap();
        let (read, layout) = super::super::read(&bytes).unwrap();
        assert_eq!(miscounted_animations(&read, &layout), []);
    }

    #[test]
    fn animations_starting_on_one_word_are_miscounted() {
        let wad = Wad {
            version: 129,
            meshes: vec![Mesh::default()],
            moveables: vec![moveable(&[3, 2])],
            ..Wad::default()
        };
        let bytes = super::super::write(&wad, None).unwrap();
        let (read, mut layout) = super::super::read(&bytes).unwrap();
        // The second animation's keyframes are the first's first two: stored on them.
        layout.moveables[0].animations[1].keyframe_offset = 0;
        let miscounted = miscounted_animations(&read, &layout);
        let expected = Miscounted {
            moveable: MoveableIndex(0),
            animation: 0,
            document: 0,
            played: 3,
        };
        assert_eq!(
            miscounted,
            [
                expected,
                Miscounted {
                    animation: 1,
                    document: 5,
                    played: 2,
                    ..expected
                }
            ]
        );
    }
}
