//! Posing (filled in by the pose work).
