//! Meshes: vertices, normals or shades, and textured polygons.

/// A vertex position in TR units (1024 per sector, +Y down), relative to the mesh's pivot.
pub type Vertex = [i16; 3];

#[derive(Debug, Clone, PartialEq, Eq, Hash, Default)]
pub struct Mesh {
    pub sphere: BoundingSphere,
    pub vertices: Vec<Vertex>,
    pub shading: Shading,
    pub polygons: Vec<Polygon>,
}

impl Mesh {
    /// A fingerprint of the positions the polygons use (as a set: order and duplicates do not
    /// count), to tell an unedited mesh from an edited one. FNV-1a over the sorted positions.
    pub fn positions_fingerprint(&self) -> u64 {
        let mut used: Vec<Vertex> = self
            .polygons
            .iter()
            .flat_map(|p| p.corners())
            .filter_map(|&v| self.vertices.get(v as usize).copied())
            .collect();
        used.sort_unstable();
        used.dedup();
        let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
        for v in used {
            for b in v.iter().flat_map(|c| c.to_le_bytes()) {
                hash = (hash ^ b as u64).wrapping_mul(0x0100_0000_01b3);
            }
        }
        hash
    }

    /// Area-weighted vertex normals (unit length, TR axes) from the polygons' outward faces,
    /// straight up (TR −Y) where a vertex has no faces. Corners are clockwise seen from the
    /// visible side, so a face's outward normal is (c − a) × (b − a).
    pub fn area_weighted_normals(&self) -> Vec<[f64; 3]> {
        let mut sums = vec![[0.0f64; 3]; self.vertices.len()];
        let vertex = |i: u16| self.vertices.get(i as usize).map(|v| v.map(|c| c as f64));
        for p in &self.polygons {
            let corners = p.corners();
            for k in 1..corners.len() - 1 {
                let (Some(a), Some(b), Some(c)) =
                    (vertex(corners[0]), vertex(corners[k]), vertex(corners[k + 1]))
                else {
                    continue;
                };
                let (u, w) = ([0, 1, 2].map(|i| b[i] - a[i]), [0, 1, 2].map(|i| c[i] - a[i]));
                let n = [
                    w[1] * u[2] - w[2] * u[1],
                    w[2] * u[0] - w[0] * u[2],
                    w[0] * u[1] - w[1] * u[0],
                ];
                for i in [corners[0], corners[k], corners[k + 1]] {
                    if let Some(s) = sums.get_mut(i as usize) {
                        (0..3).for_each(|j| s[j] += n[j]);
                    }
                }
            }
        }
        sums.into_iter()
            .map(|s| {
                let len = (s[0] * s[0] + s[1] * s[1] + s[2] * s[2]).sqrt();
                if len > 1e-9 {
                    s.map(|c| c / len)
                } else {
                    [0.0, -1.0, 0.0]
                }
            })
            .collect()
    }
}

/// The sphere the engine uses for proximity and collision tests of moveables.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct BoundingSphere {
    pub center: [i16; 3],
    /// A radius of 0 disables collision for this mesh.
    pub radius: u16,
    /// The word after the radius: 0 or 1 in real files, meaning unknown. Kept as read.
    pub flag: u16,
}

/// Per-vertex lighting: moveables carry normals, statics carry shades.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Shading {
    /// Normals of length about 16300 (the WAD's unit length), usually one per vertex.
    Normals(Vec<[i16; 3]>),
    /// Shades from 0 (lightest) to 0x1FFF (darkest), usually one per vertex.
    Shades(Vec<i16>),
}

impl Default for Shading {
    fn default() -> Self {
        Shading::Normals(Vec::new())
    }
}

impl Shading {
    /// Length of a unit normal in the WAD's fixed-point normals.
    pub const NORMAL_LENGTH: f64 = 16300.0;

