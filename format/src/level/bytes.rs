//! The level readers' views and cursor: the shared bounds-checked reading, with level errors.

use super::error::{LevelError, Problem, Section};

pub(crate) type View<'a> = crate::bytes::View<'a, LevelError>;
pub(crate) type Cursor<'a> = crate::bytes::Cursor<'a, LevelError>;

impl crate::bytes::FileError for LevelError {
    type Section = Section;
    type Problem = Problem;

    fn at(section: Section, offset: u64, problem: Problem) -> Self {
        LevelError {
            section,
            offset,
            context: None,
            problem,
        }
    }

    fn truncated(needed: u64, available: u64) -> Problem {
        Problem::Truncated { needed, available }
    }

    fn count_too_large(what: &'static str, count: u64, record_size: u64, available: u64) -> Problem {
        Problem::CountTooLarge {
            what,
            count,
            record_size,
            available,
        }
    }
}
