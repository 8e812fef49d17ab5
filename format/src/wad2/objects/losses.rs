//! What a classic WAD cannot hold of a Wad2's objects: counted per object, never dropped unsaid.

use std::collections::BTreeMap;
use std::fmt;

use wadforge_model::catalog::{self, Game};

/// One kind of thing a classic WAD cannot hold, or holds only approximately.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum LossKind {
    /// Vertex colours that are not grey: written as the nearest grey shade.
    ColouredVertices,
    /// A blend mode other than normal, alpha test and additive: drawn as normal.
    BlendMode(i64),
    /// Double-sided polygons: the game draws one side.
    DoubleSided,
    /// Tomb Engine's glow and movement strengths of vertices.
    VertexAttributes,
    /// Vertex weights of skinned meshes.
    VertexWeights,
    /// A skinned mesh (W2MovSkin).
    Skin,
    /// Blend curves and blend frame counts of animations and dispatches.
    BlendCurves,
    /// UVs off texel corners, moved to the nearest corner.
    UvsOffTexels,
    /// UVs outside their texture (repeats), clamped to its edge.
    UvsOutsideTexture,
    /// Polygons whose shine strength is outside 0–31 (a classic polygon's five bits): clamped.
    ShineClamped,
    /// Polygons spanning more texels than a page holds: their texels shrunk to fit one.
    TexturesShrunk,
    /// Coordinates past a 16-bit word, or not numbers: clamped.
    CoordinatesClamped,
    /// Normals that are not numbers: made from the faces around the vertex.
    NormalsRemade,
    /// Keyframe rotations on two or three axes, rounded to the classic 1024 steps a turn.
    RotationsRounded,
    /// Start and end velocities that 16.16 speeds and accelerations give only approximately.
    VelocitiesApproximated,
    /// A hidden mesh (shown in the WAD).
    HiddenMesh,
    /// A static's lights, ambient light or shatter settings (Tomb Engine).
    StaticLighting,
    /// Sprites and sprite sequences, which a WAD keeps in its SWD companion file.
    Sprites,
    /// Animated texture sets.
    AnimatedTextures,
    /// Chunks wadforge does not know.
    UnknownChunks,
    /// Polygon attribute bits a Wad2 cannot say: bit 7, or a shine bit that its strength (and
    /// whether the mesh is a moveable's) does not give.
    PolygonAttributes,
    /// Animations whose keyframe words do not decode (kept as stored in a WAD; a Wad2 holds
    /// decoded keyframes only).
    UndecodableKeyframes,
    /// Bounding spheres' flag words, which a Wad2 has no place for (it reads back as 0).
    SphereFlags,
    /// Commands a classic WAD has no opcode or operand for (Tomb Engine's 7, sounds on
    /// quicksand or under water).
    Command(i64),
    /// A classic WAD's sound commands flagged both on land and in water: the classic engines play
    /// a command whose flags are none, land or water, so never these (TR2–TR4's command code
    /// compares `flags & 0xC000` with each); a Wad2's one environment a command cannot say that
    /// (written as in water).
    SoundOnLandAndInWater,
}

