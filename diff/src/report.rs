//! What a comparison found: per object, every difference with its place and both values; and
//! how that reads as text.

use std::fmt;
use std::io::{self, Write};

use serde::Serialize;
use wadforge_model::{ObjectKind, ObjectName};

/// Every object of both inputs, moveables first then statics, each in order of id.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Report {
    pub objects: Vec<ObjectDiff>,
    /// Objects of one input that the other's game has no slot for, so nothing to compare with
    /// (a TR1 level's WOLF beside a WAD: TR4 has no WOLF). Each differs.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub unmatched: Vec<Unmatched>,
}

/// An object of one input compared with nothing: the other input's game has no slot for it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Unmatched {
    /// `A` or `B`: the input it is in.
    pub side: String,
    /// Its name in its own game's terms, e.g. `WOLF (moveable 7)`.
    pub object: String,
    /// Why it has no counterpart, e.g. `TR4 has no moveable slot for TR1's WOLF`.
    pub why: String,
}

/// One object (matched by kind and id) and how it differs; no differences means identical.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ObjectDiff {
    pub kind: ObjectKind,
    pub id: u32,
    /// Its differences, as far as the report lists them ([`LISTED_DIFFERENCES`] in all).
    pub differences: Vec<Difference>,
    /// Its differences past those the report lists: counted only.
    pub unlisted: usize,
}

/// Differences a report lists in all; past them, each object counts its own. A difference is a
/// few bytes of a file (an angle, a corner) and some 200 bytes listed: two 4 MB files took over
/// 400 MB when every one was.
pub const LISTED_DIFFERENCES: usize = 100_000;

/// One value that differs: where (from the object down, e.g. `mesh 3, polygon 7, corner 2`),
/// what it is, its value in A and in B.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Difference {
    /// Empty for the object itself.
    pub place: String,
    pub what: Field,
    pub a: String,
    pub b: String,
    /// More about the difference (e.g. how many texels of a sample differ).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

impl fmt::Display for Difference {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if !self.place.is_empty() {
            write!(f, "{}: ", self.place)?;
        }
        write!(f, "{} {} vs {}", self.what, self.a, self.b)?;
        if let Some(note) = &self.note {
            write!(f, " ({note})")?;
        }
        Ok(())
    }
}

/// The kinds of value the comparison looks at.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Field {
    /// The object is in one input only.
    Object,
    // Moveables.
    MeshCount,
    /// A mesh index that names no mesh of its file.
    Mesh,
    LinkCount,
    LinkParent,
    LinkOffset,
    AnimationCount,
    // Meshes.
    SphereCentre,
    SphereRadius,
    SphereFlag,
    /// Normals or shades.
    Lighting,
    VertexCount,
    Vertex,
    NormalCount,
    Normal,
    ShadeCount,
    Shade,
    PolygonCount,
    /// A polygon over corners no polygon of the other mesh has, where no polygon of the other
    /// mesh is left to compare it with.
    Polygon,
    /// Triangle or quad.
    PolygonKind,
    /// The vertex a polygon corner uses.
    VertexIndex,
    Attributes,
    /// The byte after the attributes, which the engine does not read.
    UnusedByte,
    /// A texture index that names no sample (or a sample on no page).
    Sample,
    SampleSize,
    /// Where the polygon's corners sit on its sample (shape and flip).
    TextureCorners,
    Texels,
    // Animations.
    FrameDuration,
    State,
    Speed,
    Acceleration,
    LateralSpeed,
    LateralAcceleration,
    FrameStart,
    FrameEnd,
    NextAnimation,
    NextFrame,
    StateChangeCount,
    StateChangeState,
    DispatchCount,
    DispatchFrameStart,
    DispatchFrameEnd,
    DispatchNextAnimation,
    DispatchNextFrame,
    CommandCount,
    Command,
    KeyframeCount,
    KeyframeOffset,
    KeyframeBox,
    RotationCount,
    Angles,
    /// Keyframe words that do not decode as poses, kept as stored.
    UndecodableKeyframes,
    // Statics.
    VisibilityBox,
    CollisionBox,
    Flags,
}

