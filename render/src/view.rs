//! Where the pictures are seen from, and how a scene is framed in a picture.
//!
//! A [`View`] is a rotation from TR space (+X right, +Y down, +Z forward) to camera space
//! (x right on screen, y down on screen, z away from the viewer), never a mirror, so the
//! clockwise winding of a polygon's visible side is kept. The projection is orthographic: a
//! picture's silhouette is the exact projection of the posed geometry.

/// A camera orientation.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct View {
    rows: [[f64; 3]; 3],
}

impl View {
    /// Facing the object: the viewer stands on its +Z side (in front of a TR object, which faces
    /// +Z) and looks back along −Z; TR's +Y stays down, so screen x is TR −X.
    pub fn front() -> Self {
        View::turned(0.0, 0.0)
    }

    /// The gallery's view: from in front, 35° round about the vertical, 22° above.
    pub fn three_quarter() -> Self {
        View::turned(35f64.to_radians(), 22f64.to_radians())
    }

    /// From in front, turned `yaw` about the vertical and looking down from `pitch` above.
    pub fn turned(yaw: f64, pitch: f64) -> Self {
        // Half a turn about Y faces the front; then yaw about Y, then the pitch about the
        // camera's x (a positive pitch brings the top, TR −Y, nearer).
        let (sy, cy) = (std::f64::consts::PI + yaw).sin_cos();
        let ry = [[cy, 0.0, sy], [0.0, 1.0, 0.0], [-sy, 0.0, cy]];
        let (sp, cp) = pitch.sin_cos();
        let rx = [[1.0, 0.0, 0.0], [0.0, cp, -sp], [0.0, sp, cp]];
        let mut rows = [[0.0; 3]; 3];
        for (r, row) in rows.iter_mut().enumerate() {
            for (c, cell) in row.iter_mut().enumerate() {
                *cell = (0..3).map(|k| rx[r][k] * ry[k][c]).sum();
            }
        }
        View { rows }
    }

    /// A TR-space point or direction in camera space.
    pub fn to_camera(&self, p: [f64; 3]) -> [f64; 3] {
        self.rows.map(|r| r[0] * p[0] + r[1] * p[1] + r[2] * p[2])
    }

    /// A camera-space direction in TR space (the inverse rotation).
    pub fn to_world(&self, d: [f64; 3]) -> [f64; 3] {
        [0, 1, 2].map(|c| (0..3).map(|r| self.rows[r][c] * d[r]).sum())
    }
}

/// The screen extents of camera-space points.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Extents {
    pub min: [f64; 2],
    pub max: [f64; 2],
}

impl Default for Extents {
    fn default() -> Self {
        Extents {
            min: [f64::INFINITY; 2],
            max: [f64::NEG_INFINITY; 2],
        }
    }
}

impl Extents {
    pub fn add(&mut self, p: [f64; 3]) {
        self.union(&Extents {
            min: [p[0], p[1]],
            max: [p[0], p[1]],
        });
    }

    pub fn union(&mut self, other: &Extents) {
        for a in 0..2 {
            self.min[a] = self.min[a].min(other.min[a]);
            self.max[a] = self.max[a].max(other.max[a]);
        }
    }

    pub fn is_empty(&self) -> bool {
        !(self.min[0] <= self.max[0] && self.min[1] <= self.max[1])
    }
}

/// Camera space → pixels: a uniform scale and an offset that put `extents` in the middle of a
/// `size`×`size` picture with `margin` pixels around.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Framing {
    pub scale: f64,
    pub offset: [f64; 2],
}

impl Framing {
    pub fn fit(extents: &Extents, size: u32, margin: u32) -> Self {
        if extents.is_empty() {
            return Framing {
                scale: 1.0,
                offset: [size as f64 / 2.0; 2],
            };
        }
        let room = (size.saturating_sub(2 * margin)).max(1) as f64;
        let span = (extents.max[0] - extents.min[0]).max(extents.max[1] - extents.min[1]);
        let scale = if span > 0.0 { room / span } else { 1.0 };
        let centre = [0, 1].map(|a| (extents.min[a] + extents.max[a]) / 2.0);
        Framing {
            scale,
            offset: [0, 1].map(|a| size as f64 / 2.0 - centre[a] * scale),
        }
    }

    /// Pixel x, pixel y and depth of a camera-space point.
    pub fn to_pixel(&self, p: [f64; 3]) -> [f32; 3] {
        [
            (p[0] * self.scale + self.offset[0]) as f32,
            (p[1] * self.scale + self.offset[1]) as f32,
            p[2] as f32,
        ]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: [f64; 3], b: [f64; 3]) -> bool {
        a.iter().zip(&b).all(|(p, q)| (p - q).abs() < 1e-9)
    }

    #[test]
    fn the_front_view_faces_the_object() {
        let v = View::front();
        // The object's front (+Z) is nearest, its right (+X) on the screen's left, down stays down.
        assert!(close(v.to_camera([0.0, 0.0, 1.0]), [0.0, 0.0, -1.0]));
        assert!(close(v.to_camera([1.0, 0.0, 0.0]), [-1.0, 0.0, 0.0]));
        assert!(close(v.to_camera([0.0, 1.0, 0.0]), [0.0, 1.0, 0.0]));
    }

    #[test]
    fn the_three_quarter_view_sees_the_top_and_is_a_rotation() {
        let v = View::three_quarter();
        // The top (TR −Y) tilts towards the viewer.
        assert!(v.to_camera([0.0, -1.0, 0.0])[2] < 0.0);
        let p = [3.0, -4.0, 5.0];
        assert!(close(v.to_world(v.to_camera(p)), p));
        let len = |a: [f64; 3]| (a[0] * a[0] + a[1] * a[1] + a[2] * a[2]).sqrt();
        assert!((len(v.to_camera(p)) - len(p)).abs() < 1e-9);
    }

    #[test]
    fn framing_centres_the_extents_with_a_margin() {
        let mut e = Extents::default();
        e.add([-100.0, -50.0, 0.0]);
        e.add([100.0, 150.0, 0.0]);
        let f = Framing::fit(&e, 120, 10);
        assert_eq!(f.to_pixel([-100.0, -50.0, 0.0]), [10.0, 10.0, 0.0]);
        assert_eq!(f.to_pixel([100.0, 150.0, 0.0]), [110.0, 110.0, 0.0]);
    }
}
