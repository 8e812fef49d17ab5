"""The wadforge Blender extension, installed and used as a user would, in bpy 5.0.1.

    python blender_extension.py EXTENSION.zip WADFORGE FILE WORKDIR EXT [OBJECT ANIMATION BONE]
    python blender_extension.py EXTENSION.zip WADFORGE FILE WORKDIR drop

Installs EXTENSION.zip (Blender's own "Install from Disk"), imports FILE with
import_scene.wadforge, exports it unchanged with export_scene.wadforge into WORKDIR/unchanged.EXT
(.wad or .wad2), and, given OBJECT (its collection's name prefix, e.g. 000_), ANIMATION (an index)
and BONE, turns that bone in the second key of that animation and exports WORKDIR/edited.EXT;
then asks for an import with no wadforge program to be found. With `drop` instead of EXT: drops
FILE on the 3D viewport (wm.drop_import_file, what Blender runs for a drag and drop) and reports
the extension's file handler and what the drop imported. WADFORGE is the program (put on PATH for
the run).
Prints one JSON document: what Blender holds after the import, the exports' paths, the animation
edited, and the messages Blender gave.
"""
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import bpy  # noqa: E402

from blender_edit import rotate_key  # noqa: E402
from blender_inspect import json_stdout  # noqa: E402


def install(zip_path):
    bpy.ops.wm.read_factory_settings(use_empty=True)
    result = bpy.ops.extensions.package_install_files(filepath=zip_path, repo="user_default",
                                                      enable_on_install=True)
    if "FINISHED" not in result or not hasattr(bpy.ops.import_scene, "wadforge"):
        raise RuntimeError(f"the extension did not install: {sorted(result)}")


def scene_counts():
    objects = bpy.data.objects
    return {
        "collections": sorted(c.name for c in bpy.data.collections if c.get("wadforge_gltf")),
        "armatures": sum(1 for o in objects if o.type == "ARMATURE"),
        "meshes": sum(1 for o in objects if o.type == "MESH"),
        "actions": len(bpy.data.actions),
        "fps": bpy.context.scene.render.fps,
    }


def turn_one_bone(collection_prefix, index, bone):
    """Turns `bone` 20° about its local X at the second key of the moveable's animation `index`
    (names start with the zero-padded index), as blender_edit.py does; returns the action's name."""
    collection = next(c for c in bpy.data.collections if c.name.startswith(collection_prefix))
    armature = next(o for o in collection.all_objects if o.type == "ARMATURE")
    data = armature.animation_data
    played = {data.action} if data.action else set()
    for track in data.nla_tracks:
        played.update(s.action for s in track.strips if s.action)
    action = next(a for a in played if a.name.startswith(f"{index:03d}"))
    rotate_key(action.name, bone, 1, 20.0)
    return action.name


def settings_match():
    """The extension's glTF settings are the round trip's (blender_inspect.py, blender_roundtrip.py)."""
    import importlib

    from blender_roundtrip import EXPORT_SETTINGS
    from blender_inspect import IMPORT_SETTINGS

    extension = importlib.import_module("bl_ext.user_default.wadforge.scene_io")
    exported = {k: v for k, v in extension.EXPORT_SETTINGS.items() if k != "export_format"}
    return extension.IMPORT_SETTINGS == IMPORT_SETTINGS and exported == EXPORT_SETTINGS


def try_operator(op, **kw):
    try:
        return {"result": sorted(op(**kw)), "message": None}
    except RuntimeError as e:  # an operator that reports an error raises it with the message
        return {"result": None, "message": str(e)}


def file_handler():
    """The extension's file handler: its operator, extensions, and whether a drop on each kind of
    area of the Layout workspace would reach it."""
    handler = getattr(bpy.types, "WADFORGE_FH_import", None)
    if handler is None:
        return None
    window = bpy.context.window
    poll = {}
    for area in window.screen.areas:
        with bpy.context.temp_override(window=window, area=area):
            poll[area.type] = handler.poll_drop(bpy.context)
    return {
        "operator": handler.bl_import_operator,
        "extensions": handler.bl_file_extensions.split(";"),
        "poll": poll,
    }


