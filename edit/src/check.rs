//! `check`: the rules the engine a file names depends on (TRLE's and the TR4 engine's for a
//! classic WAD or a level; for a Wad2, the engine of its W2SuggestedGameVersion, which Tomb
//! Editor compiles it for), each finding naming its place and what to do; and `fix`, which
//! recomputes what can be recomputed (bounding spheres, keyframe boxes, normal lengths) and
//! changes nothing else. Each rule's severity per engine: docs/check-rules.md.

use std::collections::HashMap;

use wadforge_format::catalog::{self, Game, LaraMeshUse};
use wadforge_format::dressing::{self, Dressing};
use wadforge_format::pose::posed_bounding_box;
use wadforge_format::{
    wad, Animation, BoundingBox, BoundingSphere, Command, Mesh, Moveable, ObjectKind, ObjectName, Polygon,
    Shading, Undecodable, Wad, KEYFRAME_BOX_TOLERANCE, PAGE_SIZE,
};
use wadforge_format::{Limits, MoveableIndex, TooMuch};

use crate::references::{resolve, AnimationRef, Targets};

/// A normal's length may differ from 16300 by this fraction.
pub const NORMAL_TOLERANCE: f64 = 0.01;

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    /// Worth knowing, not wrong: real files from the game's own tools show these too.
    Note,
    Warning,
    Error,
}

/// One broken rule.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Finding {
    pub severity: Severity,
    /// A short name of the rule, e.g. `next-frame`.
    pub rule: &'static str,
    /// Where: object, animation, mesh, polygon.
    pub place: String,
    pub message: String,
    /// What to do.
    pub fix: String,
    /// For the finding that stands for those of its rule not listed: how many (0 otherwise).
    #[serde(skip_serializing_if = "is_zero")]
    pub more: usize,
}

fn is_zero(n: &usize) -> bool {
    *n == 0
}

impl Finding {
    /// How many findings this one stands for.
    pub fn count(&self) -> usize {
        self.more.max(1)
    }
}

impl std::fmt::Display for Finding {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let level = match self.severity {
            Severity::Note => "note",
            Severity::Error => "error",
            Severity::Warning => "warning",
        };
        write!(
            f,
            "{level} [{}] {}: {}; {}",
            self.rule, self.place, self.message, self.fix
        )
    }
}

/// How a file's objects reach the engine, which decides which rules apply and how hard.
#[derive(Debug, Clone, Copy)]
pub enum Container<'a> {
    /// A classic WAD, whose records sat so: TRLE's tools and the engine read its bytes.
    Wad(&'a wad::Layout),
    /// A level: the engine reads it as it is.
    Level,
    /// A Tomb Editor Wad2, which Tomb Editor compiles into a level for the engine its
    /// W2SuggestedGameVersion names: the compiler brings normals to length, sets a next animation
    /// that names none to the object's first and removes a dispatch that names none (TombLib's
    /// `LevelData/Compilers/Wad.cs` and `LevelData/Compilers/TombEngine/Wad.cs`), and a classic
    /// WAD's byte layout does not apply.
    Wad2,
}

/// A WAD's layout, or none: a level.
impl<'a> From<Option<&'a wad::Layout>> for Container<'a> {
    fn from(layout: Option<&'a wad::Layout>) -> Self {
        layout.map_or(Container::Level, Container::Wad)
    }
}

