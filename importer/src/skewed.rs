//! The exact UV corners of a level's skewed polygons, kept small: a level may map every one of
//! a million polygons skewed, and a map of each polygon to its corners took some 80 bytes each.

use std::collections::HashMap;

/// Corners of one polygon: texel edges of the sample's page, in vertex order (triangles leave
/// the fourth `[0, 0]`).
pub type Corners = [[u16; 2]; 4];

/// The exact UV corners of polygons whose sample only bounds their mapping (a level's skewed
/// textures), by mesh index and polygon index. Their glTF UVs are these, so the glTF shows the
/// level's mapping and build resamples it.
///
/// Polygons are kept sorted by (mesh, polygon) with an index into the distinct corners (a
/// level's object textures give few): 12 bytes a polygon.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
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

    /// How many polygons are skewed.
    pub fn len(&self) -> usize {
        self.polygons.len()
    }

    pub fn is_empty(&self) -> bool {
        self.polygons.is_empty()
    }
}

/// From (mesh, polygon) and corners; a polygon given twice keeps its last corners.
impl FromIterator<((usize, usize), Corners)> for SkewedCorners {
    fn from_iter<I: IntoIterator<Item = ((usize, usize), Corners)>>(items: I) -> Self {
        let mut distinct: HashMap<Corners, u32> = HashMap::new();
        let mut skewed = SkewedCorners::default();
        for ((mesh, polygon), corners) in items {
            // Indices past u32 cannot name a mesh or polygon of any file (its counts are 32-bit).
            let (Ok(mesh), Ok(polygon)) = (u32::try_from(mesh), u32::try_from(polygon)) else {
                continue;
            };
            let next = skewed.corners.len() as u32;
            let index = *distinct.entry(corners).or_insert(next);
            if index == next {
                skewed.corners.push(corners);
            }
            skewed.polygons.push((mesh, polygon, index));
        }
        // Stable: of a polygon given twice, the last stays last, and is the one kept.
        skewed.polygons.sort_by_key(|&(m, p, _)| (m, p));
        skewed.polygons.reverse();
        skewed.polygons.dedup_by_key(|&mut (m, p, _)| (m, p));
        skewed.polygons.reverse();
        skewed.polygons.shrink_to_fit();
        skewed
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
    }
}
