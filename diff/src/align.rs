//! Which polygons of two meshes are compared with which: aligned by their corners, so that a
//! polygon added, removed or rebuilt reads as that polygon, not as every polygon after it
//! shifted by one.
//!
//! Polygons over the same corners (the same vertex indices in the same cyclic order, whichever
//! corner leads) are the same polygon; of those in both lists, the longest run in the same
//! order in both is aligned (the longest increasing subsequence, O(n log n)). Between two
//! aligned polygons, the polygons of A and of B there are compared in order, as a polygon
//! changed in place; those left over are in one mesh only. Lists the same all along align
//! index by index, as they did when polygons were compared in stored order.

use std::collections::{HashMap, VecDeque};

/// One step of the alignment, in A's order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Step {
    /// Polygon `i` of A is compared with polygon `j` of B.
    Both(usize, usize),
    OnlyA(usize),
    OnlyB(usize),
}

/// A polygon by its corners: rotated so that the least sequence leads, and how many there are.
pub(crate) type Key = ([u16; 4], usize);

pub(crate) fn key(corners: &[u16]) -> Key {
    let n = corners.len().min(4);
    let rotated = |r: usize| {
        let mut k = [0; 4];
        for (i, slot) in k.iter_mut().enumerate().take(n) {
            *slot = corners[(i + r) % n];
        }
        k
    };
    ((0..n).map(rotated).min().unwrap_or_default(), n)
}

/// The steps that walk `a` and `b` (each polygon's [`key`]) together.
pub(crate) fn align(a: &[Key], b: &[Key]) -> Vec<Step> {
    let prefix = a.iter().zip(b).take_while(|(x, y)| x == y).count();
    let suffix = (a[prefix..].iter().rev())
        .zip(b[prefix..].iter().rev())
        .take_while(|(x, y)| x == y)
        .count();
    let (a_end, b_end) = (a.len() - suffix, b.len() - suffix);
    let mut steps: Vec<Step> = (0..prefix).map(|i| Step::Both(i, i)).collect();
    let mut from = (prefix, prefix);
    for (i, j) in anchors(a, b, (prefix, a_end), (prefix, b_end)) {
        gap(&mut steps, from, (i, j));
        steps.push(Step::Both(i, j));
        from = (i + 1, j + 1);
    }
    gap(&mut steps, from, (a_end, b_end));
    steps.extend((0..suffix).map(|k| Step::Both(a_end + k, b_end + k)));
    steps
}

/// Polygons between two aligned ones: compared in order, the rest in one mesh only.
fn gap(steps: &mut Vec<Step>, (a_from, b_from): (usize, usize), (a_to, b_to): (usize, usize)) {
    let both = (a_to - a_from).min(b_to - b_from);
    steps.extend((0..both).map(|k| Step::Both(a_from + k, b_from + k)));
    steps.extend((a_from + both..a_to).map(Step::OnlyA));
    steps.extend((b_from + both..b_to).map(Step::OnlyB));
}

/// The aligned pairs of `a[a_range]` and `b[b_range]`: each polygon of A paired with the next
/// polygon of B over the same corners, then the longest run of pairs in order in both.
fn anchors(a: &[Key], b: &[Key], a_range: (usize, usize), b_range: (usize, usize)) -> Vec<(usize, usize)> {
    let mut in_b: HashMap<Key, VecDeque<usize>> = HashMap::new();
    for (j, &k) in b.iter().enumerate().take(b_range.1).skip(b_range.0) {
        in_b.entry(k).or_default().push_back(j);
    }
    let pairs: Vec<(usize, usize)> = (a_range.0..a_range.1)
        .filter_map(|i| Some((i, in_b.get_mut(&a[i])?.pop_front()?)))
        .collect();
    longest_increasing(&pairs)
}

