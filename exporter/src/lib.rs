//! Build: a manifest directory → a model ready for the WAD writer.
//!
//! Will own: gathering each joint's triangles, welding (meshopt), rebuilding quads, normals and
//! spheres, texture samples from UVs, link stacks from the skeleton, keyframes from the glTF
//! animations. Nothing here yet: see the build issue.
