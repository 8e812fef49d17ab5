"""Sound commands as markers in Blender, through the wadforge extension in bpy 5.0.1.

    python blender_sound_markers.py EXTENSION.zip WADFORGE FILE WORKDIR OBJECT ANIMATION FRAMES

Installs EXTENSION.zip, imports FILE (a WAD) into WORKDIR/first, and on the moveable whose
collection starts with OBJECT (e.g. 051_) reads the markers of animation ANIMATION's action (name,
frame from the action's first), then moves its first marker FRAMES frames later as a user drags it
in the Action editor, and exports WORKDIR/out.wad with the extension. WADFORGE is the program (put
on PATH for the run). Prints one JSON document: the steps' results and the markers before and after.
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import bpy  # noqa: E402

from blender_extension import install, try_operator  # noqa: E402
from blender_inspect import json_stdout  # noqa: E402
from blender_new_animations import action_numbered, armature_of  # noqa: E402


def markers(action):
    start = int(round(action.frame_range[0]))
    return [[m.name, m.frame - start] for m in action.pose_markers]


def main(argv):
    zip_path, wadforge, wad, work, prefix, index, frames = argv[1:8]
    os.environ["PATH"] = os.path.dirname(os.path.abspath(wadforge)) + os.pathsep + os.environ.get("PATH", "")
    with json_stdout() as emit:
        install(zip_path)
        report = {"import": try_operator(bpy.ops.import_scene.wadforge, filepath=wad,
                                         manifest_directory=os.path.join(work, "first"))}
        action = action_numbered(armature_of(prefix), int(index))
        report["markers"] = markers(action)
        action.pose_markers[0].frame += int(frames)
        report["moved"] = markers(action)
        report["export"] = try_operator(bpy.ops.export_scene.wadforge, filepath=os.path.join(work, "out.wad"),
                                        use_base=False)
        report["property_left"] = "wadforge_sounds" in action
        emit(report)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
