//! Texel points ↔ glTF UVs on an atlas of whole pages stacked vertically.
//!
//! The atlas is 256 texels wide; page `p` fills rows `p*256 .. p*256+256`, so an atlas of `n`
//! pages is `256 × 256n`. glTF puts UV (0, 0) at the top-left of the image, so
//! `u = x / 256` and `v = (p*256 + y) / (256n)`.
//!
//! UVs that went through Blender come back with V passed through `1 − v` twice in float32
//! (`docs/format-facts.md`, "Blender and the glTF"): U is exact, V may move by one float32 step. Going back,
//! every UV is therefore rounded to the nearest texel edge; [`texel_offset`] tells how far it
//! was from one, so a caller can tell snapped UVs (float noise, well under 0.01 texel) from
//! artist-made ones.
//!
//! A row on the line between two pages is both the bottom edge (`y = 256`) of the upper page and
//! the top edge (`y = 0`) of the lower one: a single point cannot say which; the polygon it
//! belongs to can ([`corners_from_uvs`]).

use wadforge_model::texture_corners::TexelPoint;
use wadforge_model::PAGE_SIZE;

const PAGE: u32 = PAGE_SIZE as u32;

/// The UV of a texel-edge point on page `page_row` of an atlas `image_height` rows high (a
/// multiple of 256; width 256).
pub fn to_uv(point: TexelPoint, page_row: u32, image_height: u32) -> [f32; 2] {
    let row = f64::from(page_row) * f64::from(PAGE) + f64::from(point.y);
    [
        (f64::from(point.x) / f64::from(PAGE)) as f32,
        (row / f64::from(image_height)) as f32,
    ]
}

/// Pages in an atlas image of this size: its height must be a whole multiple of its width. The
/// texel grid is 256 per page edge whatever the image's size in pixels, so an atlas scaled up
/// uniformly (say to 512 × 512n) still maps UVs to the same texels.
fn atlas_pages(image_width: u32, image_height: u32) -> Option<u32> {
    (image_width > 0 && image_height > 0 && image_height % image_width == 0)
        .then(|| image_height / image_width)
}

/// A UV on the atlas's texel grid before rounding: (column, row over all pages), in texels.
fn grid(uv: [f32; 2], pages: u32) -> Option<(f64, f64)> {
    let (u, v) = (f64::from(uv[0]), f64::from(uv[1]));
    (u.is_finite() && v.is_finite()).then(|| (u * f64::from(PAGE), v * f64::from(PAGE) * f64::from(pages)))
}

/// The nearest texel edge of a UV: (column 0..=256, row 0..=256·pages over the whole atlas).
fn atlas_point(uv: [f32; 2], image_width: u32, image_height: u32) -> Option<(u32, u32, u32)> {
    let pages = atlas_pages(image_width, image_height)?;
    let (x, row) = grid(uv, pages)?;
    let (x, row) = (x.round(), row.round());
    let in_range = (0.0..=f64::from(PAGE)).contains(&x) && (0.0..=f64::from(PAGE * pages)).contains(&row);
    in_range.then_some((x as u32, row as u32, pages))
}

/// The page and texel-edge point nearest a UV on an atlas of `image_width × image_height` (the
/// height a whole multiple of the width; 256 × 256n as written). `None` when the image is not
/// shaped like an atlas or the UV lies outside it (more than half a texel) or is not finite.
///
/// A point on the line between two pages is put on the lower page (`y = 0`), except on the image's
/// bottom edge, which is the last page's `y = 256`.
pub fn from_uv(uv: [f32; 2], image_width: u32, image_height: u32) -> Option<(u32, TexelPoint)> {
    let (x, row, pages) = atlas_point(uv, image_width, image_height)?;
    let page = (row / PAGE).min(pages - 1);
    Some((page, TexelPoint::new(x, row - page * PAGE)))
}

/// The page and texel-edge corners of one polygon from its UVs (in vertex order): all corners on
/// one page, the page whose rows `0..=256` hold them all (a corner on the line between two pages
/// counts for either). `None` when the corners span more than one page, or any UV fails
/// [`from_uv`]. Degenerate corners all on a page line go to the lower page, as in [`from_uv`].
pub fn corners_from_uvs(
    uvs: &[[f32; 2]],
    image_width: u32,
    image_height: u32,
) -> Option<(u32, Vec<TexelPoint>)> {
    let points = uvs
        .iter()
        .map(|&uv| atlas_point(uv, image_width, image_height))
        .collect::<Option<Vec<_>>>()?;
    let pages = points.first()?.2;
    let top = points.iter().map(|p| p.1).min()?;
    let bottom = points.iter().map(|p| p.1).max()?;
    let page = (top / PAGE).min(pages - 1);
    if bottom > (page + 1) * PAGE {
        return None;
    }
    Some((
        page,
        points
            .iter()
            .map(|&(x, row, _)| TexelPoint::new(x, row - page * PAGE))
            .collect(),
    ))
}