impl fmt::Display for Field {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use Field::*;
        f.write_str(match self {
            Object => "object",
            MeshCount => "mesh count",
            Mesh => "mesh",
            LinkCount => "link count",
            LinkParent => "link parent",
            LinkOffset => "link offset",
            AnimationCount => "animation count",
            SphereCentre => "sphere centre",
            SphereRadius => "sphere radius",
            SphereFlag => "sphere flag",
            Lighting => "lighting",
            VertexCount => "vertex count",
            Vertex => "vertex",
            NormalCount => "normal count",
            Normal => "normal",
            ShadeCount => "shade count",
            Shade => "shade",
            PolygonCount => "polygon count",
            Polygon => "polygon",
            PolygonKind => "polygon kind",
            VertexIndex => "vertex index",
            Attributes => "attributes",
            UnusedByte => "unused byte",
            Sample => "sample",
            SampleSize => "sample size",
            TextureCorners => "texture corners",
            Texels => "texel",
            FrameDuration => "frame duration",
            State => "state",
            Speed => "speed",
            Acceleration => "acceleration",
            LateralSpeed => "lateral speed",
            LateralAcceleration => "lateral acceleration",
            FrameStart => "frame start",
            FrameEnd => "frame end",
            NextAnimation => "next animation",
            NextFrame => "next frame",
            StateChangeCount => "state change count",
            StateChangeState => "state",
            DispatchCount => "dispatch count",
            DispatchFrameStart => "frame start",
            DispatchFrameEnd => "frame end",
            DispatchNextAnimation => "next animation",
            DispatchNextFrame => "next frame",
            CommandCount => "command count",
            Command => "command",
            KeyframeCount => "keyframe count",
            KeyframeOffset => "offset",
            KeyframeBox => "bounding box",
            RotationCount => "rotation count",
            Angles => "angles",
            UndecodableKeyframes => "undecodable keyframe words",
            VisibilityBox => "visibility box",
            CollisionBox => "collision box",
            Flags => "flags",
        })
    }
}

impl Report {
    /// True when every object of A is in B with the same content, and B has no other.
    pub fn is_identical(&self) -> bool {
        self.unmatched.is_empty() && self.objects.iter().all(ObjectDiff::is_identical)
    }

    /// Number of objects that differ (missing, extra and unmatched ones included).
    pub fn differing(&self) -> usize {
        self.unmatched.len() + self.objects.iter().filter(|o| !o.is_identical()).count()
    }

    /// One line: `57 of 59 objects identical (2 differ)`, and how many of those differ for
    /// having no slot in the other input's game.
    pub fn summary(&self) -> String {
        let (total, differing) = (self.objects.len() + self.unmatched.len(), self.differing());
        let line = format!(
            "{} of {total} object{} identical",
            total - differing,
            if total == 1 { "" } else { "s" }
        );
        if differing == 0 {
            line
        } else {
            let verb = if differing == 1 { "differs" } else { "differ" };
            match self.unmatched.len() {
                0 => format!("{line} ({differing} {verb})"),
                n => format!("{line} ({differing} {verb}: {n} with no slot in the other's game)"),
            }
        }
    }

    /// The report as text: a line per object (`LARA (moveable 0): identical`, `only in A`, or the
    /// number of differences followed by at most `limit` indented lines and how many more there
    /// are), then the summary as the last line. `name` gives an object's slot name.
    pub fn write_text(
        &self,
        out: &mut impl Write,
        name: impl Fn(ObjectKind, u32) -> String,
        limit: usize,
    ) -> io::Result<()> {
        for object in &self.objects {
            let title = ObjectName::with_slot(name(object.kind, object.id), object.kind, object.id);
            match object.differences.as_slice() {
                [] if object.unlisted == 0 => writeln!(out, "{title}: identical")?,
                [d] if d.what == Field::Object => {
                    let side = if d.a == PRESENT { "A" } else { "B" };
                    writeln!(out, "{title}: only in {side}")?
                }
                _ => {
                    let n = object.count();
                    writeln!(out, "{title}: {n} difference{}", if n == 1 { "" } else { "s" })?;
                    for d in object.differences.iter().take(limit) {
                        writeln!(out, "    {d}")?;
                    }
                    let shown = limit.min(object.differences.len());
                    if n > shown {
                        writeln!(out, "    … and {} more", n - shown)?;
                    }
                }
            }
        }
        for object in &self.unmatched {
            writeln!(out, "{}: only in {}: {}", object.object, object.side, object.why)?;
        }
        writeln!(out, "{}", self.summary())
    }
}

