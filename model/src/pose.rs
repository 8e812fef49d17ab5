//! Posing a moveable: where each of its meshes sits for a keyframe, by TR's own rule.
//!
//! Everything here works in TR's axes (+X right, +Y down, +Z forward, right-handed) with the
//! ordinary right-handed rotation matrices. A mesh's world transform is its parent's world
//! transform, then the translation of its link offset, then its keyframe rotation applied as
//! `Ry · Rx · Rz`:
//!
//! ```text
//! world(root) = T(keyframe offset) · Ry(y) · Rx(x) · Rz(z)
//! world(mesh) = world(parent) · T(link offset) · Ry(y) · Rx(x) · Rz(z)
//! ```
//!
//! Posing every mesh this way reproduces the frame bounding boxes stored in real files to within
//! a few units; any other order or sign is far off.

use crate::{BoundingBox, Keyframe, Link, Mesh, Rotation};

/// Row-major 3×4 affine transform (f64): a 3×3 linear part and a translation column.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Transform {
    pub m: [[f64; 4]; 3],
}

impl Default for Transform {
    fn default() -> Self {
        Self::IDENTITY
    }
}

impl Transform {
    pub const IDENTITY: Transform = Transform {
        m: [[1.0, 0.0, 0.0, 0.0], [0.0, 1.0, 0.0, 0.0], [0.0, 0.0, 1.0, 0.0]],
    };

    /// A pure translation.
    pub fn translation(t: [f64; 3]) -> Self {
        Transform {
            m: [
                [1.0, 0.0, 0.0, t[0]],
                [0.0, 1.0, 0.0, t[1]],
                [0.0, 0.0, 1.0, t[2]],
            ],
        }
    }

    /// The rotation of a keyframe angle set: `Ry(y) · Rx(x) · Rz(z)`.
    pub fn rotation_yxz(r: &Rotation) -> Self {
        let [x, y, z] = r.radians();
        rot_y(y).then(&rot_x(x)).then(&rot_z(z))
    }

    /// The composition `self · child`: `child` is applied first, then `self`.
    pub fn then(&self, child: &Transform) -> Transform {
        let a = &self.m;
        let b = &child.m;
        let mut m = [[0.0; 4]; 3];
        for (r, row) in m.iter_mut().enumerate() {
            for (c, cell) in row.iter_mut().enumerate() {
                *cell = a[r][0] * b[0][c] + a[r][1] * b[1][c] + a[r][2] * b[2][c];
            }
            row[3] += a[r][3];
        }
        Transform { m }
    }

    /// Transforms a point.
    pub fn apply(&self, p: [f64; 3]) -> [f64; 3] {
        let m = &self.m;
        [
            m[0][0] * p[0] + m[0][1] * p[1] + m[0][2] * p[2] + m[0][3],
            m[1][0] * p[0] + m[1][1] * p[1] + m[1][2] * p[2] + m[1][3],
            m[2][0] * p[0] + m[2][1] * p[1] + m[2][2] * p[2] + m[2][3],
        ]
    }
}

fn rot_x(a: f64) -> Transform {
    let (s, c) = a.sin_cos();
    Transform {
        m: [[1.0, 0.0, 0.0, 0.0], [0.0, c, -s, 0.0], [0.0, s, c, 0.0]],
    }
}

fn rot_y(a: f64) -> Transform {
    let (s, c) = a.sin_cos();
    Transform {
        m: [[c, 0.0, s, 0.0], [0.0, 1.0, 0.0, 0.0], [-s, 0.0, c, 0.0]],
    }
}

fn rot_z(a: f64) -> Transform {
    let (s, c) = a.sin_cos();
    Transform {
        m: [[c, -s, 0.0, 0.0], [s, c, 0.0, 0.0], [0.0, 0.0, 1.0, 0.0]],
    }
}

