//! Import: a model (from a WAD or a level) → a manifest directory of glTF files and manifests.
//!
//! - [`space`]: TR space → glTF space (a rotation of 180° about Z, never a mirror; a scale).
//! - moveables become one joint per TR mesh with a skin and **one skinned mesh**: Blender turns
//!   that into one armature and one mesh object, which artists edit as one body; build splits it
//!   back by joint weight. Statics become one mesh with shades as vertex colours.
//! - one glTF animation per TR animation with keyframes, named `NNN_STATE`.
//! - the samples an object uses, packed into one PNG; UVs sit exactly on sample corners.
//! - manifests (see `wadforge-manifests`) carry what glTF cannot.
//!
//! Meshes shared between objects (several mesh pointers naming one mesh) are written once, by the
//! first object that shows them; later users say `same_as`. A moveable whose meshes are
//! placeholders is shown dressed in the moveables the catalogue names so Blender shows Lara
//! animated in her outfit: TR4's LARA in LARA_SKIN and LARA_SKIN_JOINTS (her placeholders are
//! LARA_SKIN's), TR3's LARA in LARA_TRUE_APPEARANCE (the rule: `wadforge_format::dressing`). A placeholder no other object shows (TR3's
//! holstered thigh) goes into a glTF of its own beside the dressed one, `…_placeholders.glb`.

// Functions stay readable top to bottom: a longer one says why beside its #[allow].
#![warn(clippy::too_many_lines)]

mod animation_budget;
mod atlas;
mod buffer;
mod document;
mod geometry;
mod manifest;
pub mod names;
mod object;
pub mod samples;
pub mod space;
mod stored;
mod texture_budget;

use std::collections::HashMap;
use std::time::{Duration, Instant};

use wadforge_files::{in_parallel, write_atomically_with, OutputFile};
use wadforge_format::catalog::{self, Game};
use wadforge_format::dressed_draws;
use wadforge_format::dressing::{self, Dressing};
use wadforge_format::file_names::file_stems;
use wadforge_format::references;
use wadforge_format::selection::{self, ObjectRef, UnknownObject};
use wadforge_format::{
    Limits, MeshIndex, MoveableIndex, ObjectKind, ObjectName, SkewedCorners, StaticIndex, TooMuch, TooMuchAt,
    Wad,
};
use wadforge_manifests::{self as manifests, MeshRef, ObjectManifest, Project, Units};

use buffer::Body;
use document::Document;
pub use document::GltfFormat;
pub use space::{Space, DEFAULT_TR_UNITS_PER_METRE};

/// What to import and how.
#[derive(Debug, Clone)]
pub struct ImportOptions {
    pub game: Game,
    pub tr_units_per_metre: f64,
    pub format: GltfFormat,
    /// Import only these objects: slot names or ids.
    pub only: Option<Vec<String>>,
    /// Where the model came from, for the top-level manifest.
    pub source: manifests::Source,
    /// Polygons to map with exact UV corners rather than their samples (a level's skewed
    /// textures; see [`SkewedCorners`]).
    pub skewed: SkewedCorners,
    /// Bytes of the file the model was read from (0 when there is none): what an import may
    /// make of a file grows with it (see [`wadforge_format::Limits`]).
    pub input_bytes: u64,
    /// What a Wad2 holds beyond the model ([`wadforge_format::wad2::detail_file`]): kept in the
    /// directory as [`manifests::WAD2_DETAIL_FILE`] for a Wad2 built from it.
    pub wad2_detail: Option<Vec<u8>>,
    /// Where each moveable's animations started in the file's animation table
    /// ([`wadforge_format::Opened::animation_starts`]), which references into another object's
    /// animations count in; `None`: one after the other, as `wad::write` lays them out.
    pub animation_starts: Option<Vec<usize>>,
    /// Names for the animations of moveables of these ids, one per animation, in place of the
    /// catalogue's state names (a model read from a foreign glTF keeps its animations' names).
    pub animation_names: HashMap<u32, Vec<String>>,
    /// Names for the bones of moveables of these ids, one per mesh and unique, each at most
    /// 63 bytes, in place of the catalogue's (a foreign glTF's joints keep their names).
    pub bone_names: HashMap<u32, Vec<String>>,
}

