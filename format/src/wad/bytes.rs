//! The WAD reader's views and cursor: the shared bounds-checked reading, with WAD errors.

use super::error::{Problem, ReadError, Section};

pub(crate) use crate::bytes::PutLe;

pub(crate) type View<'a> = crate::bytes::View<'a, ReadError>;
pub(crate) type Cursor<'a> = crate::bytes::Cursor<'a, ReadError>;

impl crate::bytes::FileError for ReadError {
    type Section = Section;
    type Problem = Problem;

    fn at(section: Section, offset: u64, problem: Problem) -> Self {
        ReadError {
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
