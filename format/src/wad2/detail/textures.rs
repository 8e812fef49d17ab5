//! Textures taken back from the base: a Wad2 made from the model holds the model's 256×256 pages
//! as its textures. A polygon that shows what its base polygon showed (the same texels, mapped
//! the same way) takes the base's texture and exact UVs back, so an unedited object keeps the
//! textures Tomb Editor gave it (their sizes, names and paths) and a skinned mesh taken whole
//! keeps its own; textures no polygon uses any more are left out.

use std::cell::Cell;
use std::collections::HashMap;

use crate::records;
use crate::wad2::document::{Document, Image, Mesh, Polygon, Texture};

/// The alpha below which a texel is transparent, as reading a Wad2 into the model decides (which
/// makes magenta transparent too).
const ALPHA_CUTOFF: u8 = 128;
/// UVs rounder than this many texels from a texture's size are outside it.
const MOST_TEXELS: f32 = 65_536.0;

/// Matches made polygons with base polygons by what they show; the base's textures go after the
/// made file's own.
pub(super) struct TextureMatch<'a> {
    made: &'a [Texture],
    base: &'a [Texture],
    /// Texels the comparisons may still read: each polygon reads its rectangle, so a file of many
    /// polygons spanning a large texture would read it many times over. Past this, polygons keep
    /// the made file's textures.
    comparable: Cell<usize>,
}

/// Texels compared per texel of the textures, and besides them.
const COMPARED_PER_TEXEL: usize = 16;
const COMPARED_BESIDES: usize = 64 << 20;

impl<'a> TextureMatch<'a> {
    pub fn new(made: &'a [Texture], base: &'a [Texture]) -> Self {
        let texels: usize = (made.iter().chain(base))
            .filter_map(|t| t.image.as_ref())
            .map(|i| i.bgra.len() / 4)
            .sum();
        TextureMatch {
            made,
            base,
            comparable: Cell::new(
                texels
                    .saturating_mul(COMPARED_PER_TEXEL)
                    .saturating_add(COMPARED_BESIDES),
            ),
        }
    }

    /// Where base texture `t` goes in the made file; `None` when the base has no texture `t` (a
    /// manifest directory of an older wadforge keeps none).
    pub fn base_index(&self, t: i64) -> Option<i64> {
        let t = usize::try_from(t).ok().filter(|&t| t < self.base.len())?;
        Some((self.made.len() + t) as i64)
    }

    /// The base's textures, which its polygons name.
    pub fn base_textures(&self) -> &'a [Texture] {
        self.base
    }

    /// Gives `polygon` (made, its corners turned as `old`'s) `old`'s texture and UVs when it shows
    /// the same texels the same way; true when it did.
    pub fn keep(&self, polygon: &mut Polygon, old: &Polygon) -> bool {
        let Some(texture) = self
            .base_index(old.texture)
            .filter(|_| self.same_look(polygon, old))
        else {
            return false;
        };
        polygon.texture = texture;
        polygon.uvs = old.uvs;
        polygon.parent_area = old.parent_area;
        true
    }

    fn same_look(&self, made: &Polygon, old: &Polygon) -> bool {
        let n = made.corner_count();
        let image = |list: &'a [Texture], t: i64| {
            let texture = list.get(usize::try_from(t).ok()?)?;
            texture.image.as_ref()
        };
        let (Some(made_image), Some(base_image)) =
            (image(self.made, made.texture), image(self.base, old.texture))
        else {
            return false;
        };
        let (Some(made_at), Some(base_at)) = (Corners::of(&made.uvs[..n]), Corners::of(&old.uvs[..n])) else {
            return false;
        };
        // Mapped alike, or the base maps its texture skewed and the made polygon is the model's
        // sample round those corners (reading a Wad2 gives such a polygon their rectangle).
        let alike = made_at.relative == base_at.relative
            || (made_at.size == base_at.size && made_at.on_rectangle() && !base_at.on_rectangle());
        let area = made_at.size[0] as usize * made_at.size[1] as usize;
        alike
            && made_at.size.iter().all(|&s| s > 0)
            && records::take(&self.comparable, area)
            && same_texels(
                made_image,
                made_at.origin,
                base_image,
                base_at.origin,
                made_at.size,
            )
    }
}

