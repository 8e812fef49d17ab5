//! A file's objects moved, in memory, into what another kind of file and engine holds: the ids
//! into the output game's slots (those it has none for left out), what that engine needs other
//! than the input's, what the output cannot hold. `convert` writes what this makes, and
//! `check --for` reports it before anything is written: one piece of code, so the report and the
//! conversion never disagree.

use std::collections::{BTreeSet, HashMap};

use anyhow::Context;
use wadforge_edit::port::Steps;
use wadforge_format::catalog::Game;
use wadforge_format::selection::{all_objects, ObjectRef};
use wadforge_format::{wad, wad2, FileKind, MoveableIndex, ObjectKind, Opened, OutputKind, StaticIndex, Wad};

/// The game of a Wad2 `convert` writes (and reads, when a Wad2 names none).
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum TargetGame {
    /// TRLE: TR4's ids, W2SuggestedGameVersion 4.
    Trle,
    /// TRNG: TR4's ids, version 16.
    Trng,
    /// Tomb Engine: its own ids, version 18.
    Ten,
}

impl TargetGame {
    /// The catalogue whose ids the game's objects hold.
    pub fn catalogue(self) -> Game {
        match self {
            TargetGame::Trle | TargetGame::Trng => Game::Tr4,
            TargetGame::Ten => Game::Ten,
        }
    }

    /// Its W2SuggestedGameVersion.
    pub fn wad2_version(self) -> i64 {
        match self {
            TargetGame::Trle => 4,
            TargetGame::Trng => 16,
            TargetGame::Ten => 18,
        }
    }
}

/// What to move: the objects (`--only`, all when `None`), the slots some take (`--as`), and the
/// game of a Wad2 written (`--game`).
#[derive(Debug, Clone, Copy)]
pub struct Request<'a> {
    pub only: Option<&'a [String]>,
    pub as_slots: &'a [String],
    pub game: Option<TargetGame>,
}

/// Where an object of the input lands: its name in the input's game, and the slot the output's
/// reader names its id (`None`: left out, no slot there).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Landing {
    pub object: String,
    pub slot: Option<String>,
}

/// The objects moved: the Wad2 document to write (`None` for a WAD, which is `opened.model`),
/// where each object landed, and lines of what changed and what the output cannot hold, each
/// line starting with the object it is about (or naming the file).
pub struct Ported {
    pub document: Option<wad2::Document>,
    pub landings: Vec<Landing>,
    pub changed: Vec<String>,
    pub lost: Vec<String>,
}

/// `opened`'s chosen objects in the output's terms (ids moved, what the other engine needs
/// reshaped, a Wad2's document made), with what changed and what the output cannot hold of them.
pub fn port(opened: &mut Opened, request: &Request, output: OutputKind) -> anyhow::Result<Ported> {
    // A Wad2 that names no game holds the ids of the one asked for.
    let names_no_game = opened.wad2.as_ref().is_some_and(|d| d.game_version.is_none());
    if let (Some(game), true) = (request.game, names_no_game) {
        opened.game = game.catalogue();
    }
    let chosen = match request.only {
        Some(only) => wadforge_format::selection::select(&opened.model, opened.game, only)?,
        None => all_objects(&opened.model).collect(),
    };
    let skewed = skewed_of(opened, &chosen);
    let model_losses = losses_of(opened, &chosen);
    if request.only.is_some() {
        keep_only(opened, &chosen, output)?;
    }
    let to = match output {
        OutputKind::Wad => FileKind::Wad.game(),
        OutputKind::Wad2 => request.game.map_or(opened.game, TargetGame::catalogue),
    };
    let mut ported = Ported {
        document: None,
        landings: Vec::new(),
        changed: Vec::new(),
        lost: Vec::new(),
    };
    let before = object_names(&opened.model, opened.game);
    let ids_before = object_ids(&opened.model);
    // Each game numbers its slots its own way (TR1's WOLF is 7, TR4's 7 is FLARE_ANIM): objects
    // move to another game's ids by the catalogue; `--as` places them within one game too.
    if opened.game != to || !request.as_slots.is_empty() {
        let moved = move_to_game(&mut opened.model, opened.game, to, request.as_slots)?;
        ported.lost.extend(moved.left_out);
        ported.changed.extend(moved.reshaped);
        opened.game = to;
    }
    let steps = steps(opened, output, skewed);
    let changes = wadforge_edit::port::port(&mut opened.model, opened.game, steps)?;
    ported.changed.extend(changes.iter().map(ToString::to_string));
    ported.landings = landings(&before, &ported.lost, &object_names(&opened.model, opened.game));
    ported.document = match output {
        OutputKind::Wad => {
            ported.lost.extend(model_losses);
            if skewed > 0 {
                ported.lost.push(format!(
                    "{skewed} polygons map their texture skewed: a classic WAD shows the sample round their \
                     corners (import and build resample them instead)"
                ));
            }
            None
        }
        OutputKind::Wad2 => {
            let mut made = wad2::from_model(&opened.model, &opened.skewed, opened.game)?;
            ported.lost.extend(made.losses.iter().map(ToString::to_string));
            match &opened.wad2 {
                // A Wad2 into a Wad2: what the model has no place for comes from the input itself.
                Some(input) => {
                    // Each object finds its detail in the input under the id it took.
                    let after = object_ids(&opened.model);
                    let moved = moved_ids(&opened.model, &ids_before, &ported.landings, &after);
                    let base = wad2::under_ids(input, &moved.ids, &moved.remeshed);
                    let kept = wad2::keep_detail(&mut made.document, &base);
                    ported.lost.extend(kept.dropped);
                    // UVs the model rounded whose exact values the input could not give back.
                    let rounded = wad2::uvs_rounded([kept.uv_rounding.as_slice()]);
                    ported.changed.extend(rounded.iter().map(|r| r.line(opened.game)));
                }
                None => ported.lost.extend(model_losses),
            }
            if let Some(game) = request.game {
                made.document.game_version = Some(game.wad2_version());
            }
            Some(made.document)
        }
    };
    Ok(ported)
}

