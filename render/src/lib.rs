//! Pictures of TR objects, drawn by a small software rasterizer, and the gallery page of a WAD
//! or level.
//!
//! - [`view`]: the camera (an orthographic view, a rotation of TR space) and framing in a picture.
//! - [`scene`]: meshes posed by `wadforge_model::pose`'s rule (what the game shows), dressed
//!   as import dresses them, projected into lit, textured triangles.
//! - [`raster`]: textured triangles with a depth buffer; magenta texels are transparent.
//! - [`pages`]: texture pages with their samples outlined (`build --pages` and the gallery).
//! - [`animated`]: animated PNGs of rendered keyframes.
//! - [`gallery`]: the gallery directory of a WAD or level (`wadforge gallery`).

#![warn(clippy::too_many_lines)]

pub mod animated;
pub mod gallery;
pub mod pages;
pub mod raster;
pub mod scene;
pub mod view;

use wadforge_model::{SkewedCorners, Wad};

pub use raster::Canvas;
pub use scene::{Figure, Lighting, Placed};
pub use view::{Extents, Framing, View};

/// Blank pixels kept round an object in a picture.
pub const MARGIN: u32 = 4;

/// A picture and how camera space maps onto it.
#[derive(Debug, Clone)]
pub struct Picture {
    pub canvas: Canvas,
    pub framing: Framing,
}

/// A `size`×`size` picture of placed meshes seen from `view`, framed to fit.
pub fn picture(wad: &Wad, skewed: &SkewedCorners, placed: &[Placed], view: &View, size: u32) -> Picture {
    let projected = scene::project(wad, skewed, placed, view, &Lighting::default());
    let framing = Framing::fit(&projected.extents, size, MARGIN);
    let mut canvas = Canvas::new(size, size);
    scene::draw(&projected, &framing, &mut canvas, wad);
    Picture { canvas, framing }
}
