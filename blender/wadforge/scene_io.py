"""The scene side: a manifest directory's glTF files into one collection per object, and each
collection back over its glTF file, with the settings wadforge's Blender round trip needs."""

import glob
import json
import os

import bpy

from . import runner

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
    try:
        for done, path in enumerate(files):
            import_one(context, directory, path)
            wm.progress_update(done + 1)
    finally:
        wm.progress_end()
    scene[SOURCE] = source
    scene[DIRECTORY] = directory
    operator.report({"INFO"}, f"imported {len(files)} objects from {source} into {directory}")
    return {"FINISHED"}


def import_one(context, directory, path):
    """The glTF at `path` into a new collection named after it."""
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
            f"manifest directory {directory or ''} is gone")
    out = os.path.abspath(bpy.path.abspath(operator.filepath))
    # A later import into the same scene names another directory: its objects are the ones built.
    collections = [c for c in bpy.data.collections if c.get(GLTF) and c.get(DIRECTORY) == directory]
    others = [c.name for c in bpy.data.collections if c.get(GLTF) and c.get(DIRECTORY) != directory]
    if others:
        listed = ", ".join(others[:5]) + (" ..." if len(others) > 5 else "")
        operator.report({"WARNING"}, f"{len(others)} objects of an earlier import (another manifest directory) "
                        f"are not exported: {listed}")
    wm = context.window_manager
    wm.progress_begin(0, len(collections) + 1)
    try:
        with action_filter() as keep:
            for done, collection in enumerate(collections):
                export_one(context, directory, collection, keep)
                wm.progress_update(done + 1)
        args = ["build", directory, "-o", out]
        base = base_of(operator, scene)
        if base:
            args += ["--base", base]
        ok, _, err = runner.run(program, args)
    finally:
        wm.progress_end()
    if not ok:
        report_lines(operator, err, "ERROR")
        return {"CANCELLED"}
    report_lines(operator, err, "INFO")
    return {"FINISHED"}


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


class action_filter:
    """The glTF exporter's action filter, which keeps each export to its object's actions: with
    one armature in an export, the exporter would take every armature action of the file. It is
    the list the exporter's own "filter actions" option fills; emptied after."""

    def __enter__(self):
        import io_scene_gltf2

        self.registered = not hasattr(bpy.types.Scene, "gltf_action_filter")
        if self.registered:
            kind = io_scene_gltf2.GLTF2_filter_action
            bpy.types.Scene.gltf_action_filter = bpy.props.CollectionProperty(type=kind)
        self.items = bpy.data.scenes[0].gltf_action_filter
        return self.keep

    def keep(self, actions):
        self.items.clear()
        for action in bpy.data.actions:
            item = self.items.add()
            item.action = action
            item.keep = action in actions

    def __exit__(self, *_):
        self.items.clear()
        if self.registered:
            del bpy.types.Scene.gltf_action_filter
        return False


def export_one(context, directory, collection, keep):
    """`collection` back over its glTF file, with only its own actions."""
    path = os.path.join(directory, collection[GLTF])
    keep(own_actions(collection))
    layer = context.view_layer.layer_collection.children.get(collection.name)
    if layer is None:
        raise runner.WadforgeError(f"collection {collection.name} is not in this scene's view layer")
    context.view_layer.active_layer_collection = layer
    with glTF_names(collection, own_actions(collection)), scene_extras(context.scene, collection):
        result = bpy.ops.export_scene.gltf(filepath=path, use_active_collection=True, **EXPORT_SETTINGS)
    if "FINISHED" not in result:
        raise runner.WadforgeError(f"Blender's glTF exporter could not write {path}")


class glTF_names:
    """The blocks of a collection (objects, their meshes or armatures and materials, and
    `actions`) under their glTF names while its export runs (others of those names step aside
    under temporary ones), then all under their names again."""

    def __init__(self, collection, actions):
        blocks = set(actions)
        for obj in collection.all_objects:
            blocks.add(obj)
            if obj.data is not None:
                blocks.add(obj.data)
            for slot in getattr(obj, "material_slots", []):
                if slot.material is not None:
                    blocks.add(slot.material)
        self.renamed = [b for b in blocks if b.get(GLTF_NAME)]

    def __enter__(self):
        self.names = []
        for kind in NAMED:
            of_kind = set(getattr(bpy.data, kind))
            mine = [b for b in self.renamed if b in of_kind]
            wanted = {b[GLTF_NAME] for b in mine}
            aside = [b for b in getattr(bpy.data, kind) if b.name in wanted and b not in mine]
            for i, block in enumerate(aside + mine):
                self.names.append((block, block.name))
                block.name = f"wadforge-aside-{kind}-{i}"
            for block in mine:
                block.name = block[GLTF_NAME]
        return self

    def __exit__(self, *_):
        for i, (block, _) in enumerate(self.names):
            block.name = f"wadforge-back-{i}"
        for block, name in self.names:
            block.name = name
        return False


class scene_extras:
    """The collection's glTF scene extras on the Blender scene while its export runs."""

    def __init__(self, scene, collection):
        self.scene = scene
        self.extras = plain(collection.get(SCENE_EXTRAS, {}))

    def __enter__(self):
        self.before = {key: plain(self.scene[key]) for key in self.extras if key in self.scene}
        for key, value in self.extras.items():
            self.scene[key] = value
        return self

    def __exit__(self, *_):
        for key in self.extras:
            if key in self.before:
                self.scene[key] = self.before[key]
            elif key in self.scene:
                del self.scene[key]
        return False


def own_actions(collection):
    """The actions the collection's objects play: active, or on their NLA tracks."""
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
