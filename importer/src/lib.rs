//! Import: a model (from a WAD or a level) → a manifest directory of glTF files and manifests.
//!
//! Will own: TR space → glTF space (rotation, never a mirror, and a scale), one joint per mesh with
//! a skin, one glTF animation per TR animation, textures as PNG with exact sample-corner UVs, and
//! the manifests. Nothing here yet: see the import issue.