impl ImportOptions {
    /// Options for a TRLE WAD (TR4 objects) named `file`, with the default scale and `.glb` files.
    pub fn wad(file: &str, version: u32) -> Self {
        ImportOptions {
            game: Game::Tr4,
            tr_units_per_metre: DEFAULT_TR_UNITS_PER_METRE,
            format: GltfFormat::Glb,
            only: None,
            source: manifests::Source {
                file: file.to_string(),
                format: "wad".into(),
                version,
            },
            skewed: SkewedCorners::new(),
            input_bytes: 0,
            wad2_detail: None,
            animation_starts: None,
            animation_names: HashMap::new(),
            bone_names: HashMap::new(),
        }
    }
}

#[derive(Debug, thiserror::Error)]
pub enum ImportError {
    #[error(transparent)]
    UnknownObject(#[from] UnknownObject),
    /// One object, counting those before it, asks more than a bound of [`Limits`] allows.
    #[error(transparent)]
    TooMuchAt(#[from] TooMuchAt),
    /// The import as a whole asks more than a bound of [`Limits`] allows.
    #[error(transparent)]
    TooMuch(#[from] TooMuch),
    #[error("cannot write {}", path.display())]
    Write {
        path: std::path::PathBuf,
        #[source]
        source: std::io::Error,
    },
}

/// Where import's time went, summed over objects (on several threads, the sum exceeds the wall
/// time): making glTF documents (geometry, skins, animations, stored meshes, GLB), texture images
/// (atlas and PNG encoding) and YAML manifests.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct ImportPhases {
    pub gltf: Duration,
    pub images: Duration,
    pub yaml: Duration,
}

impl ImportPhases {
    fn add(&mut self, other: &ImportPhases) {
        self.gltf += other.gltf;
        self.images += other.images;
        self.yaml += other.yaml;
    }
}

/// Imports `wad`; `progress(done, total, slot)` is called after each object.
pub fn import(
    wad: &Wad,
    options: &ImportOptions,
    progress: &mut dyn FnMut(usize, usize, &str),
) -> Result<Vec<OutputFile>, ImportError> {
    import_with_phases(wad, options, progress).map(|(files, _)| files)
}

/// [`import`], and where its time went.
pub fn import_with_phases(
    wad: &Wad,
    options: &ImportOptions,
    progress: &mut dyn FnMut(usize, usize, &str),
) -> Result<(Vec<OutputFile>, ImportPhases), ImportError> {
    let in_memory = |file: MadeFile| match file.body.into_bytes() {
        Ok(bytes) => Ok(OutputFile {
            path: file.path,
            bytes,
        }),
        Err(source) => Err(ImportError::Write {
            path: file.path.into(),
            source,
        }),
    };
    import_each(wad, options, None, progress, &in_memory)
}

/// A file [`import_into`] wrote.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WrittenFile {
    /// Path relative to the directory, `/`-separated.
    pub path: String,
    pub bytes: usize,
}

/// [`import`], each object's files written under `dir` (atomically) as soon as the object is
/// made, so that only the objects being made are held in memory; the files written, in
/// [`import`]'s order, and where the time went.
pub fn import_into(
    wad: &Wad,
    options: &ImportOptions,
    dir: &std::path::Path,
    progress: &mut dyn FnMut(usize, usize, &str),
) -> Result<(Vec<WrittenFile>, ImportPhases), ImportError> {
    let write = |file: MadeFile| {
        let path = dir.join(&file.path);
        let bytes = file.body.len();
        match write_atomically_with(&path, |out| file.body.write_to(out)) {
            Ok(()) => Ok(WrittenFile {
                path: file.path,
                bytes,
            }),
            Err(source) => Err(ImportError::Write { path, source }),
        }
    };
    std::fs::create_dir_all(dir).map_err(|source| ImportError::Write {
        path: dir.to_path_buf(),
        source,
    })?;
    // A buffer too large to hold goes to an unnamed file beside the files it becomes.
    import_each(wad, options, Some(dir), progress, &write)
}

/// Imports `wad`, handing every file to `deliver` on the thread that made it; what `deliver`
/// returns, in object order (the project file last). Large glTF buffers spill into `spill`.
fn import_each<D: Send>(
    wad: &Wad,
    options: &ImportOptions,
    spill: Option<&std::path::Path>,
    progress: &mut dyn FnMut(usize, usize, &str),
    deliver: &(dyn Fn(MadeFile) -> Result<D, ImportError> + Sync),
) -> Result<(Vec<D>, ImportPhases), ImportError> {
    let game = options.game;
    let moveable_slots: Vec<String> = wad
        .moveables
        .iter()
        .map(|m| catalog::moveable_slot(game, m.id))
        .collect();
    let static_slots: Vec<String> = wad
        .statics
        .iter()
        .map(|s| catalog::static_slot(game, s.id))
        .collect();
    let objects = select_objects(wad, game, options.only.as_deref())?;
    Limits::DEFAULT.objects.check(objects.len() as u64, 0)?;
    let importer = Importer::new(wad, options, moveable_slots, static_slots, spill);
    dressed_draws::draws_fit(
        wad,
        objects
            .iter()
            .map(|o| (importer.object_name(o), importer.drawn_meshes(o))),
    )?;
    texture_budget::check(
        wad,
        objects
            .iter()
            .map(|o| (importer.object_name(o), importer.texture_samples(o))),
    )?;
    let channels = |o: &ObjectRef| match *o {
        ObjectRef::Moveable(MoveableIndex(i)) => animation_budget::channels(&wad.moveables[i]),
        ObjectRef::Static(_) => 0,
    };
    animation_budget::check(
        objects.iter().map(|o| (importer.object_name(o), channels(o))),
        options.input_bytes,
    )?;

    // Objects are independent: each is made on its own (in parallel), then their files are
    // listed in object order, so the output does not depend on the thread count.
    let made = in_parallel(
        &objects,
        |object| {
            let made = importer.object_files(object);
            let delivered: Result<Vec<D>, ImportError> = made
                .files
                .and_then(|files| files.into_iter().map(deliver).collect());
            (delivered, made.manifest, made.slot, made.phases)
        },
        |(delivered, _, slot, _)| delivered.is_ok().then(|| slot.clone()),
        progress,
    );
    let mut files = Vec::new();
    let mut listed = Vec::new();
    let mut phases = ImportPhases::default();
    for (delivered, manifest, _, object_phases) in made {
        files.extend(delivered?);
        listed.push(manifest);
        phases.add(&object_phases);
    }
    if let Some(detail) = &options.wad2_detail {
        files.push(deliver(MadeFile {
            path: manifests::WAD2_DETAIL_FILE.to_string(),
            body: Body::bytes(detail.clone()),
        })?);
    }
    let yaml_started = Instant::now();
    let project = project_file(options, listed);
    phases.yaml += yaml_started.elapsed();
    files.push(deliver(MadeFile {
        path: project.path,
        body: Body::bytes(project.bytes),
    })?);
    Ok((files, phases))
}

/// Every object of `wad` in file order (moveables, then statics), or those `only` names by slot
/// name or id; a name no object has is an error that lists the slot names there are.
fn select_objects(wad: &Wad, game: Game, only: Option<&[String]>) -> Result<Vec<ObjectRef>, ImportError> {
    Ok(match only {
        Some(only) => selection::select(wad, game, only)?,
        None => selection::all_objects(wad).collect(),
    })
}

/// The top-level manifest: the source, game, units and the list of object manifests.
fn project_file(options: &ImportOptions, listed: Vec<String>) -> OutputFile {
    let project = Project {
        wadforge: manifests::SCHEMA_VERSION,
        source: options.source.clone(),
        game: options.game.name().to_string(),
        units: Units {
            tr_units_per_metre: options.tr_units_per_metre,
            axes: manifests::AXES.to_string(),
        },
        objects: listed,
        wad2_detail: options
            .wad2_detail
            .as_ref()
            .map(|_| manifests::WAD2_DETAIL_FILE.to_string()),
    };
    let header = "wadforge manifest directory. `wadforge build` turns it back into a WAD; see README.md.";
    OutputFile {
        path: manifests::PROJECT_FILE.to_string(),
        bytes: manifests::write_yaml(&project, header).into_bytes(),
    }
}

/// What the import of each object reads: the model, the options, and the plans made for all
/// objects at once (slot and bone names, dressing, which object writes each shared mesh).
struct Importer<'a> {
    wad: &'a Wad,
    options: &'a ImportOptions,
    space: Space,
    moveable_slots: Vec<String>,
    static_slots: Vec<String>,
    /// File names (without extension) of each moveable's and static's files.
    moveable_stems: Vec<String>,
    static_stems: Vec<String>,
    bones: Vec<Vec<String>>,
    dressing: Vec<Option<Dressing>>,
    owners: Owners,
    images: atlas::Images,
    spill: Option<&'a std::path::Path>,
    /// Where each animation's references point, in moveables of the file (another object's
    /// animations are named by that object's id).
    targets: Vec<Vec<references::Targets>>,
}

