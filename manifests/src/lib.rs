//! The manifest directory: a top-level manifest and one YAML manifest per object beside its glTF.
//!
//! Will own: the serde schema (object ids, slot names, bone names in TR mesh order, animation
//! state machine, bounding data), loading a directory with `walkdir`, and validation whose errors
//! give file:line:column. Nothing here yet: the import issue designs the schema.