/// How far a UV is from the nearest texel edge, in texels: the larger of its horizontal and
/// vertical distance, 0 to 0.5. UVs written by [`to_uv`] and passed through Blender stay far
/// below 0.01; `None` as in [`from_uv`] for a non-finite UV or an image not shaped like an atlas.
pub fn texel_offset(uv: [f32; 2], image_width: u32, image_height: u32) -> Option<f32> {
    let (x, row) = grid(uv, atlas_pages(image_width, image_height)?)?;
    Some((x - x.round()).abs().max((row - row.round()).abs()) as f32)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What Blender's import + export does to a V value: `1 − (1 − v)` in float32.
    fn through_blender([u, v]: [f32; 2]) -> [f32; 2] {
        [u, 1.0f32 - (1.0f32 - v)]
    }

    #[test]
    fn every_texel_edge_survives_blender() {
        // Powers of two (1, 2, 4 pages) are exact in float32; 3 and 5 pages are not.
        let mut moved = 0;
        for pages in 1..=5u32 {
            let height = pages * PAGE;
            for page in 0..pages {
                for y in 0..=PAGE {
                    for x in 0..=PAGE {
                        let point = TexelPoint::new(x, y);
                        let uv = to_uv(point, page, height);
                        assert_eq!(uv[0] * 256.0, x as f32, "U is exact");
                        let back = through_blender(uv);
                        moved += usize::from(back != uv);
                        assert!(texel_offset(back, PAGE, height).unwrap() < 1e-3);
                        let (p, q) = from_uv(back, PAGE, height).unwrap();
                        // The same atlas point; on a page line it is labelled with the lower page.
                        assert_eq!(
                            (p * PAGE + q.y, q.x),
                            (page * PAGE + y, x),
                            "{pages} pages, page {page}"
                        );
                        let on_line = y == PAGE && page + 1 < pages;
                        assert_eq!(
                            (p, q),
                            if on_line {
                                (page + 1, TexelPoint::new(x, 0))
                            } else {
                                (page, point)
                            }
                        );
                        // As a corner of a polygon lying on this page, it stays on this page.
                        let inside = to_uv(TexelPoint::new(x.min(255), 128), page, height);
                        let (p, qs) = corners_from_uvs(&[back, inside], PAGE, height).unwrap();
                        assert_eq!((p, qs[0]), (page, point));
                    }
                }
            }
        }
        // The round trip does disturb some values (else the test would prove nothing).
        assert!(moved > 0, "no V value moved");
    }

    #[test]
    fn a_sample_on_the_bottom_edge_of_a_page_stays_on_it() {
        let height = 3 * PAGE;
        let corners = [
            TexelPoint::new(0, 200),
            TexelPoint::new(56, 200),
            TexelPoint::new(56, 256),
        ];
        for page in 0..3 {
            let uvs: Vec<_> = corners
                .iter()
                .map(|&c| through_blender(to_uv(c, page, height)))
                .collect();
            assert_eq!(
                corners_from_uvs(&uvs, PAGE, height),
                Some((page, corners.to_vec()))
            );
        }
        // A polygon reaching from one page into the next has no page.
        let uvs = [
            to_uv(TexelPoint::new(0, 200), 0, height),
            to_uv(TexelPoint::new(0, 10), 1, height),
        ];
        assert_eq!(corners_from_uvs(&uvs, PAGE, height), None);
        // Degenerate: every corner on a page line goes to the lower page.
        let line = [
            to_uv(TexelPoint::new(0, 0), 1, height),
            to_uv(TexelPoint::new(9, 0), 1, height),
        ];
        assert_eq!(corners_from_uvs(&line, PAGE, height).unwrap().0, 1);
        assert_eq!(corners_from_uvs(&[], PAGE, height), None);
    }

    #[test]
    fn uvs_round_to_the_nearest_texel_edge() {
        let height = 2 * PAGE;
        let (x, row) = (10.0f32, 300.0f32);
        let uv = |dx: f32, dy: f32| [(x + dx) / 256.0, (row + dy) / height as f32];
        assert_eq!(
            from_uv(uv(0.3, -0.4), PAGE, height),
            Some((1, TexelPoint::new(10, 44)))
        );
        assert_eq!(
            from_uv(uv(-0.3, 0.45), PAGE, height),
            Some((1, TexelPoint::new(10, 44)))
        );
        assert!((texel_offset(uv(0.3, -0.4), PAGE, height).unwrap() - 0.4).abs() < 1e-4);
        assert!((texel_offset(uv(0.5, 0.0), PAGE, height).unwrap() - 0.5).abs() < 1e-4);
        // Slightly outside the image still rounds onto its edge; further out is refused.
        assert_eq!(
            from_uv([-1e-4, 1.0 + 1e-4], PAGE, height),
            Some((1, TexelPoint::new(0, 256)))
        );
        assert_eq!(from_uv([-0.01, 0.5], PAGE, height), None);
        assert_eq!(from_uv([0.5, 1.01], PAGE, height), None);
        assert_eq!(from_uv([f32::NAN, 0.5], PAGE, height), None);
        assert_eq!(texel_offset([0.5, f32::INFINITY], PAGE, height), None);
    }

    #[test]
    fn the_image_must_be_shaped_like_an_atlas() {
        assert_eq!(from_uv([0.5, 0.5], PAGE, 300), None);
        assert_eq!(from_uv([0.5, 0.5], 0, 256), None);
        assert_eq!(from_uv([0.5, 0.5], PAGE, 0), None);
        // A uniformly scaled atlas maps to the same texels.
        let uv = to_uv(TexelPoint::new(77, 13), 1, 2 * PAGE);
        assert_eq!(from_uv(uv, 512, 1024), from_uv(uv, PAGE, 2 * PAGE));
        assert_eq!(from_uv(uv, 512, 1024), Some((1, TexelPoint::new(77, 13))));
    }
}
