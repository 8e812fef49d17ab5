//! How large the images of a glTF may be, checked from their headers before any is decoded: a
//! small PNG can claim a picture of gigabytes, and decoding it would take them.
//!
//! An image may decode to at most what [`Limits::image_bytes`] allows for its encoded bytes, and
//! the images of a glTF together what it allows for theirs. That holds the page atlases import
//! writes while a forged header is refused.

use std::borrow::Cow;
use std::io::Cursor;
use std::path::Path;

use base64::Engine;

use wadforge_format::Limits;

use crate::reader_guards;

/// Checks every image of `doc` against the bound, and the images together against it once (the
/// reader decodes them all at once: 30 images of 2048×2048 in a 0.5 MB GLB, each within its own
/// bound, took build 990 MB), and that an image in a buffer view lies within the buffer's bytes;
/// errors are messages for the caller to place.
pub(crate) fn check(doc: &gltf::Document, base: &Path, buffers: &[gltf::buffer::Data]) -> Result<(), String> {
    let (mut all_rgba, mut all_encoded) = (0u64, 0u64);
    for image in doc.images() {
        let name = image.name().map_or_else(
            || format!("image {}", image.index()),
            |n| format!("image {} ({n})", image.index()),
        );
        let Some(encoded) = encoded_bytes(image.source(), base, buffers) else {
            if let gltf::image::Source::View { view, .. } = image.source() {
                // The glTF reader slices the buffer unchecked here (its validation compares
                // the view with the buffer's declared length, not with the bytes there are).
                let held = buffers.get(view.buffer().index()).map_or(0, |b| b.len());
                return Err(format!(
                    "{name} lies in bytes {}..{} of buffer {}, which holds {held} bytes; the file \
                     is cut short or damaged: export it again from Blender",
                    view.offset(),
                    view.offset() as u64 + view.length() as u64,
                    view.buffer().index(),
                ));
            }
            continue; // the glTF reader reports the files it cannot find
        };
        let Ok((width, height)) = image::ImageReader::new(Cursor::new(&encoded[..]))
            .with_guessed_format()
            .map_err(|_| ())
            .and_then(|r| r.into_dimensions().map_err(|_| ()))
        else {
            continue; // not an image the decoder knows: it says so when decoding
        };
        let rgba = 4 * width as u64 * height as u64;
        let bound = Limits::DEFAULT.image_bytes;
        if let Err(too_much) = bound.check(rgba, encoded.len() as u64) {
            return Err(format!("{name} claims {width}×{height} pixels: {too_much}"));
        }
        all_rgba = all_rgba.saturating_add(rgba);
        all_encoded = all_encoded.saturating_add(encoded.len() as u64);
        if let Err(too_much) = bound.check(all_rgba, all_encoded) {
            return Err(format!("the images up to {name} together decode to {too_much}"));
        }
    }
    Ok(())
}

/// The encoded bytes of an image, as the glTF reader finds them (`None` where it would fail).
fn encoded_bytes<'a>(
    source: gltf::image::Source<'a>,
    base: &Path,
    buffers: &'a [gltf::buffer::Data],
) -> Option<Cow<'a, [u8]>> {
    match source {
        gltf::image::Source::View { view, .. } => {
            let buffer = buffers.get(view.buffer().index())?;
            let end = view.offset().checked_add(view.length())?;
            buffer.get(view.offset()..end).map(Cow::Borrowed)
        }
        gltf::image::Source::Uri { uri, .. } => {
            if let Some(data) = uri.strip_prefix("data:") {
                let base64 = data.split(";base64,").nth(1).unwrap_or(data);
                let bytes = base64::engine::general_purpose::STANDARD.decode(base64).ok()?;
                return Some(Cow::Owned(bytes));
            }
            // Only plain relative paths get here: `reader_guards::files_fit` refused the rest.
            let path = base.join(reader_guards::percent_decoded(uri)?);
            wadforge_files::input::read(&path).ok().map(Cow::Owned)
        }
    }
}
