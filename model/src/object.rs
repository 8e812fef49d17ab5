//! Moveables (animated, skinned objects) and statics (props).

use super::{Animation, MeshIndex};

/// An axis-aligned box, stored in files as `min x, max x, min y, max y, min z, max z`.
/// Values are kept as read, even where a minimum exceeds its maximum.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct BoundingBox {
    pub min: [i16; 3],
    pub max: [i16; 3],
}

impl BoundingBox {
    /// The six values in file order.
    pub fn to_file_order(self) -> [i16; 6] {
        [
            self.min[0],
            self.max[0],
            self.min[1],
            self.max[1],
            self.min[2],
            self.max[2],
        ]
    }

    /// The largest difference between any of the six values of two boxes.
    pub fn distance(self, other: BoundingBox) -> i32 {
        self.to_file_order()
            .iter()
            .zip(other.to_file_order())
            .map(|(&a, b)| (i32::from(a) - i32::from(b)).abs())
            .max()
            .unwrap_or(0)
    }

    pub fn from_file_order(v: [i16; 6]) -> Self {
        BoundingBox {
            min: [v[0], v[2], v[4]],
            max: [v[1], v[3], v[5]],
        }
    }
}

/// An animated object: a hierarchy of meshes (one per joint) and its animations.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default)]
pub struct Moveable {
    /// Object id (slot); its meaning comes from the game's catalogue.
    pub id: u32,
    /// One mesh per joint, root first, in depth-first order of the hierarchy.
    pub meshes: Vec<MeshIndex>,
    /// `links[i]` places mesh `i + 1` relative to its parent; the root has no link.
    pub links: Vec<Link>,
    pub animations: Vec<Animation>,
}

impl Moveable {
    /// Each mesh's pivot in the bind pose: the sum of link offsets from the root.
    pub fn bind_origins(&self) -> Vec<[i64; 3]> {
        bind_origins(&self.links, self.meshes.len())
    }

    /// How many link-stack entries the game holds at most while it draws this moveable, with the
    /// opcodes a WAD stores for its hierarchy; `None` when a depth-first mesh order cannot
    /// reach some mesh's parent (such a hierarchy cannot be written).
    pub fn link_stack_depth(&self) -> Option<usize> {
        let parents: Vec<usize> = self.links.iter().map(|l| l.parent).collect();
        crate::links::ops_from_parents(&parents)
            .ok()
            .map(|ops| crate::links::stack_depth(&ops))
    }

    /// Whether some animation plays keyframes past the keyframe data of the file it came from
    /// (its own words decode, the rest are past the data's end: [`super::Undecodable::RunsPastTheData`]).
    /// The game reads on past its words into whatever follows, so its keyframes stay the file's
    /// last: objects added to a file go before it.
    pub fn keyframes_stay_last(&self) -> bool {
        let meshes = self.meshes.len();
        (self.animations.iter()).any(|a| {
            (a.undecodable_keyframes.as_ref())
                .is_some_and(|u| u.kind(meshes) == super::Undecodable::RunsPastTheData)
        })
    }

    /// Whether it stores keyframe words: decoded keyframes or words kept as stored.
    pub fn has_keyframe_words(&self) -> bool {
        let meshes = self.meshes.len();
        (self.animations.iter()).any(|a| {
            !a.keyframes.is_empty()
                || a.undecodable_keyframes
                    .as_ref()
                    .is_some_and(|u| u.owns_words(meshes))
        })
    }
}

/// Where a moveable of id `id` joins a file's moveables, given as (id, whether its keyframes stay
/// last) in file order: before the first of a higher id, as TRLE's WADs order them; but one that
/// stores keyframe words (`keyframes`) goes before a moveable whose keyframes stay the file's last
/// ([`Moveable::keyframes_stay_last`]), so that what the game reads past them stays as it was.
pub fn moveable_insertion_point(
    moveables: impl IntoIterator<Item = (u32, bool)>,
    id: u32,
    keyframes: bool,
) -> usize {
    let mut count = 0;
    for (n, (other, stays_last)) in moveables.into_iter().enumerate() {
        if other > id || (keyframes && stays_last) {
            return n;
        }
        count = n + 1;
    }
    count
}

/// The bind-pose pivot of each of `meshes` meshes hung by `links` (see [`Moveable::bind_origins`]);
/// a link past the meshes, or naming a parent that is not there, hangs from the origin.
pub fn bind_origins(links: &[Link], meshes: usize) -> Vec<[i64; 3]> {
    let mut origins = vec![[0i64; 3]; meshes];
    for (i, link) in links.iter().enumerate() {
        let child = i + 1;
        if child < origins.len() {
            let parent = origins.get(link.parent).copied().unwrap_or([0; 3]);
            origins[child] = [0, 1, 2].map(|k| parent[k] + i64::from(link.offset[k]));
        }
    }
    origins
}

/// Where a mesh hangs in its moveable's hierarchy.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Link {
    /// Index of the parent in the moveable's mesh list; always less than the child's index.
    pub parent: usize,
    /// Pivot of this mesh relative to the parent's pivot.
    pub offset: [i32; 3],
}

/// A single-mesh, unanimated prop.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Static {
    pub id: u32,
    pub mesh: MeshIndex,
    pub visibility: BoundingBox,
    pub collision: BoundingBox,
    /// 2 in TRLE's own WADs; kept as read.
    pub flags: u16,
}