    pub fn len(&self) -> usize {
        match self {
            Shading::Normals(n) => n.len(),
            Shading::Shades(s) => s.len(),
        }
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// A triangle or quad, vertices listed clockwise seen from the visible side.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Polygon {
    /// Vertex indices; a triangle uses the first three (the fourth is 0).
    pub vertices: [u16; 4],
    pub is_quad: bool,
    pub texture: PolygonTexture,
    pub attributes: Attributes,
    /// The byte after the attributes; unused by the engine. Kept as read.
    pub unused: u8,
}

impl Polygon {
    pub fn triangle(vertices: [u16; 3], texture: PolygonTexture, attributes: Attributes) -> Self {
        let [a, b, c] = vertices;
        Polygon {
            vertices: [a, b, c, 0],
            is_quad: false,
            texture,
            attributes,
            unused: 0,
        }
    }

    pub fn quad(vertices: [u16; 4], texture: PolygonTexture, attributes: Attributes) -> Self {
        Polygon {
            vertices,
            is_quad: true,
            texture,
            attributes,
            unused: 0,
        }
    }

    /// The vertex indices this polygon uses, in stored order.
    pub fn corners(&self) -> &[u16] {
        if self.is_quad {
            &self.vertices
        } else {
            &self.vertices[..3]
        }
    }

    /// The triangles the game draws this polygon as, by corner (positions in [`Self::corners`]):
    /// a quad `v0 v1 v2 v3` is split along `v0–v2`.
    pub fn triangle_corners(&self) -> &'static [[usize; 3]] {
        if self.is_quad {
            &[[0, 1, 2], [0, 2, 3]]
        } else {
            &[[0, 1, 2]]
        }
    }

    /// The triangles the game draws this polygon as, by vertex index.
    pub fn triangles(&self) -> impl Iterator<Item = [u16; 3]> + '_ {
        let c = self.corners();
        self.triangle_corners().iter().map(move |t| t.map(|k| c[k]))
    }
}

/// Whether a triangle has no area: its corners at one place or on one line.
pub fn has_no_area(corners: [Vertex; 3]) -> bool {
    let [a, b, c] = corners.map(|p| p.map(i64::from));
    let (u, w) = ([0, 1, 2].map(|k| b[k] - a[k]), [0, 1, 2].map(|k| c[k] - a[k]));
    [
        u[1] * w[2] - u[2] * w[1],
        u[2] * w[0] - u[0] * w[2],
        u[0] * w[1] - u[1] * w[0],
    ] == [0; 3]
}

/// Which sample a polygon maps and how its corners sit on it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct PolygonTexture {
    /// Index into [`crate::Wad::samples`]. Triangles reach at most 4096 samples.
    pub sample: u16,
    /// Triangles: which corner of the sample holds the right angle (0, 2, 4 or 6; other values
    /// are kept as read). Always 0 for quads.
    pub shape: u8,
    /// Mirrored horizontally.
    pub flipped: bool,
}

/// The polygon's attribute byte, decoded.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Attributes {
    /// Bit 0: additive (translucent) blending instead of opaque with magenta cut-outs.
    pub additive: bool,
    /// Bit 1: the shine effect is on (moveables only; TR4 crashes on shiny statics).
    pub shine: bool,
    /// Bits 2..6: shine intensity, 0..=31.
    pub shine_intensity: u8,
    /// Bit 7: unknown; when set it appears to disable shine.
    pub unknown_bit: bool,
}

impl Attributes {
    pub fn from_byte(b: u8) -> Self {
        Attributes {
            additive: b & 0x01 != 0,
            shine: b & 0x02 != 0,
            shine_intensity: (b >> 2) & 0x1F,
            unknown_bit: b & 0x80 != 0,
        }
    }

    pub fn to_byte(self) -> u8 {
        (self.additive as u8)
            | (self.shine as u8) << 1
            | (self.shine_intensity & 0x1F) << 2
            | (self.unknown_bit as u8) << 7
    }
}
