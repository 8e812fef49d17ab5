//! The level readers' views and cursor: the shared bounds-checked reading, with level errors.

use super::error::{LevelError, Problem, Section};

pub(crate) type View<'a> = crate::bytes::View<'a, LevelError>;
pub(crate) type Cursor<'a> = crate::bytes::Cursor<'a, LevelError>;

crate::records::record_error!(LevelError, Section, Problem, FrameTooSmall);
