//! How large the images of a glTF may be, checked from their headers before any is decoded: a
//! small PNG can claim a picture of gigabytes, and decoding it would take them.
//!
//! An image may decode to at most [`BASE_BYTES`] of RGBA plus [`PER_ENCODED_BYTE`] per byte
//! of its encoded file. That holds the page atlases import writes (64 pages of 256×256 at any
//! compression, more when they compress as real texels do) while a forged header is refused.

use std::borrow::Cow;
use std::io::Cursor;
use std::path::Path;

use base64::Engine;

use crate::reader_guards;

/// RGBA bytes any image may decode to: 16 MiB, 64 pages of 256×256.
pub(crate) const BASE_BYTES: u64 = 16 << 20;
/// RGBA bytes an image may decode to per byte of its encoded file, on top of [`BASE_BYTES`].
pub(crate) const PER_ENCODED_BYTE: u64 = 16;

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
        let allowed = BASE_BYTES + PER_ENCODED_BYTE * encoded.len() as u64;
        all_rgba = all_rgba.saturating_add(rgba);
        all_encoded = all_encoded.saturating_add(encoded.len() as u64);
        let all_allowed = BASE_BYTES.saturating_add(PER_ENCODED_BYTE.saturating_mul(all_encoded));
        if rgba <= allowed && all_rgba > all_allowed {
            return Err(format!(
                "the images up to {name} decode to {all_rgba} bytes from {all_encoded} encoded bytes, \
                 more than the {all_allowed} bytes wadforge decodes from images of that size together \
                 ({BASE_BYTES} + {PER_ENCODED_BYTE} per encoded byte); the glTF is damaged or forged: \
                 keep its textures in one image the size of its pages (256 texels to a page edge)"
            ));
        }
        if rgba > allowed {
            return Err(format!(
                "{name} claims {width}×{height} pixels ({rgba} bytes decoded) from {} encoded bytes, \
                 more than the {allowed} bytes wadforge decodes from an image of that size \
                 ({BASE_BYTES} + {PER_ENCODED_BYTE} per encoded byte); the image is damaged or forged: \
                 save the texture again at the size of its pages (256 texels to a page edge)",
                encoded.len()
            ));
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