/// World transform of each mesh of a moveable with these `links` in `keyframe`: one per mesh
/// (`links.len() + 1`), root first.
///
/// Rotations beyond the mesh count are ignored; missing ones are identity. A link whose parent
/// is not an earlier mesh (a corrupt hierarchy) hangs from the root.
pub fn pose(links: &[Link], keyframe: &Keyframe) -> Vec<Transform> {
    let rotation = |i: usize| {
        keyframe
            .rotations
            .get(i)
            .map(Transform::rotation_yxz)
            .unwrap_or(Transform::IDENTITY)
    };
    let [ox, oy, oz] = keyframe.offset.map(f64::from);
    let mut world = Vec::with_capacity(links.len() + 1);
    world.push(Transform::translation([ox, oy, oz]).then(&rotation(0)));
    for (i, link) in links.iter().enumerate() {
        let mesh = i + 1;
        let parent = if link.parent < mesh {
            world[link.parent]
        } else {
            world[0]
        };
        let [dx, dy, dz] = link.offset.map(f64::from);
        let local = Transform::translation([dx, dy, dz]).then(&rotation(mesh));
        world.push(parent.then(&local));
    }
    world
}

/// Bounding box of all vertices of the posed meshes, rounded outward to integers (floor of the
/// minimum, ceiling of the maximum), as the game's tools computed frame boxes. `meshes[i]` is the
/// mesh of joint `i`; joints without a mesh, and meshes beyond the joint count, are skipped.
/// Without any vertex the box is all zeros.
pub fn posed_bounding_box(links: &[Link], keyframe: &Keyframe, meshes: &[&Mesh]) -> BoundingBox {
    let world = pose(links, keyframe);
    let mut min = [f64::INFINITY; 3];
    let mut max = [f64::NEG_INFINITY; 3];
    for (transform, mesh) in world.iter().zip(meshes) {
        for v in &mesh.vertices {
            let p = transform.apply(v.map(f64::from));
            for axis in 0..3 {
                min[axis] = min[axis].min(p[axis]);
                max[axis] = max[axis].max(p[axis]);
            }
        }
    }
    if min[0] > max[0] {
        return BoundingBox::default();
    }
    BoundingBox {
        min: min.map(|v| to_i16(snap(v).floor())),
        max: max.map(|v| to_i16(snap(v).ceil())),
    }
}

/// Rounding noise of the trigonometry (a right angle's cosine is 6e-17, not 0) must not push a
/// whole-number coordinate to the next integer.
fn snap(v: f64) -> f64 {
    let r = v.round();
    if (v - r).abs() < 1e-6 {
        r
    } else {
        v
    }
}