/// What moving objects into another game's slots did.
pub struct Moved {
    /// An object's line each, for those the game has no slot for (left out), and for sound
    /// commands it has no sound for (dropped).
    pub left_out: Vec<String>,
    /// What the other engine needs that was reshaped (holsters, back weapons), a line each.
    pub reshaped: Vec<String>,
}

/// Moves `model`'s objects (ids of `from`) into `to`'s slots: the slot an `--as` rule names,
/// else the catalogue's (by name between classic games, else by the Tomb Engine slot both name);
/// an object `to` has none for is left out and listed, never written under a foreign id. Then
/// what `to`'s engine needs other than `from`'s is reshaped. The one move `convert`, `check
/// --for`, `build` and `diff` make, so they agree on where each object lands.
pub fn move_to_game(model: &mut Wad, from: Game, to: Game, as_slots: &[String]) -> anyhow::Result<Moved> {
    let left_out = wadforge_edit::move_ids(model, from, to, from != to, as_slots)?;
    // After the ids, which tell the engine's reshaping what each object is.
    let reshaped = wadforge_edit::engines::reshape_for_engine(model, from, to);
    Ok(Moved { left_out, reshaped })
}

/// What `convert` changes of `opened`'s objects for an `output` file (`skewed`: how many of the
/// chosen polygons map their texture skewed). Pages are packed again where they came from whole
/// Wad2 textures or a level's tiles, never a classic WAD's own (a WAD converted into a WAD stays
/// the same bytes), nor a Wad2's written as a Wad2 (it takes its textures back from the input) or
/// a level's skewed polygons' (their exact corners lie on the level's pages). A classic WAD made of
/// a Wad2 gets TR's normals and frame ranges; a Wad2 keeps what it had (Tomb Editor's compiler
/// brings them to TR's terms).
fn steps(opened: &Opened, output: OutputKind, skewed: usize) -> Steps {
    let level = matches!(opened.kind, FileKind::Level(_));
    let wad2 = opened.kind == FileKind::Wad2;
    match output {
        OutputKind::Wad => Steps {
            repack: level || wad2,
            classic: wad2,
        },
        OutputKind::Wad2 => Steps {
            repack: level && skewed == 0,
            classic: false,
        },
    }
}

/// `model` as a classic WAD's bytes, as `convert` writes it (and `check --for` tries it).
pub fn encode_wad(model: &Wad) -> anyhow::Result<wad::EncodedWad<'_>> {
    wad::encode(model, None).context("the objects cannot be written as a WAD")
}

/// The names of `model`'s objects (moveables, then statics) by `game`'s catalogue.
fn object_names(model: &Wad, game: Game) -> Vec<String> {
    all_objects(model)
        .map(|o| o.name(model, game).to_string())
        .collect()
}

/// The kind, id and meshes of each of `model`'s objects (moveables, then statics), as a Wad2
/// numbers them.
fn object_ids(model: &Wad) -> Vec<((ObjectKind, i64), Vec<usize>)> {
    let moveables =
        (model.moveables.iter()).map(|m| ((ObjectKind::Moveable, i64::from(m.id)), m.meshes.clone()));
    let statics = (model.statics.iter()).map(|s| ((ObjectKind::Static, i64::from(s.id)), vec![s.mesh]));
    moveables.chain(statics).collect()
}