impl Report {
    /// The objects that differ, each with at most `limit` of its differences, a line each: what
    /// a test or a log says when content was expected to be the same.
    pub fn differing_text(&self, limit: usize) -> String {
        let mut out = String::new();
        for object in &self.unmatched {
            out.push_str(&format!(
                "{}: only in {}: {}\n",
                object.object, object.side, object.why
            ));
        }
        for object in self.objects.iter().filter(|o| !o.is_identical()) {
            out.push_str(&format!("{} {}:\n", object.kind, object.id));
            for d in object.differences.iter().take(limit) {
                out.push_str(&format!("    {d}\n"));
            }
            if object.count() > limit.min(object.differences.len()) {
                let more = object.count() - limit.min(object.differences.len());
                out.push_str(&format!("    … and {more} more\n"));
            }
        }
        out
    }
}

impl ObjectDiff {
    pub fn is_identical(&self) -> bool {
        self.differences.is_empty() && self.unlisted == 0
    }

    /// Its differences, listed or not.
    pub fn count(&self) -> usize {
        self.differences.len() + self.unlisted
    }
}

/// The values of a [`Field::Object`] difference.
pub(crate) const PRESENT: &str = "present";
pub(crate) const MISSING: &str = "missing";

/// Collects the differences of one object, listing as many as `room` allows.
pub(crate) struct Recorder {
    pub differences: Vec<Difference>,
    pub unlisted: usize,
    room: usize,
}

impl Recorder {
    pub fn with_room(room: usize) -> Self {
        Recorder {
            differences: Vec::new(),
            unlisted: 0,
            room,
        }
    }

    /// Records a difference: listed (the last of `differences`) while there is room, else
    /// counted.
    pub fn differ(&mut self, place: &str, what: Field, a: impl fmt::Display, b: impl fmt::Display) {
        if self.differences.len() >= self.room {
            self.unlisted += 1;
            return;
        }
        self.differences.push(Difference {
            place: place.to_owned(),
            what,
            a: a.to_string(),
            b: b.to_string(),
            note: None,
        });
    }

    /// Records `a` and `b` when they differ; true when they are equal.
    pub fn compare<T: PartialEq + fmt::Display>(&mut self, place: &str, what: Field, a: T, b: T) -> bool {
        let equal = a == b;
        if !equal {
            self.differ(place, what, a, b);
        }
        equal
    }

    /// Records two counts when they differ (the common part is compared by the caller).
    pub fn count(&mut self, place: &str, what: Field, a: usize, b: usize) {
        self.compare(place, what, a, b);
    }
}

/// `parent, child`, or just `child` at the top.
pub(crate) fn at(parent: &str, child: impl fmt::Display) -> String {
    if parent.is_empty() {
        child.to_string()
    } else {
        format!("{parent}, {child}")
    }
}

/// `(x, y, z)`.
#[derive(PartialEq)]
pub(crate) struct Triple<T>(pub [T; 3]);

impl<T: fmt::Display> fmt::Display for Triple<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "({}, {}, {})", self.0[0], self.0[1], self.0[2])
    }
}

/// `min (x, y, z) max (x, y, z)`.
#[derive(PartialEq)]
pub(crate) struct BoxText(pub wadforge_model::BoundingBox);

impl fmt::Display for BoxText {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "min {} max {}", Triple(self.0.min), Triple(self.0.max))
    }
}
