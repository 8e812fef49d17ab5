//! A level's sound samples: TR1's embedded WAVs cut at their sample indices, TR4's and TR5's
//! appended WAVs, TR2/TR3's left to MAIN.SFX; a cut or lying count or offset is a typed error
//! naming its byte, never a panic. TR5's 450-id sound map is read as TR4's.

use wadforge_fixtures::levels::{
    tr1_level, tr2_level, tr4_level, tr5_fixture, APPENDED_SAMPLE_WAV, TR1_PLAYED_SOUND, TR1_SAMPLE_WAVS,
    TR1_SOUND_BYTES,
};
use wadforge_format::level::{self, LevelError, LevelSamples, LevelSounds, Problem, Section};

/// Where the TR1 fixture's sample-bytes count is: after its 256-word map, the details count and
/// two 8-byte details.
fn tr1_sample_bytes_at(bytes: &[u8]) -> usize {
    bytes.len() - TR1_SOUND_BYTES + 256 * 2 + 4 + 2 * 8
}

fn sounds_of(bytes: &[u8]) -> LevelSounds {
    level::read(bytes)
        .unwrap()
        .sounds
        .expect("the level's sounds are read")
}

fn read_error(bytes: &[u8]) -> LevelError {
    level::read(bytes).expect_err("the damaged level is refused")
}

#[test]
fn tr1s_embedded_samples_are_its_wav_files_byte_for_byte() {
    let sounds = sounds_of(&tr1_level());
    let held = sounds.samples.held().expect("TR1 holds its samples");
    assert_eq!(held.len(), 2);
    assert_eq!(held.wav(0), Some(TR1_SAMPLE_WAVS[0]));
    assert_eq!(held.wav(1), Some(TR1_SAMPLE_WAVS[1]));
    assert_eq!(held.wav(2), None);
    // The played sound's samples are those numbers.
    assert_eq!(sounds.sounds[&TR1_PLAYED_SOUND].1, [0, 1]);
}

#[test]
fn a_lying_tr1_sample_bytes_count_is_refused_at_its_byte() {
    let mut bytes = tr1_level();
    let at = tr1_sample_bytes_at(&bytes);
    bytes[at..at + 4].copy_from_slice(&u32::MAX.to_le_bytes());
    let e = read_error(&bytes);
    assert_eq!((e.section, e.offset), (Section::SoundSamples, at as u64), "{e}");
    assert!(matches!(e.problem, Problem::CountTooLarge { .. }), "{e}");
}

#[test]
fn a_tr1_sample_index_past_the_sample_bytes_is_refused_at_the_index() {
    let mut bytes = tr1_level();
    let second_index = bytes.len() - 4;
    bytes[second_index..].copy_from_slice(&1000u32.to_le_bytes());
    let e = read_error(&bytes);
    assert_eq!(
        (e.section, e.offset),
        (Section::SampleIndices, second_index as u64),
        "{e}"
    );
    assert!(
        matches!(e.problem, Problem::IndexOutOfRange { index: 1000, .. }),
        "{e}"
    );
}

#[test]
fn a_tr1_wav_whose_header_claims_more_bytes_than_there_are_is_refused_at_the_wav() {
    let mut bytes = tr1_level();
    // The second WAV's RIFF size, 4 bytes into it.
    let wav = tr1_sample_bytes_at(&bytes) + 4 + TR1_SAMPLE_WAVS[0].len();
    bytes[wav + 4..wav + 8].copy_from_slice(&500u32.to_le_bytes());
    let e = read_error(&bytes);
    assert_eq!((e.section, e.offset), (Section::SoundSamples, wav as u64), "{e}");
    assert!(e.to_string().contains("claims 500 bytes"), "{e}");
}

#[test]
fn tr1_sample_bytes_that_are_no_wav_are_refused_at_their_byte() {
    let mut bytes = tr1_level();
    let wav = tr1_sample_bytes_at(&bytes) + 4;
    bytes[wav..wav + 4].copy_from_slice(b"JUNK");
    let e = read_error(&bytes);
    assert_eq!((e.section, e.offset), (Section::SoundSamples, wav as u64), "{e}");
    assert!(e.to_string().contains("not a RIFF WAV"), "{e}");
}

