//! Tomb Raider level files (TR1–TR4): their moveables and statics read into the same model the
//! WAD reader produces. (Being written: TR1 first.)
