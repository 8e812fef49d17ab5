"""The scene side: a manifest directory's glTF files into one collection per object, and each
collection back over its glTF file, with the settings wadforge's Blender round trip needs."""

import contextlib
import glob
import json
import os

import bpy

from . import fingerprint, layout, new_objects, runner, sound_markers

# What keeps a wadforge glTF exact through Blender (see the project's docs on Blender and glTF).
IMPORT_SETTINGS = dict(
    bone_heuristic="BLENDER",
    guess_original_bind_pose=True,
    merge_vertices=False,
    disable_bone_shape=True,
)
EXPORT_SETTINGS = dict(
    export_format="GLB",
    export_force_sampling=False,
    export_animation_mode="ACTIONS",
    export_extras=True,
    export_attributes=True,
    export_yup=True,
    export_armature_object_remove=True,
)
# A new object's glTF: read by build as a foreign model, whose reader takes the armature's node.
NEW_EXPORT_SETTINGS = dict(EXPORT_SETTINGS, export_armature_object_remove=False)
# Scene and collection properties the extension keeps.
SOURCE = "wadforge_source"
DIRECTORY = "wadforge_directory"
GLTF = "wadforge_gltf"
GLTF_NAME = "wadforge_gltf_name"
SCENE_EXTRAS = "wadforge_scene_extras"
# The kinds of data whose names Blender keeps unique across the file.
NAMED = ("objects", "meshes", "armatures", "materials", "actions")

_objects_of = {}


def program(context):
    """The wadforge program (preferences, else PATH), or a WadforgeError saying what to do."""
    addon = context.preferences.addons.get(__package__)
    configured = addon.preferences.wadforge_path if addon else ""
    return runner.find(configured)[0]


def report_lines(operator, text, kind):
    """Each line of wadforge's messages in Blender's status bar and Info editor."""
    for line in text.splitlines():
        line = line.strip()
        if line:
            operator.report({kind}, line)


def file_objects(context, path):
    """The objects of the file at `path` (`wadforge info --json`) as (label, what --only takes):
    the slot name where the file has one object of that name, else the id; none for a file
    wadforge cannot read."""
    if not os.path.isfile(path):
        return []
    if path not in _objects_of:
        found = []
        try:
            ok, out, _ = runner.run(program(context), ["info", "--json", path])
            if ok:
                info = json.loads(out)
                listed = [("moveable", m) for m in info.get("moveables", [])]
                listed += [("static", st) for st in info.get("statics", [])]
                slots = [o["slot"] for _, o in listed]
                for kind, o in listed:
                    key = o["slot"] if slots.count(o["slot"]) == 1 else str(o["id"])
                    found.append((f"{o['slot']} ({kind} {o['id']})", key))
        except (runner.WadforgeError, ValueError, KeyError, TypeError):
            found = []
        _objects_of[path] = found
    return _objects_of[path]


def import_objects(operator, context, program, only):
    source = os.path.abspath(bpy.path.abspath(operator.filepath))
    if not os.path.isfile(source):
        raise runner.WadforgeError(f"{source} is not a file: choose a .wad, .wad2, .phd, .tr2 or .tr4")
    stem = os.path.splitext(os.path.basename(source))[0]
    chosen = bpy.path.abspath(operator.manifest_directory) if operator.manifest_directory else ""
    directory = os.path.abspath(chosen or os.path.join(os.path.dirname(source), f"{stem}_wadforge"))
    if os.path.isdir(directory) and os.listdir(directory):
        raise runner.WadforgeError(
            f"{directory} is not empty: choose a new or empty manifest directory (wadforge never writes over one)")
    args = ["import", source, "-o", directory]
    if only:
        args += ["--only", ",".join(only)]
    ok, _, err = runner.run(program, args)
    if not ok:
        report_lines(operator, err, "ERROR")
        return {"CANCELLED"}
    report_lines(operator, "\n".join(l for l in err.splitlines() if l.startswith("note:")), "INFO")
    scene = context.scene
    # wadforge's keyframes are 1/30 s apart: at another rate they land between frames.
    scene.render.fps = 30
    scene.render.fps_base = 1
    files = sorted(glob.glob(os.path.join(directory, "moveables", "*.glb")))
    files += sorted(glob.glob(os.path.join(directory, "statics", "*.glb")))
    wm = context.window_manager
    wm.progress_begin(0, len(files))
    earlier = [c for c in bpy.data.collections if c.get(GLTF)]
    made = []
    try:
        for done, path in enumerate(files):
            made.append(import_one(context, directory, path))
            wm.progress_update(done + 1)
    finally:
        wm.progress_end()
    context.view_layer.update()
    layout.side_by_side(made, layout.end_of(earlier))
    pixels = {}
    for collection in made:
        collection[fingerprint.FINGERPRINT] = fingerprint.of_collection(collection, own_actions(collection), pixels)
    frame_range_of_active_action(scene, made)
    scene[SOURCE] = source
    scene[DIRECTORY] = directory
    operator.report({"INFO"}, f"imported {len(files)} objects from {source} into {directory}")
    return {"FINISHED"}