/// Every finding for `wad` (read from `input_bytes` of a file), whose ids `game`'s catalogue
/// names and whose engine runs them; `starts` are where each moveable's animations started in
/// the file's table (see [`crate::references`]), and `container` what the file is (a WAD's
/// layout, `None` for a level, or [`Container::Wad2`]). Keyframe boxes are checked when posing
/// them fits in [`Limits::posing`] for the file; otherwise a note says they were not.
pub fn check<'a>(
    wad: &Wad,
    game: Game,
    starts: &[usize],
    container: impl Into<Container<'a>>,
    input_bytes: u64,
) -> Vec<Finding> {
    let container = container.into();
    let dressings = dressing::dressings(wad, game);
    let posing = box_posing(wad, &dressings);
    let mut c = Checker {
        wad,
        game,
        container,
        per_rule: HashMap::new(),
        dressings,
        findings: Vec::new(),
        check_boxes: true,
        unread: None,
    };
    if let Err(too_much) = Limits::DEFAULT.posing.check(posing, input_bytes) {
        c.check_boxes = false;
        c.push(
            Severity::Note,
            "keyframe-box",
            "the file".into(),
            format!("its keyframe boxes were not checked: posing them would take {too_much}"),
            "give the bodies fewer vertices or the animations fewer keyframes to have them checked",
        );
    }
    c.ids();
    c.samples();
    for (k, mesh) in wad.meshes.iter().enumerate() {
        c.mesh(k, mesh);
    }
    let targets = resolve(&wad.moveables, starts);
    for (i, m) in wad.moveables.iter().enumerate() {
        c.moveable(i, m, &targets[i]);
    }
    for seam in crate::stitching::seam_findings(wad, game) {
        c.push(Severity::Warning, seam.rule, seam.place, seam.message, seam.fix);
    }
    if let Container::Wad(layout) = container {
        c.keyframe_layout(layout);
    }
    for s in &wad.statics {
        if wad.meshes.get(s.mesh).is_none_or(|m| m.polygons.is_empty()) {
            c.push(
                Severity::Warning,
                "no-polygons",
                c.static_name(s.id),
                "its mesh has no polygon, so nothing shows in the game".into(),
                "give it a mesh or remove it",
            );
        }
    }
    if let Err(e) = wad::write(wad, None) {
        c.format_limits(e);
    }
    let mut unlisted: Vec<(&'static str, usize, Severity)> = (c.per_rule.iter())
        .filter_map(|(&rule, &(_, more))| more.map(|(count, worst)| (rule, count, worst)))
        .collect();
    unlisted.sort();
    for (rule, count, worst) in unlisted {
        c.findings.push(Finding {
            severity: worst,
            rule,
            place: "the file".into(),
            message: format!(
                "{count} more findings of this rule, past the first {LISTED_PER_RULE}, are not listed"
            ),
            fix: "fix those listed and check again".into(),
            more: count,
        });
    }
    c.findings
}

/// Whether any finding is an error (the exit code of `wadforge check`).
pub fn has_errors(findings: &[Finding]) -> bool {
    findings.iter().any(|f| f.severity == Severity::Error)
}

/// Findings of one rule listed; past them, a finding says how many more there are.
pub const LISTED_PER_RULE: usize = 200;

/// Per rule: the findings listed, and the count and worst severity of those not listed.
type RuleCount = (usize, Option<(usize, Severity)>);

struct Checker<'a> {
    wad: &'a Wad,
    game: Game,
    container: Container<'a>,
    per_rule: HashMap<&'static str, RuleCount>,
    /// What each moveable wears, whose meshes its keyframes pose.
    dressings: Vec<Option<Dressing>>,
    findings: Vec<Finding>,
    /// Whether posing every keyframe's body fits in the file's budget.
    check_boxes: bool,
    /// Why the engine never runs the state machine of the moveable being checked, where it
    /// does not ([`catalog::state_machine_unread`]).
    unread: Option<&'static str>,
}

/// The vertex poses checking or fixing every keyframe box of `wad` takes: each keyframe times
/// the vertices of the body it poses.
fn box_posing(wad: &Wad, dressings: &[Option<Dressing>]) -> u64 {
    wad.moveables
        .iter()
        .zip(dressings)
        .filter_map(|(m, &dressing)| {
            let body = body_meshes(wad, m, dressing)?;
            let vertices: u64 = body.iter().map(|mesh| mesh.vertices.len() as u64).sum();
            let keyframes: u64 = m.animations.iter().map(|a| a.keyframes.len() as u64).sum();
            Some(keyframes.saturating_mul(vertices))
        })
        .fold(0, u64::saturating_add)
}