fn to_i16(v: f64) -> i16 {
    v.clamp(i16::MIN as f64, i16::MAX as f64) as i16
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{AngleEncoding, Polygon};

    fn rot(x: u16, y: u16, z: u16) -> Rotation {
        Rotation {
            x,
            y,
            z,
            encoding: AngleEncoding::ThreeAxes,
        }
    }

    fn close(a: [f64; 3], b: [f64; 3]) -> bool {
        a.iter().zip(&b).all(|(p, q)| (p - q).abs() < 1e-9)
    }

    fn mesh(vertices: Vec<[i16; 3]>) -> Mesh {
        Mesh {
            vertices,
            polygons: Vec::<Polygon>::new(),
            ..Mesh::default()
        }
    }

    const QUARTER: u16 = 1024;

    #[test]
    fn identity_pose_is_vertices_plus_offsets() {
        let links = [
            Link {
                parent: 0,
                offset: [10, -20, 30],
            },
            Link {
                parent: 1,
                offset: [0, 100, 0],
            },
            Link {
                parent: 0,
                offset: [-5, 0, 7],
            },
        ];
        let keyframe = Keyframe {
            offset: [1, 2, 3],
            rotations: vec![Rotation::default(); 4],
            ..Keyframe::default()
        };
        let world = pose(&links, &keyframe);
        assert_eq!(world.len(), 4);
        let origins: Vec<[f64; 3]> = world.iter().map(|t| t.apply([0.0; 3])).collect();
        assert_eq!(
            origins,
            vec![
                [1.0, 2.0, 3.0],
                [11.0, -18.0, 33.0],
                [11.0, 82.0, 33.0],
                [-4.0, 2.0, 10.0]
            ]
        );
        assert_eq!(world[2].apply([1.0, 1.0, 1.0]), [12.0, 83.0, 34.0]);

        let meshes = [
            mesh(vec![[-1, -1, -1], [1, 1, 1]]),
            mesh(vec![[0, 0, 0]]),
            mesh(vec![[0, 50, 0]]),
            mesh(vec![]),
        ];
        let refs: Vec<&Mesh> = meshes.iter().collect();
        let bb = posed_bounding_box(&links, &keyframe, &refs);
        assert_eq!(
            bb,
            BoundingBox {
                min: [0, -18, 2],
                max: [11, 132, 33]
            }
        );
    }

    #[test]
    fn missing_rotations_are_identity_and_extra_ones_ignored() {
        let links = [Link {
            parent: 0,
            offset: [0, 0, 100],
        }];
        let short = Keyframe {
            rotations: vec![],
            ..Keyframe::default()
        };
        assert!(close(pose(&links, &short)[1].apply([0.0; 3]), [0.0, 0.0, 100.0]));
        let long = Keyframe {
            rotations: vec![Rotation::default(); 5],
            ..Keyframe::default()
        };
        assert_eq!(pose(&links, &long).len(), 2);
    }

    #[test]
    fn quarter_turn_about_y_moves_plus_x_to_minus_z() {
        // Ry(90°) = [[0,0,1],[0,1,0],[-1,0,0]]: (1,0,0) → (0,0,-1), (0,0,1) → (1,0,0).
        let keyframe = Keyframe {
            rotations: vec![Rotation::compact(0, QUARTER, 0)],
            ..Keyframe::default()
        };
        let world = pose(&[], &keyframe);
        assert!(close(world[0].apply([100.0, 0.0, 0.0]), [0.0, 0.0, -100.0]));
        assert!(close(world[0].apply([0.0, 0.0, 100.0]), [100.0, 0.0, 0.0]));
        assert!(close(world[0].apply([0.0, 7.0, 0.0]), [0.0, 7.0, 0.0]));

        let box_mesh = mesh(vec![[100, 0, 0], [0, 10, 20]]);
        let bb = posed_bounding_box(&[], &keyframe, &[&box_mesh]);
        // Exactly -100..20 on Z despite cos(90°) not being exactly 0.
        assert_eq!(
            bb,
            BoundingBox {
                min: [0, 0, -100],
                max: [20, 10, 0]
            }
        );
    }

    #[test]
    fn quarter_turns_about_x_and_z_follow_the_right_hand() {
        // Rx(90°): +Y → +Z; Rz(90°): +X → +Y.
        let rx = Transform::rotation_yxz(&Rotation::compact(QUARTER, 0, 0));
        assert!(close(rx.apply([0.0, 1.0, 0.0]), [0.0, 0.0, 1.0]));
        let rz = Transform::rotation_yxz(&Rotation::compact(0, 0, QUARTER));
        assert!(close(rz.apply([1.0, 0.0, 0.0]), [0.0, 1.0, 0.0]));
    }

    #[test]
    fn order_is_y_then_x_then_z() {
        let r = rot(QUARTER, QUARTER, 0);
        let yxz = Transform::rotation_yxz(&r);
        let (rx, ry) = (
            rot_x(std::f64::consts::FRAC_PI_2),
            rot_y(std::f64::consts::FRAC_PI_2),
        );
        let xyz = rx.then(&ry);
        let p = [0.0, 0.0, 1.0];
        // Ry·Rx: Rx takes +Z to -Y, Ry leaves it there.
        assert!(close(yxz.apply(p), [0.0, -1.0, 0.0]));
        assert!(close(yxz.apply(p), ry.then(&rx).apply(p)));
        // Rx·Ry: Ry takes +Z to +X, Rx leaves it there.
        assert!(close(xyz.apply(p), [1.0, 0.0, 0.0]));
        assert!(!close(yxz.apply(p), xyz.apply(p)));

        // All three axes: Ry·Rx·Rz, with Rz applied to the point first.
        let r = rot(QUARTER, QUARTER, QUARTER);
        let full = Transform::rotation_yxz(&r);
        let rz = rot_z(std::f64::consts::FRAC_PI_2);
        let q = [1.0, 0.0, 0.0];
        assert!(close(full.apply(q), ry.apply(rx.apply(rz.apply(q)))));
        assert!(!close(full.apply(q), rz.apply(rx.apply(ry.apply(q)))));
    }

    #[test]
    fn child_inherits_parent_rotation() {
        let links = [
            Link {
                parent: 0,
                offset: [100, 0, 0],
            },
            Link {
                parent: 1,
                offset: [0, 0, 50],
            },
        ];
        let keyframe = Keyframe {
            offset: [0, -10, 0],
            rotations: vec![
                Rotation::compact(0, QUARTER, 0),
                Rotation::default(),
                Rotation::compact(0, QUARTER, 0),
            ],
            ..Keyframe::default()
        };
        let world = pose(&links, &keyframe);
        // Root turned 90° about Y: the child's pivot at +X 100 swings to -Z 100.
        assert!(close(world[1].apply([0.0; 3]), [0.0, -10.0, -100.0]));
        // The child has no rotation of its own yet points its +X to -Z like its parent.
        assert!(close(world[1].apply([1.0, 0.0, 0.0]), [0.0, -10.0, -101.0]));
        // The grandchild adds another quarter turn: 180° in all, +X → -X; its offset +Z 50 was
        // turned once (by the root): +Z → +X.
        assert!(close(world[2].apply([0.0; 3]), [50.0, -10.0, -100.0]));
        assert!(close(world[2].apply([1.0, 0.0, 0.0]), [49.0, -10.0, -100.0]));
    }

    #[test]
    fn bounding_box_rounds_outward() {
        // 45° about Z: (10, 0, 0) → (7.07, 7.07, 0).
        let keyframe = Keyframe {
            rotations: vec![Rotation::compact(0, 0, 512)],
            ..Keyframe::default()
        };
        let m = mesh(vec![[10, 0, 0], [-10, 0, 1]]);
        let bb = posed_bounding_box(&[], &keyframe, &[&m]);
        assert_eq!(
            bb,
            BoundingBox {
                min: [-8, -8, 0],
                max: [8, 8, 1]
            }
        );
        assert_eq!(posed_bounding_box(&[], &keyframe, &[]), BoundingBox::default());
    }
}

