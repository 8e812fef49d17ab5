//! Tomb Editor's XML sound catalogue, the file beside a `.wad2` (`W2SoundSystem` 1): TombLib's
//! `WadSounds` as .NET's `XmlSerializer` writes it (`TombLib/Wad/WadSounds.cs`,
//! `WadSoundInfo.cs`, `WadSample.cs`):
//!
//! ```xml
//! <WadSounds><SoundInfos><WadSoundInfo>
//!   <Id>0</Id><Name>LARA_FEET</Name><Volume>80</Volume><RangeInSectors>8</RangeInSectors>
//!   <Chance>100</Chance><PitchFactor>0</PitchFactor><DisablePanning>false</DisablePanning>
//!   <RandomizePitch>true</RandomizePitch><RandomizeVolume>false</RandomizeVolume>
//!   <LoopBehaviour>None</LoopBehaviour>
//!   <Samples><WadSample><FileName>FEET.wav</FileName></WadSample></Samples>
//!   <Global>false</Global><Indexed>false</Indexed>
//! </WadSoundInfo></SoundInfos></WadSounds>
//! ```
//!
//! Volume and chance are percentages, pitch a percentage of −100..99: converted to and from the
//! `.sfx` bytes by TombLib's own rule (`x * 100 / 255` rounded; chance 0 is 100%).

use std::collections::BTreeMap;

use wadforge_model::sounds::{LoopMode, SoundInfo, SoundMap, Sounds};

use super::xml_tree::{parse, Element};
use super::SoundsError;

/// Reads a sound catalogue. Elements it does not know are left alone, as `XmlSerializer` does.
pub fn read(text: &str) -> Result<Sounds, SoundsError> {
    let root = parse(text)?;
    if root.name != "WadSounds" {
        return Err(SoundsError::xml(
            root.line,
            format!(
                "the root element is <{}>, not <WadSounds>: this is not a Tomb Editor sound catalogue",
                root.name
            ),
        ));
    }
    let mut sounds = BTreeMap::new();
    let infos = root.children.iter().filter(|e| e.name == "SoundInfos");
    for element in infos
        .flat_map(|e| &e.children)
        .filter(|e| e.name == "WadSoundInfo")
    {
        let (id, info) = read_info(element)?;
        if sounds.insert(id, info).is_some() {
            return Err(SoundsError::xml(
                element.line,
                format!("sound {id} is defined twice: keep one of its <WadSoundInfo>"),
            ));
        }
    }
    let highest = sounds.keys().next_back().copied().unwrap_or(0);
    Ok(Sounds {
        map: SoundMap::holding(highest).unwrap_or(SoundMap::Trng),
        sounds,
    })
}

fn read_info(element: &Element) -> Result<(u16, SoundInfo), SoundsError> {
    let number = |name: &str, low: i64, high: i64, default: i64| -> Result<i64, SoundsError> {
        let Some(child) = element.child(name) else {
            return Ok(default);
        };
        match child.text.trim().parse::<i64>() {
            Ok(value) if (low..=high).contains(&value) => Ok(value),
            _ => Err(SoundsError::xml(
                child.line,
                format!(
                    "<{name}> is {:?}, not a whole number in {low}..{high}: correct it",
                    child.text
                ),
            )),
        }
    };
    let flag = |name: &str| -> Result<bool, SoundsError> {
        let Some(child) = element.child(name) else {
            return Ok(false);
        };
        match child.text.trim() {
            "true" | "1" => Ok(true),
            "false" | "0" => Ok(false),
            other => Err(SoundsError::xml(
                child.line,
                format!("<{name}> is {other:?}, not true or false: correct it"),
            )),
        }
    };
    if element.child("Id").is_none() {
        return Err(SoundsError::xml(
            element.line,
            "a <WadSoundInfo> without an <Id>: give it the sound's id".into(),
        ));
    }
    let id = number("Id", 0, i64::from(u16::MAX), 0)? as u16;
    let loop_mode = match element.child("LoopBehaviour") {
        None => LoopMode::None,
        Some(child) => LoopMode::from_name(child.text.trim()).ok_or_else(|| {
            SoundsError::xml(
                child.line,
                format!(
                    "<LoopBehaviour> is {:?}, not None, OneShotWait, OneShotRewound or Looped",
                    child.text
                ),
            )
        })?,
    };
    let mut flags = loop_mode.bits();
    for (name, bit) in [
        ("DisablePanning", SoundInfo::NO_PANNING),
        ("RandomizePitch", SoundInfo::RANDOM_PITCH),
        ("RandomizeVolume", SoundInfo::RANDOM_VOLUME),
    ] {
        if flag(name)? {
            flags |= bit;
        }
    }
    let chance = match number("Chance", 0, 100, 100)? {
        0 => 100,
        chance => chance,
    };
    let info = SoundInfo {
        name: element.child("Name").map(|n| n.text.clone()),
        volume: from_percent(number("Volume", 0, 100, 100)?, 255) as u8,
        range: number("RangeInSectors", 0, 255, 10)? as u8,
        chance: from_percent(chance, 255) as u8,
        pitch: from_percent(number("PitchFactor", -100, 99, 0)?, 128) as i8,
        flags,
        samples: sample_names(element),
        global: flag("Global")?,
        indexed: flag("Indexed")?,
    };
    Ok((id, info))
}