impl Checker<'_> {
    fn push(&mut self, severity: Severity, rule: &'static str, place: String, message: String, fix: &str) {
        let (listed, unlisted) = self.per_rule.entry(rule).or_insert((0, None));
        if *listed == LISTED_PER_RULE {
            // Held no longer: a file may break a rule once for every few bytes of it, and each
            // finding takes some 300 bytes.
            let (count, worst) = unlisted.get_or_insert((0, severity));
            *count += 1;
            *worst = (*worst).max(severity);
            return;
        }
        *listed += 1;
        self.findings.push(Finding {
            severity,
            rule,
            place,
            message,
            fix: fix.to_string(),
            more: 0,
        });
    }

    /// A finding about the state machine (next animations, state changes, commands) of the
    /// moveable being checked: a note saying why where the engine never runs it (builders' and
    /// Core's weapon objects hold garbage there that the game never reads), else as given.
    fn push_state(
        &mut self,
        severity: Severity,
        rule: &'static str,
        place: String,
        message: String,
        fix: &str,
    ) {
        match self.unread {
            Some(why) => self.push(
                Severity::Note,
                rule,
                place,
                format!("{message}; harmless here: {why}"),
                "nothing to do: the game never reads it",
            ),
            None => self.push(severity, rule, place, message, fix),
        }
    }

    fn moveable_name(&self, id: u32) -> String {
        ObjectName::new(self.game, ObjectKind::Moveable, id).to_string()
    }

    fn static_name(&self, id: u32) -> String {
        ObjectName::new(self.game, ObjectKind::Static, id).to_string()
    }

    fn ids(&mut self) {
        let mut seen: HashMap<(bool, u32), usize> = HashMap::new();
        for m in &self.wad.moveables {
            *seen.entry((true, m.id)).or_default() += 1;
            if catalog::moveable_name(self.game, m.id).is_none() {
                self.push(
                    Severity::Warning,
                    "unknown-slot",
                    self.moveable_name(m.id),
                    format!("{}'s catalogue has no moveable slot {}", self.game.name(), m.id),
                    "put the object into a slot the game knows (`wadforge copy --as`)",
                );
            }
            self.mesh_count(m);
        }
        for s in &self.wad.statics {
            *seen.entry((false, s.id)).or_default() += 1;
            // Only TR4's and TEN's catalogues name statics.
            if matches!(self.game, Game::Tr4 | Game::Ten) && catalog::static_name(self.game, s.id).is_none() {
                self.push(
                    Severity::Warning,
                    "unknown-slot",
                    self.static_name(s.id),
                    format!("{}'s catalogue has no static slot {}", self.game.name(), s.id),
                    "put the static into a slot the game knows (`wadforge copy --as`)",
                );
            }
        }
        let mut duplicates: Vec<_> = seen.into_iter().filter(|(_, n)| *n > 1).collect();
        duplicates.sort();
        for ((moveable, id), n) in duplicates {
            let place = if moveable {
                self.moveable_name(id)
            } else {
                self.static_name(id)
            };
            self.push(
                Severity::Error,
                "duplicate-id",
                place,
                format!("{n} objects have this id; the game loads one"),
                "remove or move the others (`wadforge remove`, `wadforge copy --as`)",
            );
        }
    }

    fn samples(&mut self) {
        for (i, s) in self.wad.samples.iter().enumerate() {
            let (x, y, w, h) = (s.x as usize, s.y as usize, s.width as usize, s.height as usize);
            if s.page as usize >= self.wad.pages.len() {
                self.push(
                    Severity::Error,
                    "sample-page",
                    format!("sample {i}"),
                    format!("it names page {}, but there are {}", s.page, self.wad.pages.len()),
                    "repair or remove the objects using it",
                );
            } else if w == 0 || h == 0 || x + w > PAGE_SIZE || y + h > PAGE_SIZE {
                self.push(
                    Severity::Error,
                    "sample-page",
                    format!("sample {i}"),
                    format!("{w}×{h} texels at ({x}, {y}) do not lie within its 256×256 page"),
                    "repair or remove the objects using it",
                );
            }
        }
    }

    fn mesh(&mut self, k: usize, mesh: &Mesh) {
        let place = |what: String| format!("mesh {k}{what}");
        let n = mesh.vertices.len();
        for (p, poly) in mesh.polygons.iter().enumerate() {
            if let Some(&v) = poly.corners().iter().find(|&&v| v as usize >= n) {
                self.push(
                    Severity::Error,
                    "vertex-index",
                    place(format!(", polygon {p}")),
                    format!("it uses vertex {v}, but the mesh has {n}"),
                    "rebuild the mesh (import, fix in Blender, build)",
                );
            }
            let sample = poly.texture.sample as usize;
            if sample >= self.wad.samples.len() {
                self.push(
                    Severity::Error,
                    "sample-index",
                    place(format!(", polygon {p}")),
                    format!(
                        "it maps sample {sample}, but there are {}",
                        self.wad.samples.len()
                    ),
                    "retexture the polygon",
                );
            } else if !matches!(self.container, Container::Wad2) {
                self.sample_reach(poly, sample, place(format!(", polygon {p}")));
            }
        }
        if mesh.sphere.radius > 0 && !encloses(&mesh.sphere, mesh) {
            // A note: the game's own spheres miss vertices by a third of their radius and more.
            self.push(
                Severity::Note,
                "bounding-sphere",
                place(String::new()),
                format!(
                    "its sphere (radius {}) does not enclose every vertex",
                    mesh.sphere.radius
                ),
                "`wadforge check --fix` recomputes it",
            );
        }
        if let Shading::Normals(normals) = &mesh.shading {
            self.normal_length(normals, &place);
        }
    }

    /// The texture word of a classic WAD's polygon reaches so far (a Wad2's polygons name their
    /// texture otherwise: not checked there).
    fn sample_reach(&mut self, poly: &Polygon, sample: usize, place: String) {
        if !poly.is_quad && sample >= 0x1000 {
            self.push(
                Severity::Error,
                "sample-reach",
                place,
                format!("a triangle reaches samples 0..4095, not {sample}"),
                "remove unused objects so fewer samples come first",
            );
        } else if poly.is_quad && poly.texture.flipped && sample == 0 {
            self.push(
                Severity::Error,
                "sample-reach",
                place,
                "a flipped quad cannot map sample 0".into(),
                "retexture the polygon",
            );
        }
    }

    /// The first normal of a mesh not of TR's length: the game lights the vertex too dark or
    /// too bright. Tomb Editor brings a Wad2's normals to length when it compiles it (TombLib's
    /// `LevelData/Compilers/Wad.cs`, `ConvertWadMesh`: `Vector3.Normalize(normal) * 16300`), so
    /// there it is a note.
    fn normal_length(&mut self, normals: &[[i16; 3]], place: &dyn Fn(String) -> String) {
        let Some((v, len)) = normals
            .iter()
            .enumerate()
            .map(|(v, n)| (v, length(n)))
            .find(|&(_, len)| len != 0.0 && !normal_ok(len))
        else {
            return;
        };
        let (severity, message) = match self.container {
            Container::Wad2 => (
                Severity::Note,
                format!(
                    "its normal is {len:.0} long, not 16300; harmless in a Wad2: Tomb Editor brings normals to \
                     length when it compiles it (a classic WAD made of it needs them at length)"
                ),
            ),
            _ => (Severity::Warning, format!("its normal is {len:.0} long, not 16300")),
        };
        self.push(
            severity,
            "normal-length",
            place(format!(", vertex {v}")),
            message,
            "`wadforge check --fix` rescales the normals",
        );
    }

    /// A file a classic WAD cannot hold: an error for a WAD or a level (`wadforge` writes them as
    /// WADs), a note for a Wad2, which Tomb Editor compiles into a level without a WAD.
    fn format_limits(&mut self, why: wad::WriteError) {
        let (severity, message) = match self.container {
            Container::Wad2 => (
                Severity::Note,
                format!(
                    "a classic WAD cannot hold its objects ({why}); harmless in a Wad2, which Tomb Editor \
                     compiles without one, but `wadforge convert` to a .wad refuses it"
                ),
            ),
            _ => (Severity::Error, format!("it cannot be written as a WAD: {why}")),
        };
        self.push(
            severity,
            "format-limits",
            "the file".into(),
            message,
            "split the objects over several WADs or make them smaller",
        );
    }

    fn moveable(&mut self, i: usize, m: &Moveable, targets: &[Targets]) {
        let name = self.moveable_name(m.id);
        let polygons: usize = m
            .meshes
            .iter()
            .filter_map(|&k| self.wad.meshes.get(k))
            .map(|mesh| mesh.polygons.len())
            .sum();
        if polygons == 0 && catalog::body_from(self.game, m.id).is_none() {
            self.push(
                Severity::Warning,
                "no-polygons",
                name.clone(),
                "none of its meshes has a polygon, so nothing shows in the game".into(),
                "give it meshes or remove it",
            );
        }
        self.link_stack(m, &name);
        self.unread = catalog::state_machine_unread(self.game, m.id);
        let body = body_meshes(self.wad, m, self.dressings[i]);
        for (a, (animation, t)) in m.animations.iter().zip(targets).enumerate() {
            let place = format!("{name}, animation {a}");
            self.next_animation(i, animation, t.next, &place);
            self.dispatches(i, animation, t, &place);
            self.command_frames(animation, &place);
            self.undecodable_keyframes(m, animation, &place);
            if let Some(body) = body.as_ref().filter(|_| self.check_boxes) {
                self.keyframe_boxes(m, animation, body, &place);
            }
        }
    }

    /// Lara-like slots: the engine reads their meshes by index (docs/check-rules.md).
    fn mesh_count(&mut self, m: &Moveable) {
        let Some(used) = catalog::lara_mesh_use(self.game, m.id) else {
            return;
        };
        let count = m.meshes.len();
        let (severity, message, fix) = match used {
            LaraMeshUse::AllFifteen if count != 15 => (
                Severity::Error,
                format!("{count} meshes, but the engine draws Lara's 15 from this slot, one by index each"),
                "give it Lara's 15 meshes, in her order",
            ),
            LaraMeshUse::UpTo { highest, what } if count <= highest => (
                Severity::Error,
                format!(
                    "{count} meshes, but the engine reads {what}: with fewer than {} it reads another \
                     object's meshes",
                    highest + 1
                ),
                "give it Lara's 15 meshes, in her order, with those in their places",
            ),
            LaraMeshUse::Some if count != 15 => (
                Severity::Note,
                format!(
                    "{count} meshes where Lara has 15: the engine swaps only some of this slot's meshes onto \
                     hers (hands, back, head), and shipped files hold such slots with other counts"
                ),
                "nothing to do if the meshes the game swaps in show right",
            ),
            _ => return,
        };
        self.push(severity, "mesh-count", self.moveable_name(m.id), message, fix);
    }

    fn link_stack(&mut self, m: &Moveable, name: &str) {
        let limit = link_stack_limit(self.game);
        // A hierarchy no depth-first order reaches is the writer's error ("format-limits").
        if let Some(depth) = m.link_stack_depth().filter(|&d| d > limit) {
            self.push(
                Severity::Error,
                "link-stack",
                name.to_string(),
                format!(
                    "its mesh tree keeps {depth} parents on the link stack at once; {}'s engine holds {limit}, \
                     and more overwrite its other matrices",
                    self.game.name()
                ),
                "hang branches from fewer levels of open parents (fewer meshes with children still to come)",
            );
        }
    }

    fn next_animation(&mut self, i: usize, animation: &Animation, next: Option<AnimationRef>, place: &str) {
        let Some(next) = next else {
            let (severity, compiled) = self.compiled_as(
                "Tomb Editor's compiler sets it to the object's first animation (with a warning)",
            );
            self.push_state(
                severity,
                "next-animation",
                place.to_string(),
                format!(
                    "its next animation ({}) names no animation of the file{compiled}",
                    animation.next_animation
                ),
                "point it at one of the object's animations",
            );
            return;
        };
        self.target_frame(
            i,
            next,
            animation.next_frame,
            "next-frame",
            "next",
            place.to_string(),
        );
    }

    fn dispatches(&mut self, i: usize, animation: &Animation, targets: &Targets, place: &str) {
        let (first, last) = (animation.frame_start, animation.frame_end);
        for (c, (change, ts)) in animation
            .state_changes
            .iter()
            .zip(&targets.dispatches)
            .enumerate()
        {
            for (d, (dispatch, target)) in change.dispatches.iter().zip(ts).enumerate() {
                let here = format!("{place}, state change {c} (state {}), dispatch {d}", change.state);
                // The engine tests the range after stepping the frame, so it sees the frames
                // after the first up to one past the last (docs/check-rules.md).
                let taken = dispatch.frame_start <= dispatch.frame_end
                    && dispatch.frame_end > first
                    && dispatch.frame_start <= last.saturating_add(1);
                let within = dispatch.frame_start >= first
                    && dispatch.frame_end <= last.saturating_add(1)
                    && dispatch.frame_start <= dispatch.frame_end;
                if !within {
                    let never = if taken {
                        "partly"
                    } else {
                        "so the engine never takes it"
                    };
                    self.push_state(
                        Severity::Warning,
                        "dispatch-range",
                        here.clone(),
                        format!(
                            "frames {}..{} are not within the animation's frames {first}..={last} ({never}: \
                             TR4, TR5, TEN and TRX skip a range the frame never reaches)",
                            dispatch.frame_start, dispatch.frame_end
                        ),
                        "set the range within the animation",
                    );
                }
                // A dispatch the engine never takes never jumps: where it would lead is a note.
                let (severity, compiled) = match taken {
                    true => self.compiled_as("Tomb Editor's compiler removes the dispatch (with a warning)"),
                    false => (Severity::Note, String::new()),
                };
                match *target {
                    None => self.push_state(
                        severity,
                        "dispatch-target",
                        here,
                        format!(
                            "its next animation ({}) names no animation of the file{compiled}",
                            dispatch.next_animation
                        ),
                        "point it at one of the object's animations",
                    ),
                    Some(target) if taken => {
                        self.target_frame(i, target, dispatch.next_frame, "dispatch-frame", "target", here)
                    }
                    Some(_) => {}
                }
            }
        }
    }

    /// `frame` must be one of `target`'s frames. Where the target is another object's animation,
    /// a note: real levels have such references with frames outside the target (TR1's puzzle
    /// holes and keyholes, whose state never changes, so the game never follows them).
    fn target_frame(
        &mut self,
        owner: usize,
        target: AnimationRef,
        frame: u16,
        rule: &'static str,
        what: &str,
        place: String,
    ) {
        let a = &self.wad.moveables[target.moveable].animations[target.animation];
        let (s, e) = (a.frame_start, a.frame_end);
        if (s..=e).contains(&frame) {
            return;
        }
        if target.moveable == MoveableIndex(owner) {
            let (severity, clamped) = self.clamped_by_the_engine();
            self.push_state(
                severity,
                rule,
                place,
                format!("next frame {frame} is outside its {what} animation's frames {s}..={e}{clamped}"),
                "set a frame of that animation",
            );
        } else {
            let other = self.moveable_name(self.wad.moveables[target.moveable].id);
            self.push(
                Severity::Note,
                rule,
                place,
                format!(
                    "next frame {frame} is outside the frames {s}..={e} of {other}'s animation {}, \
                     which it names; harmless while the game never takes this reference",
                    target.animation
                ),
                "set a frame of that animation if the game should follow it",
            );
        }
    }

    /// An animation reference naming no animation: an error where the engine follows it, a
    /// warning in a Wad2, whose compiler repairs it as `repair` says (TombLib's
    /// `LevelData/Compilers/Wad.cs` and `LevelData/Compilers/TombEngine/Wad.cs`, in
    /// `ConvertWad2DataToTrData` and `ConvertWad2DataToTombEngine`); with the words to add.
    fn compiled_as(&self, repair: &str) -> (Severity, String) {
        match self.container {
            Container::Wad2 => (Severity::Warning, format!(" ({repair})")),
            _ => (Severity::Error, String::new()),
        }
    }

    /// A next frame outside its target animation: the classic engines read another animation's
    /// keyframes (an error); Tomb Engine clamps it to the target's keyframes
    /// (TombEngine/Game/Animation/Animation.cpp, `GetFrame`: `std::clamp(frameNumber, 0,
    /// Frames.size() - 1)`) and leaves the animation at its end (a warning); with the words to
    /// add.
    fn clamped_by_the_engine(&self) -> (Severity, String) {
        match self.game == Game::Ten {
            true => (
                Severity::Warning,
                " (Tomb Engine clamps it to the animation's keyframes: the object holds the last one for a \
                 frame and moves on)"
                    .into(),
            ),
            false => (Severity::Error, String::new()),
        }
    }

    fn command_frames(&mut self, animation: &Animation, place: &str) {
        let (first, last) = (animation.frame_start, animation.frame_end);
        for (k, command) in animation.commands.iter().enumerate() {
            let frame = match *command {
                Command::PlaySound { frame, .. } | Command::Effect { frame, .. } => frame,
                _ => continue,
            };
            if frame < first || frame > last {
                // The engines fire a sound or effect when the frame equals the command's, which
                // a frame outside the animation never does (shipped files hold such commands).
                self.push_state(
                    Severity::Warning,
                    "command-frame",
                    format!("{place}, command {k}"),
                    format!(
                        "frame {frame} is outside the animation's frames {first}..={last}, so it never plays \
                         (TR4, TR5, TEN and TRX skip it)"
                    ),
                    "set a frame of the animation for it to play",
                );
            }
        }
    }

    /// Keyframe words the game reads as they are: a note, since files the games shipped hold
    /// them and nothing can recompute them. It says how wadforge writes them, so that every
    /// reader skips what no tool can decode.
    fn undecodable_keyframes(&mut self, m: &Moveable, animation: &Animation, place: &str) {
        let Some(stored) = &animation.undecodable_keyframes else {
            return;
        };
        let meshes = m.meshes.len();
        let kept = match stored.kind(meshes) {
            Undecodable::RunsPastTheData => {
                "its own words are kept only as stored, in their place; past them the game reads what follows \
                 in the file (the same words while this object's keyframes come last)"
            }
            Undecodable::TooSmall | Undecodable::NoWordsOfItsOwn => {
                "it is kept only as stored: written on the next animation's first keyframe word with no words \
                 of its own, as Core's tools wrote such animations, so the WAD document's count gives it no \
                 keyframes and every reader skips it (the game reads the next animation's words)"
            }
        };
        self.push(
            Severity::Note,
            "undecodable-keyframes",
            place.to_string(),
            format!(
                "no tool can decode its keyframes (the game cannot either): {}; {kept}; Blender shows no \
                 action for it",
                stored.why(animation.played_keyframes(), meshes)
            ),
            "nothing to do unless the animation should play: then give it keyframes (in Blender)",
        );
    }

    /// Animations that the WAD document's keyframe count, which Tomb Editor's WadTool, wadblender
    /// and the older tools follow, reads otherwise than the game plays them (keyframe words shared
    /// between animations, or offsets out of table order).
    fn keyframe_layout(&mut self, layout: &wad::Layout) {
        for miscounted in wad::miscounted_animations(self.wad, layout) {
            let Some(m) = self.wad.moveables.get(miscounted.moveable.0) else {
                continue;
            };
            self.push(
                Severity::Warning,
                "keyframe-layout",
                format!("{}, animation {}", self.moveable_name(m.id), miscounted.animation),
                format!(
                    "the WAD document's count (distance to the next animation's keyframes) gives it {} \
                     keyframes, and the game plays {}: Tomb Editor's WadTool, wadblender and the older tools \
                     read it {}",
                    miscounted.document,
                    miscounted.played,
                    if miscounted.document < miscounted.played {
                        "short (WadTool also cuts its frame range to what it counted)"
                    } else {
                        "across another animation's keyframes"
                    }
                ),
                "`wadforge check --fix -o OUT` gives every animation keyframe words of its own",
            );
        }
    }

    fn keyframe_boxes(&mut self, m: &Moveable, animation: &Animation, body: &[&Mesh], place: &str) {
        for (f, keyframe) in animation.keyframes.iter().enumerate() {
            let posed = posed_bounding_box(&m.links, keyframe, body);
            let off = keyframe.bounding_box.distance(posed);
            if off > KEYFRAME_BOX_TOLERANCE {
                // A note: real levels have boxes further off (weapon animations' boxes
                // enclose Lara's whole body), and the engine only uses them for collision.
                self.push(
                    Severity::Note,
                    "keyframe-box",
                    format!("{place}, keyframe {f}"),
                    format!("its box is {off} units from the posed meshes"),
                    "`wadforge check --fix` recomputes it",
                );
                break;
            }
        }
    }
}

