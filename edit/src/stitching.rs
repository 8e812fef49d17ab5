//! Lara's seams as TR4's engine makes them (docs/lara-stitching.md). At level load it joins each
//! vertex of a LARA_SKIN_JOINTS mesh to the LARA_SKIN vertices within 1 unit of it and records
//! their indices; while drawing, it copies those body vertices, by index, from the mesh Lara
//! wears there (a swapped head too) over the joint's. A joint vertex joined to none is drawn by
//! a matrix of its own: at the knees and elbows the lower bone's turned back by half the bend, so
//! such vertices inside the joint bend it smoothly and only those on its edge open a seam; at
//! the other joints a matrix that is not the joint's. The hair hangs from head vertices 37–40.

use std::collections::HashMap;

use wadforge_format::catalog::{self, Game, LARA_MESHES as BONES, SKIN_JOINT_SIDES};
use wadforge_format::{Mesh, Moveable, ObjectKind, ObjectName, Wad};

/// How far apart, on each axis, a joint vertex and a body vertex may lie for TR4 to join them.
const REACH: i64 = 1;
/// TR4 records a joined body vertex's index in a signed byte, of the first `count & 0xFF`.
const HIGHEST_RECORDED: usize = 127;
/// TR4's tables: a joint mesh of up to 32 vertices, up to 11 joined to each side.
const JOINT_VERTICES: usize = 32;
const JOINED_PER_SIDE: usize = 11;
const HEAD: usize = 14;
/// Free joint vertices whose nearest body vertex a finding names.
const NEAREST_LISTED: usize = 4;
/// The head vertices the adult hair hangs from (TR4's `HairSkinVertNums`).
const HAIR_ROOT: [usize; 4] = [37, 38, 39, 40];
/// The knees and elbows: joint meshes TR4 draws by the lower bone's matrix turned back by half
/// the angle between the two bones (`DrawLara`'s `SkinUseMatrix`).
const HALF_ANGLE_JOINTS: [usize; 4] = [2, 5, 9, 12];

/// One finding of the seam rules, for the checker to list.
pub(crate) struct SeamFinding {
    pub rule: &'static str,
    pub place: String,
    pub message: String,
    pub fix: &'static str,
}

/// The warnings about Lara's seams in a TR4 file with LARA_SKIN and LARA_SKIN_JOINTS.
pub(crate) fn seam_findings(wad: &Wad, game: Game) -> Vec<SeamFinding> {
    let named = |name: &str| {
        (wad.moveables.iter())
            .find(|m| catalog::moveable_name(game, m.id) == Some(name) && m.meshes.len() >= 15)
    };
    let (Game::Tr4, Some(skin), Some(joints)) = (game, named("LARA_SKIN"), named("LARA_SKIN_JOINTS")) else {
        return Vec::new();
    };
    let body = Body::of(wad, skin);
    let mut findings = Vec::new();
    let mut seam_vertices: Vec<usize> = Vec::new();
    let joint_origins = joints.bind_origins();
    for (k, &sides) in SKIN_JOINT_SIDES.iter().enumerate().map(|(i, j)| (i + 1, j)) {
        let Some(joint) = wad.meshes.get(joints.meshes[k]) else {
            continue;
        };
        let drawn = Drawn::of(joint, HALF_ANGLE_JOINTS.contains(&k));
        let seams = JointSeams::of(&body, (joint, &drawn), joint_origins[k], sides);
        seam_vertices.extend(&seams.head_vertices);
        let place = format!("{}, mesh {k}", moveable_name(game, joints.id));
        findings.extend(seams.findings(&place, joint.vertices.len(), (sides, drawn.half_angle)));
    }
    let hair = wad
        .moveables
        .iter()
        .any(|m| catalog::moveable_name(game, m.id) == Some("HAIR"));
    if hair {
        findings.extend(hair_root(game, &body, skin));
        seam_vertices.extend(HAIR_ROOT);
    }
    seam_vertices.sort_unstable();
    seam_vertices.dedup();
    findings.extend(swapped_heads(wad, game, &body, &seam_vertices));
    findings
}

/// A body vertex near a point: (mesh, vertex, distance in whole units).
type Nearest = (usize, usize, i64);

/// Which vertices of a joint mesh a free vertex opens a seam at, as TR4 draws the joint.
struct Drawn {
    /// Drawn halfway between the two bones (a knee or an elbow).
    half_angle: bool,
    /// Per vertex: on an edge only one of the joint's polygons has (where the joint meets the
    /// body), inside the joint, or on no polygon.
    place: Vec<Place>,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Place {
    Edge,
    Inside,
    Unused,
}

impl Drawn {
    fn of(joint: &Mesh, half_angle: bool) -> Self {
        let mut uses: HashMap<(u16, u16), usize> = HashMap::new();
        for p in &joint.polygons {
            let corners = p.corners();
            for (i, &a) in corners.iter().enumerate() {
                let b = corners[(i + 1) % corners.len()];
                *uses.entry((a.min(b), a.max(b))).or_default() += 1;
            }
        }
        let mut place = vec![Place::Unused; joint.vertices.len()];
        for (&(a, b), &n) in &uses {
            for v in [a, b] {
                if let Some(at) = place.get_mut(usize::from(v)) {
                    if n == 1 {
                        *at = Place::Edge;
                    } else if *at == Place::Unused {
                        *at = Place::Inside;
                    }
                }
            }
        }
        Drawn { half_angle, place }
    }

