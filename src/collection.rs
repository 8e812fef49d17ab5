//! Commands over collections of object files: the files of folders (walked, recognised by their
//! first bytes) and of paths named, each handled on its own, a damaged one reported and the run
//! going on.
//!
//! Files go in parallel on rayon's one pool, the largest first, each file's objects in order on
//! its thread ([`wadforge_files::in_parallel`] does not nest): the run holds at most one file per
//! thread, so it stays within the largest file's bound times the threads.

use std::collections::{BTreeMap, HashMap};
use std::io::Read;
use std::panic::AssertUnwindSafe;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

use anyhow::{bail, Context};

use crate::progress::Progress;

/// An object file of a collection.
#[derive(Debug, Clone)]
pub struct ObjectFile {
    /// The path to read it from.
    pub path: PathBuf,
    /// Its path inside the folder named (a file named on its own: its file name): where its
    /// outputs go in a mirrored tree, and how two folders' files are matched.
    pub relative: PathBuf,
}

/// The object files `paths` name: a file as named, a folder's files whose first bytes are a
/// kind wadforge reads (a WAD, a level, a Wad2), in path order.
pub fn object_files(paths: &[PathBuf]) -> anyhow::Result<Vec<ObjectFile>> {
    let mut files = Vec::new();
    for path in paths {
        if path.is_dir() {
            files.extend(folder_files(path)?);
        } else {
            let name = path.file_name().map(PathBuf::from);
            files.push(ObjectFile {
                path: path.clone(),
                relative: name.unwrap_or_else(|| path.clone()),
            });
        }
    }
    Ok(files)
}

/// The object files under `folder`, each with its path inside it.
pub fn folder_files(folder: &Path) -> anyhow::Result<Vec<ObjectFile>> {
    let found = wadforge_files::files_under(folder)
        .with_context(|| format!("cannot walk the folder {}", folder.display()))?;
    Ok(found
        .into_iter()
        .filter(|f| holds_objects(f))
        .map(|path| ObjectFile {
            relative: path.strip_prefix(folder).unwrap_or(&path).to_path_buf(),
            path,
        })
        .collect())
}

/// Whether the file's first bytes are a kind wadforge reads.
fn holds_objects(path: &Path) -> bool {
    let mut first = [0u8; 16];
    let Ok(mut file) = std::fs::File::open(path) else {
        return false;
    };
    let mut read = 0;
    while read < first.len() {
        match file.read(&mut first[read..]) {
            Ok(0) | Err(_) => break,
            Ok(n) => read += n,
        }
    }
    wadforge_format::kind_of(&first[..read]).is_some()
}

/// Whether `paths` ask for a collection (a folder, or several paths) rather than one file.
pub fn is_collection(paths: &[PathBuf]) -> bool {
    paths.len() != 1 || paths[0].is_dir()
}

/// Of the objects `only` names (slot names or ids), those `model` holds: over a collection,
/// `--only` picks the named objects from the files that hold them.
pub fn names_held(
    model: &wadforge_format::Wad,
    game: wadforge_format::catalog::Game,
    only: &[String],
) -> Vec<String> {
    only.iter()
        .filter(|name| wadforge_format::selection::select(model, game, std::slice::from_ref(name)).is_ok())
        .cloned()
        .collect()
}

/// What handling one file of a collection gave.
pub struct Outcome<R> {
    pub file: ObjectFile,
    /// The result, or why the file could not be handled (its whole error chain).
    pub result: Result<R, String>,
}

