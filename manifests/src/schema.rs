//! The manifest directory's YAML schema: plain serde types, no behaviour.
//!
//! A manifest directory holds one top-level [`Project`] (`wadforge.yaml`) and, per object, an
//! [`ObjectManifest`] beside the object's glTF. Everything glTF cannot carry lives here, in words a
//! level builder knows. Unknown fields are errors, so a typo never passes silently.

use serde::{Deserialize, Serialize};

/// The version of this schema, which import writes.
pub const SCHEMA_VERSION: u32 = 3;
/// The oldest layout this wadforge reads: 1 kept the exactness values of an animation beside the
/// values people edit (`exact_angles`, `pose_fingerprint`, `keyframe_boxes`), 2 under
/// `kept_exactly`; 3 names another object's animation by that object's id
/// ([`AnimationName::Other`]) where 1 and 2 kept an [`AnimationName::Index`] for it, which build
/// still reads as it did.
pub const OLDEST_SCHEMA_VERSION: u32 = 1;

/// File name of the top-level manifest.
pub const PROJECT_FILE: &str = "wadforge.yaml";

/// `wadforge.yaml`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Project {
    /// Schema version ([`SCHEMA_VERSION`]).
    pub wadforge: u32,
    pub source: Source,
    /// Which game's catalogue gives object, state and animation names: TR1, TR2, TR3 or TR4.
    pub game: String,
    pub units: Units,
    /// Object manifests, relative to the directory, in the order objects are written.
    pub objects: Vec<String>,
    /// For a directory imported from a Tomb Editor Wad2: the file (relative to the directory,
    /// [`WAD2_DETAIL_FILE`]) keeping what the Wad2 holds beyond glTF and this YAML (vertex
    /// colours, glow and movement, weights, blend modes, double-sided polygons, exact floats,
    /// blend curves, static lights, sprites, chunks wadforge does not know). `build -o X.wad2`
    /// takes it back for every vertex, polygon, keyframe and object an edit left as it was.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub wad2_detail: Option<String>,
}

/// The name import gives a directory's [`Project::wad2_detail`] file.
pub const WAD2_DETAIL_FILE: &str = "wad2_detail.wad2";

/// Where the objects came from.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Source {
    /// File name of the imported file (informational).
    pub file: String,
    /// `wad`, `tr1`, `tr2`, `tr3` or `tr4`.
    pub format: String,
    /// The file's version word.
    pub version: u32,
}

/// How TR coordinates map to glTF.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Units {
    /// TR units per glTF metre (a sector is 1024 units).
    pub tr_units_per_metre: f64,
    /// The rotation from TR axes (+X right, +Y down, +Z forward) to glTF axes (+Y up, +Z forward):
    /// always `rotate-180-about-z`, i.e. glTF (x, y, z) = TR (−x, −y, z) / tr_units_per_metre.
    pub axes: String,
}

/// The axis convention every manifest of this schema version uses.
pub const AXES: &str = "rotate-180-about-z";

/// One object manifest: exactly one of a moveable or a static.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "snake_case")]
pub enum ObjectManifest {
    Moveable(MoveableManifest),
    Static(StaticManifest),
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MoveableManifest {
    /// Object id (slot number) in the game.
    pub id: u32,
    /// Slot name from the catalogue, or `UNKNOWN_<id>`.
    pub slot: String,
    /// The glTF file, relative to this manifest.
    pub gltf: String,
    /// When the glTF shows meshes of other moveables (Lara's skeleton dressed in LARA_SKIN, or in
    /// TR3's LARA_TRUE_APPEARANCE), their ids; build writes each mesh back to its own object and
    /// takes this one's from `same_as`, or from the `placeholders` glTF.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dressed_by: Option<Dressing>,
    /// One per TR mesh, in TR mesh order (the skeleton's depth-first order). Names are the glTF
    /// joint names.
    pub bones: Vec<Bone>,
    #[serde(default)]
    pub animations: Vec<AnimationManifest>,
}

/// The moveables (by id) whose meshes the glTF shows.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Dressing {
    /// The moveable whose meshes are the body.
    pub body: u32,
    /// The moveable whose meshes fill the joints, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub joints: Option<u32>,
    /// The glTF holding this skeleton's own meshes that no other object shows (TR3's LARA: one
    /// placeholder the game swaps for the body at the start of a level), relative to the
    /// manifest. Build takes the meshes of the bones without `same_as` from it; it is not for
    /// editing.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub placeholders: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Bone {
    pub name: String,
    #[serde(flatten)]
    pub mesh: MeshInfo,
}

