"""New animations from Blender, through the wadforge extension in bpy 5.0.1, as a user makes them.

    python blender_new_animations.py EXTENSION.zip WADFORGE FILE WORKDIR OBJECT BONE

Installs EXTENSION.zip, imports FILE (a WAD) into WORKDIR/first, and on the moveable whose
collection starts with OBJECT (e.g. 051_): copies its animation 1's action as `ZZ_NEW`, turns
BONE in the copy's second key, gives the copy a state (77) and a speed with the extension's panel
operator, and has animation 0 dispatch state 77 to it (`wadforge_state_changes`); makes animation
2's action ten keyframes longer (a key at the end of every curve). No manifest is touched.
Exports WORKDIR/out.wad with the extension, then imports it again into WORKDIR/second. Prints one
JSON document: the steps' results, the lengthened action's last frame before and after, and the
second import's actions of the moveable. WADFORGE is the program (put on PATH for the run).
"""
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import bpy  # noqa: E402

from blender_edit import rotate_key  # noqa: E402
from blender_extension import install, try_operator  # noqa: E402
from blender_inspect import action_channelbags, json_stdout  # noqa: E402


def armature_of(prefix):
    collection = next(c for c in bpy.data.collections if c.name.startswith(prefix) and c.get("wadforge_gltf"))
    return next(o for o in collection.all_objects if o.type == "ARMATURE")


def played_actions(armature):
    data = armature.animation_data
    played = {data.action} if data.action else set()
    for track in data.nla_tracks:
        played.update(s.action for s in track.strips if s.action)
    return played


def action_numbered(armature, index):
    return next(a for a in played_actions(armature) if a.name.startswith(f"{index:03d}"))


def copy_as_new(armature, source, name):
    """A copy of `source` named `name`, on an NLA track of its own as the glTF importer puts each
    animation (what the Action editor's stash does too), so that export takes it."""
    copy = source.copy()
    copy.name = name
    track = armature.animation_data.nla_tracks.new()
    track.name = name
    strip = track.strips.new(name, 0, copy)
    track.mute = True
    if hasattr(strip, "action_slot") and copy.slots:
        strip.action_slot = copy.slots[0]
    return copy


def set_with_panel(armature, action, name, value):
    """Sets property `name` of `action` as a user does: the panel's + button (its default), then
    the value typed into the field it shows."""
    data = armature.animation_data
    before = data.action
    data.action = action
    bpy.context.view_layer.objects.active = armature
    result = bpy.ops.wadforge.action_property(name=name)
    action[name] = value
    data.action = before
    return sorted(result)


class RecordingLayout:
    """A stand-in for a panel's layout (a panel draws only in Blender's window): what it was asked
    to show, one line a row."""

    def __init__(self, lines=None):
        self.lines = [] if lines is None else lines

    def row(self, **_):
        return self

    def label(self, text="", **_):
        self.lines.append(f"label {text}")

    def prop(self, data, path, text="", **_):
        self.lines.append(f"prop {path} {text} = {data[path[2:-2]]!r}")

    def operator(self, idname, **_):
        self.lines.append(f"operator {idname}")
        return type("Properties", (), {})()


def panel_lines(armature, action):
    """What the extension's panel shows for `action` as the armature's active action."""
    import importlib

    panel = importlib.import_module("bl_ext.user_default.wadforge.action_panel")
    data = armature.animation_data
    before = data.action
    data.action = action
    bpy.context.view_layer.objects.active = armature
    layout = RecordingLayout()
    panel.draw_properties(layout, bpy.context)
    data.action = before
    return layout.lines


def lengthen(action, frames):
    """Every curve of `action` gets a key `frames` after the action's last, holding its last value."""
    curves = [fc for _, fcs in action_channelbags(action) for fc in fcs]
    end = max(fc.keyframe_points[-1].co[0] for fc in curves if fc.keyframe_points)
    for fc in curves:
        if fc.keyframe_points:
            fc.keyframe_points.insert(end + frames, fc.keyframe_points[-1].co[1], options={"FAST"})
            fc.update()
    return end, end + frames


def clear_scene():
    """Everything the first import made removed, the extension left installed (a factory reset
    would disable it)."""
    for kind in ("objects", "meshes", "armatures", "actions", "materials", "images", "collections"):
        blocks = getattr(bpy.data, kind)
        for block in list(blocks):
            blocks.remove(block)
    scene = bpy.context.scene
    for key in [k for k in scene.keys() if k.startswith("wadforge_")]:
        del scene[key]


def main(argv):
    zip_path, wadforge, wad, work, prefix, bone = argv[1:7]
    os.environ["PATH"] = os.path.dirname(os.path.abspath(wadforge)) + os.pathsep + os.environ.get("PATH", "")
    with json_stdout() as emit:
        install(zip_path)
        report = {}
        report["import"] = try_operator(bpy.ops.import_scene.wadforge, filepath=wad,
                                        manifest_directory=os.path.join(work, "first"))
        armature = armature_of(prefix)
        new = copy_as_new(armature, action_numbered(armature, 1), "ZZ_NEW")
        report["turned"] = rotate_key(new.name, bone, 1, 25.0)["frame"]
        report["panel_state"] = set_with_panel(armature, new, "wadforge_state", 77)
        report["panel_speed"] = set_with_panel(armature, new, "wadforge_speed", 7.5)
        report["panel"] = panel_lines(armature, new)
        first = action_numbered(armature, 0)
        first["wadforge_state_changes"] = "77: 0-1 > ZZ_NEW"
        longer = action_numbered(armature, 2)
        report["lengthened"] = {"name": longer.name, "ends": lengthen(longer, 10)}
        out = os.path.join(work, "out.wad")
        report["export"] = try_operator(bpy.ops.export_scene.wadforge, filepath=out, use_base=False)
        clear_scene()
        report["second_import"] = try_operator(bpy.ops.import_scene.wadforge, filepath=out,
                                               manifest_directory=os.path.join(work, "second"))
        report["second_actions"] = sorted(a.name for a in played_actions(armature_of(prefix)))
        emit(report)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