/// How many parents the game's link stack holds. TR4 (tomb4's `DrawAnimatingItem`) draws from a
/// stack of 20 matrices: the view, the room, the item and the mesh being drawn take 4. TR1 and
/// TR2 (TRX's `MAX_MATRICES`) have 40. TR3's size is not documented: held to TR4's, its successor.
/// TR5's and TEN's are not documented here either: held to TR4's, their ancestor.
fn link_stack_limit(game: Game) -> usize {
    match game {
        Game::Tr1 | Game::Tr2 => 40 - 4,
        Game::Tr3 | Game::Tr4 | Game::Tr5 | Game::Ten => 20 - 4,
    }
}

/// The meshes `m`'s keyframes pose, dressed in `dressing` (TR4 LARA wears LARA_SKIN): `None`
/// when one is not in the file.
fn body_meshes<'a>(wad: &'a Wad, m: &'a Moveable, dressing: Option<Dressing>) -> Option<Vec<&'a Mesh>> {
    let body = dressing::worn_body(wad, m, dressing);
    body.meshes.iter().map(|&k| wad.meshes.get(k)).collect()
}

fn length(n: &[i16; 3]) -> f64 {
    n.iter().map(|&c| (c as f64).powi(2)).sum::<f64>().sqrt()
}

/// Brings `n` to TR's length ([`Shading::NORMAL_LENGTH`]) when it is off by more than
/// [`NORMAL_TOLERANCE`] (zero normals, which classic files hold, stay zero): its length before,
/// when it was rescaled. `fix` and `convert` (a Wad2's normals into a classic WAD) use it.
pub fn rescale_normal(n: &mut [i16; 3]) -> Option<f64> {
    let len = length(n);
    if len == 0.0 || normal_ok(len) {
        return None;
    }
    *n = n.map(|c| (c as f64 * Shading::NORMAL_LENGTH / len).round() as i16);
    Some(len)
}

