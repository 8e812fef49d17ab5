//! Import and build use every core, and their output is byte for byte the same whatever the
//! number of threads: objects are made in parallel and put together in object order.

use std::collections::BTreeMap;
use std::path::Path;

use crate::common::files::{files_under, write_wad};
use crate::common::{stderr, wadforge_command};

/// Runs the CLI with rayon limited to `threads`.
fn wadforge(threads: usize, args: &[&std::ffi::OsStr]) {
    let o = wadforge_command()
        .env("RAYON_NUM_THREADS", threads.to_string())
        .args(args)
        .output()
        .unwrap();
    assert!(o.status.success(), "{threads} threads: {}", stderr(&o));
}

/// Every file under `dir`: relative path → bytes.
fn files(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    files_under(dir)
        .into_iter()
        .map(|path| {
            let name = path.strip_prefix(dir).unwrap().to_string_lossy().into_owned();
            (name, std::fs::read(&path).unwrap())
        })
        .collect()
}

#[test]
fn import_and_build_give_the_same_bytes_on_one_thread_and_on_several() {
    let tmp = tempfile::tempdir().unwrap();
    for (name, model) in [
        ("largest", wadforge_fixtures::largest()),
        ("tr4_shaped", wadforge_fixtures::tr4_shaped()),
    ] {
        let input = write_wad(&tmp.path().join(format!("{name}.wad")), &model);
        let mut outputs = Vec::new();
        for threads in [1, 2, 3] {
            let dir = tmp.path().join(format!("{name}_{threads}"));
            let built = tmp.path().join(format!("{name}_{threads}.wad"));
            wadforge(
                threads,
                &[
                    "import".as_ref(),
                    "-q".as_ref(),
                    input.as_os_str(),
                    "-o".as_ref(),
                    dir.as_os_str(),
                ],
            );
            wadforge(
                threads,
                &[
                    "build".as_ref(),
                    dir.as_os_str(),
                    "-o".as_ref(),
                    built.as_os_str(),
                ],
            );
            outputs.push((threads, files(&dir), std::fs::read(&built).unwrap()));
        }
        let (_, first_dir, first_wad) = &outputs[0];
        assert!(first_dir.len() > 100, "{name}: {} files", first_dir.len());
        for (threads, dir, built) in &outputs[1..] {
            assert_eq!(
                dir.keys().collect::<Vec<_>>(),
                first_dir.keys().collect::<Vec<_>>(),
                "{name}: the same files on {threads} threads"
            );
            for (path, bytes) in dir {
                assert!(
                    bytes == &first_dir[path],
                    "{name}: {path} differs between 1 and {threads} threads"
                );
            }
            assert!(
                built == first_wad,
                "{name}: the built WAD differs between 1 and {threads} threads"
            );
        }
    }
}
