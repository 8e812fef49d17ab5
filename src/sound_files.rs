//! The sound files beside an object file, as import, build, copy and check find and write them:
//! `NAME.sfx` + `NAME.sam` beside a WAD, Tomb Editor's `NAME.xml` catalogue beside a Wad2
//! (`docs/sounds.md`). A level holds its own sounds: they are its answer ([`sounds_of`]).

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use anyhow::Context;
use wadforge_format::catalog::Game;
use wadforge_format::level::LevelSounds;
use wadforge_format::sounds::{self, Sounds};
use wadforge_format::OutputKind;

use crate::output::{write_atomically, written_kind};

/// The sound files of `file`: its XML catalogue when it is a Wad2, else its `.sfx` (with the
/// `.sam`, which an `.sfx` needs).
fn beside(file: &Path) -> Vec<PathBuf> {
    if written_kind(file) == OutputKind::Wad2 {
        vec![file.with_extension("xml")]
    } else {
        vec![file.with_extension("sfx"), file.with_extension("sam")]
    }
}

/// The sounds beside `file`, `None` when it has no sound files. A sound file that does not read
/// is an error naming it.
pub fn read_beside(file: &Path) -> anyhow::Result<Option<Sounds>> {
    let paths = beside(file);
    if !paths[0].is_file() {
        return Ok(None);
    }
    let text = |path: &Path| {
        wadforge_files::input::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))
    };
    let sounds = if let [xml] = paths.as_slice() {
        sounds::xml::read(&text(xml)?)
    } else {
        let sfx = wadforge_files::input::read(&paths[0])
            .with_context(|| format!("cannot read {}", paths[0].display()))?;
        let sam = wadforge_files::input::read(&paths[1])
            .with_context(|| format!("cannot read {}", paths[1].display()))
            .with_context(|| format!("{} needs the .sam beside it", paths[0].display()))?;
        sounds::sfx::read(&sfx, &sounds::sam_text::decode(&sam))
    };
    sounds
        .with_context(|| {
            format!(
                "cannot read the sounds of {} ({})",
                file.display(),
                paths[0].display()
            )
        })
        .map(Some)
}

/// The sounds of the input `file`: a level's own (`own`, its samples named after the file,
/// `LEVEL_3.wav`), else those beside it ([`read_beside`]).
pub fn sounds_of(file: &Path, own: Option<&LevelSounds>) -> anyhow::Result<Option<Sounds>> {
    match own {
        Some(own) => {
            let level = file.file_stem().unwrap_or_default().to_string_lossy();
            Ok(Some(own.named(&level)))
        }
        None => read_beside(file),
    }
}

/// Where the sounds of `file` come from, for messages: the level itself or its sound files.
fn sounds_source(file: &Path, own: Option<&LevelSounds>) -> String {
    match own {
        Some(_) => format!("the level {}", file.display()),
        None => format!("the sound files beside {}", file.display()),
    }
}

/// Writes `sounds` beside `out` as its kind of file keeps them (atomically, each file).
pub fn write_beside(out: &Path, sounds: &Sounds) -> anyhow::Result<()> {
    let paths = beside(out);
    if let [xml] = paths.as_slice() {
        return write_atomically(xml, sounds::xml::write(sounds).as_bytes());
    }
    let files = sounds::sfx::write(sounds)
        .with_context(|| format!("cannot write the sounds beside {}", out.display()))?;
    write_atomically(&paths[1], &sounds::sam_text::encode(&files.sam))?;
    write_atomically(&paths[0], &files.sfx)
}

/// Names each sound by `game`'s catalogue where its file gave none, for people reading the list.
pub fn named(mut sounds: Sounds, game: Game) -> Sounds {
    sounds.name_by_catalogue(game);
    sounds
}

/// `ids` as `LARA_FEET (0), 71` by `game`'s catalogue, for messages.
pub fn list(ids: &BTreeSet<u16>, game: Game) -> String {
    ids.iter()
        .map(
            |&id| match wadforge_format::catalog::sound_name(game, u32::from(id)) {
                Some(name) => format!("{name} ({id})"),
                None => id.to_string(),
            },
        )
        .collect::<Vec<_>>()
        .join(", ")
}

