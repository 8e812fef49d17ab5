//! The files tests write and read: fixtures as WADs, the bundled example, a directory's files.

use std::path::{Path, PathBuf};

use wadforge_format::{wad, Wad};

/// The repository's root.
pub fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The bundled example's manifest directory.
pub fn example() -> PathBuf {
    repo().join("examples/switch_and_plant")
}

/// The bundled example copied into `dir`, for a test to change; its size in bytes.
pub fn example_copy(dir: &Path) -> u64 {
    let from = example();
    let mut total = 0;
    for file in files_under(&from) {
        let to = dir.join(file.strip_prefix(&from).unwrap());
        std::fs::create_dir_all(to.parent().unwrap()).unwrap();
        total += std::fs::copy(&file, to).unwrap();
    }
    total
}

/// Every file under `dir`, in subfolders too, in path order.
pub fn files_under(dir: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    let mut pending = vec![dir.to_path_buf()];
    while let Some(folder) = pending.pop() {
        for entry in std::fs::read_dir(folder).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                pending.push(path);
            } else {
                files.push(path);
            }
        }
    }
    files.sort();
    files
}

/// The bytes of the files under `dir`.
pub fn bytes_under(dir: &Path) -> u64 {
    let files = files_under(dir);
    files.iter().map(|p| p.metadata().unwrap().len()).sum()
}

/// `model` written as the WAD `path`; the path.
pub fn write_wad(path: &Path, model: &Wad) -> PathBuf {
    std::fs::write(path, wad::write(model, None).unwrap()).unwrap();
    path.to_path_buf()
}

/// The standard fixture written as `standard.wad` in `dir`; its path.
pub fn standard_wad(dir: &Path) -> PathBuf {
    write_wad(&dir.join("standard.wad"), &wadforge_fixtures::standard())
}

/// The WAD at `path`, read.
pub fn read(path: &Path) -> Wad {
    wad::read(&std::fs::read(path).unwrap()).unwrap().0
}

/// The objects of the WAD, Wad2 or level at `path`, read.
pub fn read_objects(path: &Path) -> Wad {
    wadforge_format::open(&std::fs::read(path).unwrap())
        .unwrap()
        .model
}

/// The Python Wad2 reader's summary of `path` (`tests/clients/wad2_summary.py`, written apart from
/// the Rust codec), when python3 runs.
pub fn python_wad2_summary(path: &Path) -> Option<serde_json::Value> {
    let script = repo().join("tests/clients/wad2_summary.py");
    let output = std::process::Command::new("python3")
        .arg(script)
        .arg(path)
        .output()
        .ok()?;
    assert!(
        output.status.success(),
        "{}: {}",
        path.display(),
        String::from_utf8_lossy(&output.stderr)
    );
    Some(serde_json::from_slice(&output.stdout).unwrap())
}

/// The standard fixture as a Tomb Editor Wad2 with one more texture, `side` × `side` texels of a
/// pattern no two near texels share (as Wad2 packs come: textures far larger than a TR page);
/// the document and that texture's index.
pub fn standard_wad2_with_big_texture(side: u32) -> (wadforge_format::wad2::Document, i64) {
    use wadforge_format::wad2::document::{Image, Texture};
    let model = wadforge_fixtures::standard();
    let skewed = wadforge_format::skewed::SkewedCorners::new();
    let game = wadforge_format::catalog::Game::Tr4;
    let mut document = wadforge_format::wad2::from_model(&model, &skewed, game)
        .unwrap()
        .document;
    let bgra: Vec<u8> = (0..side * side)
        .flat_map(|i| [(i % 251) as u8, (i / 7 % 253) as u8, (i / side) as u8, 255])
        .collect();
    document.textures.push(Texture {
        image: Some(Image {
            width: side,
            height: side,
            bgra,
        }),
        width: i64::from(side),
        height: i64::from(side),
        ..Texture::default()
    });
    let big = document.textures.len() as i64 - 1;
    (document, big)
}