/// What a TR mesh has beyond its glTF geometry.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MeshInfo {
    pub sphere: Sphere,
    /// `normals` (lit by the level's lights; moveables) or `shades` (own vertex shading; statics).
    pub lighting: Lighting,
    /// Fingerprint of the mesh's positions as imported: while the built mesh has the same, it is
    /// unedited and build keeps its sphere exactly as it is.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fingerprint: Option<String>,
    /// Ask build to recompute this mesh's normals (area-weighted) instead of taking them from the
    /// glTF, e.g. after an edit left them wrong.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub recompute_normals: bool,
    /// The mesh is the same mesh as another object's (shared in the file): build writes that one
    /// here and ignores this object's own geometry for this bone.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub same_as: Option<MeshRef>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Lighting {
    Normals,
    Shades,
}

/// A mesh of another object (slot names repeat in older games, so objects are named by id).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "snake_case")]
pub enum MeshRef {
    /// A bone of a moveable.
    Moveable { id: u32, bone: String },
    /// The mesh of a static.
    Static { id: u32 },
}

/// Bounding sphere in TR units, relative to the mesh's pivot.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Sphere {
    pub center: [i16; 3],
    pub radius: u16,
    /// The word after the radius (0 or 1 in real files; meaning unknown).
    #[serde(default)]
    pub flag: u16,
}

/// An axis-aligned box in TR units.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BoxBounds {
    pub min: [i16; 3],
    pub max: [i16; 3],
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AnimationManifest {
    /// Name of the glTF animation (zero-padded index first: Blender sorts by name).
    pub name: String,
    pub state: StateRef,
    /// Engine ticks (1/30 s) per frame.
    pub frame_duration: u8,
    /// First frame on the object's own timeline, as the file numbered it. Optional on build:
    /// animations without it are numbered after the previous one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub first_frame: Option<u16>,
    /// Number of frames (keyframes and the frames interpolated between them).
    pub frames: u16,
    pub speed: f64,
    pub acceleration: f64,
    /// TR4's sideways motion; absent when zero (TR1–TR3 have none).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub lateral_speed: f64,
    #[serde(default, skip_serializing_if = "is_zero")]
    pub lateral_acceleration: f64,
    /// The animation that follows, and the frame it starts at (relative to its first frame).
    pub next: AnimationTarget,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub state_changes: Vec<StateChangeManifest>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub commands: Vec<CommandManifest>,
    /// Why the file's keyframe words for this animation do not decode as the poses the game
    /// plays (so the glTF has no animation of this name): for people. Build keeps the words as
    /// stored (`kept_exactly.undecodable_keyframes`) while the glTF has no animation of its name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub undecodable: Option<String>,
    /// What lets an unedited animation build back exactly; build recomputes what an edit
    /// changes. Nothing here needs editing.
    #[serde(default, skip_serializing_if = "KeptExactly::is_empty")]
    pub kept_exactly: KeptExactly,
}

/// The values of an animation kept for exactness, after those people edit.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct KeptExactly {
    /// Fingerprint of the poses as imported: while the built keyframes have the same, the
    /// animation is unedited and build keeps `keyframe_boxes` exactly.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pose_fingerprint: Option<String>,
    /// Angle sets that decomposing the glTF rotation would not give back (a rotation has two
    /// angle sets, more at ±90° about X): build uses them while the glTF still shows that rotation.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub exact_angles: Vec<ExactAngles>,
    /// Bounding box of each keyframe's pose. Build keeps them for unedited animations and computes
    /// them from the posed meshes otherwise.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub keyframe_boxes: Vec<BoxBounds>,
    /// Keyframe words that do not decode as poses, as the file stored them.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub undecodable_keyframes: Option<StoredKeyframes>,
    /// The file stored no keyframes for this animation, so the glTF has no action of its name:
    /// build writes it without keyframes. Any other animation without an action is an error.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub no_keyframes: bool,
}

/// An animation's keyframe words as stored: the keyframe size and the words, as hexadecimal
/// (four digits a word), one string however many there are.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StoredKeyframes {
    /// Words per keyframe, as the animation record stores it.
    pub size: u8,
    pub words: HexWords,
}