/// Writes `DIR/sounds.yaml` on import: the sounds of `file` (a level's `own`, else those beside
/// it) that the imported moveables' animations play (those `only` names, or all), named by
/// `game`'s catalogue. Returns a note listing the sounds they play that the file's sounds do not
/// define; nothing is written, and no note given, when `file` has no sounds.
pub fn import_sounds(
    (file, own): (&Path, Option<&LevelSounds>),
    model: &wadforge_format::Wad,
    game: Game,
    only: Option<&[String]>,
    dir: &Path,
) -> anyhow::Result<Option<String>> {
    // Sound files that do not read leave the import as it was before sounds travelled.
    let defined = match sounds_of(file, own) {
        Ok(Some(defined)) => defined,
        Ok(None) => return Ok(None),
        Err(e) => return Ok(Some(format!("no sounds.yaml written: {e:#}"))),
    };
    let chosen: Vec<_> = match only {
        None => model.moveables.iter().collect(),
        Some(names) => wadforge_edit::select(model, game, names)?
            .into_iter()
            .filter_map(|o| match o {
                wadforge_edit::ObjectRef::Moveable(i) => model.moveables.get(i.0),
                wadforge_edit::ObjectRef::Static(_) => None,
            })
            .collect(),
    };
    let played = sounds::played_sounds(chosen);
    let kept = named(defined.only(&played), game);
    let path = dir.join(wadforge_manifests::sounds::SOUNDS_FILE);
    write_atomically(&path, wadforge_manifests::sounds::sounds_yaml(&kept).as_bytes())?;
    let missing: BTreeSet<u16> = played
        .iter()
        .filter(|id| !kept.sounds.contains_key(id))
        .copied()
        .collect();
    Ok((!missing.is_empty()).then(|| {
        format!(
            "the animations play sounds {} does not define (not in {}): {}",
            sounds_source(file, own),
            path.display(),
            list(&missing, game)
        )
    }))
}

/// Writes the sounds of the manifest directory `dir` (its `sounds.yaml`, ids of `dir_game`)
/// beside `out` on build, under `out_game`'s ids (those the built `model` plays, where the games
/// differ), over those of `base` when given (the base's kept, the directory's added or replacing
/// by id). Without a `sounds.yaml` the base's sound files stand (a Wad2 base's XML copied beside
/// a Wad2 output here, a WAD's files by build). Returns a note of what was written.
pub fn build_sounds(
    dir: &Path,
    base: Option<&Path>,
    (out, out_game): (&Path, Game),
    (dir_game, model): (Game, &wadforge_format::Wad),
) -> anyhow::Result<Option<String>> {
    let Some(mut built) = wadforge_manifests::sounds::load_sounds(dir)? else {
        // A WAD build copies the base's files itself; a Wad2's XML is copied here.
        if let (Some(base), OutputKind::Wad2) = (base, written_kind(out)) {
            crate::output::copy_companions(base, out)?;
        }
        return Ok(None);
    };
    if dir_game != out_game {
        built = moved_sounds(
            &built,
            dir_game,
            (out_game, &sounds::played_sounds(&model.moveables)),
        )
        .0;
    }
    let base_sounds = base.map(read_beside).transpose()?.flatten();
    let from_base = base_sounds.as_ref().map_or(0, |b| {
        b.sounds
            .keys()
            .filter(|id| !built.sounds.contains_key(id))
            .count()
    });
    let sounds = match base_sounds {
        Some(base_sounds) => base_sounds.merged_with(&built),
        None => built,
    };
    write_beside(out, &sounds)?;
    Ok(Some(format!(
        "sounds: {} written beside {} ({} from the directory's sounds.yaml, {from_base} kept from the base)",
        sounds.sounds.len(),
        out.display(),
        sounds.sounds.len() - from_base
    )))
}

