//! `wadforge gallery FOLDER|FILES... -o DIR`: a gallery per file (`DIR/files/…`, the folders'
//! tree mirrored) and one index page over them all (`DIR/index.html`, see
//! `wadforge_render::gallery::collection`).
//!
//! Run again into the same DIR, only the files that changed are drawn again: `DIR/` keeps
//! [`STATE_FILE`], each file's size, modification time, hash and card. A file of the same size
//! and time is taken as unchanged without reading it; one whose time changed is hashed, and
//! drawn again only when its bytes did. Galleries of files gone from the folder are removed.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::time::UNIX_EPOCH;

use anyhow::{bail, Context};
use serde::{Deserialize, Serialize};
use wadforge_render::gallery::collection::{collection_page, file_card, FileCard, Unreadable};
use wadforge_render::gallery::{self, Options, Source};

use super::{draw_into, Args};
use crate::collection::{each_file, failed_files, mirrored, object_files, report_failures, ObjectFile};

/// What a gallery of many files remembers of them, in its folder.
pub const STATE_FILE: &str = "wadforge-gallery.json";

/// The folder, inside the gallery, of the files' own galleries.
const FILES_DIR: &str = "files";

#[derive(Serialize, Deserialize, Default)]
struct State {
    files: Vec<Drawn>,
}

/// A file whose gallery was drawn, as it was then.
#[derive(Serialize, Deserialize, Clone)]
struct Drawn {
    /// The path it was read from.
    source: String,
    bytes: u64,
    /// Modification time, nanoseconds since 1970.
    modified: u64,
    /// xxh3 of its bytes, in hex.
    hash: String,
    card: FileCard,
}

/// How one file went.
enum Shown {
    Unchanged(Drawn),
    Drawn(Drawn),
}

impl Shown {
    fn drawn(&self) -> &Drawn {
        match self {
            Shown::Unchanged(d) | Shown::Drawn(d) => d,
        }
    }
}

pub fn run(args: &Args) -> anyhow::Result<()> {
    let files = object_files(&args.files)?;
    let previous = previous_state(&args.out, args.force)?;
    let dirs: Vec<String> = mirrored(&files, None)?
        .iter()
        .map(|d| format!("{FILES_DIR}/{}", slashed(d)))
        .collect();
    let dir_of: HashMap<PathBuf, String> = files.iter().map(|f| f.relative.clone()).zip(dirs).collect();
    let before: HashMap<&str, &Drawn> = previous.files.iter().map(|d| (d.card.file.as_str(), d)).collect();
    // Fewer files than threads go one after another, each drawn on every thread.
    let threads = if files.len() >= rayon::current_num_threads() {
        1
    } else {
        rayon::current_num_threads()
    };
    let outcomes = each_file(files, "drawing", args.quiet, |file| {
        let dir = &dir_of[&file.relative];
        show(
            file,
            dir,
            before.get(slashed(&file.relative).as_str()).copied(),
            &args.out,
            threads,
        )
    });
    report_failures(&outcomes);
    let state = State {
        files: outcomes
            .iter()
            .filter_map(|o| o.result.as_ref().ok())
            .map(|s| s.drawn().clone())
            .collect(),
    };
    remove_gone(&args.out, &previous, &state)?;
    let cards: Vec<FileCard> = state.files.iter().map(|d| d.card.clone()).collect();
    let unreadable: Vec<Unreadable> = outcomes
        .iter()
        .filter_map(|o| {
            let why = o.result.as_ref().err()?;
            Some(Unreadable {
                file: slashed(&o.file.relative),
                why: why.clone(),
            })
        })
        .collect();
    let state_json = serde_json::to_vec(&state).context("cannot encode the gallery's state")?;
    crate::output::write_atomically(&args.out.join(STATE_FILE), &state_json)?;
    let index = args.out.join(gallery::INDEX);
    crate::output::write_atomically(&index, collection_page(&cards, &unreadable).as_bytes())?;
    if !args.quiet {
        let drawn = outcomes
            .iter()
            .filter(|o| matches!(o.result, Ok(Shown::Drawn(_))))
            .count();
        eprintln!(
            "gallery of {} files ({drawn} drawn, {} unchanged, {} failed): {}; open it in a browser",
            outcomes.len(),
            cards.len() - drawn,
            unreadable.len(),
            index.display()
        );
    }
    failed_files(&outcomes)
}

