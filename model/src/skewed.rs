//! The exact UV corners of a level's skewed polygons, kept small: a level may map every one of
//! a million polygons skewed, and a map of each polygon to its corners took some 80 bytes each.

use std::collections::HashMap;

/// Corners of one polygon: texel edges (0..=256) of the sample's page, in the model's vertex
/// order (triangles leave the fourth `[0, 0]`).
pub type Corners = [[u16; 2]; 4];

/// The exact UV corners of polygons whose sample only bounds their mapping (a level's skewed
/// or twisted textures, which no WAD corner arrangement gives), by mesh index and polygon index.
/// The reader gives each such polygon the sample of its corners' bounding rectangle, shape 0,
/// unflipped: an approximation. Their glTF UVs are these corners, so the glTF shows the level's
/// mapping and build resamples it.
///
/// Polygons are kept sorted by (mesh, polygon) with an index into the distinct corners (a
/// level's object textures give few): 12 bytes a polygon.
#[derive(Debug, Clone, Default)]
pub struct SkewedCorners {
    polygons: Vec<(u32, u32, u32)>,
    corners: Vec<Corners>,
}

impl SkewedCorners {
    pub fn new() -> Self {
        Self::default()
    }

    /// The corners of polygon `polygon` of mesh `mesh`, if it is skewed.
    pub fn get(&self, &(mesh, polygon): &(usize, usize)) -> Option<&Corners> {
        let key = (u32::try_from(mesh).ok()?, u32::try_from(polygon).ok()?);
        let i = self
            .polygons
            .binary_search_by_key(&key, |&(m, p, _)| (m, p))
            .ok()?;
        self.corners.get(self.polygons[i].2 as usize)
    }

    /// Every skewed polygon, (mesh, polygon), with its corners, in (mesh, polygon) order.
    pub fn iter(&self) -> impl Iterator<Item = ((usize, usize), &Corners)> + '_ {
        self.polygons
            .iter()
            .filter_map(|&(m, p, c)| Some(((m as usize, p as usize), self.corners.get(c as usize)?)))
    }

    /// How many polygons are skewed.
    pub fn len(&self) -> usize {
        self.polygons.len()
    }

    pub fn is_empty(&self) -> bool {
        self.polygons.is_empty()
    }
}

/// The same polygons with the same corners, however the distinct corners were numbered.
impl PartialEq for SkewedCorners {
    fn eq(&self, other: &Self) -> bool {
        self.len() == other.len() && self.iter().eq(other.iter())
    }
}

impl Eq for SkewedCorners {}

/// Skewed polygons gathered one at a time (the readers', as they texture each polygon), so
/// that no longer list is held beside them.
#[derive(Default)]
pub struct Gathering {
    skewed: SkewedCorners,
    distinct: HashMap<Corners, u32>,
}

impl Gathering {
    /// Polygon `polygon` of mesh `mesh` maps `corners`; a polygon given twice keeps its last.
    pub fn add(&mut self, (mesh, polygon): (usize, usize), corners: Corners) {
        // Indices past u32 cannot name a mesh or polygon of any file (its counts are 32-bit).
        let (Ok(mesh), Ok(polygon)) = (u32::try_from(mesh), u32::try_from(polygon)) else {
            return;
        };
        let corner_list = &mut self.skewed.corners;
        let next = corner_list.len() as u32;
        let index = *self.distinct.entry(corners).or_insert(next);
        if index == next {
            corner_list.push(corners);
        }
        self.skewed.polygons.push((mesh, polygon, index));
    }

    /// Polygons gathered so far (a polygon given twice counts twice).
    pub fn len(&self) -> usize {
        self.skewed.polygons.len()
    }

    pub fn is_empty(&self) -> bool {
        self.skewed.polygons.is_empty()
    }

    /// The polygons gathered, each with the corners it was given last.
    pub fn finish(self) -> SkewedCorners {
        let mut skewed = self.skewed;
        // Stable: of a polygon given twice, the last stays last, and is the one kept.
        skewed.polygons.sort_by_key(|&(m, p, _)| (m, p));
        skewed.polygons.reverse();
        skewed.polygons.dedup_by_key(|&mut (m, p, _)| (m, p));
        skewed.polygons.reverse();
        skewed.polygons.shrink_to_fit();
        skewed
    }
}

/// From (mesh, polygon) and corners; a polygon given twice keeps its last corners.
impl FromIterator<((usize, usize), Corners)> for SkewedCorners {
    fn from_iter<I: IntoIterator<Item = ((usize, usize), Corners)>>(items: I) -> Self {
        let mut gathering = Gathering::default();
        for (at, corners) in items {
            gathering.add(at, corners);
        }
        gathering.finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_polygon_finds_its_own_corners_and_others_none() {
        let a = [[1, 2], [3, 4], [5, 6], [0, 0]];
        let b = [[9, 9], [8, 8], [7, 7], [6, 6]];
        let skewed: SkewedCorners = [((3, 7), a), ((0, 1), b), ((3, 2), a), ((0, 1), a)]
            .into_iter()
            .collect();
        assert_eq!(skewed.get(&(3, 7)), Some(&a));
        assert_eq!(skewed.get(&(3, 2)), Some(&a));
        assert_eq!(skewed.get(&(0, 1)), Some(&a), "the last given is kept");
        assert_eq!(skewed.get(&(3, 3)), None);
        assert_eq!(skewed.get(&(1, 7)), None);
        assert_eq!(skewed.len(), 3);
        assert_eq!(skewed.corners.len(), 2, "equal corners are kept once");
        let listed: Vec<_> = skewed.iter().map(|(at, c)| (at, *c)).collect();
        assert_eq!(
            listed,
            [((0, 1), a), ((3, 2), a), ((3, 7), a)],
            "in (mesh, polygon) order"
        );
    }

    #[test]
    fn equal_whatever_order_the_corners_came_in() {
        let a = [[1, 2], [3, 4], [5, 6], [0, 0]];
        let b = [[9, 9], [8, 8], [7, 7], [6, 6]];
        let one: SkewedCorners = [((0, 0), a), ((0, 1), b)].into_iter().collect();
        let other: SkewedCorners = [((0, 1), b), ((0, 0), a)].into_iter().collect();
        assert_eq!(one, other);
        let third: SkewedCorners = [((0, 1), a), ((0, 0), a)].into_iter().collect();
        assert_ne!(one, third);
    }
}
