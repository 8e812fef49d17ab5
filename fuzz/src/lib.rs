//! What the fuzz targets share: the TR4 wrapping of level data, and `wadforge build`'s reading of
//! a manifest directory (load, build, write) on a scratch directory of this process.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use wadforge_format::wad;

pub mod heap;

#[global_allocator]
static ALLOCATOR: heap::CountingAllocator = heap::CountingAllocator;

pub use heap::within_allowance;

/// Targets and the directory (under the seeds root) each one's seeds go to.
pub const TARGETS: [&str; 15] = [
    "wad",
    "wad2_container",
    "wad2_objects",
    "import",
    "level_tr1",
    "level_tr2",
    "level_tr3",
    "level_tr4",
    "level_tr5",
    "tr4_level_data",
    "manifest_dir",
    "glb",
    "texture",
    "sounds_sfx",
    "sounds_xml",
];

/// Separates the files of a `manifest_dir` input, in the order of [`MANIFEST_FILES`].
pub const FILE_SEPARATOR: &[u8] = b"\n#--wadforge-fuzz-file--\n";

/// The `.sfx` bytes and the `.sam` text of a `sounds_sfx` input: what comes before the first
/// [`FILE_SEPARATOR`], and all after it (the whole input is the `.sfx`, with an empty `.sam`,
/// when it has none).
pub fn sound_files(data: &[u8]) -> (&[u8], &[u8]) {
    let mut files = manifest_files(data);
    let sfx = files.next().unwrap_or_default();
    (
        sfx,
        data.get(sfx.len() + FILE_SEPARATOR.len()..).unwrap_or_default(),
    )
}

/// The standard fixture on one page (every sample moved to it): the reader's paths without
/// megabytes of texels, and the object file the sound files of the replay lie beside.
pub fn standard_one_page() -> wadforge_format::Wad {
    let mut small = wadforge_fixtures::standard();
    small.pages.truncate(1);
    for s in &mut small.samples {
        s.page = 0;
    }
    small
}

/// The files of the bundled example, in a `manifest_dir` input's order.
pub const MANIFEST_FILES: [&str; 5] = [
    "wadforge.yaml",
    "moveables/306_SWITCH_TYPE1.yaml",
    "moveables/306_SWITCH_TYPE1.glb",
    "statics/000_PLANT0.yaml",
    "statics/000_PLANT0.glb",
];

/// The files of a `manifest_dir` input, in the order of [`MANIFEST_FILES`] (fewer when it has
/// fewer separators).
pub fn manifest_files(data: &[u8]) -> impl Iterator<Item = &[u8]> {
    let mut rest = Some(data);
    std::iter::from_fn(move || {
        let r = rest?;
        match r.windows(FILE_SEPARATOR.len()).position(|w| w == FILE_SEPARATOR) {
            Some(i) => {
                rest = Some(&r[i + FILE_SEPARATOR.len()..]);
                Some(&r[..i])
            }
            None => {
                rest = None;
                Some(r)
            }
        }
    })
}

/// The bundled example manifest directory (`examples/switch_and_plant`).
pub fn example() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples/switch_and_plant")
}

const SCRATCH_PREFIX: &str = "wadforge-fuzz-";