/// `work` applied to every file, files in parallel, with one progress bar (`verb`, e.g.
/// "checking"); the outcomes in file order. A file whose work fails, or panics, is an outcome
/// like the others: the run goes on. Fewer files than threads go one after another, each with
/// its objects in parallel.
pub fn each_file<R: Send>(
    files: Vec<ObjectFile>,
    verb: &str,
    quiet: bool,
    work: impl Fn(&ObjectFile) -> anyhow::Result<R> + Sync,
) -> Vec<Outcome<R>> {
    let progress = Progress::new(files.len() as u64, verb, quiet);
    let one = |file: &ObjectFile| {
        std::panic::catch_unwind(AssertUnwindSafe(|| work(file)))
            .unwrap_or_else(|_| {
                Err(anyhow::anyhow!(
                    "wadforge failed on this file (a bug: please report it with the file)"
                ))
            })
            .map_err(|e| format!("{e:#}"))
    };
    let results = if files.len() < rayon::current_num_threads() {
        let mut results = Vec::with_capacity(files.len());
        for (done, file) in files.iter().enumerate() {
            results.push(one(file));
            progress.set(done as u64 + 1, "");
        }
        results
    } else {
        largest_first(&files, &one, &mut |done| progress.set(done as u64, ""))
    };
    progress.finish();
    files
        .into_iter()
        .zip(results)
        .map(|(file, result)| Outcome { file, result })
        .collect()
}

/// `work` of every file on every thread of rayon's pool, the largest files first, each thread
/// taking the next file as it finishes one (so that the threads finish together: a large file
/// taken last keeps one thread busy alone); `progress(done)` on the calling thread. The results
/// in file order.
fn largest_first<R: Send>(
    files: &[ObjectFile],
    work: &(dyn Fn(&ObjectFile) -> R + Sync),
    progress: &mut dyn FnMut(usize),
) -> Vec<R> {
    let mut order: Vec<usize> = (0..files.len()).collect();
    order
        .sort_by_cached_key(|&i| std::cmp::Reverse(std::fs::metadata(&files[i].path).map_or(0, |m| m.len())));
    let next = AtomicUsize::new(0);
    let made: Vec<Mutex<Option<R>>> = files.iter().map(|_| Mutex::new(None)).collect();
    let (done_tx, done_rx) = std::sync::mpsc::channel::<()>();
    std::thread::scope(|scope| {
        let (order, next, made) = (&order, &next, &made);
        scope.spawn(move || {
            rayon::scope(|pool| {
                for _ in 0..rayon::current_num_threads() {
                    let done_tx = done_tx.clone();
                    pool.spawn(move |_| {
                        while let Some(&i) = order.get(next.fetch_add(1, Ordering::Relaxed)) {
                            let result = work(&files[i]);
                            *made[i].lock().unwrap_or_else(|e| e.into_inner()) = Some(result);
                            // The receiver lives until the scope ends: a send cannot fail before.
                            let _ = done_tx.send(());
                        }
                    });
                }
            });
            drop(done_tx);
        });
        for (done, ()) in done_rx.iter().enumerate() {
            progress(done + 1);
        }
    });
    made.into_iter()
        .filter_map(|m| m.into_inner().unwrap_or_else(|e| e.into_inner()))
        .collect()
}

/// Each file that could not be handled, with why, on standard error.
pub fn report_failures<R>(outcomes: &[Outcome<R>]) {
    for outcome in outcomes {
        if let Err(why) = &outcome.result {
            eprintln!("{}: failed: {why}", outcome.file.path.display());
        }
    }
}

/// The run's error when some file could not be handled (they were reported as they came).
pub fn failed_files<R>(outcomes: &[Outcome<R>]) -> anyhow::Result<()> {
    let failed: Vec<String> = outcomes
        .iter()
        .filter(|o| o.result.is_err())
        .map(|o| o.file.path.display().to_string())
        .collect();
    if failed.is_empty() {
        return Ok(());
    }
    bail!(
        "{} of {} files failed: {}",
        failed.len(),
        outcomes.len(),
        failed.join(", ")
    )
}