    /// Whether joint vertex `j`, joined to no body vertex, opens a seam: one no polygon uses is
    /// not drawn; at a knee or an elbow one inside the joint bends with it, halfway.
    fn opens_seam(&self, j: usize) -> bool {
        match self.place[j] {
            Place::Unused => false,
            Place::Inside => !self.half_angle,
            Place::Edge => true,
        }
    }
}

/// How TR4 joins one joint mesh to the body at load.
struct JointSeams {
    /// Joint vertices meeting no recorded body vertex where that opens a seam ([`Drawn`]), each
    /// with the body vertex nearest it (mesh, vertex, distance).
    free: Vec<(usize, Option<Nearest>)>,
    /// Body vertices met that TR4 never records, named.
    unrecorded: Vec<String>,
    /// How many joins each side (above, below) has.
    joined: [usize; 2],
    /// The head vertices joined (the neck seam), which swapped heads must keep.
    head_vertices: Vec<usize>,
}

impl JointSeams {
    fn of(
        body: &Body,
        (joint, drawn): (&Mesh, &Drawn),
        origin: [i64; 3],
        (above, below): (usize, usize),
    ) -> Self {
        let at = |v: &[i16; 3]| [0, 1, 2].map(|i| i64::from(v[i]) + origin[i]);
        let mut seams = JointSeams {
            free: Vec::new(),
            unrecorded: Vec::new(),
            joined: [0; 2],
            head_vertices: Vec::new(),
        };
        if joint.vertices.len() > JOINT_VERTICES * 4 {
            // Far past TR4's tables (a finding says so): matching it would only take time.
            return seams;
        }
        for (j, v) in joint.vertices.iter().enumerate() {
            let mut met = false;
            for (side, &m) in [above, below].iter().enumerate() {
                for i in body.meeting(m, at(v)) {
                    if !body.recorded(m, i) {
                        seams
                            .unrecorded
                            .push(format!("{} vertex {i} (joint vertex {j})", BONES[m]));
                        continue;
                    }
                    met = true;
                    seams.joined[side] += 1;
                    if m == HEAD {
                        seams.head_vertices.push(i);
                    }
                }
            }
            if !met && drawn.opens_seam(j) {
                // Only the first few are named with their nearest body vertex.
                let nearest =
                    (seams.free.len() < NEAREST_LISTED).then(|| body.nearest([above, below], at(v)));
                seams.free.push((j, nearest.flatten()));
            }
        }
        seams
    }

    fn findings(
        &self,
        place: &str,
        vertices: usize,
        ((above, below), half_angle): ((usize, usize), bool),
    ) -> Vec<SeamFinding> {
        let mut findings = Vec::new();
        let between = format!("between {} and {}", BONES[above], BONES[below]);
        if !self.free.is_empty() {
            let listed = self
                .free
                .iter()
                .map(|(j, _)| j.to_string())
                .collect::<Vec<_>>()
                .join(", ");
            // Where each was joined, most likely: the body vertex nearest it (the first few).
            let mut nearest = (self.free.iter().take(NEAREST_LISTED))
                .filter_map(|(j, n)| n.map(|(m, i, d)| format!("{j}: {} vertex {i}, {d} units", BONES[m])))
                .collect::<Vec<_>>()
                .join("; ");
            if self.free.len() > NEAREST_LISTED {
                nearest.push_str("; …");
            }
            let drawn = if half_angle {
                format!(
                    "on the joint's edge, where it meets the body, meet no LARA_SKIN vertex within {REACH} unit, \
                     so TR4 and TRNG draw them halfway between the two bones, away from the body's, and the seam \
                     opens where the joint bends"
                )
            } else {
                format!(
                    "meet no LARA_SKIN vertex within {REACH} unit, so TR4 and TRNG draw them by a matrix that is \
                     not this joint's (the view's, or the last knee's or elbow's) and the seam tears"
                )
            };
            findings.push(SeamFinding {
                rule: "skin-joints",
                place: place.to_string(),
                message: format!("joint vertices {listed} ({between}) {drawn} (nearest: {nearest})"),
                fix: "keep the body's seam vertices where the joint's are (or move the joint's with them)",
            });
        }
        if !self.unrecorded.is_empty() {
            findings.push(SeamFinding {
                rule: "skin-joints",
                place: place.to_string(),
                message: format!(
                    "it meets {}, which TR4 never records (it keeps body vertices 0 to {HIGHEST_RECORDED}, and of a \
                     mesh of more than 256 vertices only those below its count minus 256): the seam opens there",
                    self.unrecorded.join(", ")
                ),
                fix: "put the body's seam vertices first in its mesh",
            });
        }
        if vertices > JOINT_VERTICES || self.joined.iter().any(|&n| n > JOINED_PER_SIDE) {
            findings.push(SeamFinding {
                rule: "skin-joints",
                place: place.to_string(),
                message: format!(
                    "it has {vertices} vertices, {} and {} of them joined to {} and {}; TR4's tables hold \
                     {JOINT_VERTICES} vertices a joint and {JOINED_PER_SIDE} joined to each side",
                    self.joined[0], self.joined[1], BONES[above], BONES[below]
                ),
                fix: "give the joint fewer vertices",
            });
        }
        findings
    }
}

/// LARA_SKIN's meshes with their pivots in the bind pose.
struct Body<'a> {
    meshes: Vec<Option<&'a Mesh>>,
    origins: Vec<[i64; 3]>,
}

