//! The index page of a gallery of many files (`wadforge gallery FOLDER`): a card per file (a
//! few of its objects' pictures, its format and game, its counts, a link to its own page), and
//! every object of every file in one list, with a filter box over slot names, files and kinds.
//! Plain HTML and one script: it works from disk, without a server. The filter can also come
//! from the address (`index.html#filter=WOLF`), which the browser test uses.
//!
//! A [`FileCard`] is all the page needs of a file, so a gallery run again over the same folder
//! keeps the cards of unchanged files and reads only the changed ones.

use std::collections::HashSet;
use std::fmt::Write;

use serde::{Deserialize, Serialize};
use wadforge_model::catalog;

use super::html::{counted, escape, IMAGES_SCRIPT, STYLE};
use super::{moveable_pictures, static_pictures, Source, WrittenFile};

/// Pictures a file's card shows.
pub const CARD_PICTURES: usize = 4;

/// What the index page shows of one file.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct FileCard {
    /// The file's path inside the folder walked.
    pub file: String,
    /// Its gallery's folder, relative to the index page, with `/` between names.
    pub dir: String,
    /// What the file is, e.g. `TRLE WAD`.
    pub format: String,
    /// The game whose slots name its objects.
    pub game: String,
    pub bytes: u64,
    pub animations: usize,
    pub pages: usize,
    /// Pictures of its largest objects (paths inside its gallery).
    pub pictures: Vec<String>,
    pub objects: Vec<ObjectEntry>,
}

/// One object of a file, as the list shows it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ObjectEntry {
    /// `moveable` or `static`.
    pub kind: String,
    pub id: u32,
    pub slot: String,
}

/// A file that could not be shown, and why.
#[derive(Debug, Clone)]
pub struct Unreadable {
    pub file: String,
    pub why: String,
}

/// The card of the file `source` shows, whose gallery (`written`: the files written of it) is
/// in the folder `dir`.
pub fn file_card(source: &Source, file: &str, dir: &str, bytes: u64, written: &[WrittenFile]) -> FileCard {
    let wad = source.wad;
    let written: HashSet<&str> = written.iter().map(|w| w.path.as_str()).collect();
    // Each object's meshes, and its picture.
    let pictured: Vec<(Vec<usize>, String)> = wad
        .moveables
        .iter()
        .map(|m| m.meshes.clone())
        .zip(moveable_pictures(source))
        .chain(
            wad.statics
                .iter()
                .map(|s| vec![s.mesh])
                .zip(static_pictures(source)),
        )
        .filter(|(_, picture)| written.contains(picture.as_str()))
        .collect();
    let pictures = card_pictures(wad, pictured);
    let objects = wad
        .moveables
        .iter()
        .map(|m| ObjectEntry {
            kind: "moveable".into(),
            id: m.id,
            slot: catalog::moveable_slot(source.game, m.id),
        })
        .chain(wad.statics.iter().map(|s| ObjectEntry {
            kind: "static".into(),
            id: s.id,
            slot: catalog::static_slot(source.game, s.id),
        }))
        .collect();
    FileCard {
        file: file.to_string(),
        dir: dir.to_string(),
        format: source.description.to_string(),
        game: source.game.name().to_string(),
        bytes,
        animations: wad.moveables.iter().map(|m| m.animations.len()).sum(),
        pages: wad.pages.len(),
        pictures,
        objects,
    }
}

/// The pictures of a file's largest objects (by polygons), leaving out an object that mostly
/// wears meshes of one already chosen (TR1's weapon animations are Lara again), in file order
/// among equals.
fn card_pictures(wad: &wadforge_model::Wad, mut objects: Vec<(Vec<usize>, String)>) -> Vec<String> {
    let polygons = |meshes: &[usize]| -> usize {
        meshes
            .iter()
            .filter_map(|&m| wad.meshes.get(m))
            .map(|m| m.polygons.len())
            .sum()
    };
    objects.retain(|(meshes, _)| polygons(meshes) > 0);
    objects.sort_by_cached_key(|(meshes, _)| std::cmp::Reverse(polygons(meshes)));
    let mut worn: HashSet<usize> = HashSet::new();
    let mut chosen = Vec::new();
    for (meshes, picture) in objects {
        let shared = meshes.iter().filter(|m| worn.contains(m)).count();
        if shared * 2 > meshes.len() {
            continue;
        }
        worn.extend(meshes);
        chosen.push(picture);
        if chosen.len() == CARD_PICTURES {
            break;
        }
    }
    chosen
}