/// 16-bit words written as one hexadecimal string, four digits a word.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct HexWords(pub Vec<u16>);

impl Serialize for HexWords {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let text: String = self.0.iter().map(|w| format!("{w:04x}")).collect();
        serializer.serialize_str(&text)
    }
}

impl<'de> Deserialize<'de> for HexWords {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let text = String::deserialize(deserializer)?;
        let digits = text.as_bytes();
        if digits.len() % 4 != 0 {
            return Err(serde::de::Error::custom(format!(
                "{} hexadecimal digits, not four a word",
                digits.len()
            )));
        }
        digits
            .chunks_exact(4)
            .map(|d| {
                std::str::from_utf8(d)
                    .ok()
                    .and_then(|d| u16::from_str_radix(d, 16).ok())
                    .ok_or_else(|| serde::de::Error::custom("words are hexadecimal digits, four a word"))
            })
            .collect::<Result<_, _>>()
            .map(HexWords)
    }
}

impl KeptExactly {
    /// The keys of format 1, which stood beside the editable values of an animation.
    pub const FORMAT_1_KEYS: [&'static str; 3] = ["pose_fingerprint", "exact_angles", "keyframe_boxes"];

    pub fn is_empty(&self) -> bool {
        self.pose_fingerprint.is_none()
            && self.exact_angles.is_empty()
            && self.keyframe_boxes.is_empty()
            && self.undecodable_keyframes.is_none()
            && !self.no_keyframes
    }
}

/// The stored angles (4096 per turn) of one mesh in one keyframe.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ExactAngles {
    pub keyframe: u16,
    pub mesh: u16,
    pub x: u16,
    pub y: u16,
    pub z: u16,
}

/// A state: its id, and its name when the catalogue knows it (informational).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StateRef {
    pub id: u16,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
}

/// An animation ([`AnimationName`]), and a frame relative to its first frame (an [`AnimationName::Index`]
/// outside this object's animations: the frame on the target's timeline).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AnimationTarget {
    pub animation: AnimationName,
    pub frame: i32,
}

/// The animation a next animation or dispatch names: one of this object's by name, another
/// object's by that object's id and its place in that object's list, or an index.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum AnimationName {
    Name(String),
    /// Another object's animation (real files name Lara's from weapon objects): build finds it
    /// in the model it writes, so the reference follows it wherever the tables put it.
    Other(OtherAnimation),
    /// An index relative to this object's first animation in the file written: what import
    /// writes for a reference that names no animation of its file, and what directories of
    /// schema 1 and 2 hold for another object's animation.
    Index(i32),
}

/// Animation `index` (counted from 0) of the moveable of id `moveable`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OtherAnimation {
    pub moveable: u32,
    pub index: u32,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StateChangeManifest {
    pub state: StateRef,
    pub dispatches: Vec<DispatchManifest>,
}

/// While the frame is in `frames[0]..frames[1]` (end exclusive, relative to this animation's first
/// frame), a request for the state goes to `animation` at `frame`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DispatchManifest {
    pub frames: [i32; 2],
    pub animation: AnimationName,
    pub frame: i32,
}

/// Animation commands, one shape per kind. Frames are relative to the animation's first frame.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "snake_case")]
pub enum CommandManifest {
    /// Move the object by this offset (TR units) when the animation ends.
    SetPosition([i16; 3]),
    /// Start a jump with these velocities.
    Jump { vertical: i16, horizontal: i16 },
    /// Free the hands (end of a weapon or pickup animation).
    EmptyHands,
    /// The object dies at the end of the animation.
    Kill,
    /// Play a sound at a frame, `on` land, water or anywhere.
    Sound { frame: i32, id: u16, on: SoundPlace },
    /// Trigger an engine effect (flip effect) at a frame; `name` is informational.
    Effect {
        frame: i32,
        id: u16,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        name: Option<String>,
    },
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SoundPlace {
    Anywhere,
    Land,
    Water,
    /// Both flag bits set (seen in some files).
    LandAndWater,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StaticManifest {
    pub id: u32,
    pub slot: String,
    pub gltf: String,
    /// The glTF mesh of this static (its only mesh).
    pub mesh: MeshInfo,
    pub visibility_box: BoxBounds,
    pub collision_box: BoxBounds,
    /// 2 in TRLE's own WADs.
    pub flags: u16,
}

fn is_zero(v: &f64) -> bool {
    *v == 0.0
}