impl<'a> Body<'a> {
    fn of(wad: &'a Wad, skin: &Moveable) -> Self {
        Body {
            meshes: skin.meshes.iter().map(|&k| wad.meshes.get(k)).collect(),
            origins: skin.bind_origins(),
        }
    }

    fn vertex(&self, m: usize, i: usize) -> Option<[i64; 3]> {
        let v = self.meshes[m]?.vertices.get(i)?;
        Some([0, 1, 2].map(|k| i64::from(v[k]) + self.origins[m][k]))
    }

    fn count(&self, m: usize) -> usize {
        self.meshes[m].map_or(0, |mesh| mesh.vertices.len())
    }

    /// The vertices of body mesh `m` within [`REACH`] of `p` (bind-pose positions).
    fn meeting(&self, m: usize, p: [i64; 3]) -> Vec<usize> {
        (0..self.count(m))
            .filter(|&i| {
                self.vertex(m, i)
                    .is_some_and(|v| (0..3).all(|k| (v[k] - p[k]).abs() <= REACH))
            })
            .collect()
    }

    /// Whether TR4 records body vertex `i` of mesh `m` when a joint meets it.
    fn recorded(&self, m: usize, i: usize) -> bool {
        i <= HIGHEST_RECORDED && i < self.count(m) % 256
    }

    /// The vertex of `meshes` nearest `p`: (mesh, vertex, distance in whole units).
    fn nearest(&self, meshes: [usize; 2], p: [i64; 3]) -> Option<Nearest> {
        let squared = |v: [i64; 3]| (0..3).map(|k| (v[k] - p[k]).pow(2)).sum::<i64>();
        (meshes.iter())
            .flat_map(|&m| (0..self.count(m)).filter_map(move |i| Some((m, i, squared(self.vertex(m, i)?)))))
            .min_by_key(|&(_, _, d)| d)
            .map(|(m, i, d)| (m, i, (d as f64).sqrt().round() as i64))
    }
}

fn hair_root(game: Game, body: &Body, skin: &Moveable) -> Option<SeamFinding> {
    let count = body.count(HEAD);
    (count <= HAIR_ROOT[3]).then(|| SeamFinding {
        rule: "hair",
        place: format!("{}, mesh {HEAD} (HEAD)", moveable_name(game, skin.id)),
        message: format!(
            "the file has HAIR, which TR4 hangs from head vertices 37 to 40, and the head has {count} vertices, so \
             the hair hangs from vertices it does not have"
        ),
        fix: "give the head at least 41 vertices, the hair's root at 37 to 40",
    })
}

/// Heads the engine swaps onto Lara's (LARA_SCREAM while firing, the speech heads in
/// cutscenes): the seam and hair vertices are found on LARA_SKIN's head and read from the
/// swapped one by index, so each must be at that index there too.
fn swapped_heads(wad: &Wad, game: Game, body: &Body, seam_vertices: &[usize]) -> Vec<SeamFinding> {
    let Some(skin_head) = body.meshes[HEAD] else {
        return Vec::new();
    };
    let mut findings = Vec::new();
    for m in &wad.moveables {
        let name = catalog::moveable_name(game, m.id).unwrap_or_default();
        if name != "LARA_SCREAM" && !name.starts_with("LARA_SPEECH_HEAD") {
            continue;
        }
        let Some(head) = m.meshes.get(HEAD).and_then(|&k| wad.meshes.get(k)) else {
            continue;
        };
        let elsewhere: Vec<String> = seam_vertices
            .iter()
            .filter(|&&i| {
                let (Some(a), Some(b)) = (skin_head.vertices.get(i), head.vertices.get(i)) else {
                    return true;
                };
                (0..3).any(|k| (i64::from(a[k]) - i64::from(b[k])).abs() > REACH)
            })
            .map(|i| i.to_string())
            .collect();
        if !elsewhere.is_empty() {
            findings.push(SeamFinding {
                rule: "swapped-head",
                place: format!("{}, mesh {HEAD} (HEAD)", moveable_name(game, m.id)),
                message: format!(
                    "vertices {} are not where LARA_SKIN's head has them, and TR4 reads the neck seam and the hair's \
                     root from them by index: while this head is shown, they snap to other vertices",
                    elsewhere.join(", ")
                ),
                fix: "keep the head's seam vertices at LARA_SKIN's indices (edit it from LARA_SKIN's head)",
            });
        }
    }
    findings
}

fn moveable_name(game: Game, id: u32) -> ObjectName {
    ObjectName::new(game, ObjectKind::Moveable, id)
}
