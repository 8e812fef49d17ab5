//! Images decoded once per build: objects whose glTF files hold the same image bytes share its
//! pixels. Import gives objects whose meshes use the same samples one atlas (LARA, LARA_SKIN and
//! LARA_SKIN_JOINTS; objects cut from the same pages), so such objects hold the same PNG: on the
//! TR4-shaped fixture, 139 images of which 53 differ, and decoding PNGs was a third of the
//! build's instructions. Real files share less (the real TR1 level: 58 of 59 differ).
//!
//! An image decoded for the first time is kept on probation, among at most [`PROBATION_BYTES`]
//! of such images, the oldest dropped first: objects that share an atlas mostly come near one
//! another in the directory, and a directory whose objects share none costs at most that much
//! memory more. An image asked for again is shared: such images are kept up to
//! [`SHARED_BYTES`], the least recently used dropped first. The cache goes when the objects are
//! built.

use std::hash::BuildHasher;
use std::sync::{Arc, Mutex};

use crate::texture::RgbaImage;
use crate::FastMap;

/// Pixels of images decoded once and not yet asked for again: sixteen one-page atlases (256×256
/// RGBA).
const PROBATION_BYTES: usize = 4 << 20;
/// Pixels of images asked for more than once: the distinct atlases of a TR4 WAD's objects (most
/// of them one page) fit many times over.
const SHARED_BYTES: usize = 24 << 20;

/// Decoded images by the hash of their encoded bytes.
pub(crate) struct DecodedImages {
    /// Seeds the hash per build, so that a file cannot be made to collide with another.
    seed: u64,
    cache: Mutex<Cache>,
}

#[derive(Default)]
struct Cache {
    images: FastMap<u128, Cached>,
    /// Pixels held on probation and as shared.
    probation: usize,
    shared: usize,
    /// Ticks on each use; the smallest is the least recently used.
    clock: u64,
}

struct Cached {
    image: Arc<RgbaImage>,
    used: u64,
    /// Asked for again since it was decoded.
    shared: bool,
}

impl Default for DecodedImages {
    fn default() -> Self {
        DecodedImages {
            seed: foldhash::fast::RandomState::default().hash_one(0u8),
            cache: Mutex::default(),
        }
    }
}

impl DecodedImages {
    /// The image whose encoded bytes are `encoded`, decoded by `decode` unless an image of the
    /// same bytes was decoded before and is still held.
    pub(crate) fn get_or_decode<E>(
        &self,
        encoded: &[u8],
        decode: impl FnOnce() -> Result<RgbaImage, E>,
    ) -> Result<Arc<RgbaImage>, E> {
        let key = xxhash_rust::xxh3::xxh3_128_with_seed(encoded, self.seed);
        if let Some(image) = self.lock().take(key) {
            return Ok(image);
        }
        // Decoded outside the lock: other objects' images decode meanwhile. Two objects may
        // decode the same image at once; both get it right, the cache keeps one.
        let image = Arc::new(decode()?);
        self.lock().keep(key, &image);
        Ok(image)
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Cache> {
        // The cache is consistent after every statement: a panic elsewhere leaves it usable.
        self.cache.lock().unwrap_or_else(|e| e.into_inner())
    }
}

impl Cache {
    fn take(&mut self, key: u128) -> Option<Arc<RgbaImage>> {
        self.clock += 1;
        let cached = self.images.get_mut(&key)?;
        cached.used = self.clock;
        let image = Arc::clone(&cached.image);
        if !cached.shared {
            cached.shared = true;
            self.probation -= image.pixels.len();
            self.shared += image.pixels.len();
            self.drop_oldest(true, SHARED_BYTES, key);
        }
        Some(image)
    }

    fn keep(&mut self, key: u128, image: &Arc<RgbaImage>) {
        let size = image.pixels.len();
        if size > PROBATION_BYTES || self.images.contains_key(&key) {
            return;
        }
        self.clock += 1;
        self.probation += size;
        self.images.insert(
            key,
            Cached {
                image: Arc::clone(image),
                used: self.clock,
                shared: false,
            },
        );
        self.drop_oldest(false, PROBATION_BYTES, key);
    }

