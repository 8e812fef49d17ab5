//! Reading a manifest directory: the top-level manifest, then every object manifest found by
//! walking the directory, each checked against the schema and against each other.

use std::collections::{BTreeSet, HashSet};
use std::path::{Path, PathBuf};

use serde::de::DeserializeOwned;

use crate::error::{Location, ManifestError};
use crate::schema::*;
use crate::{box_lines, yaml_budget};

/// A loaded, validated manifest directory.
#[derive(Debug, Clone, PartialEq)]
pub struct ManifestDir {
    pub root: PathBuf,
    pub project: Project,
    /// Object manifests in the order the project lists them.
    pub objects: Vec<LoadedObject>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct LoadedObject {
    /// Path relative to the directory, as the project lists it.
    pub path: String,
    pub manifest: ObjectManifest,
}

impl LoadedObject {
    /// The glTF file of this object, resolved against the directory.
    pub fn gltf_path(&self, root: &Path) -> PathBuf {
        let gltf = match &self.manifest {
            ObjectManifest::Moveable(m) => &m.gltf,
            ObjectManifest::Static(s) => &s.gltf,
        };
        root.join(&self.path).parent().unwrap_or(root).join(gltf)
    }
}

/// Parses YAML text into a schema type; errors carry line and column.
pub fn parse<T: DeserializeOwned>(path: &Path, text: &str) -> Result<T, ManifestError> {
    check_cost(path, text)?;
    parse_within_budget(path, text)
}

/// [`parse`] of an object manifest. A moveable's animations, as import writes them (items of
/// `  animations:`, its last key), are read one at a time and in parallel: the YAML reader holds
/// every event of what it reads (a 445-animation Lara's whole manifest would be some 16 MB). Any
/// other layout, and any error, is read whole, so errors keep their lines.
pub fn parse_object(path: &Path, text: &str) -> Result<ObjectManifest, ManifestError> {
    // Each part is costed before it is read (`parse_in_parts`); the whole text only when it is
    // read whole (costing a 445-animation Lara's whole text took 8% of a build).
    if let Some(parsed) =
        split_animations(text).and_then(|(shell, items)| parse_in_parts(path, &shell, &items))
    {
        return Ok(parsed);
    }
    parse(path, text)
}

/// The manifest without its animations (`animations: []`), and each animation item's text
/// (`- name: …`, one indent level less), when the animations are written as import writes them.
fn split_animations(text: &str) -> Option<(String, Vec<String>)> {
    const KEY: &str = "  animations:\n";
    let start = if text.starts_with(KEY) {
        0
    } else {
        text.find(&format!("\n{KEY}"))? + 1
    };
    let (head, rest) = (&text[..start], &text[start + KEY.len()..]);
    let mut items: Vec<String> = Vec::new();
    let mut consumed = 0;
    for line in rest.split_inclusive('\n') {
        let trimmed = line.trim_start();
        if trimmed.is_empty() || trimmed.starts_with('#') {
            // Blank and comment lines belong to the item they are in.
        } else if let Some(item) = line.strip_prefix("  - ") {
            items.push(format!("- {item}"));
            consumed += line.len();
            continue;
        } else if !line.starts_with("    ") {
            break; // The end of the list: a key or a document marker.
        }
        items
            .last_mut()?
            .push_str(line.strip_prefix("  ").unwrap_or(line));
        consumed += line.len();
    }
    let shell = format!("{head}  animations: []\n{}", &rest[consumed..]);
    (!items.is_empty()).then_some((shell, items))
}

/// The moveable of `shell` with the animations of `items`, or `None` where a part does not read
/// on its own (an alias across parts, an error: the whole text is read instead).
///
/// The split is by lines, not by the YAML's structure: a quoted scalar can hide what looks like
/// items from the check of the whole text. So each part is costed too, by what its own size
/// allows (parts are read several at once), and one past it has the whole text read.
fn parse_in_parts(path: &Path, shell: &str, items: &[String]) -> Option<ObjectManifest> {
    use rayon::prelude::*;
    let within = |text: &str, limits| yaml_budget::cost(text, limits) == yaml_budget::Cost::Within;
    if !within(shell, yaml_budget::Allowance::whole(shell)) {
        return None;
    }
    let ObjectManifest::Moveable(mut moveable) = parse_within_budget(path, shell).ok()? else {
        return None;
    };
    let animations: Option<Vec<Vec<AnimationManifest>>> = items
        .par_iter()
        .map(|item| {
            if !within(item, yaml_budget::Allowance::part(item)) {
                return None;
            }
            let Some((text, boxes)) = box_lines::take_keyframe_boxes(item) else {
                return parse_within_budget(path, item).ok();
            };
            let mut parsed: Vec<AnimationManifest> = parse_within_budget(path, &text).ok()?;
            let [animation] = parsed.as_mut_slice() else {
                return None;
            };
            animation.kept_exactly.keyframe_boxes = boxes;
            Some(parsed)
        })
        .collect();
    moveable.animations = animations?.into_iter().flatten().collect();
    Some(ObjectManifest::Moveable(moveable))
}

/// Refuses a text whose reading would cost more than its size allows (see `yaml_budget`).
fn check_cost(path: &Path, text: &str) -> Result<(), ManifestError> {
    let limits = yaml_budget::Allowance::whole(text);
    let message = match yaml_budget::cost(text, limits) {
        yaml_budget::Cost::Within => return Ok(()),
        yaml_budget::Cost::TooManyEvents => format!(
            "more than {} YAML values and collections in {} bytes: too many to read within memory (a manifest \
             import writes has far fewer); remove what was added",
            limits.events,
            text.len()
        ),
        yaml_budget::Cost::TooManyValues => "aliases (`*name`) expand this file into more values than it could \
                                             hold written out; write the values out instead of repeating anchors"
            .to_string(),
    };
    Err(ManifestError::Syntax {
        path: path.to_path_buf(),
        location: None,
        message,
    })
}

/// A YAML file of another shape than a manifest's (a retargeting map) at `path`, read within
/// the same budget and with the same errors as a manifest.
pub fn parse_yaml<T: DeserializeOwned>(path: &Path, text: &str) -> Result<T, ManifestError> {
    check_cost(path, text)?;
    parse_within_budget(path, text)
}

fn parse_within_budget<T: DeserializeOwned>(path: &Path, text: &str) -> Result<T, ManifestError> {
    // Enums are written as one-key maps (`moveable: …`, `sound: …`), not YAML tags.
    let de = serde_yaml::Deserializer::from_str(text);
    serde_yaml::with::singleton_map_recursive::deserialize(de).map_err(|e| syntax_error(path, e))
}

/// A YAML error as a manifest error at its line and column.
fn syntax_error(path: &Path, e: serde_yaml::Error) -> ManifestError {
    ManifestError::Syntax {
        path: path.to_path_buf(),
        location: e.location().map(|l| Location {
            line: l.line(),
            column: l.column(),
        }),
        message: e
            .to_string()
            .split(" at line ")
            .next()
            .unwrap_or_default()
            .to_string(),
    }
}

/// An object manifest of format 1, whose animations kept their exactness values beside the
/// editable ones: read as format 2 with those values under `kept_exactly`.
fn parse_format_1(path: &Path, text: &str) -> Result<ObjectManifest, ManifestError> {
    // Most read as format 2 as they are (no exactness values, or a static): then errors keep
    // their line numbers.
    let as_format_2 = parse(path, text);
    let mut value: serde_yaml::Value = match as_format_2 {
        Ok(manifest) => return Ok(manifest),
        Err(e) => match parse(path, text) {
            Ok(value) if holds_format_1_keys(&value) => value,
            _ => return Err(e),
        },
    };
    let animations = value
        .get_mut("moveable")
        .and_then(|m| m.get_mut("animations"))
        .and_then(|a| a.as_sequence_mut());
    for animation in animations.into_iter().flatten() {
        let Some(animation) = animation.as_mapping_mut() else {
            continue;
        };
        let mut kept = serde_yaml::Mapping::new();
        for key in KeptExactly::FORMAT_1_KEYS {
            if let Some(v) = animation.remove(key) {
                kept.insert(key.into(), v);
            }
        }
        if !kept.is_empty() {
            animation.insert("kept_exactly".into(), serde_yaml::Value::Mapping(kept));
        }
    }
    serde_yaml::with::singleton_map_recursive::deserialize(value).map_err(|e: serde_yaml::Error| {
        ManifestError::Syntax {
            path: path.to_path_buf(),
            location: None,
            message: format!("{e} (a manifest of format 1: import the WAD again for line numbers)"),
        }
    })
}

/// Whether an animation of the manifest has a format 1 exactness key beside its editable values.
fn holds_format_1_keys(value: &serde_yaml::Value) -> bool {
    let animations = value
        .get("moveable")
        .and_then(|m| m.get("animations"))
        .and_then(|a| a.as_sequence());
    animations
        .into_iter()
        .flatten()
        .any(|a| KeptExactly::FORMAT_1_KEYS.iter().any(|key| a.get(key).is_some()))
}

/// Loads and validates `dir`.
pub fn load(dir: &Path) -> Result<ManifestDir, ManifestError> {
    let project_path = dir.join(PROJECT_FILE);
    let project: Project = parse(&project_path, &read(&project_path)?)?;
    check_project(&project_path, &project)?;
    check_every_manifest_listed(dir, &project_path, &project)?;
    let objects = load_objects(dir, &project)?;
    Ok(ManifestDir {
        root: dir.to_path_buf(),
        project,
        objects,
    })
}

/// A manifest error: what is wrong with the file at `path`.
fn invalid(path: &Path, what: String) -> ManifestError {
    ManifestError::Invalid {
        path: path.to_path_buf(),
        what,
    }
}

/// The project's schema version, units and game are ones this wadforge reads.
fn check_project(project_path: &Path, project: &Project) -> Result<(), ManifestError> {
    if !(OLDEST_SCHEMA_VERSION..=SCHEMA_VERSION).contains(&project.wadforge) {
        return Err(invalid(
            project_path,
            format!(
                "schema version {} is not supported (this wadforge reads {OLDEST_SCHEMA_VERSION} to \
                 {SCHEMA_VERSION}); import the WAD again with this wadforge",
                project.wadforge
            ),
        ));
    }
    if project.units.axes != AXES {
        return Err(invalid(
            project_path,
            format!("units.axes must be `{AXES}`, not `{}`", project.units.axes),
        ));
    }
    if !(project.units.tr_units_per_metre.is_finite() && project.units.tr_units_per_metre > 0.0) {
        return Err(invalid(
            project_path,
            "units.tr_units_per_metre must be a positive number".into(),
        ));
    }
    if let Some(detail) = &project.wad2_detail {
        if wadforge_files::input::relative_inside(Path::new(detail)).is_none() {
            return Err(invalid(
                project_path,
                format!("wad2_detail `{detail}` is outside the manifest directory; keep it inside"),
            ));
        }
    }
    if !["TR1", "TR2", "TR3", "TR4", "TR5", "TEN"].contains(&project.game.as_str()) {
        return Err(invalid(
            project_path,
            format!(
                "game must be TR1, TR2, TR3, TR4, TR5 or TEN, not `{}`",
                project.game
            ),
        ));
    }
    Ok(())
}

/// Every object manifest the project lists stays inside `dir` and is listed once (each listing
/// is read and built: a manifest listed thousands of times would be too), and every one on disk
/// is listed.
fn check_every_manifest_listed(
    dir: &Path,
    project_path: &Path,
    project: &Project,
) -> Result<(), ManifestError> {
    let mut listed: BTreeSet<PathBuf> = BTreeSet::new();
    for p in &project.objects {
        let path = normalise(dir, p).map_err(|p| {
            invalid(
                project_path,
                format!("object manifest `{p}` is outside the directory"),
            )
        })?;
        if !listed.insert(path) {
            return Err(invalid(
                project_path,
                format!("object manifest `{p}` is listed twice under `objects:`; list each once"),
            ));
        }
    }
    if let Some(unlisted) = first_unlisted_manifest(dir, &listed)? {
        return Err(invalid(
            &dir.join(&unlisted),
            format!("this object manifest is not listed under `objects:` in {PROJECT_FILE}; add it there (or remove the file)"),
        ));
    }
    Ok(())
}

/// The object manifests in the order the project lists them, each validated; no two name the
/// same kind and id.
fn load_objects(dir: &Path, project: &Project) -> Result<Vec<LoadedObject>, ManifestError> {
    use rayon::prelude::*;
    // Manifests are independent: parsed in parallel, checked and kept in the project's order (so
    // the first error in that order is the one reported, whatever the thread count).
    let parsed: Vec<Result<ObjectManifest, ManifestError>> = project
        .objects
        .par_iter()
        .map(|relative| {
            let path = dir.join(relative);
            let text = read(&path)?;
            let manifest: ObjectManifest = if project.wadforge == 1 {
                parse_format_1(&path, &text)?
            } else {
                parse_object(&path, &text)?
            };
            validate_object(dir, &path, &manifest)?;
            Ok(manifest)
        })
        .collect();
    let mut objects = Vec::with_capacity(project.objects.len());
    let mut ids = HashSet::new();
    for (relative, manifest) in project.objects.iter().zip(parsed) {
        let manifest = manifest?;
        let (kind, id) = match &manifest {
            ObjectManifest::Moveable(m) => ("moveable", m.id),
            ObjectManifest::Static(s) => ("static", s.id),
        };
        if !ids.insert((kind, id)) {
            return Err(invalid(
                &dir.join(relative),
                format!("a second {kind} with id {id}; each id appears once"),
            ));
        }
        objects.push(LoadedObject {
            path: relative.clone(),
            manifest,
        });
    }
    Ok(objects)
}

fn read(path: &Path) -> Result<String, ManifestError> {
    wadforge_files::input::read_to_string(path).map_err(|source| ManifestError::Io {
        path: path.to_path_buf(),
        source,
    })
}

/// A relative path with `.` removed, or the path itself as an error when it leaves `dir`.
fn normalise(_dir: &Path, relative: &str) -> Result<PathBuf, String> {
    wadforge_files::input::relative_inside(Path::new(relative)).ok_or_else(|| relative.to_string())
}

/// The first `.yaml` file below `dir`, other than the project file and `sounds.yaml`, that is not `listed`
/// (relative to `dir`), in the order of a walk with each folder's names sorted.
fn first_unlisted_manifest(dir: &Path, listed: &BTreeSet<PathBuf>) -> Result<Option<PathBuf>, ManifestError> {
    // Walked unsorted and only the least path kept: no folder's listing is held, whatever the
    // folder holds. Paths compare component by component, as the sorted walk meets them.
    let mut first: Option<PathBuf> = None;
    for entry in walkdir::WalkDir::new(dir) {
        let entry = entry.map_err(|e| ManifestError::Io {
            path: e.path().unwrap_or(dir).to_path_buf(),
            source: e
                .into_io_error()
                .unwrap_or_else(|| std::io::Error::other("directory loop")),
        })?;
        let path = entry.path();
        let is_yaml = path.extension().is_some_and(|e| e == "yaml" || e == "yml");
        if entry.file_type().is_file() && is_yaml {
            let relative = path.strip_prefix(dir).unwrap_or(path);
            let directory_file = [PROJECT_FILE, crate::sounds::SOUNDS_FILE]
                .map(Path::new)
                .contains(&relative);
            let unlisted = !directory_file && !listed.contains(relative);
            if unlisted && first.as_deref().is_none_or(|f| relative < f) {
                first = Some(relative.to_path_buf());
            }
        }
    }
    Ok(first)
}

fn validate_object(dir: &Path, path: &Path, manifest: &ObjectManifest) -> Result<(), ManifestError> {
    let invalid = |what: String| ManifestError::Invalid {
        path: path.to_path_buf(),
        what,
    };
    let (slot, gltf) = match manifest {
        ObjectManifest::Moveable(m) => (&m.slot, &m.gltf),
        ObjectManifest::Static(s) => (&s.slot, &s.gltf),
    };
    let base = path
        .parent()
        .unwrap_or(dir)
        .strip_prefix(dir)
        .unwrap_or(Path::new(""));
    let beside = |gltf: &str, what: &str| {
        let joined = base.join(gltf);
        if normalise(dir, &joined.to_string_lossy()).is_err() {
            return Err(invalid(format!(
                "{slot}: {what} `{gltf}` is outside the manifest directory; keep it inside"
            )));
        }
        if !dir.join(&joined).is_file() {
            return Err(invalid(format!(
                "{slot}: {what} `{gltf}` does not exist next to this manifest"
            )));
        }
        Ok(())
    };
    beside(gltf, "glTF file")?;
    let ObjectManifest::Moveable(m) = manifest else {
        return Ok(());
    };
    if let Some(placeholders) = m.dressed_by.as_ref().and_then(|d| d.placeholders.as_deref()) {
        beside(placeholders, "placeholders glTF file")?;
    }
    if m.bones.is_empty() {
        return Err(invalid(format!("{slot}: a moveable needs at least one bone")));
    }
    let mut bone_names = HashSet::new();
    for b in &m.bones {
        if !bone_names.insert(b.name.as_str()) {
            return Err(invalid(format!(
                "{slot}: bone `{}` appears twice; bone names are unique",
                b.name
            )));
        }
    }
    let names: HashSet<&str> = m.animations.iter().map(|a| a.name.as_str()).collect();
    if names.len() != m.animations.len() {
        return Err(invalid(format!(
            "{slot}: two animations share a name; animation names are unique"
        )));
    }
    let resolve = |a: &AnimationManifest, target: &AnimationName, what: &str| match target {
        AnimationName::Name(n) if !names.contains(n.as_str()) => Err(invalid(format!(
            "{slot}: animation {}: {what} `{n}` is not an animation of this object",
            a.name
        ))),
        _ => Ok(()),
    };
    for a in &m.animations {
        if a.frame_duration == 0 {
            return Err(invalid(format!(
                "{slot}: animation {}: frame_duration must be at least 1",
                a.name
            )));
        }
        resolve(a, &a.next.animation, "next animation")?;
        for change in &a.state_changes {
            for d in &change.dispatches {
                resolve(a, &d.animation, "dispatch target")?;
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A moveable in the layout import writes: sequences at their key's indent, animations last.
    const WRITTEN: &str = "# header
moveable:
  id: 300
  slot: DOOR_TYPE1
  gltf: door.glb
  bones:
  - name: mesh_00
    sphere: {center: [0, -512, 0], radius: 600}
    lighting: normals
  animations:
  - name: 000_CLOSED
    state: {id: 0}
    frame_duration: 1
    frames: 1
    speed: 0
    acceleration: 0
    next: {animation: 001_OPEN, frame: 0}
  # a comment between items
  - name: 001_OPEN
    state: {id: 1}
    frame_duration: 1
    frames: 1
    speed: 0
    acceleration: 0
    next: {animation: 000_CLOSED, frame: 0}
";

    #[test]
    fn the_layout_import_writes_is_read_in_parts_as_the_whole_is_read() {
        let path = Path::new("door.yaml");
        let (shell, items) = split_animations(WRITTEN).expect("import's layout splits");
        assert_eq!(items.len(), 2);
        assert!(items.iter().all(|item| item.starts_with("- name: ")), "{items:?}");
        assert!(shell.ends_with("  animations: []\n"), "{shell}");
        let whole: ObjectManifest = parse(path, WRITTEN).unwrap();
        assert_eq!(parse_in_parts(path, &shell, &items), Some(whole.clone()));
        assert_eq!(parse_object(path, WRITTEN).unwrap(), whole);
        // Another layout (flow style) does not split; it is read whole.
        assert!(split_animations("moveable: {id: 1, animations: []}\n").is_none());
    }

    #[test]
    fn a_part_costing_more_than_its_size_allows_has_the_whole_text_read() {
        // A quoted scalar can hold lines that look like items: the whole text is costed as one
        // scalar, the split reads them as YAML. A part over its own limits is not read apart.
        let path = Path::new("door.yaml");
        let (shell, items) = split_animations(WRITTEN).unwrap();
        assert!(parse_in_parts(path, &shell, &items).is_some());
        let with_dispatches = |dispatches: &[String]| {
            let mut items = items.clone();
            items[1] += &format!(
                "  state_changes:\n  - state: {{id: 2}}\n    dispatches: [{}]\n",
                dispatches.join(", ")
            );
            items
        };
        let dispatch = |animation: &str| format!("{{frames: [0, 1], animation: {animation}, frame: 0}}");
        let few = with_dispatches(&vec![dispatch("1"); 10]);
        assert!(parse_in_parts(path, &shell, &few).is_some());
        // Short values: more events than the part's size allows.
        let dense = with_dispatches(&vec![dispatch("1"); 3000]);
        assert_eq!(parse_in_parts(path, &shell, &dense), None);
        // Aliases of a long name: more values than the part's size allows.
        let mut aliased = with_dispatches(&vec![dispatch("*n"); 100]);
        aliased[1] = aliased[1].replacen("- name: 001_OPEN", &format!("- name: &n {}", "x".repeat(4000)), 1);
        assert_eq!(parse_in_parts(path, &shell, &aliased), None);
    }
}
