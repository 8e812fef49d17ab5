//! Which kind of file a path asks to be written, known by its extension (as image-rs's
//! `ImageFormat::from_path` knows images): a classic WAD or a Tomb Editor Wad2. What is read is
//! known by its first bytes instead ([`crate::kind_of`]).

use std::ffi::OsStr;
use std::path::Path;

/// A kind of file wadforge writes objects into.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum OutputKind {
    /// A classic TRLE WAD (`.wad`), with its `.was` of slot names beside it.
    Wad,
    /// A Tomb Editor Wad2 (`.wad2`).
    Wad2,
}

impl OutputKind {
    /// The kind `path`'s extension names, in any case (`.wad`, `.WAD2`); `None` for any other
    /// extension, or none.
    pub fn from_path(path: impl AsRef<Path>) -> Option<OutputKind> {
        path.as_ref().extension().and_then(OutputKind::from_extension)
    }

    /// The kind an extension (without its dot) names, in any case; `None` for any other.
    pub fn from_extension(extension: impl AsRef<OsStr>) -> Option<OutputKind> {
        let extension = extension.as_ref();
        [OutputKind::Wad, OutputKind::Wad2]
            .into_iter()
            .find(|kind| extension.eq_ignore_ascii_case(kind.extension()))
    }

    /// The extension of such a file, without its dot: `wad`, `wad2`.
    pub fn extension(self) -> &'static str {
        match self {
            OutputKind::Wad => "wad",
            OutputKind::Wad2 => "wad2",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_extension_names_the_kind_in_any_case() {
        assert_eq!(OutputKind::from_path("out/croc.wad"), Some(OutputKind::Wad));
        assert_eq!(OutputKind::from_path("CROC.WAD"), Some(OutputKind::Wad));
        assert_eq!(OutputKind::from_path("croc.wad2"), Some(OutputKind::Wad2));
        assert_eq!(
            OutputKind::from_path("Tr1_Rat_Greek.Wad2"),
            Some(OutputKind::Wad2)
        );
        assert_eq!(
            OutputKind::from_path(Path::new("a.b/croc.wad2")),
            Some(OutputKind::Wad2)
        );
        assert_eq!(OutputKind::from_extension("wAd2"), Some(OutputKind::Wad2));
    }

    #[test]
    fn other_names_are_no_kind() {
        for path in [
            "croc",
            "croc.was",
            "croc.wad3",
            "croc.wad.bak",
            "croc.wad2x",
            "wad2",
            ".wad2",
            "croc.",
        ] {
            assert_eq!(OutputKind::from_path(path), None, "{path}");
        }
        assert_eq!(OutputKind::from_extension(""), None);
    }

    #[test]
    fn each_kind_is_known_by_its_own_extension() {
        for kind in [OutputKind::Wad, OutputKind::Wad2] {
            assert_eq!(OutputKind::from_extension(kind.extension()), Some(kind));
            assert_eq!(
                OutputKind::from_path(format!("x.{}", kind.extension())),
                Some(kind)
            );
        }
    }
}