impl<'a> Importer<'a> {
    fn new(
        wad: &'a Wad,
        options: &'a ImportOptions,
        moveable_slots: Vec<String>,
        static_slots: Vec<String>,
        spill: Option<&'a std::path::Path>,
    ) -> Self {
        let game = options.game;
        let bones: Vec<Vec<String>> = wad
            .moveables
            .iter()
            .map(|m| match options.bone_names.get(&m.id) {
                Some(given) if given.len() == m.meshes.len() => given.clone(),
                _ => names::bone_names(game, m.id, m.meshes.len()),
            })
            .collect();
        let dressing = dressing::dressings(wad, game);
        let owners = plan_owners(wad, &dressing, &bones);
        let moveable_stems = file_stems(wad.moveables.iter().map(|m| m.id), &moveable_slots);
        let starts = (options.animation_starts.clone())
            .filter(|s| s.len() == wad.moveables.len())
            .unwrap_or_else(|| references::canonical_starts(&wad.moveables));
        let static_stems = file_stems(wad.statics.iter().map(|s| s.id), &static_slots);
        Importer {
            wad,
            options,
            space: Space {
                tr_units_per_metre: options.tr_units_per_metre,
            },
            moveable_slots,
            static_slots,
            moveable_stems,
            static_stems,
            bones,
            dressing,
            owners,
            images: atlas::Images::default(),
            spill,
            targets: references::resolve(&wad.moveables, &starts),
        }
    }