/// The index page of `cards` (in the order given) and of the files that could not be shown.
pub fn collection_page(cards: &[FileCard], unreadable: &[Unreadable]) -> String {
    let objects: usize = cards.iter().map(|c| c.objects.len()).sum();
    let mut h = String::new();
    let _ = write!(
        h,
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <title>{files} files · wadforge gallery</title>\n<style>{STYLE}{COLLECTION_STYLE}</style>\n</head>\n<body>\n\
         <header><h1>{files} files, {objects} objects</h1>\n\
         <p><input id=\"filter\" type=\"search\" placeholder=\"Filter by slot name, file or kind\" autofocus> \
         <span id=\"shown\"></span></p>\n\
         <nav><a href=\"#files\">Files</a> <a href=\"#objects\">Objects</a>{unreadable_link}</nav></header>\n",
        files = cards.len() + unreadable.len(),
        unreadable_link = if unreadable.is_empty() {
            ""
        } else {
            " <a href=\"#unreadable\">Could not be read</a>"
        },
    );
    h.push_str("<section id=\"files\"><h2>Files</h2>\n<div class=\"cards\">\n");
    for (index, card) in cards.iter().enumerate() {
        file_card_html(&mut h, index, card);
    }
    h.push_str("</div></section>\n");
    h.push_str(
        "<section id=\"objects\"><h2>Objects</h2>\n<table>\n<thead><tr><th>slot</th><th>kind</th><th>file</th></tr></thead>\n<tbody>\n",
    );
    for (index, card) in cards.iter().enumerate() {
        for object in &card.objects {
            let _ = writeln!(
                h,
                "<tr data-card=\"{index}\" data-text=\"{text}\"><td><a href=\"{dir}/index.html#{kind}-{id}\">{slot}</a></td>\
                 <td>{kind} {id}</td><td>{file}</td></tr>",
                text = escape(&format!("{} {} {}", object.slot, object.kind, card.file).to_lowercase()),
                dir = escape(&card.dir),
                kind = object.kind,
                id = object.id,
                slot = escape(&object.slot),
                file = escape(&card.file),
            );
        }
    }
    h.push_str("</tbody>\n</table></section>\n");
    if !unreadable.is_empty() {
        h.push_str("<section id=\"unreadable\"><h2>Could not be read</h2>\n<ul>\n");
        for u in unreadable {
            let _ = writeln!(h, "<li><b>{}</b>: {}</li>", escape(&u.file), escape(&u.why));
        }
        h.push_str("</ul></section>\n");
    }
    h.push_str(IMAGES_SCRIPT);
    h.push_str(FILTER_SCRIPT);
    h.push_str("</body>\n</html>\n");
    h
}

fn file_card_html(h: &mut String, index: usize, card: &FileCard) {
    let moveables = card.objects.iter().filter(|o| o.kind == "moveable").count();
    let dir = escape(&card.dir);
    let _ = write!(
        h,
        "<article class=\"card file\" data-card=\"{index}\" data-text=\"{text}\">\n<a class=\"thumbs\" href=\"{dir}/index.html\">",
        text = escape(&format!("{} {} {}", card.file, card.format, card.game).to_lowercase()),
    );
    for picture in &card.pictures {
        let _ = write!(h, "<img src=\"{dir}/{}\" alt=\"\">", escape(picture));
    }
    if card.pictures.is_empty() {
        h.push_str("<div class=\"empty\">no picture</div>");
    }
    let _ = write!(
        h,
        "</a>\n<h3><a href=\"{dir}/index.html\">{file}</a></h3>\n\
         <p class=\"facts\">{format}{game} · {moveables} · {statics} · {animations} · {pages} · {mb:.2} MB</p>\n</article>\n",
        file = escape(&card.file),
        format = escape(&card.format),
        // "TR1 level" says its game; "TRLE WAD" and "Tomb Editor Wad2" do not.
        game = if card.format.starts_with(&card.game) {
            String::new()
        } else {
            format!(" ({})", escape(&card.game))
        },
        moveables = counted(moveables, "moveable", "moveables"),
        statics = counted(card.objects.len() - moveables, "static", "statics"),
        animations = counted(card.animations, "animation", "animations"),
        pages = counted(card.pages, "texture page", "texture pages"),
        mb = card.bytes as f64 / 1e6,
    );
}

