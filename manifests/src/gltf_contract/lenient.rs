//! How build reads an extras value an artist may have changed: a value of another type reads as
//! absent rather than failing the whole object, so that one odd custom property does not hide
//! the others.

use std::collections::BTreeMap;

use serde::de::IgnoredAny;
use serde::{Deserialize, Deserializer};

use super::StoredMeshes;

/// A `T`, or anything else.
#[derive(Deserialize)]
#[serde(untagged)]
enum Lenient<T> {
    Is(T),
    Other(IgnoredAny),
}

impl<T> Lenient<T> {
    fn ok(self) -> Option<T> {
        match self {
            Lenient::Is(value) => Some(value),
            Lenient::Other(_) => None,
        }
    }
}

/// A `T`; `None` for a value of another type.
pub(super) fn value<'de, D: Deserializer<'de>, T: Deserialize<'de>>(d: D) -> Result<Option<T>, D::Error> {
    Ok(Lenient::<T>::deserialize(d)?.ok())
}

/// A flag: a boolean, or a whole number (not 0: set), as Blender may write a custom property;
/// `None` for anything else.
pub(super) fn flag<'de, D: Deserializer<'de>>(d: D) -> Result<Option<bool>, D::Error> {
    #[derive(Deserialize)]
    #[serde(untagged)]
    enum Flag {
        Bool(bool),
        Number(i64),
    }
    Ok(value::<D, Flag>(d)?.map(|flag| match flag {
        Flag::Bool(set) => set,
        Flag::Number(n) => n != 0,
    }))
}

/// The stored meshes: a map of names to records (a record that is not a string as `None`), or
/// [`StoredMeshes::NotAMap`] for any other value under the key, `null` included.
pub(super) fn stored_meshes<'de, D: Deserializer<'de>>(d: D) -> Result<Option<StoredMeshes>, D::Error> {
    let read = match value::<D, BTreeMap<String, Lenient<String>>>(d)? {
        Some(records) => StoredMeshes::Records(records.into_iter().map(|(name, r)| (name, r.ok())).collect()),
        None => StoredMeshes::NotAMap,
    };
    Ok(Some(read))
}