/// The longest subsequence of `pairs` (increasing in their first member) increasing in the
/// second too (patience sorting).
fn longest_increasing(pairs: &[(usize, usize)]) -> Vec<(usize, usize)> {
    // tails[k]: the pair ending the best run of length k + 1 found so far; before[p]: the pair
    // before pair p in its run.
    let mut tails: Vec<usize> = Vec::new();
    let mut before: Vec<Option<usize>> = vec![None; pairs.len()];
    for (p, &(_, j)) in pairs.iter().enumerate() {
        let k = tails.partition_point(|&t| pairs[t].1 < j);
        before[p] = k.checked_sub(1).map(|k| tails[k]);
        if k == tails.len() {
            tails.push(p);
        } else {
            tails[k] = p;
        }
    }
    let mut run = Vec::with_capacity(tails.len());
    let mut at = tails.last().copied();
    while let Some(p) = at {
        run.push(pairs[p]);
        at = before[p];
    }
    run.reverse();
    run
}

#[cfg(test)]
mod tests {
    use super::*;
    use Step::*;

    fn keys(polygons: &[&[u16]]) -> Vec<Key> {
        polygons.iter().map(|c| key(c)).collect()
    }

    #[test]
    fn the_same_lists_align_index_by_index() {
        let a = keys(&[&[0, 1, 2], &[2, 3, 4, 5], &[1, 2, 3]]);
        assert_eq!(align(&a, &a), [Both(0, 0), Both(1, 1), Both(2, 2)]);
    }

    #[test]
    fn a_polygon_removed_from_the_middle_is_that_polygon_only() {
        let a = keys(&[&[0, 1, 2], &[7, 8, 9], &[2, 3, 4, 5], &[1, 2, 3]]);
        let b = keys(&[&[0, 1, 2], &[2, 3, 4, 5], &[1, 2, 3]]);
        assert_eq!(align(&a, &b), [Both(0, 0), OnlyA(1), Both(2, 1), Both(3, 2)]);
        assert_eq!(align(&b, &a), [Both(0, 0), OnlyB(1), Both(1, 2), Both(2, 3)]);
    }

    #[test]
    fn a_pair_become_a_quad_is_compared_in_place() {
        let a = keys(&[&[0, 1, 2], &[0, 2, 3], &[4, 5, 6]]);
        let b = keys(&[&[0, 1, 2, 3], &[4, 5, 6]]);
        assert_eq!(align(&a, &b), [Both(0, 0), OnlyA(1), Both(2, 1)]);
    }

    #[test]
    fn corners_rotated_are_the_same_polygon_and_the_winding_counts() {
        assert_eq!(key(&[5, 6, 7, 8]), key(&[7, 8, 5, 6]));
        assert_ne!(key(&[5, 6, 7]), key(&[5, 7, 6]));
        assert_ne!(key(&[5, 6, 7]), key(&[5, 6, 7, 7]));
        let a = keys(&[&[5, 6, 7], &[1, 2, 3]]);
        let b = keys(&[&[6, 7, 5], &[1, 2, 3]]);
        assert_eq!(align(&a, &b), [Both(0, 0), Both(1, 1)]);
    }

    #[test]
    fn changed_corners_in_place_compare_with_the_polygon_there() {
        let a = keys(&[&[0, 1, 2], &[3, 4, 5], &[6, 7, 8]]);
        let b = keys(&[&[0, 1, 2], &[3, 9, 5], &[6, 7, 8]]);
        assert_eq!(align(&a, &b), [Both(0, 0), Both(1, 1), Both(2, 2)]);
    }

    #[test]
    fn a_polygon_moved_to_the_end_leaves_the_others_aligned() {
        let a = keys(&[&[9, 9, 9], &[0, 1, 2], &[1, 2, 3], &[2, 3, 4]]);
        let b = keys(&[&[0, 1, 2], &[1, 2, 3], &[2, 3, 4], &[9, 9, 9]]);
        assert_eq!(
            align(&a, &b),
            [OnlyA(0), Both(1, 0), Both(2, 1), Both(3, 2), OnlyB(3)]
        );
    }

    #[test]
    fn twins_over_the_same_corners_pair_in_order() {
        let a = keys(&[&[0, 1, 2], &[0, 1, 2], &[3, 4, 5]]);
        let b = keys(&[&[3, 4, 5], &[0, 1, 2], &[0, 1, 2]]);
        let steps = align(&a, &b);
        assert!(
            steps.contains(&Both(0, 1)) && steps.contains(&Both(1, 2)),
            "{steps:?}"
        );
    }
}