/// The `<FileName>` of each `<WadSample>` of the info's `<Samples>`.
fn sample_names(element: &Element) -> Vec<String> {
    element
        .children
        .iter()
        .filter(|e| e.name == "Samples")
        .flat_map(|e| &e.children)
        .filter(|e| e.name == "WadSample")
        .filter_map(|e| e.child("FileName").map(|f| f.text.clone()))
        .collect()
}

/// TombLib's rule back: the byte whose percentage, rounded, is `percent`.
fn from_percent(percent: i64, full: i64) -> i64 {
    let scaled = percent * full;
    // Rounded half away from zero, as .NET's Math.Round of the other direction needs.
    (scaled + scaled.signum() * 50) / 100
}

/// TombLib's rule: `value * 100 / full`, rounded (half to even, .NET's Math.Round).
fn to_percent(value: i64, full: i64) -> i64 {
    let scaled = value * 100;
    let quotient = scaled.div_euclid(full);
    let remainder = scaled.rem_euclid(full);
    match (2 * remainder).cmp(&full) {
        std::cmp::Ordering::Less => quotient,
        std::cmp::Ordering::Greater => quotient + 1,
        std::cmp::Ordering::Equal => quotient + (quotient & 1),
    }
}

/// Writes `sounds` as a Tomb Editor sound catalogue; a sound without a name is named
/// `SOUND_<id>` (Tomb Editor requires one).
pub fn write(sounds: &Sounds) -> String {
    let mut out = String::from(
        "<?xml version=\"1.0\" encoding=\"utf-8\"?>\r\n<WadSounds xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\" \
         xmlns:xsd=\"http://www.w3.org/2001/XMLSchema\">\r\n  <SoundInfos>\r\n",
    );
    for (&id, info) in &sounds.sounds {
        write_info(&mut out, id, info);
    }
    out.push_str("  </SoundInfos>\r\n</WadSounds>\r\n");
    out
}

fn write_info(out: &mut String, id: u16, info: &SoundInfo) {
    let name = info.name.clone().unwrap_or_else(|| format!("SOUND_{id}"));
    let chance = if info.chance == 0 {
        100
    } else {
        to_percent(i64::from(info.chance), 255)
    };
    let bool_text = |bit: u16| if info.flags & bit != 0 { "true" } else { "false" };
    let fields: [(&str, String); 10] = [
        ("Id", id.to_string()),
        ("Name", escape(&name)),
        ("Volume", to_percent(i64::from(info.volume), 255).to_string()),
        ("RangeInSectors", info.range.to_string()),
        ("Chance", chance.to_string()),
        ("PitchFactor", to_percent(i64::from(info.pitch), 128).to_string()),
        ("DisablePanning", bool_text(SoundInfo::NO_PANNING).into()),
        ("RandomizePitch", bool_text(SoundInfo::RANDOM_PITCH).into()),
        ("RandomizeVolume", bool_text(SoundInfo::RANDOM_VOLUME).into()),
        ("LoopBehaviour", info.loop_mode().name().into()),
    ];
    out.push_str("    <WadSoundInfo>\r\n");
    for (tag, value) in fields {
        out.push_str(&format!("      <{tag}>{value}</{tag}>\r\n"));
    }
    if info.samples.is_empty() {
        out.push_str("      <Samples />\r\n");
    } else {
        out.push_str("      <Samples>\r\n");
        for sample in &info.samples {
            out.push_str(&format!(
                "        <WadSample>\r\n          <FileName>{}</FileName>\r\n        </WadSample>\r\n",
                escape(sample)
            ));
        }
        out.push_str("      </Samples>\r\n");
    }
    out.push_str(&format!("      <Global>{}</Global>\r\n", info.global));
    out.push_str(&format!("      <Indexed>{}</Indexed>\r\n", info.indexed));
    out.push_str("    </WadSoundInfo>\r\n");
}

fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn info(
        name: Option<&str>,
        volume: u8,
        chance: u8,
        pitch: i8,
        flags: u16,
        samples: &[&str],
    ) -> SoundInfo {
        SoundInfo {
            name: name.map(str::to_owned),
            volume,
            range: 12,
            chance,
            pitch,
            flags,
            samples: samples.iter().map(|s| (*s).to_owned()).collect(),
            global: true,
            indexed: false,
        }
    }

    #[test]
    fn a_catalogue_read_written_and_read_again_is_the_same() {
        let text = write(&Sounds {
            map: SoundMap::Trle,
            sounds: BTreeMap::from([
                (
                    0,
                    info(
                        Some("LARA_FEET"),
                        204,
                        255,
                        -26,
                        SoundInfo::RANDOM_PITCH | 1,
                        &["FEET & <1>.wav", "b.wav"],
                    ),
                ),
                (394, info(None, 3, 128, 127, SoundInfo::NO_PANNING | 3, &[])),
            ]),
        });
        let first = read(&text).unwrap();
        assert_eq!(first.sounds[&0].samples, ["FEET & <1>.wav", "b.wav"]);
        assert_eq!(first.sounds[&394].name.as_deref(), Some("SOUND_394"));
        assert_eq!(first.sounds[&394].loop_mode(), LoopMode::Looped);
        assert_eq!(write(&first), text);
        assert_eq!(read(&write(&first)).unwrap(), first);
    }

    #[test]
    fn percentages_come_back_to_the_same_bytes_and_back() {
        for percent in 0..=100 {
            assert_eq!(to_percent(from_percent(percent, 255), 255), percent);
        }
        for percent in -100..=99 {
            let byte = from_percent(percent, 128);
            assert!((-128..=127).contains(&byte));
            assert_eq!(to_percent(byte, 128), percent);
        }
    }

    #[test]
    fn what_tomb_editor_writes_reads_with_its_defaults() {
        let text = "\u{feff}<?xml version=\"1.0\"?>\n<!-- a comment -->\n<WadSounds xmlns:xsi=\"x\">\n <SoundInfos>\n  \
                    <WadSoundInfo>\n   <Id>12</Id>\n   <Volume>50</Volume>\n   <Chance>0</Chance>\n   <Samples>\n    \
                    <WadSample><FileName>a&amp;b.wav</FileName></WadSample>\n   </Samples>\n   <Unknown/>\n  \
                    </WadSoundInfo>\n </SoundInfos>\n</WadSounds>";
        let sounds = read(text).unwrap();
        let sound = &sounds.sounds[&12];
        assert_eq!(
            (sound.volume, sound.chance, sound.range, sound.pitch),
            (128, 255, 10, 0)
        );
        assert_eq!(sound.samples, ["a&b.wav"]);
    }

    #[test]
    fn hostile_catalogues_are_refused_with_the_line_and_what_to_do() {
        let cases = [
            ("<WadSounds><SoundInfos><WadSoundInfo><Id>1</Id>", "line 1"),
            ("<Other/>", "not <WadSounds>"),
            ("<WadSounds>\n<SoundInfos>\n<WadSoundInfo><Id>70000</Id></WadSoundInfo></SoundInfos></WadSounds>", "line 3"),
            ("<WadSounds><SoundInfos><WadSoundInfo><Id>1</Id><Volume>150</Volume></WadSoundInfo></SoundInfos></WadSounds>", "0..100"),
            ("<WadSounds><SoundInfos><WadSoundInfo><Id>1</Id></WadSoundInfo><WadSoundInfo><Id>1</Id></WadSoundInfo></SoundInfos></WadSounds>", "twice"),
            ("<WadSounds><a></b></WadSounds>", "</b>"),
            ("<WadSounds>&bogus;</WadSounds>", "&bogus;"),
        ];
        for (text, expected) in cases {
            let error = read(text).unwrap_err().to_string();
            assert!(error.contains(expected), "{text}: {error}");
        }
        let deep = "<a>".repeat(100_000);
        assert!(read(&deep).unwrap_err().to_string().contains("deeper"));
    }
}
