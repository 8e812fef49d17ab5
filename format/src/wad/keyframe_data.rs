//! The keyframes package of a canonical layout, filled animation by animation, and the sharing
//! of keyframe data between animations of one moveable.
//!
//! An animation's keyframes go where the same words already stand at the start of an earlier
//! animation's data in the moveable, read with a keyframe size of the animation's own (its
//! longest keyframe, or that animation's keyframe size or a multiple of it when its keyframes are
//! padded to it there). The reader gives every animation the keyframes its frame range plays from
//! its own offset with its own size, so each gets its keyframes back; the package keeps the
//! sharing real files have (animations whose keyframes start where another's do, with other
//! lengths or keyframe sizes) and never grows for it.
//!
//! Only data that starts where another animation's starts is shared: the WAD document counts an
//! animation's keyframes by the distance to the next animation's offset (as TombLib and
//! WadMerger do), and an offset inside another animation's keyframes would cut that animation
//! short for them, a pattern real files do not hold. For the same reason offsets never decrease
//! in table order. (Animations without keyframes point at the end of the data; those readers
//! count no keyframes for them.)

/// Largest keyframe size (words) a record's byte holds.
const MAX_SIZE: usize = u8::MAX as usize;

/// The package, word by word: `None` where no keyframe stores a word (padding after the angles
/// of a keyframe shorter than its animation's keyframe size).
#[derive(Default)]
pub(super) struct KeyframeData {
    words: Vec<Option<u16>>,
}

/// Where an animation's keyframes are: offset and keyframe size in words.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Placed {
    pub offset: usize,
    pub size: usize,
    count: usize,
}

impl KeyframeData {
    /// Length in words.
    pub fn len(&self) -> usize {
        self.words.len()
    }

    /// Starts placing one moveable's animations: they share data only with each other.
    pub fn moveable(&mut self) -> MoveableKeyframes<'_> {
        MoveableKeyframes {
            data: self,
            sizes_at_floor: Vec::new(),
            floor: 0,
        }
    }

    /// Words the package grows by when `keyframes` go at `offset`, `size` words apart, or `None`
    /// when a word there differs.
    fn growth(&self, offset: usize, size: usize, keyframes: &[Vec<u16>]) -> Option<usize> {
        for (k, words) in keyframes.iter().enumerate() {
            let start = offset + k * size;
            let stored = self.words.get(start..).unwrap_or(&[]);
            if stored.iter().zip(words).any(|(s, w)| s.is_some_and(|s| s != *w)) {
                return None;
            }
        }
        Some((offset + keyframes.len() * size).saturating_sub(self.words.len()))
    }

    fn put(&mut self, at: Placed, keyframes: &[Vec<u16>]) {
        let end = at.offset + keyframes.len() * at.size;
        if self.words.len() < end {
            self.words.resize(end, None);
        }
        for (k, words) in keyframes.iter().enumerate() {
            let start = at.offset + k * at.size;
            for (slot, &w) in self.words[start..start + words.len()].iter_mut().zip(words) {
                *slot = Some(w);
            }
        }
    }
}

/// The placement of one moveable's animations, in table order.
pub(super) struct MoveableKeyframes<'a> {
    data: &'a mut KeyframeData,
    /// The distinct keyframe sizes of its animations placed at `floor`: offsets never decrease
    /// in table order, so only there may a later animation share data. Keeping every animation
    /// placed made a moveable of 10 000 animations take 50 million comparisons.
    sizes_at_floor: Vec<usize>,
    /// The largest of their offsets: offsets never decrease in table order.
    floor: usize,
}

