//! TR space → glTF space.
//!
//! TR: +X right, +Y down, +Z forward (right-handed), 1024 units per sector. glTF: +Y up, +Z
//! forward, metres. The two differ by a rotation of 180° about Z, never a mirror, so windings,
//! cross products and rotation handedness carry over; only the scale changes lengths.

use wadforge_format::Rotation;

/// TR units per glTF metre by default: a sector (1024 units) is 2 m, so Lara stands about 1.5 m.
pub const DEFAULT_TR_UNITS_PER_METRE: f64 = 512.0;

#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Space {
    pub tr_units_per_metre: f64,
}

impl Space {
    /// A TR position (or offset) in glTF metres.
    pub fn point(&self, p: [f64; 3]) -> [f32; 3] {
        let s = self.tr_units_per_metre;
        [(-p[0] / s) as f32, (-p[1] / s) as f32, (p[2] / s) as f32]
    }

    pub fn point_i16(&self, p: [i16; 3]) -> [f32; 3] {
        self.point([p[0] as f64, p[1] as f64, p[2] as f64])
    }

    /// A TR direction as a glTF direction (no scaling).
    pub fn direction(d: [f64; 3]) -> [f64; 3] {
        [-d[0], -d[1], d[2]]
    }
}

/// The unit quaternion `[x, y, z, w]` of a TR rotation `Ry · Rx · Rz` (TR's pose rule), expressed
/// in glTF axes.
pub fn quaternion(r: &Rotation) -> [f64; 4] {
    let [ax, ay, az] = r.radians();
    let about = |axis: usize, angle: f64| {
        let mut q = [0.0, 0.0, 0.0, (angle / 2.0).cos()];
        q[axis] = (angle / 2.0).sin();
        q
    };
    let q = multiply(multiply(about(1, ay), about(0, ax)), about(2, az));
    // Conjugating by the 180° turn about Z negates the X and Y parts of the rotation axis.
    [-q[0], -q[1], q[2], q[3]]
}

/// Hamilton product `a · b` of quaternions `[x, y, z, w]`.
pub fn multiply(a: [f64; 4], b: [f64; 4]) -> [f64; 4] {
    let [ax, ay, az, aw] = a;
    let [bx, by, bz, bw] = b;
    [
        aw * bx + ax * bw + ay * bz - az * by,
        aw * by - ax * bz + ay * bw + az * bx,
        aw * bz + ax * by - ay * bx + az * bw,
        aw * bw - ax * bx - ay * by - az * bz,
    ]
}

#[cfg(test)]
mod tests {
    use super::*;
    use wadforge_format::pose::Transform;

    fn rotate(q: [f64; 4], v: [f64; 3]) -> [f64; 3] {
        let p = multiply(multiply(q, [v[0], v[1], v[2], 0.0]), [-q[0], -q[1], -q[2], q[3]]);
        [p[0], p[1], p[2]]
    }

    #[test]
    fn quaternion_agrees_with_the_tr_pose_rule_in_gltf_axes() {
        for (x, y, z) in [
            (0, 0, 0),
            (1024, 0, 0),
            (0, 512, 0),
            (0, 0, 300),
            (100, 2000, 3000),
            (4000, 17, 900),
        ] {
            let r = Rotation {
                x,
                y,
                z,
                ..Rotation::default()
            };
            let tr = Transform::rotation_yxz(&r);
            let q = quaternion(&r);
            for v in [
                [1.0, 0.0, 0.0],
                [0.0, 1.0, 0.0],
                [0.0, 0.0, 1.0],
                [0.3, -0.7, 2.0],
            ] {
                let expected = Space::direction(tr.apply(v));
                let got = rotate(q, Space::direction(v));
                for k in 0..3 {
                    assert!(
                        (expected[k] - got[k]).abs() < 1e-12,
                        "{r:?} {v:?}: {expected:?} vs {got:?}"
                    );
                }
            }
        }
    }

    #[test]
    fn tr_down_is_gltf_down_and_forward_stays_forward() {
        let s = Space {
            tr_units_per_metre: 512.0,
        };
        assert_eq!(s.point([0.0, 512.0, 0.0]), [0.0, -1.0, 0.0]);
        assert_eq!(s.point([0.0, 0.0, 1024.0]), [0.0, 0.0, 2.0]);
        assert_eq!(s.point([256.0, 0.0, 0.0]), [-0.5, 0.0, 0.0]);
    }
}
