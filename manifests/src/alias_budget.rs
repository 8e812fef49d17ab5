//! YAML aliases (`*name`) repeat what their anchor (`&name`) holds, so a few lines of nested
//! aliases can stand for billions of values (the "billion laughs"). The YAML reader stops at
//! 100 alias jumps per event, but one alias of a large anchor, repeated, still grows a
//! document as the square of its text. Before a manifest is read into its types, its values
//! are counted with every alias expanded, and a text that expands past
//! [`VALUES_PER_BYTE`] values per byte (plus [`BASE_VALUES`]) is refused: text without aliases
//! never comes near it, as every value takes at least one character.

use std::cell::Cell;
use std::fmt;

use serde::de::{
    self, DeserializeSeed, Deserializer, EnumAccess, MapAccess, SeqAccess, VariantAccess, Visitor,
};

/// Values any text may expand to.
pub(crate) const BASE_VALUES: u64 = 10_000;
/// Values a text may expand to per byte of it, on top of [`BASE_VALUES`].
pub(crate) const VALUES_PER_BYTE: u64 = 2;

/// The most values `text` may expand to.
pub(crate) fn allowed(text: &str) -> u64 {
    BASE_VALUES + VALUES_PER_BYTE * text.len() as u64
}

/// Counts the values of the document `de` reads, every alias expanded, and fails with a custom
/// error once there are more than `limit` (without reading further).
pub(crate) fn count<'de, D: Deserializer<'de>>(de: D, limit: u64) -> Result<(), D::Error> {
    let left = Cell::new(limit);
    Counter { left: &left }.deserialize(de)
}

#[derive(Clone, Copy)]
struct Counter<'c> {
    left: &'c Cell<u64>,
}

impl Counter<'_> {
    fn take<E: de::Error>(&self) -> Result<(), E> {
        match self.left.get().checked_sub(1) {
            Some(left) => {
                self.left.set(left);
                Ok(())
            }
            None => Err(E::custom(
                "aliases (`*name`) expand this file into more values than it could hold written out; \
                 write the values out instead of repeating anchors",
            )),
        }
    }
}

impl<'de> DeserializeSeed<'de> for Counter<'_> {
    type Value = ();

    fn deserialize<D: Deserializer<'de>>(self, de: D) -> Result<(), D::Error> {
        de.deserialize_any(self)
    }
}

macro_rules! scalars {
    ($($method:ident: $t:ty),*) => {
        $(fn $method<E: de::Error>(self, _: $t) -> Result<(), E> {
            self.take()
        })*
    };
}

impl<'de> Visitor<'de> for Counter<'_> {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("any YAML value")
    }

    scalars!(visit_bool: bool, visit_i64: i64, visit_u64: u64, visit_i128: i128, visit_u128: u128,
        visit_f64: f64, visit_str: &str, visit_bytes: &[u8]);

    fn visit_unit<E: de::Error>(self) -> Result<(), E> {
        self.take()
    }

    fn visit_none<E: de::Error>(self) -> Result<(), E> {
        self.take()
    }

    fn visit_some<D: Deserializer<'de>>(self, de: D) -> Result<(), D::Error> {
        self.deserialize(de)
    }

    fn visit_newtype_struct<D: Deserializer<'de>>(self, de: D) -> Result<(), D::Error> {
        self.deserialize(de)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        self.take()?;
        while seq.next_element_seed(self)?.is_some() {}
        Ok(())
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        self.take()?;
        while map.next_key_seed(self)?.is_some() {
            map.next_value_seed(self)?;
        }
        Ok(())
    }

    /// A tagged value (`!tag value`).
    fn visit_enum<A: EnumAccess<'de>>(self, data: A) -> Result<(), A::Error> {
        self.take()?;
        let ((), variant) = data.variant_seed(self)?;
        variant.newtype_variant_seed(self)
    }
}
