//! The WAD reader's views and cursor: the shared bounds-checked reading, with WAD errors.

use super::error::{Problem, ReadError, Section};

pub(crate) use crate::bytes::PutLe;

pub(crate) type View<'a> = crate::bytes::View<'a, ReadError>;
pub(crate) type Cursor<'a> = crate::bytes::Cursor<'a, ReadError>;

crate::records::record_error!(ReadError, Section, Problem, KeyframeTooSmall);