    /// Drops the least recently used images on probation (or shared) but `keep` until those
    /// hold at most `bound` bytes.
    fn drop_oldest(&mut self, shared: bool, bound: usize, keep: u128) {
        loop {
            let held = if shared { self.shared } else { self.probation };
            if held <= bound {
                return;
            }
            let oldest = self
                .images
                .iter()
                .filter(|(&k, c)| c.shared == shared && k != keep)
                .min_by_key(|(_, c)| c.used)
                .map(|(&k, _)| k);
            let Some(gone) = oldest.and_then(|k| self.images.remove(&k)) else {
                return;
            };
            let size = gone.image.pixels.len();
            if shared {
                self.shared -= size;
            } else {
                self.probation -= size;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn image(side: u32, value: u8) -> RgbaImage {
        RgbaImage {
            width: side,
            height: side,
            pixels: vec![value; (side * side * 4) as usize],
        }
    }

    fn decode_counting(
        images: &DecodedImages,
        encoded: &[u8],
        side: u32,
        decoded: &mut usize,
    ) -> Arc<RgbaImage> {
        images
            .get_or_decode::<()>(encoded, || {
                *decoded += 1;
                Ok(image(side, encoded[0]))
            })
            .unwrap()
    }

    #[test]
    fn the_same_bytes_are_decoded_once_and_share_their_pixels() {
        let images = DecodedImages::default();
        let mut decoded = 0;
        let a = decode_counting(&images, b"atlas A", 16, &mut decoded);
        let b = decode_counting(&images, b"atlas B", 16, &mut decoded);
        let a_again = decode_counting(&images, b"atlas A", 16, &mut decoded);
        assert_eq!(decoded, 2);
        assert!(Arc::ptr_eq(&a, &a_again));
        assert!(!Arc::ptr_eq(&a, &b));
        assert_eq!(b.pixels[0], b'a');
    }

    #[test]
    fn a_failed_decoding_is_reported_and_not_kept() {
        let images = DecodedImages::default();
        let failed = images.get_or_decode(b"broken", || Err("not a PNG"));
        assert_eq!(failed.err(), Some("not a PNG"));
        let mut decoded = 0;
        decode_counting(&images, b"broken", 4, &mut decoded);
        assert_eq!(decoded, 1, "decoded again, not taken from the cache");
    }

    /// The side of a square image of `bytes` of RGBA, rounded down.
    fn side_of(bytes: usize) -> u32 {
        ((bytes / 4) as f64).sqrt() as u32
    }

    #[test]
    fn images_on_probation_hold_their_bound_dropping_the_oldest() {
        // Images of a quarter of the bound each: four fit.
        let side = side_of(PROBATION_BYTES / 4);
        let images = DecodedImages::default();
        let mut decoded = 0;
        for name in [b"0", b"1", b"2", b"3", b"4"] {
            decode_counting(&images, name, side, &mut decoded);
        }
        assert_eq!(decoded, 5);
        assert!(images.lock().probation <= PROBATION_BYTES);
        decode_counting(&images, b"4", side, &mut decoded);
        decode_counting(&images, b"1", side, &mut decoded);
        assert_eq!(decoded, 5, "1 to 4 were kept");
        decode_counting(&images, b"0", side, &mut decoded);
        assert_eq!(decoded, 6, "0 was dropped");
    }

    #[test]
    fn an_image_asked_for_again_outlives_probation() {
        let side = side_of(PROBATION_BYTES / 4);
        let images = DecodedImages::default();
        let mut decoded = 0;
        decode_counting(&images, b"shared", side, &mut decoded);
        decode_counting(&images, b"shared", side, &mut decoded);
        for name in [b"0", b"1", b"2", b"3", b"4", b"5", b"6", b"7"] {
            decode_counting(&images, name, side, &mut decoded);
        }
        assert_eq!(decoded, 9);
        decode_counting(&images, b"shared", side, &mut decoded);
        assert_eq!(decoded, 9, "taken from the cache after eight images went by");
        let cache = images.lock();
        assert_eq!(cache.shared, (side * side * 4) as usize);
        assert!(cache.probation <= PROBATION_BYTES);
    }

    #[test]
    fn shared_images_hold_their_bound_dropping_the_least_recently_used() {
        let side = side_of(PROBATION_BYTES / 2);
        let per_image = (side * side * 4) as usize;
        let fit = SHARED_BYTES / per_image;
        let images = DecodedImages::default();
        let mut decoded = 0;
        let names: Vec<Vec<u8>> = (0..=fit).map(|i| i.to_le_bytes().to_vec()).collect();
        for name in &names {
            decode_counting(&images, name, side, &mut decoded);
            decode_counting(&images, name, side, &mut decoded);
        }
        assert_eq!(decoded, fit + 1);
        assert!(images.lock().shared <= SHARED_BYTES);
        decode_counting(&images, &names[0], side, &mut decoded);
        assert_eq!(decoded, fit + 2, "the least recently used went");
        decode_counting(&images, &names[fit], side, &mut decoded);
        assert_eq!(decoded, fit + 2, "the most recent stayed");
    }

    #[test]
    fn an_image_larger_than_probation_is_not_kept() {
        let side = side_of(PROBATION_BYTES) + 1;
        let images = DecodedImages::default();
        let mut decoded = 0;
        decode_counting(&images, b"huge", side, &mut decoded);
        decode_counting(&images, b"huge", side, &mut decoded);
        assert_eq!(decoded, 2);
        assert_eq!(images.lock().probation, 0);
    }
}
