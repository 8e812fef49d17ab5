//! The gallery's `index.html`: plain HTML and CSS, one small script that records on the root
//! element whether every image loaded (`data-images="loaded"` or `"broken"`, with the broken
//! ones in `data-broken`), which the browser test reads.

use std::collections::HashSet;
use std::fmt::Write;

use wadforge_model::catalog;

use super::{page_path, MoveableCard, Source};

pub(crate) fn page(
    source: &Source,
    cards: &[MoveableCard],
    static_pictures: &[String],
    written: &HashSet<&str>,
) -> String {
    let wad = source.wad;
    let game = source.game;
    let title = escape(source.file_name);
    let mut h = String::new();
    let _ = write!(
        h,
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <title>{title} · wadforge gallery</title>\n<style>{STYLE}</style>\n</head>\n<body>\n\
         <header><h1>{title}</h1><p>{} ({}) · {} moveables · {} statics · {} meshes · {} polygons · {} texture pages · {} samples</p>\n\
         <nav><a href=\"#moveables\">Moveables</a> <a href=\"#statics\">Statics</a> <a href=\"#pages\">Texture pages</a></nav></header>\n",
        escape(source.description),
        game.name(),
        wad.moveables.len(),
        wad.statics.len(),
        wad.meshes.len(),
        wad.polygon_count(),
        wad.pages.len(),
        wad.samples.len(),
    );

    h.push_str("<section id=\"moveables\"><h2>Moveables</h2>\n<div class=\"cards\">\n");
    for card in cards {
        moveable_card(&mut h, source, card, written);
    }
    h.push_str("</div></section>\n");

    h.push_str("<section id=\"statics\"><h2>Statics</h2>\n<div class=\"cards\">\n");
    for (s, picture) in wad.statics.iter().zip(static_pictures) {
        let slot = catalog::static_slot(game, s.id);
        let polygons = counted(
            wad.meshes.get(s.mesh).map_or(0, |m| m.polygons.len()),
            "polygon",
            "polygons",
        );
        let _ = write!(
            h,
            "<article class=\"card\" id=\"static-{id}\">\n{img}\n<h3>{slot}</h3>\n\
             <p class=\"facts\">static {id} · 1 mesh · {polygons}</p>\n</article>\n",
            id = s.id,
            img = image(picture, &slot, written),
            slot = escape(&slot),
        );
    }
    h.push_str("</div></section>\n");

    h.push_str(
        "<section id=\"pages\"><h2>Texture pages</h2>\n<p>Each sample outlined in green.</p>\n<div class=\"pages\">\n",
    );
    for p in 0..wad.pages.len() {
        let samples = wad.samples.iter().filter(|s| s.page as usize == p).count();
        let _ = writeln!(
            h,
            "<figure>{}<figcaption>page {p} · {samples} samples</figcaption></figure>",
            image(&page_path(p), &format!("texture page {p}"), written)
        );
    }
    h.push_str("</div></section>\n");
    h.push_str(IMAGES_SCRIPT);
    h.push_str("</body>\n</html>\n");
    h
}

fn moveable_card(h: &mut String, source: &Source, card: &MoveableCard, written: &HashSet<&str>) {
    let wad = source.wad;
    let m = card.moveable;
    let polygons: usize = card
        .figure
        .meshes()
        .filter_map(|k| wad.meshes.get(k))
        .map(|mesh| mesh.polygons.len())
        .sum();
    let keyframes: usize = m.animations.iter().map(|a| a.keyframes.len()).sum();
    let _ = write!(
        h,
        "<article class=\"card\" id=\"moveable-{id}\">\n{img}\n<h3>{slot}</h3>\n\
         <p class=\"facts\">moveable {id} · {meshes} · {polygons} · {animations} · {keyframes}</p>\n",
        id = m.id,
        img = image(&card.picture, &card.slot, written),
        slot = escape(&card.slot),
        meshes = counted(m.meshes.len(), "mesh", "meshes"),
        polygons = counted(polygons, "polygon", "polygons"),
        animations = counted(m.animations.len(), "animation", "animations"),
        keyframes = counted(keyframes, "keyframe", "keyframes"),
    );
    if let Some(d) = card.dressing {
        let name = |i: usize| {
            let other = &wad.moveables[i];
            format!("{} ({})", catalog::moveable_slot(source.game, other.id), other.id)
        };
        let joints = d.joints.map(|j| format!(" and {}", name(j))).unwrap_or_default();
        let _ = writeln!(
            h,
            "<p class=\"note\">Shown dressed in {}{}, as the game and <code>import</code> show it.</p>",
            escape(&name(d.body)),
            escape(&joints)
        );
    }
    if m.animations.iter().all(|a| a.keyframes.is_empty()) {
        h.push_str("<p class=\"note\">No keyframes: shown with its meshes at their link offsets.</p>\n");
    }
    if !m.animations.is_empty() {
        let _ = write!(
            h,
            "<details><summary>{}</summary>\n<div class=\"animations\">\n",
            counted(m.animations.len(), "animation", "animations")
        );
        for (a, (animation, picture)) in m.animations.iter().zip(&card.animations).enumerate() {
            let name = catalog::animation_name(source.game, m.id, a)
                .map(|n| format!(" {}", escape(n)))
                .unwrap_or_default();
            let state = match catalog::state_name(source.game, m.id, animation.state) {
                Some(s) => format!("state {} {}", animation.state, escape(s)),
                None => format!("state {}", animation.state),
            };
            let timing = format!(
                "{} keyframes × {} ticks",
                animation.keyframes.len(),
                animation.frame_duration
            );
            let sounds = sounds_line(source, animation);
            let shown = match picture {
                Some(p) => image(p, &format!("{} animation {a}", card.slot), written),
                None => "<div class=\"empty\">no keyframes</div>".to_string(),
            };
            let _ = writeln!(
                h,
                "<figure>{shown}<figcaption><b>{a:03}{name}</b><br>{state}<br>{timing}{sounds}</figcaption></figure>"
            );
        }
        h.push_str("</div></details>\n");
    }
    h.push_str("</article>\n");
}