#[test]
fn every_cut_of_tr1s_sound_sections_is_a_typed_error() {
    let bytes = tr1_level();
    for len in bytes.len() - TR1_SOUND_BYTES..bytes.len() {
        let e = read_error(&bytes[..len]);
        assert!(
            e.offset <= len as u64,
            "cut at {len}: the error names byte {}",
            e.offset
        );
    }
}

#[test]
fn tr2s_samples_are_left_to_main_sfx_with_the_byte_of_their_indices() {
    let bytes = tr2_level();
    let sounds = sounds_of(&bytes);
    // The fixture ends with a count of no sample indices: they would start at its end.
    let indices = bytes.len() as u64;
    assert_eq!(
        sounds.samples,
        LevelSamples::InMainSfx {
            wavs: vec![],
            at: indices
        }
    );
}

#[test]
fn tr4s_appended_samples_are_its_wav_files_and_its_sound_plays_them() {
    let sounds = sounds_of(&tr4_level());
    let held = sounds.samples.held().expect("TR4 holds its samples");
    assert_eq!((held.len(), held.wav(0)), (1, Some(APPENDED_SAMPLE_WAV)));
    let ids: Vec<u16> = sounds.sounds.keys().copied().collect();
    assert_eq!(ids, [0], "ids 1-3 name details the level does not have");
    let (info, numbers) = &sounds.sounds[&0];
    assert_eq!((info.volume, info.range, numbers.as_slice()), (200, 12, &[0][..]));
}

#[test]
fn a_lying_tr4_sample_count_or_size_is_refused_at_its_byte() {
    let tr4 = tr4_level();
    let count = tr4.len() - 12 - APPENDED_SAMPLE_WAV.len();
    let mut more = tr4.clone();
    more[count..count + 4].copy_from_slice(&2u32.to_le_bytes());
    let e = read_error(&more);
    assert_eq!(
        (e.section, e.offset),
        (Section::SoundSamples, tr4.len() as u64),
        "{e}"
    );
    let mut larger = tr4.clone();
    let size = count + 8;
    larger[size..size + 4].copy_from_slice(&1000u32.to_le_bytes());
    let e = read_error(&larger);
    assert_eq!((e.section, e.offset), (Section::SoundSamples, size as u64), "{e}");
    assert!(matches!(e.problem, Problem::CountTooLarge { .. }), "{e}");
}

#[test]
fn tr5s_sound_map_details_and_appended_samples_read_as_tr4s() {
    let sounds = sounds_of(&tr5_fixture().bytes);
    let ids: Vec<u16> = sounds.sounds.keys().copied().collect();
    assert_eq!(ids, [0]);
    let (info, numbers) = &sounds.sounds[&0];
    assert_eq!((info.volume, info.range, numbers.as_slice()), (200, 12, &[0][..]));
    assert_eq!(sounds.named("LEVEL5").sounds[&0].samples, ["LEVEL5_0.wav"]);
    let held = sounds.samples.held().expect("TR5 holds its samples");
    assert_eq!(held.wav(0), Some(APPENDED_SAMPLE_WAV));
}

/// The real TR1 demo level (`../shared/real`, absent in some checkouts: then skipped).
const REAL_LEVEL: &str = "../../shared/real/LEVEL2_DEMO.PHD";

#[test]
fn every_sample_of_the_real_tr1_level_is_a_whole_riff_wav() {
    let Ok(bytes) = std::fs::read(REAL_LEVEL) else {
        eprintln!("skipped: {REAL_LEVEL} is absent");
        return;
    };
    let sounds = sounds_of(&bytes);
    let held = sounds.samples.held().expect("TR1 holds its samples");
    assert!(!held.is_empty());
    let mut total = 0;
    for n in 0..held.len() as u32 {
        let wav = held.wav(n).unwrap();
        assert_eq!(
            (&wav[..4], &wav[8..12]),
            (&b"RIFF"[..], &b"WAVE"[..]),
            "sample {n}"
        );
        let size = u32::from_le_bytes(wav[4..8].try_into().unwrap()) as usize;
        assert_eq!(size + 8, wav.len(), "sample {n}");
        total += wav.len();
    }
    eprintln!("{} samples, {total} bytes", held.len());
}