/// A polygon's UVs rounded to texel corners: the corner of their rectangle nearest the origin,
/// each corner from there, and the rectangle's size.
struct Corners {
    origin: [u32; 2],
    relative: Vec<[u32; 2]>,
    size: [u32; 2],
}

impl Corners {
    /// Whether every corner is a corner of the rectangle, each a different one.
    fn on_rectangle(&self) -> bool {
        let [w, h] = self.size;
        let mut seen = Vec::with_capacity(4);
        self.relative.iter().all(|&[x, y]| {
            let corner = (x == 0 || x == w) && (y == 0 || y == h) && !seen.contains(&[x, y]);
            seen.push([x, y]);
            corner
        })
    }

    fn of(uvs: &[[f32; 2]]) -> Option<Corners> {
        let rounded: Vec<[u32; 2]> = uvs
            .iter()
            .map(|uv| {
                let fits = |c: f32| (0.0..MOST_TEXELS).contains(&c.round());
                (fits(uv[0]) && fits(uv[1])).then(|| uv.map(|c| c.round() as u32))
            })
            .collect::<Option<_>>()?;
        let least = |axis: usize| rounded.iter().map(|c| c[axis]).min().unwrap_or(0);
        let most = |axis: usize| rounded.iter().map(|c| c[axis]).max().unwrap_or(0);
        let origin = [least(0), least(1)];
        Some(Corners {
            relative: rounded
                .iter()
                .map(|c| [c[0] - origin[0], c[1] - origin[1]])
                .collect(),
            size: [most(0) - origin[0], most(1) - origin[1]],
            origin,
        })
    }
}

/// Whether the rectangles of `size` at `a_at` in `a` and `b_at` in `b` hold the same texels as a
/// page holds them (transparent ones alike whatever their colour), both inside their images.
fn same_texels<'i>(a: &'i Image, a_at: [u32; 2], b: &'i Image, b_at: [u32; 2], size: [u32; 2]) -> bool {
    let inside = |image: &Image, at: [u32; 2]| {
        at[0] as u64 + size[0] as u64 <= image.width as u64
            && at[1] as u64 + size[1] as u64 <= image.height as u64
    };
    if !inside(a, a_at) || !inside(b, b_at) {
        return false;
    }
    let row = |image: &'i Image, at: [u32; 2], y: u32| -> Option<&'i [u8]> {
        let start = ((at[1] + y) as usize * image.width as usize + at[0] as usize) * 4;
        image.bgra.get(start..start + size[0] as usize * 4)
    };
    // BGRA: magenta is transparent on a page whatever its alpha.
    let shown = |p: &[u8]| (p[3] >= ALPHA_CUTOFF && p[..3] != [255, 0, 255]).then(|| [p[0], p[1], p[2]]);
    (0..size[1]).all(|y| match (row(a, a_at, y), row(b, b_at, y)) {
        (Some(a), Some(b)) => a
            .chunks_exact(4)
            .zip(b.chunks_exact(4))
            .all(|(p, q)| shown(p) == shown(q)),
        _ => false,
    })
}

/// Appends the base's textures to `made`'s, then leaves out every texture no polygon uses,
/// numbering the rest in order.
pub(super) fn finish(made: &mut Document, base: &[Texture]) {
    made.textures.extend(base.iter().cloned());
    let mut used = vec![false; made.textures.len()];
    for_each_polygon(made, |p| {
        if let Some(u) = usize::try_from(p.texture).ok().and_then(|t| used.get_mut(t)) {
            *u = true;
        }
    });
    let mut number: HashMap<i64, i64> = HashMap::new();
    let textures = std::mem::take(&mut made.textures);
    for (t, texture) in textures.into_iter().enumerate() {
        if used[t] {
            number.insert(t as i64, made.textures.len() as i64);
            made.textures.push(texture);
        }
    }
    for_each_polygon_mut(made, |p| {
        if let Some(&n) = number.get(&p.texture) {
            p.texture = n;
        }
    });
}

