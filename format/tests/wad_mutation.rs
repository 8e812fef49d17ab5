//! Mutation fuzzing of the WAD reader: damaged copies of the realistic fixtures must give a typed
//! error or a model, never a panic, and any file the reader accepts must be written back byte for
//! byte. `PROPTEST_CASES=N` sets the number of damaged files per seed file (default 256).

use proptest::prelude::*;
use proptest::test_runner::{Config, TestRunner};
use wadforge_format::wad;

/// One damage applied to a file.
#[derive(Debug, Clone)]
enum Damage {
    /// Overwrite a byte.
    Byte { at: usize, value: u8 },
    /// Overwrite a 16-bit word with a value likely to be a count or index.
    Word { at: usize, value: u16 },
    /// Overwrite a 32-bit word with a value likely to be a count or offset.
    Dword { at: usize, value: u32 },
    /// Cut the file.
    Truncate { at: usize },
    /// Remove bytes.
    Remove { at: usize, len: usize },
    /// Insert bytes.
    Insert { at: usize, bytes: Vec<u8> },
}

fn interesting_u16() -> impl Strategy<Value = u16> {
    prop_oneof![
        Just(0u16),
        Just(1),
        Just(0x7FFF),
        Just(0x8000),
        Just(0xFFFF),
        any::<u16>(),
        0u16..64
    ]
}

fn interesting_u32() -> impl Strategy<Value = u32> {
    prop_oneof![
        Just(0u32),
        Just(1),
        Just(u32::MAX),
        Just(0x8000_0000),
        any::<u32>(),
        0u32..4096
    ]
}

/// Positions fall outside the texture pages nine times in ten: damaged texels are valid texels.
fn position(len: usize, texture: std::ops::Range<usize>) -> impl Strategy<Value = usize> + Clone {
    let outside: Vec<usize> = (0..len).filter(|i| !texture.contains(i)).collect();
    let n = outside.len().max(1);
    prop_oneof![9 => (0..n).prop_map(move |i| outside.get(i).copied().unwrap_or(0)), 1 => 0..len.max(1)]
}

fn damage(len: usize, texture: std::ops::Range<usize>) -> impl Strategy<Value = Damage> {
    let p = position(len, texture);
    prop_oneof![
        4 => (p.clone(), any::<u8>()).prop_map(|(at, value)| Damage::Byte { at, value }),
        4 => (p.clone(), interesting_u16()).prop_map(|(at, value)| Damage::Word { at, value }),
        3 => (p.clone(), interesting_u32()).prop_map(|(at, value)| Damage::Dword { at, value }),
        1 => p.clone().prop_map(|at| Damage::Truncate { at }),
        1 => (p.clone(), 1usize..8).prop_map(|(at, len)| Damage::Remove { at, len }),
        1 => (p, proptest::collection::vec(any::<u8>(), 1..8)).prop_map(|(at, bytes)| Damage::Insert { at, bytes }),
    ]
}

fn apply(bytes: &mut Vec<u8>, d: &Damage) {
    let len = bytes.len();
    let mut put = |at: usize, v: &[u8]| {
        let end = (at + v.len()).min(len);
        if at < end {
            bytes[at..end].copy_from_slice(&v[..end - at]);
        }
    };
    match d {
        Damage::Byte { at, value } => put(*at, &[*value]),
        Damage::Word { at, value } => put(*at, &value.to_le_bytes()),
        Damage::Dword { at, value } => put(*at, &value.to_le_bytes()),
        Damage::Truncate { at } => bytes.truncate(*at),
        Damage::Remove { at, len } => {
            let at = (*at).min(bytes.len());
            let end = (at + len).min(bytes.len());
            bytes.drain(at..end);
        }
        Damage::Insert { at, bytes: b } => {
            let at = (*at).min(bytes.len());
            bytes.splice(at..at, b.iter().copied());
        }
    }
}

/// Byte range of the texture pages: after the version, the sample table and the size word.
fn texture_range(bytes: &[u8]) -> std::ops::Range<usize> {
    let u32_at = |at: usize| u32::from_le_bytes(bytes[at..at + 4].try_into().unwrap()) as usize;
    let start = 4 + 4 + u32_at(4) * 8 + 4;
    start..start + u32_at(start - 4)
}

/// Reads a damaged file; returns whether the reader accepted it.
fn check(bytes: &[u8]) -> Result<bool, TestCaseError> {
    // A panic here fails the test with the damages that caused it.
    let Ok((model, layout)) = wad::read(bytes) else {
        return Ok(false);
    };
    let written = wad::write(&model, Some(&layout)).map_err(|e| TestCaseError::fail(format!("{e}")))?;
    prop_assert!(
        written == bytes,
        "an accepted file was not written back byte for byte"
    );
    // The canonical layout may refuse a damaged model (a typed error), but must not panic.
    let _ = wad::write(&model, None);
    Ok(true)
}

#[test]
fn damaged_fixtures_never_panic_and_accepted_ones_round_trip() {
    let mut seeds: Vec<(&str, Vec<u8>)> = wadforge_fixtures::quirky_files();
    seeds.push((
        "standard",
        wad::write(&wadforge_fixtures::standard(), None).unwrap(),
    ));
    let cases = std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(256);
    let tried = std::cell::Cell::new(0usize);
    let accepted = std::cell::Cell::new(0usize);
    for (name, original) in &seeds {
        let texture = texture_range(original);
        let config = Config {
            cases,
            failure_persistence: None,
            ..Config::default()
        };
        let mut runner = TestRunner::new_with_rng(
            config,
            proptest::test_runner::TestRng::deterministic_rng(proptest::test_runner::RngAlgorithm::ChaCha),
        );
        let strategy = proptest::collection::vec(damage(original.len(), texture), 1..4);
        runner
            .run(&strategy, |damages| {
                tried.set(tried.get() + 1);
                let mut bytes = original.clone();
                damages.iter().for_each(|d| apply(&mut bytes, d));
                accepted.set(accepted.get() + check(&bytes)? as usize);
                Ok(())
            })
            .unwrap_or_else(|e| panic!("{name}: {e}"));
    }
    let (tried, accepted) = (tried.get(), accepted.get());
    eprintln!("mutation test: {tried} damaged files, {accepted} accepted (and rewritten exactly)");
    assert!(tried >= seeds.len() * cases as usize);
}
