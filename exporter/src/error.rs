//! Build errors: the file, the object, the place in it, and what to change.

use std::path::PathBuf;

#[derive(Debug, thiserror::Error)]
pub enum BuildError {
    #[error(transparent)]
    Manifest(#[from] wadforge_manifests::ManifestError),
    /// Something in one object's files that cannot become a WAD object.
    #[error("{}: {object}{}: {message}", file.display(), place.as_ref().map(|p| format!(", {p}")).unwrap_or_default())]
    Object {
        /// The manifest or glTF file concerned.
        file: PathBuf,
        /// Slot name and id, e.g. `CROCODILE (moveable 51)`.
        object: String,
        /// The bone, animation, primitive or field, e.g. `animation 012_RUN`.
        place: Option<String>,
        /// What is wrong and what to change.
        message: String,
    },
    #[error("the WAD cannot be written: {0}")]
    Write(#[from] wadforge_format::wad::WriteError),
}

/// Where in an object an error arose; turns a message into a [`BuildError`].
#[derive(Debug, Clone)]
pub struct Place {
    pub file: PathBuf,
    pub object: String,
}

impl Place {
    pub fn error(&self, place: Option<String>, message: impl Into<String>) -> BuildError {
        BuildError::Object {
            file: self.file.clone(),
            object: self.object.clone(),
            place,
            message: message.into(),
        }
    }
}