def import_one(context, directory, path):
    """The glTF at `path` into a new collection named after it.

    Beyond import_scene.gltf's arguments, this relies on its importer's behaviour (the glTF
    add-on's, tested at Blender 5.0.1 by tests/blender_extension.rs): what it makes goes under the
    active collection; the glTF scene's extras become custom properties of the Blender scene (the
    default of its newer `import_scene_extras`); each block is named after its glTF name, with
    Blender's `.001` suffixes where the name is taken."""
    collection = bpy.data.collections.new(os.path.splitext(os.path.basename(path))[0])
    context.scene.collection.children.link(collection)
    layer = context.view_layer.layer_collection.children[collection.name]
    context.view_layer.active_layer_collection = layer
    before = {kind: set(getattr(bpy.data, kind)) for kind in NAMED}
    scene = context.scene
    scene_before = {key: plain(scene[key]) for key in scene.keys()}
    result = bpy.ops.import_scene.gltf(filepath=path, **IMPORT_SETTINGS)
    if "FINISHED" not in result:
        raise runner.WadforgeError(f"Blender's glTF importer could not read {path}")
    collection[GLTF] = os.path.relpath(path, directory)
    collection[DIRECTORY] = directory
    # The glTF scene's extras (wadforge keeps each stored mesh there) land on the Blender scene,
    # which every object shares: each collection keeps its own, and its export puts them back.
    extras = {
        key: plain(scene[key])
        for key in scene.keys()
        if key not in scene_before or plain(scene[key]) != scene_before[key]
    }
    collection[SCENE_EXTRAS] = extras
    for key in extras:
        if key in scene_before:
            scene[key] = scene_before[key]
        else:
            del scene[key]
    # Names are one list per kind for the whole file: a second DOOR's `DOOR_body` becomes
    # `DOOR_body.001`, a second object's action `000_state_0` becomes `000_state_0.001`. Each
    # keeps its glTF name, which its export gives back (build finds them by name).
    names = gltf_names(path)
    for kind in NAMED:
        for block in set(getattr(bpy.data, kind)) - before[kind]:
            stem, dot, suffix = block.name.rpartition(".")
            if dot and suffix.isdigit() and stem in names:
                block[GLTF_NAME] = stem
    sound_markers.add_markers(own_actions(collection), extras)
    return collection


def frame_range_of_active_action(scene, collections):
    """The scene's frame range set to the first imported armature's active action's."""
    for collection in collections:
        for obj in collection.all_objects:
            data = obj.animation_data
            if obj.type == "ARMATURE" and data is not None and data.action is not None:
                start, end = data.action.frame_range
                scene.frame_start, scene.frame_end = int(start), max(int(start), int(round(end)))
                return


def plain(value):
    """A custom property's value as plain Python (groups as dicts, arrays as lists)."""
    if hasattr(value, "to_dict"):
        return value.to_dict()
    if hasattr(value, "to_list"):
        return value.to_list()
    return value


def gltf_names(path):
    """Every name a GLB file's JSON gives (nodes, meshes, materials, skins, animations)."""
    with open(path, "rb") as f:
        header = f.read(20)
        if header[:4] != b"glTF":
            return set()
        length = int.from_bytes(header[12:16], "little")
        document = json.loads(f.read(length))
    lists = ("nodes", "meshes", "materials", "skins", "animations")
    return {item.get("name", "") for key in lists for item in document.get(key, [])}


