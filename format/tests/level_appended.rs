//! Levels with data appended after the level proper (TRX's injections) read as without it.

use wadforge_fixtures::levels::{tr1_level, tr4_level, trx_injection};
use wadforge_format::level::{self, AppendedKind, Problem};

fn with_tail(level: &[u8], tail: &[u8]) -> Vec<u8> {
    let mut bytes = level.to_vec();
    bytes.extend_from_slice(tail);
    bytes
}

#[test]
fn a_tr1_level_with_a_trx_tail_reads_as_without_it() {
    let plain = tr1_level();
    let tail = trx_injection();
    let without = level::read(&plain).expect("the fixture reads");
    let with = level::read(&with_tail(&plain, &tail)).expect("the level with TRX's tail reads");
    assert_eq!(with.wad, without.wad);
    assert_eq!(with.skewed, without.skewed);
    assert_eq!(without.appended, None);
    let appended = with.appended.expect("the tail is reported");
    assert_eq!(
        (appended.offset, appended.len),
        (plain.len() as u64, tail.len() as u64)
    );
    let AppendedKind::Trx { version, chunk } = appended.what;
    assert_eq!(version, 4);
    assert_eq!(chunk.map(|c| c.compressed as usize + 20), Some(tail.len()));
}

#[test]
fn a_tr4_level_with_a_trx_tail_reads_as_without_it() {
    let plain = tr4_level();
    let without = level::read(&plain).unwrap();
    let with = level::read(&with_tail(&plain, &trx_injection())).unwrap();
    assert_eq!(with.wad, without.wad);
    assert!(with.appended.unwrap().to_string().contains("TRX injection data"));
}

#[test]
fn other_appended_bytes_are_still_refused() {
    for plain in [tr1_level(), tr4_level()] {
        let e = level::read(&with_tail(&plain, b"junk after")).unwrap_err();
        assert_eq!(e.problem, Problem::TrailingBytes(10), "{e}");
        assert_eq!(e.offset, plain.len() as u64);
    }
}
