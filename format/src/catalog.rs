//! Object catalogues (filled in by the catalogue work).
