//! Texture samples and the 256×256 24-bit pages they sit on.

/// Width and height of a texture page, in pixels.
pub const PAGE_SIZE: usize = 256;
/// Bytes of one 24-bit RGB page.
pub const PAGE_BYTES: usize = PAGE_SIZE * PAGE_SIZE * 3;

/// A rectangle of texels on one page that polygons map.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Sample {
    /// Left column of the rectangle on its page.
    pub x: u8,
    /// Top row of the rectangle on its page.
    pub y: u8,
    /// Index of the page in [`crate::Wad::pages`].
    pub page: u16,
    /// Stored as −1 or 0; −1 in nearly every WAD. Kept as read.
    pub flip_x: i8,
    /// Stored as −1 or 0; −1 in nearly every WAD. Kept as read.
    pub flip_y: i8,
    /// Width in texels, 1..=256.
    pub width: u16,
    /// Height in texels, 1..=256.
    pub height: u16,
}

/// One 256×256 page of 24-bit RGB texels, rows top to bottom. Magenta (255, 0, 255) marks
/// transparent texels.
#[derive(Clone, PartialEq, Eq)]
pub struct Page {
    rgb: Box<[u8]>,
}

impl Page {
    /// A page filled with one colour.
    pub fn filled(rgb: [u8; 3]) -> Self {
        Page {
            rgb: rgb.repeat(PAGE_BYTES / 3).into_boxed_slice(),
        }
    }

    /// A page from exactly [`PAGE_BYTES`] bytes of RGB; `None` for any other length.
    pub fn from_rgb(rgb: Vec<u8>) -> Option<Self> {
        (rgb.len() == PAGE_BYTES).then(|| Page {
            rgb: rgb.into_boxed_slice(),
        })
    }

    pub fn rgb(&self) -> &[u8] {
        &self.rgb
    }

    pub fn texel(&self, x: usize, y: usize) -> [u8; 3] {
        let i = (y * PAGE_SIZE + x) * 3;
        [self.rgb[i], self.rgb[i + 1], self.rgb[i + 2]]
    }

    pub fn set_texel(&mut self, x: usize, y: usize, rgb: [u8; 3]) {
        let i = (y * PAGE_SIZE + x) * 3;
        self.rgb[i..i + 3].copy_from_slice(&rgb);
    }

    /// Copies a rectangle of RGB texels (`rgb`, rows of `width` texels) with its top-left at
    /// (x, y), row by row. The rectangle must lie on the page.
    pub fn put_rect(&mut self, x: usize, y: usize, width: usize, rgb: &[u8]) {
        for (row, line) in rgb.chunks_exact(3 * width).enumerate() {
            let i = ((y + row) * PAGE_SIZE + x) * 3;
            self.rgb[i..i + line.len()].copy_from_slice(line);
        }
    }
}

impl std::fmt::Debug for Page {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // 196 KiB of texels help nobody reading a debug dump.
        write!(f, "Page({} bytes)", self.rgb.len())
    }
}
