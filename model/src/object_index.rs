//! Positions in a model's object lists, typed apart from the objects' slot ids
//! ([`Moveable::id`], [`Static::id`]): `ObjectRef::Moveable(MoveableIndex(3))` is the fourth
//! moveable of its file, whatever its id. A list indexes by them as by a `usize`:
//! `wad.moveables[index]`.

use std::ops::{Index, IndexMut, Range};

use crate::{Moveable, Static};

/// Position of a moveable in [`crate::Wad::moveables`] (or in a list of a file's moveables), not
/// its slot id.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct MoveableIndex(pub usize);

/// Position of a static in [`crate::Wad::statics`], not its slot id.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct StaticIndex(pub usize);

/// Every position of a list, in order (an iterator that holds no borrow of the list).
pub type Positions<I> = std::iter::Map<Range<usize>, fn(usize) -> I>;

impl MoveableIndex {
    /// Every position of `moveables`, in order.
    pub fn all(moveables: &[Moveable]) -> Positions<Self> {
        (0..moveables.len()).map(Self as fn(usize) -> Self)
    }
}

impl StaticIndex {
    /// Every position of `statics`, in order.
    pub fn all(statics: &[Static]) -> Positions<Self> {
        (0..statics.len()).map(Self as fn(usize) -> Self)
    }
}

/// `Index` and `IndexMut` of a slice and a `Vec` of `$object` by `$index` (a `Vec` needs its own:
/// indexing finds `Vec`'s generic impl before it would look through to the slice).
macro_rules! indexes {
    ($index:ty, $object:ty) => {
        impl Index<$index> for [$object] {
            type Output = $object;
            fn index(&self, i: $index) -> &$object {
                &self[i.0]
            }
        }
        impl IndexMut<$index> for [$object] {
            fn index_mut(&mut self, i: $index) -> &mut $object {
                &mut self[i.0]
            }
        }
        impl Index<$index> for Vec<$object> {
            type Output = $object;
            fn index(&self, i: $index) -> &$object {
                &self[i.0]
            }
        }
        impl IndexMut<$index> for Vec<$object> {
            fn index_mut(&mut self, i: $index) -> &mut $object {
                &mut self[i.0]
            }
        }
    };
}

indexes!(MoveableIndex, Moveable);
indexes!(StaticIndex, Static);

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Wad;

    #[test]
    fn lists_index_by_position_not_by_id() {
        let mut wad = Wad {
            moveables: vec![Moveable {
                id: 27,
                ..Default::default()
            }],
            statics: vec![Static {
                id: 5,
                ..Default::default()
            }],
            ..Default::default()
        };
        assert_eq!(wad.moveables[MoveableIndex(0)].id, 27);
        assert_eq!(wad.moveables.as_slice()[MoveableIndex(0)].id, 27);
        wad.statics[StaticIndex(0)].id = 6;
        assert_eq!(wad.statics[0].id, 6);
        assert_eq!(
            MoveableIndex::all(&wad.moveables).collect::<Vec<_>>(),
            [MoveableIndex(0)]
        );
        assert_eq!(StaticIndex::all(&[]).count(), 0);
    }
}