impl MoveableKeyframes<'_> {
    /// Length of the package so far, in words.
    pub fn len(&self) -> usize {
        self.data.len()
    }

    /// Places an animation's encoded keyframes (each without padding), whose longest keyframe is
    /// `own_size` words: on data of an earlier animation of the moveable where that stores the
    /// same words and the package grows less than by writing them anew, otherwise at the end.
    pub fn place(&mut self, keyframes: &[Vec<u16>], own_size: usize) -> Placed {
        let count = keyframes.len();
        let fresh = Placed {
            offset: self.data.len(),
            size: own_size,
            count,
        };
        // (growth, offset, not its own size, size): the least growth, then the earliest data,
        // then its own keyframe size. Sharing must save words.
        let anew = count * own_size;
        let mut best = (anew, fresh.offset, false, own_size);
        for &other_size in &self.sizes_at_floor {
            let strides = std::iter::once(own_size).chain(
                (1..)
                    .map(|m| m * other_size)
                    .skip_while(|&s| s < own_size)
                    .take_while(|&s| s <= MAX_SIZE)
                    .filter(|&s| s != own_size),
            );
            let offset = self.floor;
            for size in strides {
                if let Some(growth) = self.data.growth(offset, size, keyframes).filter(|&g| g < anew) {
                    let key = (growth, offset, size != own_size, size);
                    if key < best {
                        best = key;
                    }
                }
            }
        }
        let (_, offset, _, size) = best;
        let at = Placed { offset, size, count };
        self.data.put(at, keyframes);
        if offset > self.floor || self.sizes_at_floor.is_empty() {
            self.floor = offset;
            self.sizes_at_floor.clear();
        }
        if !self.sizes_at_floor.contains(&size) {
            self.sizes_at_floor.push(size);
        }
        at
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn keyframe(first: u16, len: usize) -> Vec<u16> {
        (0..len as u16).map(|i| first + i).collect()
    }

    #[test]
    fn keyframes_that_start_another_animations_are_shared_not_written_again() {
        let mut data = KeyframeData::default();
        let mut m = data.moveable();
        let walk: Vec<Vec<u16>> = (0..5).map(|k| keyframe(100 * k, 12)).collect();
        let a = m.place(&walk, 12);
        let b = m.place(&walk[..3], 12);
        assert_eq!((a.offset, b.offset, b.size), (0, 0, 12));
        assert_eq!(data.len(), 60);
    }

    #[test]
    fn keyframes_inside_another_animations_data_are_written_anew() {
        // Sharing them would cut the walk short for readers that count by offset distance.
        let mut data = KeyframeData::default();
        let mut m = data.moveable();
        let walk: Vec<Vec<u16>> = (0..5).map(|k| keyframe(100 * k, 12)).collect();
        m.place(&walk, 12);
        let b = m.place(&walk[2..4], 12);
        assert_eq!(b.offset, 60);
        assert_eq!(data.len(), 84);
    }

    #[test]
    fn a_single_keyframe_shorter_than_the_others_shares_with_its_own_size() {
        let mut data = KeyframeData::default();
        let mut m = data.moveable();
        let mut walk: Vec<Vec<u16>> = (0..3).map(|k| keyframe(100 * k, 12)).collect();
        walk[0].truncate(11);
        let a = m.place(&walk, 12);
        let pose = m.place(&walk[..1], 11);
        assert_eq!((a.offset, pose.offset, pose.size), (0, 0, 11));
        assert_eq!(data.len(), 36);
    }

    #[test]
    fn every_other_keyframe_shares_at_twice_the_size() {
        let mut data = KeyframeData::default();
        let mut m = data.moveable();
        let walk: Vec<Vec<u16>> = (0..5).map(|k| keyframe(100 * k, 12)).collect();
        m.place(&walk, 12);
        let slow: Vec<Vec<u16>> = walk.iter().step_by(2).cloned().collect();
        let b = m.place(&slow, 12);
        assert_eq!((b.offset, b.size), (0, 24));
        // The last keyframe's padding runs one keyframe past the data: the package holds it.
        assert_eq!(data.len(), 72);
    }

    #[test]
    fn a_longer_animation_extends_the_shorter_one_it_starts_with() {
        let mut data = KeyframeData::default();
        let mut m = data.moveable();
        let walk: Vec<Vec<u16>> = (0..5).map(|k| keyframe(100 * k, 12)).collect();
        let start = m.place(&walk[..2], 12);
        let whole = m.place(&walk, 12);
        assert_eq!((start.offset, whole.offset), (0, 0));
        assert_eq!(data.len(), 60);
    }

    #[test]
    fn offsets_never_go_back_before_the_previous_animation() {
        let mut data = KeyframeData::default();
        let mut m = data.moveable();
        let walk: Vec<Vec<u16>> = (0..3).map(|k| keyframe(100 * k, 12)).collect();
        let run: Vec<Vec<u16>> = (0..3).map(|k| keyframe(1000 + 100 * k, 12)).collect();
        m.place(&walk, 12);
        let r = m.place(&run, 12);
        let again = m.place(&walk[..1], 12);
        assert_eq!(r.offset, 36);
        assert_eq!(
            again.offset, 72,
            "the walk's data lies before the run's: written anew"
        );
    }

    #[test]
    fn different_words_are_not_shared_and_moveables_do_not_share() {
        let mut data = KeyframeData::default();
        let walk: Vec<Vec<u16>> = (0..3).map(|k| keyframe(100 * k, 12)).collect();
        {
            let mut m = data.moveable();
            m.place(&walk, 12);
            let mut other = walk[..1].to_vec();
            other[0][5] += 1;
            assert_eq!(m.place(&other, 12).offset, 36);
        }
        let mut next = data.moveable();
        assert_eq!(next.place(&walk, 12).offset, 48);
    }
}
