//! The sections of a walked level that the model is built from: what each game's reader
//! ([`super::tr123`], [`super::tr4`]) hands to [`super::build`].

use wadforge_model::catalog::Game;

use super::appended::Appended;
use super::bytes::View;
use super::sounds::SoundTables;

/// Bytes of a TR1–TR3 object texture.
pub(super) const OBJECT_TEXTURE_SIZE: usize = 20;
/// Bytes of a TR4 object texture.
pub(super) const TR4_OBJECT_TEXTURE_SIZE: usize = 38;

/// The sections the model is built from.
pub(super) struct Tables<'a> {
    pub game: Game,
    pub version: u32,
    pub file_len: usize,
    /// TR1: the 8-bit textiles; TR2/TR3: the 16-bit ones; TR4: the 32-bit ones.
    pub textiles: View<'a>,
    pub textile_count: usize,
    pub objects: ObjectTables<'a>,
    pub object_textures: View<'a>,
    /// TR1: the 6-bit palette (768 bytes); TR2/TR3: the 16-bit palette (1024 bytes); TR4:
    /// none (empty).
    pub palette: View<'a>,
    /// Data an engine appended after the level proper (TRX's injections), passed over.
    pub appended: Option<Appended>,
    /// The sound map, details and sample count (`None` where the reader does not read them).
    pub sounds: Option<SoundTables<'a>>,
}

/// The tables of the objects, from the mesh data to the static meshes: every game stores them
/// in this order, after the rooms and their floor data.
pub(super) struct ObjectTables<'a> {
    pub mesh_data: View<'a>,
    pub pointers: View<'a>,
    pub animation_count: usize,
    pub animations: View<'a>,
    pub state_changes: View<'a>,
    pub dispatches: View<'a>,
    pub commands: View<'a>,
    pub mesh_trees: View<'a>,
    pub frames: View<'a>,
    pub model_count: usize,
    pub models: View<'a>,
    pub static_count: usize,
    pub statics: View<'a>,
}
