//! Rotations carried in world space: a source joint's turn away from its rest pose, given to the
//! TR bone it drives from the bone's bind pose, then taken back to the bone's keyframe angles.
//!
//! TR's bind pose has no rotations (every angle zero, the link offsets alone), so a bone's world
//! rotation in the new keyframe is the source joint's world delta itself, in TR axes. Bones no
//! joint drives keep their rest (zero) angles and so turn with their parent.

use wadforge_format::pose::{rotation_from_matrix, Transform};
use wadforge_format::Rotation;

use crate::math;

/// A 3×3 rotation, row-major.
pub(super) type Matrix = [[f64; 3]; 3];

/// glTF axes ↔ TR axes: a half turn about Z (its own inverse).
const TO_TR: Matrix = [[-1.0, 0.0, 0.0], [0.0, -1.0, 0.0], [0.0, 0.0, 1.0]];

/// The world turn of a joint from its rest transform `rest` to `now` (both world, glTF axes), in
/// TR axes: `C · R(now) · R(rest)⁻¹ · C`.
pub(super) fn world_delta(now: &Transform, rest: &Transform) -> Matrix {
    let delta = math::multiply(
        math::rotation_part(now),
        math::transpose(math::rotation_part(rest)),
    );
    math::multiply(math::multiply(TO_TR, delta), TO_TR)
}

/// The keyframe angles of each bone of a skeleton whose bone `b` hangs from `parents[b]` (the
/// root's entry ignored): bone `b` turned to `world[b]` in world space, or left at its rest angles
/// (zero) for `None`. Each parent's world rotation is the one its own rounded angles give, so a
/// bone's error is its own rounding alone; each angle set is the one nearest `previous`'s.
pub(super) fn keyframe_angles(
    parents: &[usize],
    world: &[Option<Matrix>],
    previous: Option<&[Rotation]>,
) -> Vec<Rotation> {
    let mut achieved: Vec<Matrix> = Vec::with_capacity(world.len());
    let mut angles = Vec::with_capacity(world.len());
    for (b, wanted) in world.iter().enumerate() {
        let parent = if b > 0 {
            achieved[parents[b].min(b - 1)]
        } else {
            IDENTITY
        };
        let angle = match wanted {
            Some(w) => rotation_from_matrix(
                math::multiply(math::transpose(parent), *w),
                previous.and_then(|p| p.get(b)),
            ),
            None => Rotation::default(),
        };
        achieved.push(math::multiply(
            parent,
            math::linear(&Transform::rotation_yxz(&angle)),
        ));
        angles.push(angle);
    }
    angles
}

/// `delta` as seen by a figure turned a half turn about the vertical (Y, in TR and glTF axes
/// alike): `H · delta · H` with `H = diag(−1, 1, −1)`.
pub(super) fn half_turned(delta: Matrix) -> Matrix {
    let sign = [-1.0, 1.0, -1.0];
    [0, 1, 2].map(|r| [0, 1, 2].map(|c| sign[r] * sign[c] * delta[r][c]))
}

const IDENTITY: Matrix = [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]];

#[cfg(test)]
mod tests {
    use super::*;

    /// A rotation by `angle` radians about the unit `axis`.
    fn turn(axis: [f64; 3], angle: f64) -> Matrix {
        let (s, c) = angle.sin_cos();
        let [x, y, z] = axis;
        let t = 1.0 - c;
        [
            [t * x * x + c, t * x * y - s * z, t * x * z + s * y],
            [t * x * y + s * z, t * y * y + c, t * y * z - s * x],
            [t * x * z - s * y, t * y * z + s * x, t * z * z + c],
        ]
    }

    fn transform(r: Matrix, t: [f64; 3]) -> Transform {
        Transform {
            m: [0, 1, 2].map(|i| [r[i][0], r[i][1], r[i][2], t[i]]),
        }
    }

    fn largest_difference(a: Matrix, b: Matrix) -> f64 {
        (0..9)
            .map(|k| (a[k / 3][k % 3] - b[k / 3][k % 3]).abs())
            .fold(0.0, f64::max)
    }

    #[test]
    fn angles_decomposed_give_back_the_rotation_as_pose_applies_them() {
        // One TR angle unit is 2π/4096; three-axis angles round to 4 of them: within 0.01.
        let axes = [
            [0.0, 1.0, 0.0],
            [0.6, 0.0, 0.8],
            [0.48, 0.6, 0.64],
            [1.0, 0.0, 0.0],
        ];
        for (i, axis) in axes.iter().enumerate() {
            for angle in [-2.8, -1.2, 0.3, 1.5, 3.0] {
                let m = turn(*axis, angle + i as f64 * 0.1);
                let angles = keyframe_angles(&[0], &[Some(m)], None);
                let back = math::linear(&Transform::rotation_yxz(&angles[0]));
                assert!(
                    largest_difference(back, m) < 0.01,
                    "axis {axis:?}, angle {angle}: {angles:?}"
                );
            }
        }
    }

    #[test]
    fn a_rotated_rest_pose_gives_zero_angles_at_rest() {
        let rest = transform(turn([0.48, 0.6, 0.64], 2.1), [0.1, 0.9, -0.2]);
        let delta = world_delta(&rest, &rest);
        let angles = keyframe_angles(&[0, 0], &[Some(delta), Some(delta)], None);
        assert!(angles.iter().all(|a| (a.x, a.y, a.z) == (0, 0, 0)), "{angles:?}");
    }

    #[test]
    fn a_child_turned_with_its_parent_keeps_zero_local_angles() {
        let swing = turn([1.0, 0.0, 0.0], 0.7);
        let angles = keyframe_angles(&[0, 0], &[Some(swing), Some(swing)], None);
        assert_ne!((angles[0].x, angles[0].y, angles[0].z), (0, 0, 0));
        assert_eq!((angles[1].x, angles[1].y, angles[1].z), (0, 0, 0));
        // A bone left at rest turns with its parent: zero angles too.
        let angles = keyframe_angles(&[0, 0], &[Some(swing), None], None);
        assert_eq!((angles[1].x, angles[1].y, angles[1].z), (0, 0, 0));
    }

    #[test]
    fn a_half_turned_swing_forward_is_one_about_the_other_side() {
        let swing = turn([1.0, 0.0, 0.0], 0.4);
        assert!(largest_difference(half_turned(swing), turn([-1.0, 0.0, 0.0], 0.4)) < 1e-12);
        let twist = turn([0.0, 1.0, 0.0], 0.4);
        assert!(
            largest_difference(half_turned(twist), twist) < 1e-12,
            "a turn about Y stays"
        );
    }

    #[test]
    fn the_world_delta_is_taken_in_tr_axes() {
        // A turn about glTF +X is one about TR −X (TR's X and Y point the other way).
        let rest = transform(turn([0.0, 0.0, 1.0], 0.5), [0.0; 3]);
        let now = transform(
            math::multiply(turn([1.0, 0.0, 0.0], 0.4), math::linear(&rest)),
            [0.0; 3],
        );
        let delta = world_delta(&now, &rest);
        assert!(
            largest_difference(delta, turn([-1.0, 0.0, 0.0], 0.4)) < 1e-12,
            "{delta:?}"
        );
    }
}