impl fmt::Display for LossKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LossKind::ColouredVertices => {
                write!(f, "vertex colours that are not grey (written as grey shades)")
            }
            LossKind::BlendMode(mode) => write!(f, "polygons with blend mode {mode} (drawn opaque)"),
            LossKind::DoubleSided => write!(f, "double-sided polygons (drawn one-sided)"),
            LossKind::VertexAttributes => write!(f, "vertex glow/move attributes (dropped)"),
            LossKind::VertexWeights => write!(f, "vertex weights (dropped)"),
            LossKind::Skin => write!(f, "a skinned mesh (dropped)"),
            LossKind::BlendCurves => write!(f, "animation blend curves or blend frames (dropped)"),
            LossKind::UvsOffTexels => write!(
                f,
                "polygons with UVs off texel corners (moved to the nearest corner)"
            ),
            LossKind::UvsOutsideTexture => {
                write!(f, "polygons with UVs outside their texture (clamped to its edge)")
            }
            LossKind::ShineClamped => {
                write!(f, "polygons with a shine outside 0–31 (clamped to it)")
            }
            LossKind::TexturesShrunk => write!(
                f,
                "polygons over more than 256 texels of a texture (their texels shrunk to fit a page)"
            ),
            LossKind::CoordinatesClamped => write!(f, "coordinates past 16 bits or not numbers (clamped)"),
            LossKind::NormalsRemade => write!(
                f,
                "normals that are not numbers (made from the faces around them)"
            ),
            LossKind::RotationsRounded => write!(f, "keyframe rotations rounded to 1024 steps a turn"),
            LossKind::VelocitiesApproximated => write!(
                f,
                "animation velocities approximated by 16.16 speed and acceleration"
            ),
            LossKind::HiddenMesh => write!(f, "hidden meshes (shown)"),
            LossKind::StaticLighting => {
                write!(f, "static lights, ambient light or shatter settings (dropped)")
            }
            LossKind::Sprites => write!(
                f,
                "sprites and sprite sequences (not in a WAD; its SWD holds them)"
            ),
            LossKind::AnimatedTextures => write!(f, "animated texture sets (dropped)"),
            LossKind::UnknownChunks => write!(f, "chunks wadforge does not know (dropped)"),
            LossKind::PolygonAttributes => write!(f, "polygons whose attribute bits a Wad2 cannot hold (bit 7, or a shine bit apart from the shine strength)"),
            LossKind::UndecodableKeyframes => write!(f, "animations whose keyframe words do not decode (dropped: a Wad2 holds decoded keyframes)"),
            LossKind::SphereFlags => write!(f, "meshes whose bounding sphere's flag word is set (a Wad2 has none; read back as 0)"),
            LossKind::SoundOnLandAndInWater => write!(
                f,
                "sound commands flagged both on land and in water, which the classic engines never play and a Wad2 \
                 cannot flag (written as in water, where they then play)"
            ),
            LossKind::Command(kind) => write!(
                f,
                "animation commands of type {kind} a classic WAD cannot hold (dropped or simplified)"
            ),
        }
    }
}

/// What was lost: `count` of `kind` in `object` (a moveable's or static's name, or "file").
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Loss {
    pub object: String,
    pub kind: LossKind,
    pub count: usize,
}

impl fmt::Display for Loss {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {} × {}", self.object, self.count, self.kind)
    }
}

/// How a loss names a moveable: its slot name in `game`'s catalogue and its id.
pub(crate) fn moveable_name(game: Game, id: u32) -> String {
    format!("{} (moveable {id})", catalog::moveable_slot(game, id))
}

/// How a loss names a static: its slot name in `game`'s catalogue and its id.
pub(crate) fn static_name(game: Game, id: u32) -> String {
    format!("{} (static {id})", catalog::static_slot(game, id))
}

/// Losses counted as the objects are mapped.
#[derive(Debug, Default)]
pub(crate) struct Losses {
    counts: BTreeMap<(usize, LossKind), usize>,
    objects: Vec<String>,
}

impl Losses {
    /// Starts counting for a new object; later [`Losses::add`] calls count for it.
    pub(crate) fn object(&mut self, name: String) {
        self.objects.push(name);
    }

    pub(crate) fn add(&mut self, kind: LossKind, count: usize) {
        if count > 0 {
            let object = self.objects.len().saturating_sub(1);
            *self.counts.entry((object, kind)).or_default() += count;
        }
    }

    pub(crate) fn finish(self) -> Vec<Loss> {
        let objects = self.objects;
        self.counts
            .into_iter()
            .map(|((object, kind), count)| Loss {
                object: objects.get(object).cloned().unwrap_or_else(|| "file".into()),
                kind,
                count,
            })
            .collect()
    }
}
