//! Errors of loading a manifest directory: the file, the place in it, and what to change.

use std::fmt;
use std::path::PathBuf;

#[derive(Debug, thiserror::Error)]
pub enum ManifestError {
    #[error("{}: {source}", path.display())]
    Io {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    /// The YAML does not parse or does not fit the schema.
    #[error("{}{}: {message}", path.display(), location.map(|l| l.to_string()).unwrap_or_default())]
    Syntax {
        path: PathBuf,
        location: Option<Location>,
        message: String,
    },
    /// The manifest parses but says something impossible.
    #[error("{}: {what}", path.display())]
    Invalid { path: PathBuf, what: String },
}

/// A line and column, both counted from 1.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Location {
    pub line: usize,
    pub column: usize,
}

impl fmt::Display for Location {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, ":{}:{}", self.line, self.column)
    }
}
