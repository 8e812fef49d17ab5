//! How many objects one import or gallery makes files of.

/// Objects one import or gallery makes files of: game files hold a few hundred (TR4's
/// catalogue has 465 moveable and 70 static slots), and each object's files cost a fixed time
/// whatever it holds, so a file of tens of thousands of empty objects (18 bytes each) would take
/// minutes.
pub const MOST_OBJECTS: usize = 4096;

/// More objects than [`MOST_OBJECTS`].
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "the file holds {objects} objects, more than the {MOST_OBJECTS} wadforge makes files or pictures of at once \
     (game files hold a few hundred; each object is a glTF and a manifest, or a picture): import some with \
     --only, or split the file with `wadforge remove`"
)]
pub struct TooManyObjects {
    pub objects: usize,
}

/// Refuses more than [`MOST_OBJECTS`] objects.
pub fn objects_fit(objects: usize) -> Result<(), TooManyObjects> {
    if objects > MOST_OBJECTS {
        return Err(TooManyObjects { objects });
    }
    Ok(())
}