/// The sounds `played` (ids of `to`) taken from `source` (ids of `from`, each found by the
/// catalogues) under `to`'s ids and names, with the played ids `source` does not define.
fn moved_sounds(
    source: &Sounds,
    from: Game,
    (to, played): (Game, &BTreeSet<u16>),
) -> (Sounds, BTreeSet<u16>) {
    let mut moved = Sounds {
        map: source.map,
        sounds: Default::default(),
    };
    let mut undefined = BTreeSet::new();
    for &id in played {
        let found = source.sounds.iter().find(|(&src_id, _)| {
            wadforge_format::catalog::sound_in(from, u32::from(src_id), to) == Some(u32::from(id))
        });
        match found {
            Some((_, info)) => {
                let mut info = info.clone();
                // The output's game names the sound its own way (TR1's 71 is TEN's T_REX_ROAR).
                info.name = wadforge_format::catalog::sound_name(to, u32::from(id))
                    .map(Into::into)
                    .or(info.name);
                moved.sounds.insert(id, info);
            }
            None => {
                undefined.insert(id);
            }
        }
    }
    (moved, undefined)
}

/// Writes into `samples/` beside `out` the samples of the sounds written beside it (of those
/// `ids` only, when given), when `input` is a level (`own`, its sounds; a WAD's or Wad2's samples
/// are not in it): what was written, or where a TR2/TR3 level's samples are.
pub fn level_samples_beside(
    (input, own): (&Path, Option<&LevelSounds>),
    out: &Path,
    ids: Option<&BTreeSet<u16>>,
) -> anyhow::Result<Option<String>> {
    let (Some(own), Ok(Some(mut written))) = (own, read_beside(out)) else {
        return Ok(None);
    };
    if let Some(ids) = ids {
        written.sounds.retain(|id, _| ids.contains(id));
    }
    let names = wadforge_importer::samples::sample_names(&written);
    let folder = wadforge_importer::samples::beside(out);
    Ok(wadforge_importer::samples::level_samples_note(
        input, own, &names, &folder,
    )?)
}

/// What `copy` did with the sounds the copied objects play (ids of DEST's game).
pub struct Carried {
    /// Where they came from, for messages: the level itself or the sound files beside SRC.
    pub source: String,
    /// Brought from SRC's sounds into the output's sound files.
    pub added: BTreeSet<u16>,
    /// Already defined by DEST's sound files, kept as DEST has them (its other objects play them).
    pub kept: BTreeSet<u16>,
    /// Neither DEST nor SRC defines them.
    pub undefined: BTreeSet<u16>,
}

/// Carries into the output's sound files the sounds `played` (DEST's ids) that DEST does not
/// define, from SRC's sounds: a level's `own` (its samples named after it, `LEVEL_3.wav`), else
/// its sound files (SRC's id for each found by the catalogues between games). `None`, and
/// nothing written, when SRC has no sounds or SRC's or DEST's sound files do not read.
pub fn carry_sounds(
    (src, src_game, own): (&Path, Game, Option<&LevelSounds>),
    (dest, dest_game): (&Path, Game),
    out: &Path,
    played: &BTreeSet<u16>,
) -> anyhow::Result<Option<Carried>> {
    // Unreadable sound files are neither read from nor written over: copy lists as before.
    let (Ok(Some(from)), Ok(dest_sounds)) = (sounds_of(src, own), read_beside(dest)) else {
        return Ok(None);
    };
    let mut sounds = dest_sounds.unwrap_or_default();
    let mut carried = Carried {
        source: sounds_source(src, own),
        added: BTreeSet::new(),
        kept: BTreeSet::new(),
        undefined: BTreeSet::new(),
    };
    for &id in played {
        if sounds.sounds.contains_key(&id) {
            carried.kept.insert(id);
            continue;
        }
        let source = from.sounds.iter().find(|(&src_id, _)| {
            wadforge_format::catalog::sound_in(src_game, u32::from(src_id), dest_game) == Some(u32::from(id))
        });
        match source {
            Some((_, info)) => {
                let mut info = info.clone();
                // The name the output's game gives the id, where the source file gave none.
                info.name = info.name.or_else(|| {
                    wadforge_format::catalog::sound_name(dest_game, u32::from(id)).map(Into::into)
                });
                sounds.sounds.insert(id, info);
                carried.added.insert(id);
            }
            None => {
                carried.undefined.insert(id);
            }
        }
    }
    if !carried.added.is_empty() {
        write_beside(out, &sounds)?;
    }
    Ok(Some(carried))
}

