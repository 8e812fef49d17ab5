//! Texture pages as pictures, with each sample outlined so a builder sees how space is used.

use wadforge_model::{Wad, PAGE_SIZE};

/// The colour of a sample's outline.
pub const OUTLINE: [u8; 3] = [0, 255, 0];

/// Page `page` of `wad` as 256×256 RGB with the border texels of each of its samples in
/// [`OUTLINE`]. `None` when the page does not exist.
pub fn outlined(wad: &Wad, page: usize) -> Option<Vec<u8>> {
    let mut rgb = wad.pages.get(page)?.rgb().to_vec();
    for s in wad.samples.iter().filter(|s| s.page as usize == page) {
        let (x0, y0) = (s.x as usize, s.y as usize);
        let x1 = (x0 + (s.width as usize).max(1)).min(PAGE_SIZE) - 1;
        let y1 = (y0 + (s.height as usize).max(1)).min(PAGE_SIZE) - 1;
        let mut mark = |x: usize, y: usize| rgb[(y * PAGE_SIZE + x) * 3..][..3].copy_from_slice(&OUTLINE);
        for x in x0..=x1 {
            mark(x, y0);
            mark(x, y1);
        }
        for y in y0..=y1 {
            mark(x0, y);
            mark(x1, y);
        }
    }
    Some(rgb)
}

/// PNG bytes of RGB (3 bytes a pixel) or RGBA (4) pixels, rows top to bottom.
pub fn png(pixels: &[u8], width: u32, height: u32) -> Vec<u8> {
    let colour = if pixels.len() == (width * height * 4) as usize {
        image::ExtendedColorType::Rgba8
    } else {
        image::ExtendedColorType::Rgb8
    };
    let mut out = Vec::new();
    image::ImageEncoder::write_image(
        image::codecs::png::PngEncoder::new(&mut out),
        pixels,
        width,
        height,
        colour,
    )
    .expect("PNG encoding into memory of pixels of the stated size cannot fail");
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use wadforge_model::{Page, Sample};

    #[test]
    fn outlines_mark_the_border_texels_of_the_page_samples_only() {
        let wad = Wad {
            pages: vec![Page::filled([9, 9, 9]), Page::filled([9, 9, 9])],
            samples: vec![
                Sample {
                    x: 10,
                    y: 20,
                    width: 4,
                    height: 3,
                    page: 1,
                    ..Sample::default()
                },
                Sample {
                    x: 0,
                    y: 0,
                    width: 8,
                    height: 8,
                    page: 0,
                    ..Sample::default()
                },
            ],
            ..Wad::default()
        };
        let rgb = outlined(&wad, 1).unwrap();
        let at = |x: usize, y: usize| {
            [
                rgb[(y * 256 + x) * 3],
                rgb[(y * 256 + x) * 3 + 1],
                rgb[(y * 256 + x) * 3 + 2],
            ]
        };
        assert_eq!(at(10, 20), OUTLINE);
        assert_eq!(at(13, 22), OUTLINE);
        assert_eq!(at(11, 21), [9, 9, 9], "the inside is kept");
        assert_eq!(at(14, 20), [9, 9, 9], "outside the sample");
        assert_eq!(at(0, 0), [9, 9, 9], "page 0's sample is not on page 1");
        assert!(outlined(&wad, 2).is_none());
    }
}
