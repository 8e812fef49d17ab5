//! What a file's records may ask of more work than its size allows: the bounds of
//! [`crate::mesh_draws`], [`crate::sample_texels`] and the animation decoding of `records`, as
//! both readers report them.

/// Records that would make reading or using a file cost far more than its size.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TooMuchWork {
    #[error(
        "{scope} {drawn} meshes, vertices and polygons through mesh pointers, more than the {allowed} the \
         file's meshes allow (one object: what they hold plus {}; all objects: {} times what they hold plus \
         {}); the pointers name the same meshes far more often than game files do: the file is corrupt or \
         made to cost far more work than its size",
        crate::mesh_draws::OBJECT_SLACK,
        crate::mesh_draws::DRAWS_PER_STORED,
        crate::mesh_draws::FILE_SLACK
    )]
    MeshDraws {
        scope: &'static str,
        drawn: usize,
        allowed: usize,
    },
    #[error(
        "the samples up to this one name {texels} texels, more than the {allowed} the file's pages allow ({} \
         times their texels plus {} pages); samples overlap over and over as no game file's do: the file is \
         corrupt or made to cost far more work than its size",
        crate::sample_texels::TEXELS_PER_PAGE_TEXEL,
        crate::sample_texels::SLACK_PAGES
    )]
    SampleTexels { texels: usize, allowed: usize },
    #[error(
        "the animations up to this one name their {what} more than {} times over (plus {} records); they \
         share records far more than game files do: the file is corrupt or made to cost far more work than \
         its size",
        crate::records::DECODINGS_PER_RECORD,
        crate::records::DECODING_SLACK
    )]
    Decodings { what: &'static str },
    #[error(
        "the animations up to this one decode their keyframe data more than {} times over (plus {} words); \
         animations share keyframes far more than game files do: the file is corrupt or made to cost far \
         more work than its size",
        crate::records::KEYFRAME_DECODINGS_PER_WORD,
        crate::records::KEYFRAME_SLACK_WORDS
    )]
    KeyframeDecodings,
    #[error(
        "the objects up to this one name the animation records more than {} times over (plus {} records); \
         objects share animations far more than game files do: the file is corrupt or made to cost far more \
         work than its size",
        crate::records::DECODINGS_PER_RECORD,
        crate::records::DECODING_SLACK
    )]
    AnimationDecodings,
    #[error(
        "the meshes up to this one hold more than the {allowed} polygons a level of this size may ({} plus \
         one per {} bytes of the file; game levels hold a few per kilobyte): the file is corrupt or made to \
         cost far more work than its size",
        crate::Limits::DEFAULT.level_polygons.base,
        crate::Limits::DEFAULT.level_polygons.every
    )]
    LevelPolygons { allowed: usize },
}
