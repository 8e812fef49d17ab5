//! Bounding spheres: the manifest's sphere while it still encloses the mesh, a tight one otherwise.
//!
//! The engine uses a mesh's sphere for proximity and collision tests, so an edited mesh must stay
//! inside it. An unedited mesh keeps the sphere the file had (whatever tool computed it), so a
//! round trip writes the same bytes.
//!
//! A rebuilt sphere is the minimal enclosing sphere (Welzl's algorithm, in its iterative
//! move-to-front form over a deterministic shuffle, in `f64`), then made exact in integers: of the
//! eight integer centres around the real one, the one whose farthest vertex is nearest, with the
//! radius rounded up so that every vertex satisfies `|v − centre|² ≤ radius²` exactly. The
//! rebuilt radius is therefore at most the optimum + √3/2 + 1 TR units.

use wadforge_format::BoundingSphere;
use wadforge_manifests::Sphere;

/// The manifest's sphere when it still encloses every vertex (exactly: squared integer distance ≤
/// radius²) but those where the mesh as stored had them (`stored`, by index; empty for a mesh
/// without a stored copy): an edit that moves a vertex within the sphere keeps it, even one
/// that never enclosed its mesh (real files hold such). Otherwise a tight enclosing sphere
/// (Welzl) with the centre rounded to integers and the radius rounded up so that it encloses
/// every vertex from the rounded centre. The flag word is kept from the manifest. A mesh without
/// vertices keeps the manifest sphere, and so does a sphere of radius 0: that is how a WAD turns
/// a mesh's collision off.
///
/// The radius is clamped to `u16::MAX`. That cannot happen for `i16` vertices (the minimal
/// sphere's radius is at most half the diagonal of the ±32768 cube, about 56 755); the clamp only
/// keeps the conversion total.
pub fn bounding_sphere(vertices: &[[i16; 3]], manifest: &Sphere, stored: &[[i16; 3]]) -> BoundingSphere {
    let r2 = i64::from(manifest.radius) * i64::from(manifest.radius);
    let kept = |(i, v): (usize, &[i16; 3])| stored.get(i) == Some(v) || distance2(*v, manifest.center) <= r2;
    if manifest.radius == 0 || vertices.iter().enumerate().all(kept) {
        return BoundingSphere {
            center: manifest.center,
            radius: manifest.radius,
            flag: manifest.flag,
        };
    }
    let (center, radius) = enclosing_sphere(vertices);
    BoundingSphere {
        center,
        radius,
        flag: manifest.flag,
    }
}

/// Every vertex lies in the sphere (on its surface included), exactly in integers.
pub fn encloses(vertices: &[[i16; 3]], center: [i16; 3], radius: u16) -> bool {
    let r2 = i64::from(radius) * i64::from(radius);
    vertices.iter().all(|v| distance2(*v, center) <= r2)
}

/// A tight integer sphere around `vertices` (centre, radius), enclosing each of them exactly.
/// An empty slice gives the zero sphere.
pub fn enclosing_sphere(vertices: &[[i16; 3]]) -> ([i16; 3], u16) {
    if vertices.is_empty() {
        return ([0; 3], 0);
    }
    let mut points: Vec<[i16; 3]> = vertices.to_vec();
    points.sort_unstable();
    points.dedup();

    // Work relative to the middle of the box, for well-conditioned determinants.
    let mut lo = points[0];
    let mut hi = points[0];
    for p in &points {
        for k in 0..3 {
            lo[k] = lo[k].min(p[k]);
            hi[k] = hi[k].max(p[k]);
        }
    }
    let origin: [f64; 3] = std::array::from_fn(|k| (f64::from(lo[k]) + f64::from(hi[k])) / 2.0);
    let mut real: Vec<P> = points
        .iter()
        .map(|p| std::array::from_fn(|k| f64::from(p[k]) - origin[k]))
        .collect();
    shuffle(&mut real, seed_of(&points));
    let ball = welzl(&real);
    let centre: [f64; 3] = std::array::from_fn(|k| ball.c[k] + origin[k]);

    // The best of the eight integer centres around the real one.
    let mut best: Option<([i16; 3], i64)> = None;
    for corner in 0..8 {
        let candidate: [i16; 3] = std::array::from_fn(|k| {
            let v = if corner >> k & 1 == 0 {
                centre[k].floor()
            } else {
                centre[k].ceil()
            };
            // The minimal sphere's centre lies in the points' convex hull; clamp against NaN or
            // rounding only.
            if v.is_nan() {
                f64::from(lo[k])
            } else {
                v.clamp(f64::from(lo[k]), f64::from(hi[k]))
            }
            .round() as i16
        });
        let far = points.iter().map(|p| distance2(*p, candidate)).max().unwrap_or(0);
        if best.is_none_or(|(_, b)| far < b) {
            best = Some((candidate, far));
        }
    }
    let (center, far) = best.expect("eight candidates");
    let radius = ceil_sqrt(far as u64).min(u64::from(u16::MAX)) as u16;
    (center, radius)
}