def export_objects(operator, context, program):
    scene = context.scene
    directory = scene.get(DIRECTORY)
    if not directory or not os.path.isdir(directory):
        raise runner.WadforgeError(
            "this scene holds no objects imported with wadforge (File > Import > Tomb Raider objects), or their "
            f"manifest directory {directory or ''} is gone; new objects are built into the manifest directory of "
            "an import: import the WAD they go into first (or export a new object alone as glTF and run "
            "wadforge import MODEL.glb --slot NAME -o DIR)")
    out = os.path.abspath(bpy.path.abspath(operator.filepath))
    # A later import into the same scene names another directory: its objects are the ones built.
    collections = [c for c in bpy.data.collections if c.get(GLTF) and c.get(DIRECTORY) == directory]
    others = [c.name for c in bpy.data.collections if c.get(GLTF) and c.get(DIRECTORY) != directory]
    if others:
        listed = ", ".join(others[:5]) + (" ..." if len(others) > 5 else "")
        operator.report({"WARNING"}, f"{len(others)} objects of an earlier import (another manifest directory) "
                        f"are not exported: {listed}")
    imported = [c for c in bpy.data.collections if c.get(GLTF)]
    new = new_objects.find(context.view_layer, imported)
    pixels = {}
    changed = [c for c in collections if operator.everything or changed_since_import(c, pixels)]
    wm = context.window_manager
    wm.progress_begin(0, len(changed) + len(new) + 1)
    try:
        args = ["build", directory, "-o", out]
        # The glTF add-on's internals: its exporter's action filter (see `action_filter`).
        with action_filter() as keep:
            for done, collection in enumerate(changed):
                export_one(context, directory, collection, keep)
                wm.progress_update(done + 1)
            for done, (root, objects) in enumerate(new):
                path, slot = new_objects.export(context, directory, root, objects, keep, NEW_EXPORT_SETTINGS)
                args += ["--new", f"{path}={slot}"]
                wm.progress_update(len(changed) + done + 1)
        base = base_of(operator, scene)
        if base:
            args += ["--base", base]
        ok, _, err = runner.run(program, args)
    finally:
        wm.progress_end()
    if not ok:
        report_lines(operator, err, "ERROR")
        if new and "--new" in err:
            operator.report({"ERROR"}, "a new object's slot is its name (ANIMATING1, ANIMATING1.001) or the one set "
                            "in Object properties > wadforge slot: rename the object or set its slot")
        return {"CANCELLED"}
    report_lines(operator, err, "INFO")
    operator.report({"INFO"}, f"exported {len(changed)} changed of {len(collections)} imported objects and "
                    f"{len(new)} new ones")
    return {"FINISHED"}


def changed_since_import(collection, pixels):
    """Whether the collection differs from what its glTF file holds (the fingerprint import, or
    the collection's last export, recorded)."""
    recorded = collection.get(fingerprint.FINGERPRINT)
    return recorded is None or recorded != fingerprint.of_collection(collection, own_actions(collection), pixels)


def base_of(operator, scene):
    """The file to patch: the one asked for, else the imported file when it is a WAD or Wad2."""
    if not operator.use_base:
        return None
    if operator.base:
        return os.path.abspath(bpy.path.abspath(operator.base))
    source = scene.get(SOURCE, "")
    if source.lower().endswith((".wad", ".wad2")) and os.path.isfile(source):
        return source
    return None


@contextlib.contextmanager
def action_filter():
    """The glTF exporter's action filter, which keeps each export to its object's actions: with
    one armature in an export, the exporter would take every armature action of the file. Yields
    `keep(actions)`, which makes the filter keep those actions only; emptied after.

    The glTF add-on's internals, not its operators' arguments: the filter is the list its own
    "filter actions" option fills, the property `Scene.gltf_action_filter` (registered by that
    option, of the add-on's `io_scene_gltf2.GLTF2_filter_action` items: `action`, `keep`), which
    the exporter reads on `bpy.data.scenes[0]`, whatever `export_action_filter` says, and skips the
    actions whose `keep` is off. A glTF add-on that changes any of that breaks this: the round
    trips of tests/blender_extension.rs (at Blender 5.0.1) are what would tell."""
    import io_scene_gltf2

    registered = not hasattr(bpy.types.Scene, "gltf_action_filter")
    if registered:
        kind = io_scene_gltf2.GLTF2_filter_action
        bpy.types.Scene.gltf_action_filter = bpy.props.CollectionProperty(type=kind)
    items = bpy.data.scenes[0].gltf_action_filter

    def keep(actions):
        items.clear()
        for action in bpy.data.actions:
            item = items.add()
            item.action = action
            item.keep = action in actions

    try:
        yield keep
    finally:
        items.clear()
        if registered:
            del bpy.types.Scene.gltf_action_filter