fn meshes(document: &Document) -> impl Iterator<Item = &Mesh> {
    let moveables = document
        .moveables
        .iter()
        .flat_map(|m| m.meshes.iter().chain(m.skin.as_ref()));
    moveables.chain(document.statics.iter().map(|s| &s.mesh))
}

fn for_each_polygon(document: &Document, mut f: impl FnMut(&Polygon)) {
    meshes(document).flat_map(|m| &m.polygons).for_each(&mut f);
}

fn for_each_polygon_mut(document: &mut Document, mut f: impl FnMut(&mut Polygon)) {
    for moveable in &mut document.moveables {
        let skin = moveable.skin.iter_mut();
        for mesh in moveable.meshes.iter_mut().chain(skin) {
            mesh.polygons.iter_mut().for_each(&mut f);
        }
    }
    for found in &mut document.statics {
        found.mesh.polygons.iter_mut().for_each(&mut f);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texture(side: u32) -> Texture {
        let texels = side * side;
        Texture {
            image: Some(Image {
                width: side,
                height: side,
                bgra: (0..texels).flat_map(|i| [i as u8, 7, 9, 255]).collect(),
            }),
            width: i64::from(side),
            height: i64::from(side),
            ..Texture::default()
        }
    }

    fn quad(texture: i64, uvs: [[f32; 2]; 4]) -> Polygon {
        Polygon {
            quad: true,
            texture,
            uvs,
            ..Polygon::default()
        }
    }

    const SQUARE: [[f32; 2]; 4] = [[0.0, 0.0], [4.0, 0.0], [4.0, 4.0], [0.0, 4.0]];

    #[test]
    fn a_polygon_on_the_same_texels_takes_the_base_texture_and_uvs() {
        let (made, base) = ([texture(8)], [texture(8)]);
        let matching = TextureMatch::new(&made, &base);
        let mut polygon = quad(0, SQUARE);
        let exact = SQUARE.map(|[u, v]| [u + 0.01, v - 0.01]);
        matching.keep(&mut polygon, &quad(0, exact));
        assert_eq!((polygon.texture, polygon.uvs), (1, exact));
    }

    #[test]
    fn other_texels_another_mapping_or_no_base_texture_keep_the_made_one() {
        let (made, base) = ([texture(8)], [texture(8)]);
        let matching = TextureMatch::new(&made, &base);
        let moved = SQUARE.map(|[u, v]| [u + 1.0, v]);
        let turned = [SQUARE[1], SQUARE[2], SQUARE[3], SQUARE[0]];
        for old in [quad(0, moved), quad(0, turned), quad(3, SQUARE)] {
            let mut polygon = quad(0, SQUARE);
            matching.keep(&mut polygon, &old);
            assert_eq!((polygon.texture, polygon.uvs), (0, SQUARE), "{:?}", old.uvs);
        }
    }

    #[test]
    fn comparisons_stop_when_their_texels_are_spent() {
        let (made, base) = ([texture(8)], [texture(8)]);
        let matching = TextureMatch::new(&made, &base);
        matching.comparable.set(15);
        let mut polygon = quad(0, SQUARE);
        matching.keep(&mut polygon, &quad(0, SQUARE));
        assert_eq!(polygon.texture, 0, "a 4×4 rectangle reads 16 texels");
        matching.comparable.set(16);
        matching.keep(&mut polygon, &quad(0, SQUARE));
        assert_eq!(polygon.texture, 1);
    }
}