/// The keyframe angles of a rotation matrix (TR axes, row-major): the inverse of
/// [`Transform::rotation_yxz`], in units of 4096 per turn, encoded as [`Rotation::compact`] would
/// (one axis when the other two are zero; three-axis angles rounded to multiples of 4).
///
/// Two angle sets give every rotation: (x, y, z) and (180° − x, y + 180°, z + 180°). The game
/// interpolates each angle between keyframes, so the choice matters: the set nearest `near` (the
/// previous keyframe's) is taken, or without it the one with the smaller angles.
pub fn rotation_from_matrix(m: [[f64; 3]; 3], near: Option<&Rotation>) -> Rotation {
    AngleSets::of_matrix(m).nearest(near)
}

/// The two angle sets of a rotation matrix, in units of 4096 per turn (see
/// [`rotation_from_matrix`], which takes the one nearest the previous keyframe's): worked out once,
/// they answer for any previous keyframe.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct AngleSets {
    first: [f64; 3],
    second: [f64; 3],
}

impl AngleSets {
    /// The angle sets of the rotation matrix `m` (TR axes, row-major).
    pub fn of_matrix(m: [[f64; 3]; 3]) -> Self {
        // M = Ry·Rx·Rz: M[1][2] = −sin x, M[0][2] = sin y cos x, M[2][2] = cos y cos x,
        // M[1][0] = cos x sin z, M[1][1] = cos x cos z.
        let sx = (-m[1][2]).clamp(-1.0, 1.0);
        let x = sx.asin();
        let (y, z) = if sx.abs() < 1.0 - 1e-9 {
            (m[0][2].atan2(m[2][2]), m[1][0].atan2(m[1][1]))
        } else {
            // Gimbal lock: only y ± z is defined; put it all in y.
            ((-m[2][0]).atan2(m[0][0]), 0.0)
        };
        let units = |a: f64| wrap((a / std::f64::consts::TAU * TURN).round());
        let first = [units(x), units(y), units(z)];
        let half = TURN / 2.0;
        let second = [
            wrap(half - first[0]),
            wrap(first[1] + half),
            wrap(first[2] + half),
        ];
        AngleSets { first, second }
    }

