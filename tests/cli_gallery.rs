//! `wadforge gallery` end to end: the page and its pictures, what it refuses, and the page in a
//! real browser (headless Chromium, installed by `tests/harness/setup.sh`; skipped with a
//! message where it is absent).

use std::path::{Path, PathBuf};

use wadforge_format::catalog::{self, Game};

use crate::common::browser::{chromium, run_chromium, CHROMIUM_ABSENT};
use crate::common::files::standard_wad;
use crate::common::{s, stderr, stdout, wadforge};

/// The standard fixture's gallery in `dir/gallery`.
fn standard_gallery(dir: &Path) -> PathBuf {
    let input = standard_wad(dir);
    let out = dir.join("gallery");
    let o = wadforge(&["gallery", "-q", s(&input), "-o", s(&out)]);
    assert!(o.status.success(), "{}", stderr(&o));
    out
}

/// The `src` of every `<img>` of the page.
fn image_sources(html: &str) -> Vec<String> {
    html.split("<img src=\"")
        .skip(1)
        .map(|rest| rest[..rest.find('"').unwrap()].to_string())
        .collect()
}

#[test]
fn the_page_shows_every_object_animation_and_page() {
    let tmp = tempfile::tempdir().unwrap();
    let out = standard_gallery(tmp.path());
    let model = wadforge_fixtures::standard();
    let html = std::fs::read_to_string(out.join("index.html")).unwrap();
    let sources = image_sources(&html);
    for src in &sources {
        let bytes = std::fs::read(out.join(src)).unwrap_or_else(|e| panic!("{src}: {e}"));
        assert_eq!(&bytes[1..4], b"PNG", "{src}");
    }
    let mut expected: Vec<String> = Vec::new();
    for m in &model.moveables {
        let stem = format!("{:03}_{}", m.id, catalog::moveable_slot(Game::Tr4, m.id));
        expected.push(format!("moveables/{stem}.png"));
        for (a, animation) in m.animations.iter().enumerate() {
            if !animation.keyframes.is_empty() {
                expected.push(format!("animations/{stem}/{a:03}.png"));
            }
        }
        let meshes = match m.meshes.len() {
            1 => "1 mesh".to_string(),
            n => format!("{n} meshes"),
        };
        assert!(html.contains(&format!("moveable {} · {meshes}", m.id)));
    }
    for s in &model.statics {
        expected.push(format!(
            "statics/{:03}_{}.png",
            s.id,
            catalog::static_slot(Game::Tr4, s.id)
        ));
    }
    for p in 0..model.pages.len() {
        expected.push(format!("pages/page_{p:03}.png"));
    }
    let (mut got, mut want) = (sources.clone(), expected);
    got.sort();
    want.sort();
    assert_eq!(
        got, want,
        "one picture per object, animation with keyframes and page"
    );
    assert!(
        html.contains("Shown dressed in LARA_SKIN (8) and LARA_SKIN_JOINTS (9)"),
        "Lara is shown dressed"
    );
    assert!(
        html.contains("state 2 STOP"),
        "animations are listed with their state names"
    );
}

#[test]
fn a_non_empty_directory_needs_force() {
    let tmp = tempfile::tempdir().unwrap();
    let out = standard_gallery(tmp.path());
    let input = tmp.path().join("standard.wad");
    let o = wadforge(&["gallery", "-q", s(&input), "-o", s(&out)]);
    assert!(!o.status.success());
    assert!(stderr(&o).contains("--force"), "{}", stderr(&o));
    let o = wadforge(&["gallery", "-q", "--force", s(&input), "-o", s(&out)]);
    assert!(o.status.success(), "{}", stderr(&o));
}

#[test]
fn a_level_has_a_gallery_too() {
    let tmp = tempfile::tempdir().unwrap();
    let input = tmp.path().join("level.tr4");
    std::fs::write(&input, wadforge_fixtures::levels::tr4_level()).unwrap();
    let out = tmp.path().join("gallery");
    let o = wadforge(&["gallery", "-q", s(&input), "-o", s(&out)]);
    assert!(o.status.success(), "{}", stderr(&o));
    let html = std::fs::read_to_string(out.join("index.html")).unwrap();
    assert!(html.contains("TR4 level"));
    assert!(!image_sources(&html).is_empty());
}

#[test]
fn the_page_loads_every_image_in_headless_chromium() {
    let Some(chromium) = chromium() else {
        eprintln!("{CHROMIUM_ABSENT}");
        return;
    };
    let tmp = tempfile::tempdir().unwrap();
    let out = standard_gallery(tmp.path());
    let page = out.join("index.html");
    let html = std::fs::read_to_string(&page).unwrap();
    let images = image_sources(&html).len();

    let dom = run_chromium(
        &chromium,
        &tmp.path().join("profile-dom"),
        &page,
        &["--dump-dom".into()],
    );
    let dumped = stdout(&dom);
    let log = stderr(&dom);
    assert!(dom.status.success(), "chromium failed: {log}");
    assert!(
        dumped.contains(&format!("data-image-count=\"{images}\"")),
        "the page's script saw every image ({images}); DOM starts: {}",
        &dumped[..dumped.len().min(400)]
    );
    assert!(
        dumped.contains("data-images=\"loaded\""),
        "every image loaded; broken: {:?}",
        dumped
            .split("data-broken=\"")
            .nth(1)
            .map(|r| &r[..r.find('"').unwrap_or(0)])
    );
    // The page logs nothing: any console message (an error, an uncaught exception) is a fault.
    let console: Vec<&str> = log.lines().filter(|l| l.contains(":CONSOLE")).collect();
    assert!(console.is_empty(), "console messages: {console:#?}");

    let shot = tmp.path().join("screenshot.png");
    let o = run_chromium(
        &chromium,
        &tmp.path().join("profile-shot"),
        &page,
        &[
            format!("--screenshot={}", shot.display()),
            "--window-size=1280,1600".into(),
        ],
    );
    assert!(o.status.success(), "chromium failed: {}", stderr(&o));
    let png = std::fs::read(&shot).expect("a screenshot was written");
    assert_eq!(&png[1..4], b"PNG");
    // IHDR: width and height, big-endian, at bytes 16..24.
    let size = |at: usize| u32::from_be_bytes([png[at], png[at + 1], png[at + 2], png[at + 3]]);
    assert_eq!((size(16), size(20)), (1280, 1600));
    if let Some(keep) = std::env::var_os("WADFORGE_KEEP_SCREENSHOT") {
        std::fs::copy(&shot, keep).unwrap();
    }
}