/// Where moving ids put the input's objects.
struct MovedIds {
    /// Each object's id after the move, by its kind and id before.
    ids: HashMap<(ObjectKind, i64), i64>,
    /// The moveables whose meshes the move laid out anew (the other engine's holsters and back
    /// weapons): new id, where each mesh came from.
    remeshed: Vec<(i64, Vec<Option<usize>>)>,
}

/// Each object's id before the move (`before`) and after it (`after`, those `landings` leave out
/// missing, the order kept), and which of them the move laid out anew in `model`.
fn moved_ids(
    model: &Wad,
    before: &[((ObjectKind, i64), Vec<usize>)],
    landings: &[Landing],
    after: &[((ObjectKind, i64), Vec<usize>)],
) -> MovedIds {
    let landed = (before.iter().zip(landings)).filter(|(_, landing)| landing.slot.is_some());
    let pairs: Vec<_> = landed.map(|(b, _)| b).zip(after).collect();
    let remeshed = (pairs.iter())
        .filter(|(b, a)| b.1 != a.1)
        .map(|(b, a)| (a.0 .1, wadforge_edit::engines::mesh_sources(model, &b.1, &a.1)))
        .collect();
    let ids = (pairs.iter()).map(|(b, a)| (b.0, a.0 .1)).collect();
    MovedIds { ids, remeshed }
}

/// Where each object of `before` landed in `after`: moving ids keeps the objects' order and
/// leaves out those a line of `left_out` names (by their name before, as `move_ids` words it).
fn landings(before: &[String], left_out: &[String], after: &[String]) -> Vec<Landing> {
    let mut kept = after.iter();
    before
        .iter()
        .map(|object| Landing {
            object: object.clone(),
            slot: match left_out.iter().any(|line| starts_with_object(line, object)) {
                true => None,
                false => kept.next().cloned(),
            },
        })
        .collect()
}

/// Whether `line` is about `object` (a name as `ObjectName` writes it): it starts with it.
pub fn starts_with_object(line: &str, object: &str) -> bool {
    line.strip_prefix(object)
        .is_some_and(|rest| rest.starts_with(':'))
}

/// Drops every object `only` does not name, as import's `--only` chooses. A WAD written drops
/// with them what only they used (meshes, samples, pages: `remove`); a Wad2 writes only what
/// its objects use.
fn keep_only(opened: &mut Opened, chosen: &[ObjectRef], output: OutputKind) -> anyhow::Result<()> {
    let dropped: Vec<ObjectRef> = all_objects(&opened.model)
        .filter(|o| !chosen.contains(o))
        .collect();
    match output {
        OutputKind::Wad => {
            let input = wadforge_edit::Input {
                wad: &opened.model,
                game: opened.game,
                starts: opened.animation_starts(),
            };
            let removed = wadforge_edit::remove(&input, &dropped)?;
            opened.model = removed.wad;
            opened.skewed = Default::default();
        }
        OutputKind::Wad2 => {
            // Mesh indices stay, so each polygon's skewed corners still find it.
            let model = &mut opened.model;
            let mut keep =
                MoveableIndex::all(&model.moveables).map(|i| chosen.contains(&ObjectRef::Moveable(i)));
            model.moveables.retain(|_| keep.next().unwrap_or(false));
            let mut keep = StaticIndex::all(&model.statics).map(|i| chosen.contains(&ObjectRef::Static(i)));
            model.statics.retain(|_| keep.next().unwrap_or(false));
        }
    }
    Ok(())
}

/// What the model could not hold of the `chosen` objects (and of the file), as lines.
fn losses_of(opened: &Opened, chosen: &[ObjectRef]) -> Vec<String> {
    let names: Vec<String> = chosen
        .iter()
        .map(|o| o.name(&opened.model, opened.game).to_string())
        .collect();
    let losses = opened.losses.iter();
    losses
        .filter(|l| l.object == "file" || names.contains(&l.object))
        .map(ToString::to_string)
        .collect()
}

/// How many polygons of the `chosen` objects' meshes map their texture skewed.
fn skewed_of(opened: &Opened, chosen: &[ObjectRef]) -> usize {
    let model = &opened.model;
    let meshes: BTreeSet<usize> = chosen
        .iter()
        .flat_map(|&o| match o {
            ObjectRef::Moveable(i) => model.moveables[i].meshes.clone(),
            ObjectRef::Static(i) => vec![model.statics[i].mesh],
        })
        .collect();
    opened
        .skewed
        .iter()
        .filter(|((mesh, _), _)| meshes.contains(mesh))
        .count()
}