    fn making(&self) -> object::Making<'_> {
        object::Making {
            space: &self.space,
            skewed: &self.options.skewed,
            images: &self.images,
            spill: self.spill,
        }
    }

    /// The files of one object: its glTF (and a dressed skeleton's placeholders glTF) and its
    /// manifest.
    fn object_files(&self, object: &ObjectRef) -> ObjectFiles {
        let (kind, stem, slot) = match *object {
            ObjectRef::Moveable(MoveableIndex(i)) => (
                "moveables",
                self.moveable_stems[i].clone(),
                &self.moveable_slots[i],
            ),
            ObjectRef::Static(StaticIndex(i)) => {
                ("statics", self.static_stems[i].clone(), &self.static_slots[i])
            }
        };
        let mut phases = ImportPhases::default();
        let yaml = format!("{kind}/{stem}.yaml");
        let files = self
            .files_of(object, kind, &stem, slot, &yaml, &mut phases)
            .map_err(|source| ImportError::Write {
                path: self
                    .spill
                    .unwrap_or(std::path::Path::new("."))
                    .join(kind)
                    .join(&stem),
                source,
            });
        ObjectFiles {
            files,
            manifest: yaml,
            slot: slot.clone(),
            phases,
        }
    }

    /// The files of `object` ([`Importer::object_files`]); an error when a glTF buffer could not
    /// spill to its file.
    fn files_of(
        &self,
        object: &ObjectRef,
        kind: &str,
        stem: &str,
        slot: &str,
        yaml: &str,
        phases: &mut ImportPhases,
    ) -> std::io::Result<Vec<MadeFile>> {
        let started = Instant::now();
        let mut files = Vec::new();
        let (document, manifest) = match *object {
            ObjectRef::Moveable(MoveableIndex(i)) => self.moveable(i, stem, &mut files, phases)?,
            ObjectRef::Static(StaticIndex(i)) => self.static_object(i),
        };
        phases.images += document.image_time;
        let gltf_files = document.into_files(stem, self.options.format)?;
        let gltf_name = gltf_files.last().map(|(n, _)| n.clone()).unwrap_or_default();
        let manifest = with_gltf(manifest, gltf_name);
        let header = format!(
            "wadforge object manifest: {slot}. Edit the glTF beside it in Blender; see README.md.\n\
             Values under `kept_exactly:` let an unedited object build back exactly: they need no editing."
        );
        files.extend(gltf_files.into_iter().map(|(name, body)| MadeFile {
            path: format!("{kind}/{name}"),
            body,
        }));
        let yaml_started = Instant::now();
        files.push(MadeFile {
            path: yaml.to_string(),
            body: Body::bytes(manifests::write_object_manifest(&manifest, &header).into_bytes()),
        });
        phases.yaml += yaml_started.elapsed();
        phases.gltf += started.elapsed().saturating_sub(phases.images + phases.yaml);
        Ok(files)
    }

    /// The glTF document and manifest (its glTF not named yet) of moveable `i`; the placeholders
    /// glTF of a dressed skeleton goes into `files`.
    fn moveable(
        &self,
        i: usize,
        stem: &str,
        files: &mut Vec<MadeFile>,
        phases: &mut ImportPhases,
    ) -> std::io::Result<(Document, ObjectManifest)> {
        let (wad, game) = (self.wad, self.options.game);
        let m = &wad.moveables[i];
        let slot = &self.moveable_slots[i];
        let animation_names = match self.options.animation_names.get(&m.id) {
            Some(given) if given.len() == m.animations.len() => given.clone(),
            _ => names::animation_names(
                game,
                m.id,
                &m.animations.iter().map(|a| a.state).collect::<Vec<_>>(),
            ),
        };
        let shows = self.shows(i);
        let names_of = object::MoveableNames {
            game,
            slot,
            bones: &self.bones[i],
            animations: &animation_names,
        };
        let document = object::moveable(wad, m, &shows, &names_of, &self.making());
        let placeholders = self.placeholders(i, &names_of, stem, phases).transpose()?;
        let placeholders_name = placeholders
            .as_ref()
            .and_then(|f| f.last())
            .map(|(name, _)| name.clone());
        files.extend(placeholders.into_iter().flatten().map(|(name, body)| MadeFile {
            path: format!("moveables/{name}"),
            body,
        }));
        let manifest = ObjectManifest::Moveable(manifests::MoveableManifest {
            id: m.id,
            slot: slot.clone(),
            gltf: String::new(),
            dressed_by: self.dressing[i].map(|d| manifests::Dressing {
                body: wad.moveables[d.body].id,
                joints: d.joints.map(|j| wad.moveables[j].id),
                placeholders: placeholders_name,
            }),
            bones: self.bone_manifests(i),
            animations: manifest::animations(
                game,
                (wad, MoveableIndex(i)),
                &self.targets[i],
                &animation_names,
            ),
        });
        Ok((document, manifest))
    }

    /// The files of dressed moveable `i`'s placeholders glTF: the meshes of its own that it
    /// alone holds. `None` when it is not dressed or holds none.
    fn placeholders(
        &self,
        i: usize,
        names_of: &object::MoveableNames,
        stem: &str,
        phases: &mut ImportPhases,
    ) -> Option<std::io::Result<Vec<(String, Body)>>> {
        let m = &self.wad.moveables[i];
        self.placeholder_joints(i).map(|kept| {
            let shows = object::Shows::Placeholders(&kept);
            let document = object::moveable(self.wad, m, &shows, names_of, &self.making());
            phases.images += document.image_time;
            document.into_files(&format!("{stem}_placeholders"), self.options.format)
        })
    }

    /// The object as errors name it: `LARA (moveable 0)`.
    fn object_name(&self, object: &ObjectRef) -> String {
        let name = match *object {
            ObjectRef::Moveable(MoveableIndex(i)) => ObjectName::with_slot(
                &self.moveable_slots[i],
                ObjectKind::Moveable,
                self.wad.moveables[i].id,
            ),
            ObjectRef::Static(StaticIndex(i)) => {
                ObjectName::with_slot(&self.static_slots[i], ObjectKind::Static, self.wad.statics[i].id)
            }
        };
        name.to_string()
    }

    /// The meshes `object`'s files draw, dressing included.
    fn drawn_meshes(&self, object: &ObjectRef) -> Vec<usize> {
        let wad = self.wad;
        match *object {
            ObjectRef::Moveable(MoveableIndex(i)) => {
                dressed_draws::drawn_meshes(wad, &wad.moveables[i], self.dressing[i]).collect()
            }
            ObjectRef::Static(StaticIndex(i)) => vec![wad.statics[i].mesh],
        }
    }

    /// What moveable `i`'s glTF shows: its own meshes, or those of the moveables dressing it.
    fn shows(&self, i: usize) -> object::Shows<'a> {
        let wad = self.wad;
        match self.dressing[i] {
            Some(d) => object::Shows::Dressed(object::Dress {
                body: &wad.moveables[d.body],
                joints: d.joints.map(|j| &wad.moveables[j]),
            }),
            None => object::Shows::Own,
        }
    }

    /// The joints of dressed moveable `i` whose meshes it alone holds (its placeholders glTF);
    /// `None` when it is not dressed or holds none.
    fn placeholder_joints(&self, i: usize) -> Option<Vec<usize>> {
        let m = &self.wad.moveables[i];
        let kept: Vec<usize> = (0..m.meshes.len())
            .filter(|&b| self.owners.owner_of(m.meshes[b]) == Some(Owner::Bone(i, b)))
            .collect();
        (self.dressing[i].is_some() && !kept.is_empty()).then_some(kept)
    }

    /// The samples of each texture image `object`'s glTF files hold (see [`atlas::Atlas`]).
    fn texture_samples(&self, object: &ObjectRef) -> Vec<Vec<usize>> {
        let wad = self.wad;
        match *object {
            ObjectRef::Moveable(MoveableIndex(i)) => {
                let m = &wad.moveables[i];
                let mut sets = vec![atlas::Atlas::samples_of(
                    wad,
                    object::textured_meshes(wad, m, &self.shows(i)),
                )];
                if let Some(kept) = self.placeholder_joints(i) {
                    let shows = object::Shows::Placeholders(&kept);
                    sets.push(atlas::Atlas::samples_of(
                        wad,
                        object::textured_meshes(wad, m, &shows),
                    ));
                }
                sets
            }
            ObjectRef::Static(StaticIndex(i)) => {
                vec![atlas::Atlas::samples_of(wad, wad.meshes.get(wad.statics[i].mesh))]
            }
        }
    }

    /// Moveable `i`'s bones: name, and its mesh's sphere and lighting (or what it is the same as).
    fn bone_manifests(&self, i: usize) -> Vec<manifests::Bone> {
        let wad = self.wad;
        wad.moveables[i]
            .meshes
            .iter()
            .zip(&self.bones[i])
            .enumerate()
            .map(|(b, (&mesh, name))| manifests::Bone {
                name: name.clone(),
                mesh: manifest::mesh_info(
                    &wad.meshes[mesh],
                    self.owners.same_as(Owner::Bone(i, b), mesh, wad),
                ),
            })
            .collect()
    }

    /// The glTF document and manifest (its glTF not named yet) of static `i`.
    fn static_object(&self, i: usize) -> (Document, ObjectManifest) {
        let wad = self.wad;
        let s = &wad.statics[i];
        let slot = &self.static_slots[i];
        let document = object::static_object(wad, s, slot, &self.making());
        let same_as = self.owners.same_as(Owner::Static(i), s.mesh, wad);
        let manifest = ObjectManifest::Static(manifest::static_manifest(
            s,
            slot,
            String::new(),
            &wad.meshes[s.mesh],
            same_as,
        ));
        (document, manifest)
    }
}