/// The sounds `animation` plays, by the catalogue's names (an id where it names none), each once
/// in the order first played, as a caption line (`<br>sounds: LARA_FEET, 71`); empty for none.
fn sounds_line(source: &Source, animation: &wadforge_model::Animation) -> String {
    let mut names: Vec<String> = Vec::new();
    for command in &animation.commands {
        if let wadforge_model::Command::PlaySound { sound, .. } = *command {
            let name =
                catalog::sound_name(source.game, u32::from(sound)).map_or_else(|| sound.to_string(), escape);
            if !names.contains(&name) {
                names.push(name);
            }
        }
    }
    if names.is_empty() {
        return String::new();
    }
    format!("<br>sounds: {}", names.join(", "))
}

/// An `<img>` of a written picture, or a note where none was written.
fn image(path: &str, alt: &str, written: &HashSet<&str>) -> String {
    if written.contains(path) {
        format!("<img src=\"{}\" alt=\"{}\">", escape(path), escape(alt))
    } else {
        "<div class=\"empty\">no picture</div>".to_string()
    }
}

pub(super) fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

pub(super) const STYLE: &str = "\
body{margin:0;font:14px/1.4 system-ui,sans-serif;background:#1d1f21;color:#ddd}\
header{padding:12px 20px;background:#111}h1{margin:0 0 4px;font-size:20px}\
nav a{color:#8cf;margin-right:12px}section{padding:8px 20px}h2{font-size:17px}\
.cards{display:flex;flex-wrap:wrap;gap:12px}\
.card{background:#2a2d30;border-radius:6px;padding:8px;width:300px}\
.card>img{display:block;margin:0 auto;background:#3a3e42;border-radius:4px}\
h3{margin:6px 0 2px;font-size:15px}.facts,.note{margin:2px 0;color:#aaa;font-size:12px}\
details summary{cursor:pointer;margin-top:6px}\
.animations{display:flex;flex-wrap:wrap;gap:6px;margin-top:6px}\
figure{margin:0;font-size:11px;color:#bbb}figure img{background:#3a3e42;border-radius:3px;display:block}\
.animations figure{width:128px}.pages{display:flex;flex-wrap:wrap;gap:12px}\
.empty{width:128px;height:128px;display:flex;align-items:center;justify-content:center;background:#333;color:#777}";

pub(super) const IMAGES_SCRIPT: &str = r#"<script>
(function () {
  var images = Array.prototype.slice.call(document.images);
  var pending = images.length, broken = [], root = document.documentElement;
  root.dataset.imageCount = String(images.length);
  function finish() {
    root.dataset.broken = broken.join(" ");
    root.dataset.images = broken.length ? "broken" : "loaded";
  }
  function settle(img, ok) {
    if (img.dataset.settled) return;
    img.dataset.settled = ok ? "loaded" : "broken";
    if (!ok) broken.push(img.getAttribute("src"));
    if (--pending === 0) finish();
  }
  if (pending === 0) finish();
  images.forEach(function (img) {
    if (img.complete) { settle(img, img.naturalWidth > 0); return; }
    img.addEventListener("load", function () { settle(img, img.naturalWidth > 0); });
    img.addEventListener("error", function () { settle(img, false); });
  });
})();
</script>
"#;

/// `1 animation`, `2 animations`.
pub(super) fn counted(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}
