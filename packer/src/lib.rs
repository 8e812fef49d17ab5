//! Texture samples and pages.
//!
//! Will own: cutting a polygon's texels out of its page (sample + shape + flip → UV corners), the
//! reverse (UV corners on whole texels → sample rectangle, shape and flip; resampling otherwise),
//! deduplicating samples and packing them into 256×256 pages with `texture_packer`.
//! Nothing here yet: the foundation issue lays the workspace out; the import and build issues fill it.