fn distance2(v: [i16; 3], c: [i16; 3]) -> i64 {
    (0..3)
        .map(|k| {
            let d = i64::from(v[k]) - i64::from(c[k]);
            d * d
        })
        .sum()
}

/// The least `r` with `r² ≥ n`.
fn ceil_sqrt(n: u64) -> u64 {
    let mut r = (n as f64).sqrt() as u64;
    while r * r < n {
        r += 1;
    }
    while r > 0 && (r - 1) * (r - 1) >= n {
        r -= 1;
    }
    r
}

type P = [f64; 3];

/// A real sphere: centre and squared radius.
#[derive(Debug, Clone, Copy)]
struct Ball {
    c: P,
    r2: f64,
}

impl Ball {
    fn point(p: P) -> Self {
        Ball { c: p, r2: 0.0 }
    }

    fn contains(&self, p: P) -> bool {
        // A relative tolerance keeps rounding from re-opening boundary points; the integer pass
        // afterwards makes the final sphere exact.
        dist2(self.c, p) <= self.r2 * (1.0 + 1e-10) + 1e-7
    }

    fn contains_all(&self, ps: &[P]) -> bool {
        ps.iter().all(|&p| self.contains(p))
    }
}

fn sub(a: P, b: P) -> P {
    [a[0] - b[0], a[1] - b[1], a[2] - b[2]]
}

fn add(a: P, b: P) -> P {
    [a[0] + b[0], a[1] + b[1], a[2] + b[2]]
}

fn scale(a: P, s: f64) -> P {
    [a[0] * s, a[1] * s, a[2] * s]
}

fn dot(a: P, b: P) -> f64 {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}

fn cross(a: P, b: P) -> P {
    [
        a[1] * b[2] - a[2] * b[1],
        a[2] * b[0] - a[0] * b[2],
        a[0] * b[1] - a[1] * b[0],
    ]
}

fn dist2(a: P, b: P) -> f64 {
    let d = sub(a, b);
    dot(d, d)
}

/// The sphere with `a` and `b` at the ends of a diameter.
fn diametral(a: P, b: P) -> Ball {
    Ball {
        c: scale(add(a, b), 0.5),
        r2: dist2(a, b) / 4.0,
    }
}

/// The smallest sphere through `a`, `b` and `c` (their circumcircle's), or, when they are
/// (nearly) collinear, the diametral sphere of the farthest pair.
fn through3(a: P, b: P, c: P) -> Ball {
    let ab = sub(b, a);
    let ac = sub(c, a);
    let n = cross(ab, ac);
    let n2 = dot(n, n);
    if n2 <= 1e-12 * dot(ab, ab) * dot(ac, ac) {
        return [diametral(a, b), diametral(a, c), diametral(b, c)]
            .into_iter()
            .max_by(|x, y| x.r2.total_cmp(&y.r2))
            .expect("three pairs");
    }
    // a + (|ac|² (n × ab) + |ab|² (ac × n)) / (2 |n|²)
    let offset = scale(
        add(scale(cross(n, ab), dot(ac, ac)), scale(cross(ac, n), dot(ab, ab))),
        0.5 / n2,
    );
    Ball {
        c: add(a, offset),
        r2: dot(offset, offset),
    }
}

/// The sphere through all four points, or, when they are (nearly) coplanar, the smallest sphere
/// through two or three of them that holds all four.
fn through4(a: P, b: P, c: P, d: P) -> Ball {
    let u = sub(b, a);
    let v = sub(c, a);
    let w = sub(d, a);
    let det = dot(u, cross(v, w));
    let size = (dot(u, u) * dot(v, v) * dot(w, w)).sqrt();
    if det.abs() > 1e-9 * size {
        // 2 x·u = |u|², 2 x·v = |v|², 2 x·w = |w|² (x = centre − a), by Cramer's rule.
        let (uu, vv, ww) = (dot(u, u), dot(v, v), dot(w, w));
        let x = scale(
            add(
                add(scale(cross(v, w), uu), scale(cross(w, u), vv)),
                scale(cross(u, v), ww),
            ),
            0.5 / det,
        );
        return Ball {
            c: add(a, x),
            r2: dot(x, x),
        };
    }
    let all = [a, b, c, d];
    let mut candidates = Vec::with_capacity(10);
    for i in 0..4 {
        for j in i + 1..4 {
            candidates.push(diametral(all[i], all[j]));
            for k in j + 1..4 {
                candidates.push(through3(all[i], all[j], all[k]));
            }
        }
    }
    candidates
        .into_iter()
        .filter(|s| s.contains_all(&all))
        .min_by(|x, y| x.r2.total_cmp(&y.r2))
        .unwrap_or_else(|| {
            // Rounding left no candidate holding all four: the largest pair sphere grown to them.
            let mut s = diametral(a, b);
            s.r2 = all.iter().map(|&p| dist2(s.c, p)).fold(0.0, f64::max);
            s
        })
}