def export_one(context, directory, collection, keep):
    """`collection` back over its glTF file, with only its own actions.

    Beyond export_scene.gltf's arguments, this relies on the glTF add-on's exporter: its action
    filter (see `action_filter`, the add-on's internals); the names of Blender's blocks written as
    the glTF names (see `glTF_names`); the scene's custom properties written as the glTF scene's
    extras (see `scene_extras`); the actions of the objects' NLA tracks exported in ACTIONS mode
    (see `own_actions`)."""
    path = os.path.join(directory, collection[GLTF])
    keep(own_actions(collection))
    layer = context.view_layer.layer_collection.children.get(collection.name)
    if layer is None:
        raise runner.WadforgeError(f"collection {collection.name} is not in this scene's view layer")
    context.view_layer.active_layer_collection = layer
    extras = plain(collection.get(SCENE_EXTRAS, {}))
    with glTF_names(collection, own_actions(collection)), scene_extras(context.scene, collection), \
            sound_markers.as_properties(own_actions(collection), extras), layout.undone(collection):
        result = bpy.ops.export_scene.gltf(filepath=path, use_active_collection=True, **EXPORT_SETTINGS)
    if "FINISHED" not in result:
        raise runner.WadforgeError(f"Blender's glTF exporter could not write {path}")
    collection[fingerprint.FINGERPRINT] = fingerprint.of_collection(collection, own_actions(collection))


@contextlib.contextmanager
def glTF_names(collection, actions):
    """The blocks of a collection (objects, their meshes or armatures and materials, and
    `actions`) under their glTF names while its export runs (others of those names step aside
    under temporary ones), then all under their names again. The glTF exporter writes each
    block's Blender name as its glTF name (its behaviour, not an argument), and build finds the
    meshes, bones and animations by those names."""
    blocks = set(actions)
    for obj in collection.all_objects:
        blocks.add(obj)
        if obj.data is not None:
            blocks.add(obj.data)
        for slot in getattr(obj, "material_slots", []):
            if slot.material is not None:
                blocks.add(slot.material)
    renamed = [b for b in blocks if b.get(GLTF_NAME)]
    # A copy of a block (an action copied in the Action editor) copies its glTF name too: of the
    # blocks that want one name, the first by Blender name keeps it, the others keep their own.
    claimed = {}
    for block in sorted(renamed, key=lambda b: b.name):
        claimed.setdefault((type(block).__name__, block[GLTF_NAME]), block)
    renamed = list(claimed.values())
    names = []
    try:
        for kind in NAMED:
            of_kind = set(getattr(bpy.data, kind))
            mine = [b for b in renamed if b in of_kind]
            wanted = {b[GLTF_NAME] for b in mine}
            aside = [b for b in getattr(bpy.data, kind) if b.name in wanted and b not in mine]
            for i, block in enumerate(aside + mine):
                names.append((block, block.name))
                block.name = f"wadforge-aside-{kind}-{i}"
            for block in mine:
                block.name = block[GLTF_NAME]
        yield
    finally:
        for i, (block, _) in enumerate(names):
            block.name = f"wadforge-back-{i}"
        for block, name in names:
            block.name = name


@contextlib.contextmanager
def scene_extras(scene, collection):
    """The collection's glTF scene extras on the Blender scene while its export runs (with
    `export_extras`, the exporter writes the scene's custom properties as the glTF scene's extras,
    as its importer made them of them: the add-on's documented behaviour, not its internals)."""
    extras = plain(collection.get(SCENE_EXTRAS, {}))
    before = {key: plain(scene[key]) for key in extras if key in scene}
    try:
        for key, value in extras.items():
            scene[key] = value
        yield
    finally:
        for key in extras:
            if key in before:
                scene[key] = before[key]
            elif key in scene:
                del scene[key]


def own_actions(collection):
    """The actions the collection's objects play: active, or on their NLA tracks (where the glTF
    importer stashes each animation, and whence its exporter in ACTIONS mode takes them)."""
    actions = set()
    for obj in collection.all_objects:
        data = obj.animation_data
        if data is None:
            continue
        if data.action:
            actions.add(data.action)
        for track in data.nla_tracks:
            actions.update(strip.action for strip in track.strips if strip.action)
    return actions