/// A directory of this process for a target to write an input into, made once. libFuzzer ends a
/// process without running destructors, so the directories of processes gone are removed here.
pub fn scratch(name: &str) -> PathBuf {
    remove_scratch_of_processes_gone();
    let dir = std::env::temp_dir().join(format!("{SCRATCH_PREFIX}{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a scratch directory");
    dir
}

fn remove_scratch_of_processes_gone() {
    let Ok(entries) = std::fs::read_dir(std::env::temp_dir()) else {
        return;
    };
    for entry in entries.flatten() {
        let name = entry.file_name();
        let Some(rest) = name.to_str().and_then(|n| n.strip_prefix(SCRATCH_PREFIX)) else {
            continue;
        };
        let Some(Ok(pid)) = rest.split('-').next().map(str::parse::<u32>) else {
            continue;
        };
        // Only Linux says here whether a process lives; elsewhere everything is kept.
        if Path::new("/proc/self").exists() && !Path::new(&format!("/proc/{pid}")).exists() {
            let _ = std::fs::remove_dir_all(entry.path());
        }
    }
}

/// Copies the bundled example's moveable into `dir`, alone: its top-level YAML lists only the
/// moveable, so each execution builds the input and nothing else.
pub fn copy_example_moveable(dir: &Path) {
    let [top, yaml, glb, ..] = MANIFEST_FILES;
    let listing = std::fs::read_to_string(example().join(top)).unwrap();
    let listing: String = listing
        .lines()
        .map(|line| match line.starts_with("objects:") {
            true => format!("objects: [{yaml}]\n"),
            false => format!("{line}\n"),
        })
        .collect();
    std::fs::write(dir.join(top), listing).unwrap();
    for file in [yaml, glb] {
        let to = dir.join(file);
        std::fs::create_dir_all(to.parent().unwrap()).unwrap();
        std::fs::copy(example().join(file), to).unwrap();
    }
}

/// What `wadforge build DIR -o OUT.wad` does with the directory, short of writing the file, within
/// the heap allowance of an input of `input_len` bytes. On one thread: the same input takes the
/// same path, and no time goes to waking workers.
pub fn build(dir: &Path, input_len: usize) {
    static ONE_THREAD: std::sync::Once = std::sync::Once::new();
    ONE_THREAD.call_once(|| {
        let _ = rayon::ThreadPoolBuilder::new().num_threads(1).build_global();
    });
    within_allowance(input_len, || {
        let Ok(manifests) = wadforge_manifests::load(dir) else {
            return;
        };
        if let Ok(built) = wadforge_exporter::build(&manifests, None, &mut |_, _, _| {}) {
            let _ = wad::write(&built.wad, None);
        }
    });
}

fn zlib(bytes: &[u8]) -> Vec<u8> {
    let mut z = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::fast());
    z.write_all(bytes).unwrap();
    z.finish().unwrap()
}

fn chunk(out: &mut Vec<u8>, data: &[u8]) {
    let compressed = zlib(data);
    out.extend_from_slice(&(data.len() as u32).to_le_bytes());
    out.extend_from_slice(&(compressed.len() as u32).to_le_bytes());
    out.extend_from_slice(&compressed);
}

/// A TR4 level around `level_data`: two 32-bit object textiles of grey (the fixture's level data
/// names both), empty 16-bit and misc chunks, the level data compressed, no sound samples.
pub fn tr4_file(level_data: &[u8]) -> Vec<u8> {
    static HEAD: OnceLock<Vec<u8>> = OnceLock::new();
    let head = HEAD.get_or_init(|| {
        let mut f = b"TR4\0".to_vec();
        for count in [0u16, 2, 0] {
            f.extend_from_slice(&count.to_le_bytes());
        }
        chunk(&mut f, &[0x80; 2 * 256 * 256 * 4]);
        chunk(&mut f, &[]);
        chunk(&mut f, &[]);
        f
    });
    let mut f = head.clone();
    chunk(&mut f, level_data);
    f.extend_from_slice(&0u32.to_le_bytes());
    f
}

/// The inflated level data of a TR4 file made by the fixtures (the fourth chunk).
pub fn tr4_level_data_of(file: &[u8]) -> Vec<u8> {
    wadforge_fixtures::levels::tr4_level_data(file).1
}

/// Sets the version word of a level input to `version` (inputs shorter than it stay as they are).
pub fn with_version(data: &[u8], version: u32) -> Vec<u8> {
    let mut bytes = data.to_vec();
    if bytes.len() >= 4 {
        bytes[..4].copy_from_slice(&version.to_le_bytes());
    }
    bytes
}

/// Imports the standard fixture's PLANT0 into `dir` as `.gltf` + `.bin` + `.png`; returns the
/// directory and the PNG's path.
pub fn texture_directory(dir: &Path) -> (PathBuf, PathBuf) {
    use wadforge_files::write_directory;
    use wadforge_importer::{import, GltfFormat, ImportOptions};
    let mut options = ImportOptions::wad("standard.wad", 129);
    options.format = GltfFormat::Separate;
    options.only = Some(vec!["PLANT0".into()]);
    let files = import(&wadforge_fixtures::standard(), &options, &mut |_, _, _| {}).unwrap();
    write_directory(&files, dir).unwrap();
    let png = files
        .iter()
        .find(|f| f.path.ends_with(".png"))
        .expect("an imported static has a texture");
    (dir.to_path_buf(), dir.join(&png.path))
}

/// The PNG of [`texture_directory`], for seeding.
pub fn texture_seed() -> Vec<u8> {
    let (_, png) = texture_directory(&scratch("texture-seed"));
    std::fs::read(png).unwrap()
}