/// Minimal enclosing sphere of `ps` (non-empty, shuffled): Welzl's algorithm as nested loops,
/// each level fixing one more support point.
fn welzl(ps: &[P]) -> Ball {
    let mut s = Ball::point(ps[0]);
    for i in 1..ps.len() {
        if s.contains(ps[i]) {
            continue;
        }
        let p = ps[i];
        s = Ball::point(p);
        for j in 0..i {
            if s.contains(ps[j]) {
                continue;
            }
            let q = ps[j];
            s = diametral(p, q);
            for k in 0..j {
                if s.contains(ps[k]) {
                    continue;
                }
                let r = ps[k];
                s = through3(p, q, r);
                for &t in &ps[..k] {
                    if !s.contains(t) {
                        s = through4(p, q, r, t);
                    }
                }
            }
        }
    }
    s
}

/// The shuffle's seed: a hash (FNV-1a) of the sorted points. Welzl's algorithm is linear on
/// average over the orders and far slower on a few; seeded by the count alone, the order was
/// known in advance, and a mesh could be made whose points come in one of those.
fn seed_of(sorted: &[[i16; 3]]) -> u64 {
    let mut hash: u64 = 0xCBF2_9CE4_8422_2325;
    for byte in sorted.iter().flatten().flat_map(|c| c.to_le_bytes()) {
        hash = (hash ^ u64::from(byte)).wrapping_mul(0x0100_0000_01B3);
    }
    hash
}

/// A deterministic Fisher–Yates shuffle (xorshift), so builds are reproducible.
fn shuffle(ps: &mut [P], seed: u64) {
    // Xorshift never leaves 0.
    let mut state: u64 = (0x9E37_79B9_7F4A_7C15 ^ seed).max(1);
    for i in (1..ps.len()).rev() {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        let j = (state % (i as u64 + 1)) as usize;
        ps.swap(i, j);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sphere(center: [i16; 3], radius: u16, flag: u16) -> Sphere {
        Sphere { center, radius, flag }
    }

    #[test]
    fn ceil_sqrt_is_exact() {
        for n in 0..10_000u64 {
            let r = ceil_sqrt(n);
            assert!(r * r >= n && (r == 0 || (r - 1) * (r - 1) < n), "{n}");
        }
        let big = 3 * 65535u64 * 65535;
        let r = ceil_sqrt(big);
        assert!(r * r >= big && (r - 1) * (r - 1) < big);
    }

    #[test]
    fn surface_points_count_as_inside() {
        let v = [[3, 4, 0], [-5, 0, 0], [0, 0, 5]];
        let s = bounding_sphere(&v, &sphere([0; 3], 5, 1), &[]);
        assert_eq!((s.center, s.radius, s.flag), ([0; 3], 5, 1));
    }

    #[test]
    fn two_points() {
        let (c, r) = enclosing_sphere(&[[-100, 0, 0], [100, 0, 0]]);
        assert_eq!((c, r), ([0, 0, 0], 100));
    }

    #[test]
    fn extreme_coordinates_fit() {
        let v = [[i16::MIN; 3], [i16::MAX; 3], [i16::MIN, i16::MAX, i16::MIN]];
        let (c, r) = enclosing_sphere(&v);
        assert!(encloses(&v, c, r));
        assert!(u32::from(r) < 56_760);
    }

    #[test]
    fn single_point() {
        let s = bounding_sphere(&[[7, -8, 9]], &sphere([0; 3], 1, 0), &[]);
        assert_eq!((s.center, s.radius), ([7, -8, 9], 0));
    }

    #[test]
    fn an_edit_within_a_sphere_that_never_enclosed_its_mesh_keeps_it() {
        // Vertex 2 lay outside the stored sphere (real files hold such spheres).
        let stored = [[0, 0, 0], [10, 0, 0], [40, 0, 0]];
        let manifest = sphere([0; 3], 20, 1);
        let moved_within = [[0, 5, 0], [10, 0, 0], [40, 0, 0]];
        let s = bounding_sphere(&moved_within, &manifest, &stored);
        assert_eq!((s.center, s.radius, s.flag), ([0; 3], 20, 1));
        // Moved out of it, or the outside vertex moved: rebuilt around every vertex.
        for edited in [
            [[0, 30, 0], [10, 0, 0], [40, 0, 0]],
            [[0, 0, 0], [10, 0, 0], [41, 0, 0]],
        ] {
            let s = bounding_sphere(&edited, &manifest, &stored);
            assert!(encloses(&edited, s.center, s.radius), "{s:?}");
            assert_ne!((s.center, s.radius), ([0; 3], 20));
        }
        // Without a stored copy, a vertex outside rebuilds it.
        let s = bounding_sphere(&stored, &manifest, &[]);
        assert_ne!((s.center, s.radius), ([0; 3], 20));
    }
}