fn normal_ok(len: f64) -> bool {
    (len - Shading::NORMAL_LENGTH).abs() <= Shading::NORMAL_LENGTH * NORMAL_TOLERANCE
}

fn encloses(sphere: &BoundingSphere, mesh: &Mesh) -> bool {
    let r = sphere.radius as f64 + 0.5;
    mesh.vertices.iter().all(|v| {
        let d: f64 = (0..3)
            .map(|i| (v[i] as f64 - sphere.center[i] as f64).powi(2))
            .sum();
        d.sqrt() <= r
    })
}

/// What `fix` changed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize)]
pub struct Fixed {
    pub spheres: usize,
    pub keyframe_boxes: usize,
    pub normals: usize,
}

/// Recomputes bounding spheres that do not enclose their vertices, keyframe boxes more than
/// [`KEYFRAME_BOX_TOLERANCE`] from the posed meshes, and normals whose length is off; nothing else.
/// Refused, changing nothing, when posing the boxes of a file of `input_bytes` takes more than
/// [`Limits::posing`] allows it.
pub fn fix(wad: &mut Wad, game: Game, input_bytes: u64) -> Result<Fixed, TooMuch> {
    let dressings = dressing::dressings(wad, game);
    Limits::DEFAULT
        .posing
        .check(box_posing(wad, &dressings), input_bytes)?;
    let mut fixed = Fixed::default();
    for mesh in &mut wad.meshes {
        if mesh.sphere.radius > 0 && !encloses(&mesh.sphere, mesh) {
            mesh.sphere = tight_sphere(mesh);
            fixed.spheres += 1;
        }
        if let Shading::Normals(normals) = &mut mesh.shading {
            fixed.normals += normals.iter_mut().filter_map(rescale_normal).count();
        }
    }
    let boxes: Vec<Vec<Vec<Option<BoundingBox>>>> = wad
        .moveables
        .iter()
        .zip(&dressings)
        .map(|(m, &dressing)| {
            let body = body_meshes(wad, m, dressing);
            m.animations
                .iter()
                .map(|a| {
                    a.keyframes
                        .iter()
                        .map(|k| {
                            let posed = posed_bounding_box(&m.links, k, body.as_deref()?);
                            (k.bounding_box.distance(posed) > KEYFRAME_BOX_TOLERANCE).then_some(posed)
                        })
                        .collect()
                })
                .collect()
        })
        .collect();
    for (m, boxes) in wad.moveables.iter_mut().zip(boxes) {
        for (a, boxes) in m.animations.iter_mut().zip(boxes) {
            for (k, b) in a.keyframes.iter_mut().zip(boxes) {
                if let Some(b) = b {
                    k.bounding_box = b;
                    fixed.keyframe_boxes += 1;
                }
            }
        }
    }
    Ok(fixed)
}

/// A sphere around the vertices' bounding box centre that encloses every vertex.
fn tight_sphere(mesh: &Mesh) -> BoundingSphere {
    let mut min = [i32::MAX; 3];
    let mut max = [i32::MIN; 3];
    for v in &mesh.vertices {
        for i in 0..3 {
            min[i] = min[i].min(v[i] as i32);
            max[i] = max[i].max(v[i] as i32);
        }
    }
    let center = [0, 1, 2].map(|i| ((min[i] + max[i]) / 2) as i16);
    let radius = mesh
        .vertices
        .iter()
        .map(|v| {
            (0..3)
                .map(|i| (v[i] as f64 - center[i] as f64).powi(2))
                .sum::<f64>()
                .sqrt()
        })
        .fold(0.0f64, f64::max)
        .ceil();
    BoundingSphere {
        center,
        radius: radius.min(u16::MAX as f64) as u16,
        flag: mesh.sphere.flag,
    }
}