const COLLECTION_STYLE: &str = "\
#filter{width:min(420px,90vw);padding:5px 8px;font:inherit}#shown{color:#aaa;margin-left:8px}\
.file{width:276px}.thumbs{display:grid;grid-template-columns:repeat(2,128px);gap:4px;justify-content:center}\
.thumbs img{width:128px;height:128px;background:#3a3e42;border-radius:4px}h3 a{color:#ddd}\
table{border-collapse:collapse}td,th{padding:2px 12px 2px 0;text-align:left}td a{color:#8cf}";

/// The filter: a card stays when its file, format or game, or one of its objects, holds every
/// word typed; an object row when its slot, kind and file do. The counts of what stays go on
/// the root element too, for the browser test.
const FILTER_SCRIPT: &str = r#"<script>
(function () {
  var box = document.getElementById("filter"), shown = document.getElementById("shown");
  var cards = Array.prototype.slice.call(document.querySelectorAll("article.file"));
  var rows = Array.prototype.slice.call(document.querySelectorAll("tr[data-card]"));
  function apply() {
    var words = box.value.toLowerCase().split(/\s+/).filter(Boolean);
    function holds(text) { return words.every(function (w) { return text.indexOf(w) >= 0; }); }
    var keep = {}, rowsShown = 0, cardsShown = 0;
    rows.forEach(function (row) {
      var ok = holds(row.dataset.text);
      row.hidden = !ok;
      if (ok) { rowsShown++; keep[row.dataset.card] = true; }
    });
    cards.forEach(function (card) {
      var ok = keep[card.dataset.card] || holds(card.dataset.text);
      card.hidden = !ok;
      if (ok) cardsShown++;
    });
    shown.textContent = cardsShown + " of " + cards.length + " files, " + rowsShown + " of " + rows.length + " objects";
    document.documentElement.dataset.shownCards = String(cardsShown);
    document.documentElement.dataset.shownObjects = String(rowsShown);
  }
  var asked = /^#filter=(.*)$/.exec(location.hash);
  if (asked) box.value = decodeURIComponent(asked[1]);
  box.addEventListener("input", apply);
  apply();
})();
</script>
"#;

#[cfg(test)]
mod tests {
    use super::*;

    fn card(file: &str, slots: &[&str]) -> FileCard {
        FileCard {
            file: file.into(),
            dir: format!("files/{file}"),
            format: "TRLE WAD".into(),
            game: "TR4".into(),
            bytes: 1000,
            animations: 2,
            pages: 1,
            pictures: vec!["moveables/001_X.png".into()],
            objects: slots
                .iter()
                .map(|s| ObjectEntry {
                    kind: "moveable".into(),
                    id: 1,
                    slot: (*s).into(),
                })
                .collect(),
        }
    }

    #[test]
    fn the_page_has_a_card_per_file_and_a_row_per_object_escaped() {
        let cards = [card("a/<odd>.wad", &["LARA", "WOLF"]), card("b.wad2", &["BEAR"])];
        let unreadable = [Unreadable {
            file: "bad.wad".into(),
            why: "byte 4: too short".into(),
        }];
        let page = collection_page(&cards, &unreadable);
        assert_eq!(page.matches("<article class=\"card file\"").count(), 2);
        assert_eq!(page.matches("<tr data-card=").count(), 3);
        assert!(page.contains("a/&lt;odd&gt;.wad"));
        assert!(!page.contains("<odd>"));
        assert!(page.contains("<b>bad.wad</b>: byte 4: too short"));
        assert!(page.contains("3 files, 3 objects"));
    }

    #[test]
    fn the_page_grows_by_the_same_bytes_for_each_like_file() {
        let size = |n: usize| {
            let cards: Vec<FileCard> = (0..n)
                .map(|i| card(&format!("pack/file_{i:04}.wad"), &["LARA", "WOLF", "BEAR"]))
                .collect();
            collection_page(&cards, &[]).len()
        };
        let (ten, hundred, thousand) = (size(10), size(100), size(1000));
        let (early, late) = ((hundred - ten) as f64 / 90.0, (thousand - hundred) as f64 / 900.0);
        // Only the numbers' digits grow (file_0999, data-card="999").
        assert!(late >= early && late < early * 1.02, "{ten} {hundred} {thousand}");
    }
}