/// Where each file's output goes in a mirrored tree: its path inside its folder with the
/// extension `extension` (`None`: none, for a directory), or, when two files of a folder would
/// share that name (`croc.wad` and `croc.wad2`), their whole names with the dot made an
/// underscore (`croc_wad`, `croc_wad2`).
pub fn mirrored(files: &[ObjectFile], extension: Option<&str>) -> anyhow::Result<Vec<PathBuf>> {
    let mut seen: HashMap<&Path, &Path> = HashMap::new();
    for file in files {
        if let Some(first) = seen.insert(&file.relative, &file.path) {
            bail!(
                "{} and {} would have the same place, {}, in the output; name them in separate runs",
                first.display(),
                file.path.display(),
                file.relative.display()
            );
        }
    }
    let named = |relative: &Path, stem: &str| {
        let mut path = relative.with_file_name(stem);
        if let Some(extension) = extension {
            path.set_extension(extension);
        }
        path
    };
    let stems: Vec<PathBuf> = files
        .iter()
        .map(|f| {
            let stem = f.relative.file_stem().unwrap_or_default().to_string_lossy();
            named(&f.relative, &stem)
        })
        .collect();
    let mut uses: BTreeMap<String, usize> = BTreeMap::new();
    for stem in &stems {
        *uses.entry(stem.to_string_lossy().to_lowercase()).or_default() += 1;
    }
    Ok(files
        .iter()
        .zip(stems)
        .map(|(f, stem)| {
            if uses[&stem.to_string_lossy().to_lowercase()] > 1 {
                let whole = f.relative.file_name().unwrap_or_default().to_string_lossy();
                named(&f.relative, &whole.replace('.', "_"))
            } else {
                stem
            }
        })
        .collect())
}

/// Refuses an output folder inside one of the input folders (its files would be read by the
/// next run over them) or that is one of them.
pub fn refuse_output_inside_inputs(out: &Path, inputs: &[PathBuf]) -> anyhow::Result<()> {
    let absolute = |p: &Path| {
        std::path::absolute(p)
            .map(|a| wadforge_files::resolved(&a).unwrap_or(a))
            .unwrap_or_else(|_| p.to_path_buf())
    };
    let out_absolute = absolute(out);
    for input in inputs.iter().filter(|p| p.is_dir()) {
        if out_absolute.starts_with(absolute(input)) {
            bail!(
                "{} lies inside the input folder {}: what is written there would be read by the next run over it; \
                 choose an output folder outside it",
                out.display(),
                input.display()
            );
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn file(relative: &str) -> ObjectFile {
        ObjectFile {
            path: PathBuf::from("in").join(relative),
            relative: PathBuf::from(relative),
        }
    }

    #[test]
    fn mirrored_names_keep_the_tree_and_tell_same_stems_apart() {
        let files = [
            file("a/croc.wad"),
            file("a/CROC.wad2"),
            file("b/croc.wad"),
            file("door.phd"),
        ];
        let names: Vec<PathBuf> = mirrored(&files, Some("wad2")).unwrap();
        let expected = ["a/croc_wad.wad2", "a/CROC_wad2.wad2", "b/croc.wad2", "door.wad2"];
        assert_eq!(names, expected.iter().map(PathBuf::from).collect::<Vec<_>>());
        let dirs = mirrored(&files[2..], None).unwrap();
        let same_place = mirrored(&[file("a/croc.wad"), file("a/croc.wad")], None);
        assert!(same_place.unwrap_err().to_string().contains("the same place"));
        assert_eq!(dirs, [PathBuf::from("b/croc"), PathBuf::from("door")]);
    }

    #[test]
    fn an_output_inside_an_input_folder_is_refused() {
        let tmp = tempfile::tempdir().unwrap();
        let input = tmp.path().join("objects");
        std::fs::create_dir(&input).unwrap();
        let inside = refuse_output_inside_inputs(&input.join("out"), std::slice::from_ref(&input));
        assert!(inside
            .unwrap_err()
            .to_string()
            .contains("inside the input folder"));
        let beside = refuse_output_inside_inputs(&tmp.path().join("out"), &[input]);
        assert!(beside.is_ok());
    }
}
