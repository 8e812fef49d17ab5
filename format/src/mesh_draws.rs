//! A bound on how often the objects of a file draw its meshes.
//!
//! A mesh pointer is a few bytes, and any number of them may name one mesh (real files share
//! meshes: Lara's dressing, WadMerger's deduplicated doors). A file whose pointers name one large
//! mesh thousands of times reads quickly, as the model keeps indices, but every consumer that
//! draws each object (import, gallery, diff) would do thousands of times the file's work: a 0.7 MB
//! WAD whose moveable has 2000 joints on one 3900-polygon mesh took an import over 2 minutes and
//! 2 GB. So the readers refuse files whose objects draw more meshes, vertices and polygons than:
//!
//! - one object: what [`Limits::object_mesh_draws`] allows for what all the file's meshes hold;
//! - all objects: what [`Limits::file_mesh_draws`] allows for it.
//!
//! Real files draw their meshes about once over (1.02 to 1.39 times in the fixtures and a real
//! TR1 level); the slack keeps small files that share much (a WAD of Lara's animation objects
//! alone) far inside.

use wadforge_model::Mesh;

use crate::bytes::View;
use crate::records::RecordError;
use crate::Limits;

// The table's rows, as the counting here (in `usize`) uses them.
pub(crate) const DRAWS_PER_STORED: usize = Limits::DEFAULT.file_mesh_draws.per as usize;
pub(crate) const FILE_SLACK: usize = Limits::DEFAULT.file_mesh_draws.base as usize;
pub(crate) const OBJECT_SLACK: usize = Limits::DEFAULT.object_mesh_draws.base as usize;

/// What the objects read so far have drawn, against the bounds.
pub(crate) struct MeshDraws {
    /// One plus the vertices and polygons of each mesh.
    weights: Vec<usize>,
    per_object: usize,
    in_all: usize,
    drawn: usize,
}

impl MeshDraws {
    pub fn new(meshes: &[Mesh]) -> Self {
        // A joint on an empty mesh still costs its link and pose: every draw counts one more.
        let weights: Vec<usize> = meshes
            .iter()
            .map(|m| 1 + m.vertices.len() + m.polygons.len())
            .collect();
        let stored: usize = weights.iter().sum();
        MeshDraws {
            weights,
            per_object: stored.saturating_add(OBJECT_SLACK),
            in_all: stored.saturating_mul(DRAWS_PER_STORED).saturating_add(FILE_SLACK),
            drawn: 0,
        }
    }

    /// Counts one object drawing `meshes` (indices the reader checked); an error at byte `at` of
    /// `view` (the object's mesh pointer field) when it goes past a bound.
    pub fn draw<E: RecordError>(&mut self, view: &View<E>, at: usize, meshes: &[usize]) -> Result<(), E> {
        let object: usize = meshes
            .iter()
            .map(|&m| self.weights.get(m).copied().unwrap_or(0))
            .sum();
        if object > self.per_object {
            return Err(view.error(
                at,
                E::meshes_drawn_too_often("this object draws", object, self.per_object),
            ));
        }
        self.drawn = self.drawn.saturating_add(object);
        if self.drawn > self.in_all {
            return Err(view.error(
                at,
                E::meshes_drawn_too_often("the objects up to this one draw", self.drawn, self.in_all),
            ));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::wad::{Problem, ReadError, Section};
    use wadforge_model::{Polygon, PolygonTexture, Vertex};

    /// A mesh of `polygons` triangles over three vertices: weight `polygons + 4`.
    fn mesh(polygons: usize) -> Mesh {
        let triangle = Polygon::triangle([0, 1, 2], PolygonTexture::default(), Default::default());
        Mesh {
            vertices: vec![Vertex::default(); 3],
            polygons: vec![triangle; polygons],
            ..Default::default()
        }
    }

    fn drawn_too_often(result: Result<(), ReadError>) -> (usize, usize, u64) {
        match result {
            Err(ReadError {
                offset,
                problem: Problem::TooMuchWork(crate::TooMuchWork::MeshDraws { drawn, allowed, .. }),
                ..
            }) => (drawn, allowed, offset),
            other => panic!("expected MeshDraws, got {other:?}"),
        }
    }

    #[test]
    fn one_object_may_draw_what_the_meshes_hold_plus_its_slack() {
        let meshes = [mesh(996), mesh(96)]; // weights 1000 and 100
        let view = View::<ReadError>::new(&[], 500, Section::Moveables);
        let mut draws = MeshDraws::new(&meshes);
        let at_limit = vec![1; (1100 + OBJECT_SLACK) / 100];
        assert!(draws.draw(&view, 6, &at_limit).is_ok());

        let mut draws = MeshDraws::new(&meshes);
        let past = vec![1; at_limit.len() + 1];
        let (drawn, allowed, offset) = drawn_too_often(draws.draw(&view, 6, &past));
        assert_eq!(
            (drawn, allowed, offset),
            (past.len() * 100, 1100 + OBJECT_SLACK, 506)
        );
    }

    #[test]
    fn all_objects_may_draw_the_meshes_twice_over_plus_the_file_slack() {
        let meshes = [mesh(9_996)]; // weight 10 000
        let view = View::<ReadError>::new(&[], 0, Section::Statics);
        let mut draws = MeshDraws::new(&meshes);
        let in_all = 10_000 * DRAWS_PER_STORED + FILE_SLACK;
        for _ in 0..in_all / 10_000 {
            assert!(draws.draw(&view, 4, &[0]).is_ok());
        }
        let (drawn, allowed, _) = drawn_too_often(draws.draw(&view, 4, &[0]));
        assert_eq!((drawn, allowed), ((in_all / 10_000 + 1) * 10_000, in_all));
    }

    #[test]
    fn joints_on_empty_meshes_count_too() {
        let meshes = [Mesh::default()]; // weight 1
        let view = View::<ReadError>::new(&[], 0, Section::Moveables);
        let mut draws = MeshDraws::new(&meshes);
        assert!(draws.draw(&view, 0, &vec![0; 1 + OBJECT_SLACK]).is_ok());
        let mut draws = MeshDraws::new(&meshes);
        assert!(draws.draw(&view, 0, &vec![0; 2 + OBJECT_SLACK]).is_err());
    }

    #[test]
    fn files_that_draw_each_mesh_once_are_far_inside() {
        let meshes: Vec<Mesh> = (0..50).map(|i| mesh(100 + i)).collect();
        let view = View::<ReadError>::new(&[], 0, Section::Moveables);
        let mut draws = MeshDraws::new(&meshes);
        for object in (0..50).collect::<Vec<_>>().chunks(5) {
            assert!(draws.draw(&view, 0, object).is_ok());
        }
    }
}