def drop_on_viewport(path):
    """`path` dropped on the 3D viewport (of the Layout workspace, the factory settings' first):
    Blender's wm.drop_import_file finds the file handler whose extensions and poll take it and
    runs its import operator (without a user interface, straight to execute: the dialog of its
    invoke is not shown)."""
    window = bpy.context.window
    area = next(a for a in window.screen.areas if a.type == "VIEW_3D")
    region = next(r for r in area.regions if r.type == "WINDOW")
    with bpy.context.temp_override(window=window, area=area, region=region):
        return try_operator(bpy.ops.wm.drop_import_file, directory=os.path.dirname(path),
                            files=[{"name": os.path.basename(path)}])


def drop_main(path, emit):
    report = {"file_handler": file_handler()}
    report["drop"] = drop_on_viewport(path)
    report["scene"] = scene_counts()
    report["directories"] = sorted({c.get("wadforge_directory") for c in bpy.data.collections
                                    if c.get("wadforge_gltf")})
    report["source"] = bpy.context.scene.get("wadforge_source")
    emit(report)


def main(argv):
    zip_path, wadforge, level, work, ext = argv[1:6]
    edit = argv[6:9]
    os.environ["PATH"] = os.path.dirname(os.path.abspath(wadforge)) + os.pathsep + os.environ.get("PATH", "")
    with json_stdout() as emit:
        install(zip_path)
        if ext == "drop":
            drop_main(os.path.abspath(level), emit)
            return 0
        report = {"settings_match": settings_match()}
        directory = os.path.join(work, "level")
        report["import"] = try_operator(bpy.ops.import_scene.wadforge, filepath=level,
                                        manifest_directory=directory)
        report["scene"] = scene_counts()
        unchanged = os.path.join(work, f"unchanged.{ext}")
        report["export_unchanged"] = try_operator(bpy.ops.export_scene.wadforge, filepath=unchanged)
        if edit:
            report["edited_action"] = turn_one_bone(edit[0], int(edit[1]), edit[2])
            edited = os.path.join(work, f"edited.{ext}")
            report["export_edited"] = try_operator(bpy.ops.export_scene.wadforge, filepath=edited)
        # Some objects: by --only, and what the import panel lists to pick from.
        before = len([c for c in bpy.data.collections if c.get("wadforge_gltf")])
        report["import_only"] = try_operator(bpy.ops.import_scene.wadforge, filepath=level,
                                             manifest_directory=os.path.join(work, "only"), only="WOLF,BAT")
        report["only_collections"] = len([c for c in bpy.data.collections if c.get("wadforge_gltf")]) - before
        # The scene now holds two imports: export builds the later one's objects.
        report["export_only"] = try_operator(bpy.ops.export_scene.wadforge,
                                             filepath=os.path.join(work, "only.wad"))
        import importlib

        scene_io = importlib.import_module("bl_ext.user_default.wadforge.scene_io")
        report["listed"] = scene_io.file_objects(bpy.context, os.path.abspath(level))
        # No program: the preferences name one that is not there, and PATH has none.
        prefs = bpy.context.preferences.addons["bl_ext.user_default.wadforge"].preferences
        prefs.wadforge_path = os.path.join(work, "no-such-wadforge")
        report["missing_configured"] = try_operator(bpy.ops.import_scene.wadforge, filepath=level,
                                                    manifest_directory=os.path.join(work, "never"))
        prefs.wadforge_path = ""
        os.environ["PATH"] = os.path.join(work, "empty-path")
        report["missing_on_path"] = try_operator(bpy.ops.import_scene.wadforge, filepath=level,
                                                 manifest_directory=os.path.join(work, "never"))
        report["never_written"] = os.path.exists(os.path.join(work, "never"))
        emit(report)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
