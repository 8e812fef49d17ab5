//! UVs a Wad2 written from the model holds rounded: the model keeps a polygon's texture as texel
//! corners on a page, so a Wad2 made from it holds whole-texel UVs, and only a polygon that finds
//! its base polygon showing the same texels the same way takes the base's exact UVs back
//! (`textures`). What does not, a fractional UV of the base's among its corners, is listed per
//! object: how many polygons, and how far their UVs moved at most.

use std::collections::HashMap;

use wadforge_model::catalog::Game;
use wadforge_model::{ObjectKind, ObjectName};

use crate::wad2::document::{Polygon, Texture};
use crate::wad2::objects::meshes::texel_corners;

/// The polygons of one object (of a Wad2 written) whose UVs are no longer the base's exact ones,
/// which were off texel corners.
#[derive(Debug, Clone, PartialEq)]
pub struct UvRounding {
    pub kind: ObjectKind,
    /// The object's id in the Wad2 written.
    pub id: i64,
    /// Polygons whose UVs moved to texel corners (0: none, the object's every UV as the base's).
    pub polygons: usize,
    /// The farthest a UV of theirs moved, in texels of its texture.
    pub most: f32,
}

impl UvRounding {
    pub(super) fn new(kind: ObjectKind, id: i64) -> Self {
        UvRounding {
            kind,
            id,
            polygons: 0,
            most: 0.0,
        }
    }

    /// Counts base polygon `old` (on `textures`, the base's), whose UVs the made polygon did not
    /// take back: the distance from each UV to the texel corner the model moved it to.
    pub(super) fn add(&mut self, old: &Polygon, textures: &[Texture]) {
        let Some(size) = usize::try_from(old.texture)
            .ok()
            .and_then(|t| textures.get(t))
            .and_then(texture_size)
        else {
            return;
        };
        let corners = texel_corners(old, size);
        let moved = (old.uvs[..corners.count].iter())
            .zip(&corners.points)
            .map(|(uv, point)| {
                let du = uv[0] - point[0] as f32;
                let dv = uv[1] - point[1] as f32;
                (du * du + dv * dv).sqrt()
            })
            .filter(|d| d.is_finite())
            .fold(0.0f32, f32::max);
        if corners.off || corners.outside {
            self.polygons += 1;
            self.most = self.most.max(moved);
        }
    }

    /// A line for the object, named by `game`'s catalogue: what moved and why.
    pub fn line(&self, game: Game) -> String {
        let name = match u32::try_from(self.id) {
            Ok(id) => ObjectName::new(game, self.kind, id).to_string(),
            Err(_) => format!("{} {}", self.kind, self.id),
        };
        format!(
            "{name}: UVs of {} polygons moved to whole texels (by at most {:.3} texels): the model holds a \
             polygon's texture as whole texels on a page, and their exact UVs could not be taken back from the \
             input (their texels do not show the same way there)",
            self.polygons, self.most
        )
    }
}

/// The texels of `texture`: its image's size, else the size its header gives.
fn texture_size(texture: &Texture) -> Option<[u32; 2]> {
    match &texture.image {
        Some(image) => Some([image.width, image.height]),
        None => Some([
            u32::try_from(texture.width).ok()?,
            u32::try_from(texture.height).ok()?,
        ]),
    }
}

/// What [`crate::wad2::keep_detail`] passes over one written document leave rounded, in the
/// order they ran: each object as the last pass that found a base object for it left it, those
/// with a polygon rounded.
pub fn uvs_rounded<'a>(passes: impl IntoIterator<Item = &'a [UvRounding]>) -> Vec<UvRounding> {
    let mut last: Vec<UvRounding> = Vec::new();
    let mut place: HashMap<(ObjectKind, i64), usize> = HashMap::new();
    for object in passes.into_iter().flatten() {
        match place.get(&(object.kind, object.id)) {
            Some(&at) => last[at] = object.clone(),
            None => {
                place.insert((object.kind, object.id), last.len());
                last.push(object.clone());
            }
        }
    }
    last.retain(|o| o.polygons > 0);
    last
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::wad2::document::Image;

    fn texture(side: u32) -> Texture {
        Texture {
            image: Some(Image {
                width: side,
                height: side,
                bgra: vec![0; (side * side * 4) as usize],
            }),
            width: i64::from(side),
            height: i64::from(side),
            ..Texture::default()
        }
    }

    fn triangle(uvs: [[f32; 2]; 3]) -> Polygon {
        Polygon {
            uvs: [uvs[0], uvs[1], uvs[2], uvs[2]],
            ..Polygon::default()
        }
    }

    #[test]
    fn polygons_off_whole_texels_count_with_the_farthest_move() {
        let textures = [texture(64)];
        let mut rounding = UvRounding::new(ObjectKind::Moveable, 7);
        rounding.add(&triangle([[0.0, 0.0], [8.0, 0.0], [0.0, 8.0]]), &textures);
        assert_eq!(rounding.polygons, 0, "whole texels move nowhere");
        rounding.add(&triangle([[0.25, 0.0], [8.0, 0.0], [0.0, 8.0]]), &textures);
        rounding.add(&triangle([[0.0, 0.0], [8.3, 8.4], [0.0, 8.0]]), &textures);
        // Past the texture's edge: clamped to it.
        rounding.add(&triangle([[0.0, 0.0], [65.0, 0.0], [0.0, 8.0]]), &textures);
        assert_eq!(rounding.polygons, 3);
        assert!((rounding.most - 1.0).abs() < 1e-5, "{}", rounding.most);
        // A polygon naming no texture of the base is not counted: no texels to move to.
        rounding.add(
            &Polygon {
                texture: 5,
                ..triangle([[0.5, 0.0], [8.0, 0.0], [0.0, 8.0]])
            },
            &textures,
        );
        assert_eq!(rounding.polygons, 3);
        assert!(
            rounding.line(Game::Tr4).starts_with(
                "FLARE_ANIM (moveable 7): UVs of 3 polygons moved to whole texels (by at most 1.000 texels)"
            ),
            "{}",
            rounding.line(Game::Tr4)
        );
    }

    #[test]
    fn each_object_is_as_the_last_pass_that_found_it_left_it() {
        let rounded = |kind, id, polygons| UvRounding {
            polygons,
            most: 0.5,
            ..UvRounding::new(kind, id)
        };
        let first = [
            rounded(ObjectKind::Moveable, 1, 4),
            rounded(ObjectKind::Moveable, 2, 3),
            rounded(ObjectKind::Static, 1, 2),
        ];
        // The second pass gave moveable 1 its UVs back and found nothing else of the first's.
        let second = [
            rounded(ObjectKind::Moveable, 1, 0),
            rounded(ObjectKind::Moveable, 3, 1),
        ];
        let left = uvs_rounded([&first[..], &second[..]]);
        let ids: Vec<_> = left.iter().map(|o| (o.kind, o.id, o.polygons)).collect();
        assert_eq!(
            ids,
            [
                (ObjectKind::Moveable, 2, 3),
                (ObjectKind::Static, 1, 2),
                (ObjectKind::Moveable, 3, 1)
            ]
        );
    }
}