    /// The set nearest `near`, or without it the one with the smaller angles.
    pub fn nearest(&self, near: Option<&Rotation>) -> Rotation {
        let target = near.map_or([0.0; 3], |r| [r.x, r.y, r.z].map(|a| wrap(a as f64)));
        let distance = |a: &[f64; 3]| -> f64 {
            (0..3)
                .map(|i| {
                    let d = wrap(a[i] - target[i]);
                    d.min(TURN - d)
                })
                .sum()
        };
        let [x, y, z] = if distance(&self.second) < distance(&self.first) {
            self.second
        } else {
            self.first
        };
        Rotation::compact(x as u16, y as u16, z as u16)
    }
}

const TURN: f64 = Rotation::FULL_TURN as f64;

/// `rem_euclid(TURN)` of whole numbers, exactly (a turn is a power of two), without the
/// library's fmod, which took 4% of an import.
fn wrap(a: f64) -> f64 {
    a - (a / TURN).floor() * TURN
}

#[cfg(test)]
mod inverse_tests {
    use super::*;

    fn matrix(r: &Rotation) -> [[f64; 3]; 3] {
        let t = Transform::rotation_yxz(r);
        [0, 1, 2].map(|i| [t.m[i][0], t.m[i][1], t.m[i][2]])
    }

    #[test]
    fn the_angle_set_nearest_the_previous_keyframe_is_chosen() {
        // x beyond 90°: the principal solution differs, the previous keyframe decides.
        let previous = Rotation::compact(1100, 20, 40);
        let r = Rotation::compact(1120, 24, 48);
        assert_eq!(rotation_from_matrix(matrix(&r), Some(&previous)), r);
        let mirrored = Rotation::compact(2048 - 1120, 2048 + 24, 2048 + 48);
        assert_eq!(rotation_from_matrix(matrix(&r), Some(&mirrored)), mirrored);
    }

    #[test]
    fn matrices_give_back_their_angles() {
        for (x, y, z) in [
            (0, 0, 0),
            (1000, 0, 0),
            (0, 2000, 0),
            (0, 0, 4092),
            (100, 900, 300),
            (3996, 16, 900),
        ] {
            let r = Rotation::compact(x, y, z);
            let t = Transform::rotation_yxz(&r);
            let m = [0, 1, 2].map(|i| [t.m[i][0], t.m[i][1], t.m[i][2]]);
            let back = rotation_from_matrix(m, None);
            // The same rotation: compare the matrices (Euler angles are not unique).
            let t2 = Transform::rotation_yxz(&back);
            for i in 0..3 {
                for j in 0..3 {
                    assert!((t.m[i][j] - t2.m[i][j]).abs() < 2e-3, "{r:?} -> {back:?}");
                }
            }
            assert_eq!(back, r, "the smaller angle set is the one given");
        }
    }

    #[test]
    fn gimbal_lock_still_gives_the_same_rotation() {
        let r = Rotation::compact(1024, 400, 800);
        let t = Transform::rotation_yxz(&r);
        let back = rotation_from_matrix([0, 1, 2].map(|i| [t.m[i][0], t.m[i][1], t.m[i][2]]), None);
        let t2 = Transform::rotation_yxz(&back);
        for i in 0..3 {
            for j in 0..3 {
                assert!((t.m[i][j] - t2.m[i][j]).abs() < 2e-3, "{back:?}");
            }
        }
    }
}