/// The state of the gallery already in `out`: none for a new or empty folder; a folder that
/// holds other files needs `force`.
fn previous_state(out: &Path, force: bool) -> anyhow::Result<State> {
    let state_path = out.join(STATE_FILE);
    if !state_path.is_file() {
        crate::output::prepare_output_dir(out, force)?;
        return Ok(State::default());
    }
    let bytes = wadforge_files::input::read(&state_path)
        .with_context(|| format!("cannot read {}", state_path.display()))?;
    match serde_json::from_slice::<State>(&bytes) {
        Ok(state) => Ok(state),
        Err(e) => {
            eprintln!(
                "warning: {} cannot be read ({e}); every file is drawn again",
                state_path.display()
            );
            Ok(State::default())
        }
    }
}

/// The file's gallery in `out/dir`, drawn unless `before` shows the same bytes there.
fn show(
    file: &ObjectFile,
    dir: &str,
    before: Option<&Drawn>,
    out: &Path,
    threads: usize,
) -> anyhow::Result<Shown> {
    let metadata =
        std::fs::metadata(&file.path).with_context(|| format!("cannot read {}", file.path.display()))?;
    let modified = metadata
        .modified()
        .ok()
        .and_then(|t| t.duration_since(UNIX_EPOCH).ok())
        .map_or(0, |d| u64::try_from(d.as_nanos()).unwrap_or(u64::MAX));
    let source = file.path.display().to_string();
    let same_place = before.filter(|b| b.card.dir == dir && out.join(dir).join(gallery::INDEX).is_file());
    if let Some(b) = same_place {
        if b.bytes == metadata.len() && b.modified == modified && b.source == source {
            return Ok(Shown::Unchanged(b.clone()));
        }
    }
    let bytes = wadforge_files::input::read(&file.path)
        .with_context(|| format!("cannot read {}", file.path.display()))?;
    let hash = format!("{:016x}", xxhash_rust::xxh3::xxh3_64(&bytes));
    if let Some(b) = same_place.filter(|b| b.hash == hash) {
        let card = b.card.clone();
        return Ok(Shown::Unchanged(Drawn {
            source,
            bytes: bytes.len() as u64,
            modified,
            hash,
            card,
        }));
    }
    let objects = crate::input::open(&file.path, &bytes)?;
    drop(bytes);
    let folder = out.join(dir);
    if let Some(b) = before {
        remove_gallery(out, &b.card.dir)?;
    }
    std::fs::create_dir_all(&folder).with_context(|| format!("cannot create {}", folder.display()))?;
    let file_name = slashed(&file.relative);
    let source_view = Source {
        wad: &objects.model,
        game: objects.game,
        skewed: &objects.skewed,
        file_name: &file_name,
        description: objects.description(),
    };
    let options = Options {
        threads,
        ..Options::default()
    };
    let written = draw_into(&source_view, &options, &folder)?;
    let card = file_card(&source_view, &file_name, dir, metadata.len(), &written);
    Ok(Shown::Drawn(Drawn {
        source,
        bytes: metadata.len(),
        modified,
        hash,
        card,
    }))
}

/// Removes the galleries of files the folder no longer holds (or holds elsewhere).
fn remove_gone(out: &Path, previous: &State, now: &State) -> anyhow::Result<()> {
    let kept: std::collections::HashSet<&str> = now.files.iter().map(|d| d.card.dir.as_str()).collect();
    for gone in previous
        .files
        .iter()
        .filter(|d| !kept.contains(d.card.dir.as_str()))
    {
        remove_gallery(out, &gone.card.dir)?;
    }
    Ok(())
}

/// Removes a file's gallery folder, which must lie in the gallery's folder of files (the state
/// file is read from disk: it names no other place).
fn remove_gallery(out: &Path, dir: &str) -> anyhow::Result<()> {
    let inside = wadforge_files::input::relative_inside(Path::new(dir))
        .filter(|d| d.starts_with(FILES_DIR) && d != Path::new(FILES_DIR));
    let Some(relative) = inside else {
        bail!(
            "{} names the folder {dir}, outside {FILES_DIR}/; remove the file and run again",
            out.join(STATE_FILE).display()
        );
    };
    let folder = out.join(relative);
    match std::fs::remove_dir_all(&folder) {
        Err(e) if e.kind() != std::io::ErrorKind::NotFound => {
            Err(e).with_context(|| format!("cannot remove the old gallery {}", folder.display()))
        }
        _ => Ok(()),
    }
}

/// A relative path with `/` between its names, as pages link and the state records.
fn slashed(path: &Path) -> String {
    path.components()
        .map(|c| c.as_os_str().to_string_lossy())
        .collect::<Vec<_>>()
        .join("/")
}