/// The files of one object.
/// One file of the manifest directory as import makes it (a large glTF buffer partly spilled).
struct MadeFile {
    /// Path relative to the directory, `/`-separated.
    path: String,
    body: Body,
}

struct ObjectFiles {
    files: Result<Vec<MadeFile>, ImportError>,
    /// Its manifest's path, for the project's list.
    manifest: String,
    slot: String,
    phases: ImportPhases,
}

fn with_gltf(manifest: ObjectManifest, gltf: String) -> ObjectManifest {
    match manifest {
        ObjectManifest::Moveable(mut m) => {
            m.gltf = gltf;
            ObjectManifest::Moveable(m)
        }
        ObjectManifest::Static(mut s) => {
            s.gltf = gltf;
            ObjectManifest::Static(s)
        }
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Owner {
    Bone(usize, usize),
    Static(usize),
}

/// Which object writes each shared mesh: a moveable that dresses others (so an edit of a body in
/// its own glTF goes into the body, whichever object shares its meshes), else the first undressed
/// object (in file order) that shows it, else the first dressed skeleton that holds it (in its
/// placeholders glTF).
struct Owners {
    by_mesh: HashMap<MeshIndex, Owner>,
    bone_names: Vec<Vec<String>>,
}

fn plan_owners(wad: &Wad, dressing: &[Option<Dressing>], bones: &[Vec<String>]) -> Owners {
    let mut by_mesh = HashMap::new();
    let dresses: Vec<usize> = dressing
        .iter()
        .flatten()
        .flat_map(|d| std::iter::once(d.body).chain(d.joints))
        .collect();
    let undressed = (0..wad.moveables.len()).filter(|&i| dressing[i].is_none());
    let (bodies, others): (Vec<usize>, Vec<usize>) = undressed.partition(|i| dresses.contains(i));
    for i in bodies.into_iter().chain(others) {
        for (b, &k) in wad.moveables[i].meshes.iter().enumerate() {
            by_mesh.entry(k).or_insert(Owner::Bone(i, b));
        }
    }
    for (i, s) in wad.statics.iter().enumerate() {
        by_mesh.entry(s.mesh).or_insert(Owner::Static(i));
    }
    for (i, m) in wad
        .moveables
        .iter()
        .enumerate()
        .filter(|(i, _)| dressing[*i].is_some())
    {
        for (b, &k) in m.meshes.iter().enumerate() {
            by_mesh.entry(k).or_insert(Owner::Bone(i, b));
        }
    }
    Owners {
        by_mesh,
        bone_names: bones.to_vec(),
    }
}

impl Owners {
    /// The object that writes `mesh`.
    fn owner_of(&self, mesh: MeshIndex) -> Option<Owner> {
        self.by_mesh.get(&mesh).copied()
    }

    /// The reference for `user`'s mesh `mesh`, or `None` when `user` writes it itself.
    fn same_as(&self, user: Owner, mesh: MeshIndex, wad: &Wad) -> Option<MeshRef> {
        match *self.by_mesh.get(&mesh)? {
            owner if owner == user => None,
            Owner::Bone(i, b) => Some(MeshRef::Moveable {
                id: wad.moveables[i].id,
                bone: self.bone_names[i][b].clone(),
            }),
            Owner::Static(i) => Some(MeshRef::Static {
                id: wad.statics[i].id,
            }),
        }
    }
}
