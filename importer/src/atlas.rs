//! The texture image of one glTF file: the pages its polygons use, stacked vertically, as PNG.
//!
//! Whole pages (not cut-out samples) keep every UV on a whole texel edge of the page it came from,
//! so build recovers samples without resampling. The page count is padded to a power of two so
//! that V coordinates are exact binary fractions.

use std::collections::BTreeMap;

use wadforge_format::{Mesh, Wad, PAGE_SIZE};
use wadforge_packer::corners::TexelPoint;

pub(crate) struct Atlas {
    /// Row of each used page in the image.
    rows: BTreeMap<u16, u32>,
    pub height: u32,
}

impl Atlas {
    /// The atlas for the pages the polygons of `meshes` use.
    pub fn for_meshes<'a>(wad: &Wad, meshes: impl IntoIterator<Item = &'a Mesh>) -> Self {
        let mut rows = BTreeMap::new();
        for mesh in meshes {
            for p in &mesh.polygons {
                if let Some(sample) = wad.samples.get(p.texture.sample as usize) {
                    rows.insert(sample.page, 0);
                }
            }
        }
        for (row, r) in rows.values_mut().enumerate() {
            *r = row as u32;
        }
        let pages = rows.len().max(1).next_power_of_two() as u32;
        Atlas {
            rows,
            height: pages * PAGE_SIZE as u32,
        }
    }

    pub fn is_empty(&self) -> bool {
        self.rows.is_empty()
    }

    /// UV of a texel point of `page`.
    pub fn uv(&self, page: u16, point: TexelPoint) -> [f32; 2] {
        wadforge_packer::uv::to_uv(point, self.rows[&page], self.height)
    }

    /// The image as PNG: RGBA, magenta texels fully transparent (their colour kept, so build can
    /// tell them apart from painted-over texels), rows of unused pages transparent magenta.
    pub fn png(&self, wad: &Wad) -> Vec<u8> {
        let width = PAGE_SIZE as u32;
        let mut rgba = vec![0u8; (width * self.height * 4) as usize];
        for px in rgba.chunks_exact_mut(4) {
            px.copy_from_slice(&[255, 0, 255, 0]);
        }
        for (&page, &row) in &self.rows {
            let Some(page) = wad.pages.get(page as usize) else {
                continue;
            };
            let start = row as usize * PAGE_SIZE * PAGE_SIZE * 4;
            for (i, rgb) in page.rgb().chunks_exact(3).enumerate() {
                let alpha = if rgb == [255, 0, 255] { 0 } else { 255 };
                rgba[start + i * 4..start + i * 4 + 4].copy_from_slice(&[rgb[0], rgb[1], rgb[2], alpha]);
            }
        }
        let mut png = Vec::new();
        image::codecs::png::PngEncoder::new(&mut png)
            .write_image(&rgba, width, self.height, image::ExtendedColorType::Rgba8)
            .expect("encoding a PNG in memory cannot fail");
        png
    }
}

use image::ImageEncoder;
