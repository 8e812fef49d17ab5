//! The little linear algebra build needs: affine transforms from glTF's TRS and matrices,
//! inverses, quaternion interpolation. Transforms are `pose::Transform` (row-major 3×4, f64).

use wadforge_format::pose::Transform;

/// A unit quaternion `[x, y, z, w]` as a rotation transform.
pub fn rotation(q: [f64; 4]) -> Transform {
    let [x, y, z, w] = normalise(q);
    Transform {
        m: [
            [
                1.0 - 2.0 * (y * y + z * z),
                2.0 * (x * y - z * w),
                2.0 * (x * z + y * w),
                0.0,
            ],
            [
                2.0 * (x * y + z * w),
                1.0 - 2.0 * (x * x + z * z),
                2.0 * (y * z - x * w),
                0.0,
            ],
            [
                2.0 * (x * z - y * w),
                2.0 * (y * z + x * w),
                1.0 - 2.0 * (x * x + y * y),
                0.0,
            ],
        ],
    }
}

pub fn normalise(q: [f64; 4]) -> [f64; 4] {
    let len = q.iter().map(|c| c * c).sum::<f64>().sqrt();
    if len > 0.0 {
        q.map(|c| c / len)
    } else {
        [0.0, 0.0, 0.0, 1.0]
    }
}

/// Translation · rotation · scale, as glTF composes a node's local transform.
pub fn trs(t: [f64; 3], r: [f64; 4], s: [f64; 3]) -> Transform {
    let scale = Transform {
        m: [
            [s[0], 0.0, 0.0, 0.0],
            [0.0, s[1], 0.0, 0.0],
            [0.0, 0.0, s[2], 0.0],
        ],
    };
    Transform::translation(t).then(&rotation(r)).then(&scale)
}

/// A glTF matrix (column-major 4×4).
pub fn from_columns(c: [[f32; 4]; 4]) -> Transform {
    let mut m = [[0.0; 4]; 3];
    for (row, r) in m.iter_mut().enumerate() {
        for (col, cell) in r.iter_mut().enumerate() {
            *cell = c[col][row] as f64;
        }
    }
    Transform { m }
}

/// The inverse of an affine transform; `None` when it is singular.
pub fn inverse(t: &Transform) -> Option<Transform> {
    let m = &t.m;
    let a = [
        [m[0][0], m[0][1], m[0][2]],
        [m[1][0], m[1][1], m[1][2]],
        [m[2][0], m[2][1], m[2][2]],
    ];
    let det = a[0][0] * (a[1][1] * a[2][2] - a[1][2] * a[2][1])
        - a[0][1] * (a[1][0] * a[2][2] - a[1][2] * a[2][0])
        + a[0][2] * (a[1][0] * a[2][1] - a[1][1] * a[2][0]);
    if det.abs() < 1e-12 {
        return None;
    }
    let inv = |r: usize, c: usize| {
        let (r1, r2) = ((c + 1) % 3, (c + 2) % 3);
        let (c1, c2) = ((r + 1) % 3, (r + 2) % 3);
        (a[r1][c1] * a[r2][c2] - a[r1][c2] * a[r2][c1]) / det
    };
    let mut out = [[0.0; 4]; 3];
    for (r, row) in out.iter_mut().enumerate() {
        for (c, cell) in row.iter_mut().take(3).enumerate() {
            *cell = inv(r, c);
        }
    }
    for row in out.iter_mut() {
        row[3] = -(0..3).map(|k| row[k] * m[k][3]).sum::<f64>();
    }
    Some(Transform { m: out })
}

/// The 3×3 linear part.
pub fn linear(t: &Transform) -> [[f64; 3]; 3] {
    [0, 1, 2].map(|r| [t.m[r][0], t.m[r][1], t.m[r][2]])
}

/// The rotation part of a transform that may carry scale (columns normalised).
pub fn rotation_part(t: &Transform) -> [[f64; 3]; 3] {
    let m = linear(t);
    let lengths = [0, 1, 2].map(|c| (0..3).map(|r| m[r][c] * m[r][c]).sum::<f64>().sqrt());
    [0, 1, 2].map(|r| {
        [0, 1, 2].map(|c| {
            if lengths[c] > 0.0 {
                m[r][c] / lengths[c]
            } else {
                m[r][c]
            }
        })
    })
}

pub fn transpose(m: [[f64; 3]; 3]) -> [[f64; 3]; 3] {
    [0, 1, 2].map(|r| [m[0][r], m[1][r], m[2][r]])
}

pub fn multiply(a: [[f64; 3]; 3], b: [[f64; 3]; 3]) -> [[f64; 3]; 3] {
    // Written out (nested `map`s were not inlined: 4% of a build); the same sums in the same
    // order, so the same bits.
    let mut m = [[0.0; 3]; 3];
    for (row, a) in m.iter_mut().zip(&a) {
        for (c, cell) in row.iter_mut().enumerate() {
            *cell = a[0] * b[0][c] + a[1] * b[1][c] + a[2] * b[2][c];
        }
    }
    m
}

/// Spherical interpolation between unit quaternions, the short way.
pub fn slerp(a: [f64; 4], b: [f64; 4], t: f64) -> [f64; 4] {
    let mut dot: f64 = (0..4).map(|i| a[i] * b[i]).sum();
    let b = if dot < 0.0 {
        dot = -dot;
        b.map(|c| -c)
    } else {
        b
    };
    if dot > 0.9995 {
        return normalise([0, 1, 2, 3].map(|i| a[i] + (b[i] - a[i]) * t));
    }
    let theta = dot.clamp(-1.0, 1.0).acos();
    let (wa, wb) = (
        ((1.0 - t) * theta).sin() / theta.sin(),
        (t * theta).sin() / theta.sin(),
    );
    [0, 1, 2, 3].map(|i| a[i] * wa + b[i] * wb)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inverse_undoes_a_transform() {
        let t = trs(
            [1.0, -2.0, 3.0],
            normalise([0.1, 0.7, -0.2, 0.6]),
            [2.0, 2.0, 2.0],
        );
        let i = inverse(&t).unwrap();
        let p = [0.3, 4.0, -7.0];
        let back = i.apply(t.apply(p));
        for k in 0..3 {
            assert!((back[k] - p[k]).abs() < 1e-9);
        }
    }

    #[test]
    fn quaternion_matrix_rotates_x_to_y_about_z() {
        let h = std::f64::consts::FRAC_1_SQRT_2;
        let p = rotation([0.0, 0.0, h, h]).apply([1.0, 0.0, 0.0]);
        assert!((p[0]).abs() < 1e-12 && (p[1] - 1.0).abs() < 1e-12);
    }
}