/// Takes out of the sounds beside `file`, written beside `out` on remove, the sounds `unplayed`
/// (those only the removed objects played, ids of `game`), and writes the rest beside `out` in
/// its kind's files (so a Wad2 written from a WAD gets the XML too). Returns the lines saying
/// what was dropped; none when `file` has no sound files. Files that do not read are said in a
/// line and left as they were copied.
pub fn drop_sounds(
    file: &Path,
    out: &Path,
    game: Game,
    unplayed: &BTreeSet<u16>,
) -> anyhow::Result<Vec<String>> {
    let mut sounds = match read_beside(file) {
        Ok(Some(sounds)) => sounds,
        Ok(None) => return Ok(Vec::new()),
        Err(e) => return Ok(vec![format!("sound files not changed: {e:#}")]),
    };
    let dropped: BTreeSet<u16> = unplayed
        .iter()
        .filter(|id| sounds.sounds.remove(id).is_some())
        .copied()
        .collect();
    let written = beside(out)[0].clone();
    if dropped.is_empty() && written.is_file() {
        return Ok(Vec::new());
    }
    if let Err(e) = write_beside(out, &sounds) {
        return Ok(vec![format!(
            "sounds not written beside {}: {e:#}",
            out.display()
        )]);
    }
    Ok((!dropped.is_empty())
        .then(|| {
            format!(
                "sounds dropped from {} (only the removed objects played them): {}",
                written.display(),
                list(&dropped, game)
            )
        })
        .into_iter()
        .collect())
}

/// `check`'s `undefined-sound` findings for `file` (read as `objects`), when it has sound files;
/// a note when they do not read.
pub fn undefined_sounds(
    file: &Path,
    objects: &wadforge_format::Opened,
) -> anyhow::Result<Vec<wadforge_edit::check::Finding>> {
    Ok(match sounds_of(file, objects.sounds.as_ref()) {
        Ok(Some(sounds)) => {
            use wadforge_edit::sounds::{undefined_sound_findings, SoundsOf};
            let of = match objects.sounds {
                Some(_) => SoundsOf::Level,
                None => SoundsOf::SoundFiles,
            };
            undefined_sound_findings(&objects.model, objects.game, (&sounds, of))
        }
        Ok(None) => Vec::new(),
        Err(e) => vec![wadforge_edit::check::Finding {
            severity: wadforge_edit::check::Severity::Note,
            rule: "undefined-sound",
            place: "the file".into(),
            message: format!("its sounds were not checked: {e:#}"),
            fix: "give it the .sfx and .sam (or .xml) that came with it to have them checked".into(),
            more: 0,
        }],
    })
}

/// Writes beside `out`, on convert, the sounds the converted objects play (`model`'s, ids of
/// `to`) from the sounds of `input` (a level's `own`, else the sound files beside it; ids of
/// `from`, each found by the catalogues), under
/// `to`'s ids and names: the XML catalogue beside a Wad2, `.sfx`/`.sam` beside a WAD. Returns the
/// lines saying what it wrote and which sounds played the input's files do not define; none when
/// `input` has no sound files. Files that do not read, or sounds a `.sfx` cannot hold, are said
/// in a line and nothing is written.
pub fn convert_sounds(
    (input, from, own): (&Path, Game, Option<&LevelSounds>),
    (out, to): (&Path, Game),
    model: &wadforge_format::Wad,
) -> anyhow::Result<Vec<String>> {
    let source = match sounds_of(input, own) {
        Ok(Some(source)) => source,
        Ok(None) => return Ok(Vec::new()),
        Err(e) => return Ok(vec![format!("sounds not written: {e:#}")]),
    };
    let played = sounds::played_sounds(&model.moveables);
    let (moved, undefined) = moved_sounds(&source, from, (to, &played));
    let beside = beside(out)[0].clone();
    if let Err(e) = write_beside(out, &moved) {
        return Ok(vec![format!("sounds not written: {e:#}")]);
    }
    let mut lines = vec![format!(
        "sounds: {} the objects play written to {} under {}'s ids",
        moved.sounds.len(),
        beside.display(),
        to.name()
    )];
    if !undefined.is_empty() {
        lines.push(format!(
            "sounds the objects play that {} does not define: {}",
            sounds_source(input, own),
            list(&undefined, to)
        ));
    }
    Ok(lines)
}
