"""New objects from Blender and exports of changed collections only, through the wadforge
extension in bpy 5.0.1, as a user makes them.

    python blender_new_objects.py EXTENSION.zip WADFORGE FILE WORKDIR new OBJECT BONE
    python blender_new_objects.py EXTENSION.zip WADFORGE FILE WORKDIR bench

`new`: installs EXTENSION.zip, imports FILE (a WAD) into WORKDIR/first, makes a new object from
scratch (a 4-bone armature named ANIMATING1 with a skinned, textured mesh of a box per bone and
two actions) and a textured box named Boulder whose slot ROCK9 is set in the Object properties
panel, exports WORKDIR/out.wad, turns BONE in the second key of the first action of the
imported moveable whose collection starts with OBJECT (e.g. 051_) and exports WORKDIR/edited.wad;
then changes a texel of the image PLANT0 (static 0) shows and exports WORKDIR/painted.wad; then adds
a mesh named after no slot and exports WORKDIR/unknown.wad (which fails).
Reports each step's result and, for each export, the directory's glTF files it rewrote (by
modification time and content).
`bench`: imports FILE into WORKDIR/first and times three exports of it: unchanged, unchanged
again, and with "Export all" (every collection re-exported, what every export did before).
Prints one JSON document. WADFORGE is the program (put on PATH for the run).
"""
import hashlib
import glob
import math
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import bpy  # noqa: E402

from blender_edit import rotate_key  # noqa: E402
from blender_extension import install, try_operator  # noqa: E402
from blender_inspect import json_stdout  # noqa: E402

BONES = 4
BONE_LENGTH = 0.5


def glb_files(directory):
    """Each imported glTF file of the directory with its modification time and content hash."""
    found = {}
    for path in sorted(glob.glob(os.path.join(directory, "*", "*.glb"))):
        if os.path.basename(os.path.dirname(path)) == "new":
            continue
        with open(path, "rb") as f:
            digest = hashlib.sha256(f.read()).hexdigest()
        found[os.path.relpath(path, directory)] = (os.stat(path).st_mtime_ns, digest)
    return found


def rewritten(before, after):
    return sorted(name for name in after if before.get(name) != after[name])


def armature(name):
    """A chain of BONES bones up Z from the origin, in the scene's collection."""
    data = bpy.data.armatures.new(name)
    obj = bpy.data.objects.new(name, data)
    bpy.context.scene.collection.objects.link(obj)
    bpy.context.view_layer.objects.active = obj
    bpy.ops.object.mode_set(mode="EDIT")
    parent = None
    for i in range(BONES):
        bone = data.edit_bones.new(f"bone_{i}")
        bone.head = (0.0, 0.0, i * BONE_LENGTH)
        bone.tail = (0.0, 0.0, (i + 1) * BONE_LENGTH)
        bone.parent = parent
        bone.use_connect = parent is not None
        parent = bone
    bpy.ops.object.mode_set(mode="OBJECT")
    return obj


def textured_material():
    image = bpy.data.images.new("new_checker", 16, 16)
    pixels = []
    for y in range(16):
        for x in range(16):
            light = (x // 4 + y // 4) % 2
            pixels += [0.9, 0.3 + 0.5 * light, 0.1, 1.0]
    image.pixels = pixels
    image.pack()
    material = bpy.data.materials.new("new_checker")
    material.use_nodes = True
    tree = material.node_tree
    shader = tree.nodes["Principled BSDF"]
    texture = tree.nodes.new("ShaderNodeTexImage")
    texture.image = image
    tree.links.new(texture.outputs["Color"], shader.inputs["Base Color"])
    return material


def skinned_mesh(rig):
    """A box per bone, each vertex weighted fully to its box's bone, UV-mapped and textured."""
    vertices, faces = [], []
    half = 0.15
    for i in range(BONES):
        z0, z1 = i * BONE_LENGTH + 0.02, (i + 1) * BONE_LENGTH - 0.02
        base = len(vertices)
        vertices += [(x, y, z) for z in (z0, z1) for y in (-half, half) for x in (-half, half)]
        quads = [(0, 1, 3, 2), (4, 6, 7, 5), (0, 4, 5, 1), (2, 3, 7, 6), (0, 2, 6, 4), (1, 5, 7, 3)]
        faces += [tuple(base + v for v in q) for q in quads]
    mesh = bpy.data.meshes.new("ANIMATING1_body")
    mesh.from_pydata(vertices, [], faces)
    uv = mesh.uv_layers.new(name="UVMap")
    corners = ((0.0, 0.0), (1.0, 0.0), (1.0, 1.0), (0.0, 1.0))
    for polygon in mesh.polygons:
        for k, loop in enumerate(polygon.loop_indices):
            uv.data[loop].uv = corners[k % 4]
    mesh.materials.append(textured_material())
    obj = bpy.data.objects.new("ANIMATING1_body", mesh)
    bpy.context.scene.collection.objects.link(obj)
    obj.parent = rig
    modifier = obj.modifiers.new("Armature", "ARMATURE")
    modifier.object = rig
    for i in range(BONES):
        group = obj.vertex_groups.new(name=f"bone_{i}")
        group.add(list(range(i * 8, i * 8 + 8)), 1.0, "REPLACE")
    return obj


def keyed_action(rig, name, angle, frames):
    """An action bending each bone `angle` degrees about X halfway through `frames` frames."""
    data = rig.animation_data or rig.animation_data_create()
    action = bpy.data.actions.new(name)
    data.action = action
    for frame, bend in ((1, 0.0), (1 + frames // 2, angle), (1 + frames, 0.0)):
        for bone in rig.pose.bones:
            bone.rotation_mode = "QUATERNION"
            half = math.radians(bend) / 2
            bone.rotation_quaternion = (math.cos(half), math.sin(half), 0.0, 0.0)
            bone.keyframe_insert("rotation_quaternion", frame=frame)
    return action


def stash(rig, action):
    """`action` on an NLA track of its own (as the Action editor's stash puts it), muted."""
    track = rig.animation_data.nla_tracks.new()
    track.name = action.name
    strip = track.strips.new(action.name, 1, action)
    track.mute = True
    if hasattr(strip, "action_slot") and action.slots:
        strip.action_slot = action.slots[0]


def new_static():
    """A textured box named `Boulder`, its slot ROCK9 set with the Object properties panel's field."""
    mesh = bpy.data.meshes.new("Boulder")
    vertices = [(x, y, z) for z in (0.0, 0.6) for y in (-0.3, 0.3) for x in (-0.3, 0.3)]
    quads = [(0, 1, 3, 2), (4, 6, 7, 5), (0, 4, 5, 1), (2, 3, 7, 6), (0, 2, 6, 4), (1, 5, 7, 3)]
    mesh.from_pydata(vertices, [], quads)
    uv = mesh.uv_layers.new(name="UVMap")
    for polygon in mesh.polygons:
        for k, loop in enumerate(polygon.loop_indices):
            uv.data[loop].uv = ((0.0, 0.0), (1.0, 0.0), (1.0, 1.0), (0.0, 1.0))[k % 4]
    mesh.materials.append(bpy.data.materials["new_checker"])
    obj = bpy.data.objects.new("Boulder", mesh)
    bpy.context.scene.collection.objects.link(obj)
    obj.location = (-3.0, 0.0, 0.0)  # beside the imported objects: its origin is still the object's
    obj.wadforge_slot_name = " ROCK9 "
    return obj


def new_object():
    rig = armature("ANIMATING1")
    skinned_mesh(rig)
    first = keyed_action(rig, "Sway", 20.0, 20)
    keyed_action(rig, "Bow", -35.0, 30)
    stash(rig, first)
    for bone in rig.pose.bones:
        bone.rotation_quaternion = (1.0, 0.0, 0.0, 0.0)
    return rig


def first_action_of(prefix):
    collection = next(c for c in bpy.data.collections if c.name.startswith(prefix) and c.get("wadforge_gltf"))
    rig = next(o for o in collection.all_objects if o.type == "ARMATURE")
    data = rig.animation_data
    played = {data.action} if data.action else set()
    for track in data.nla_tracks:
        played.update(s.action for s in track.strips if s.action)
    return next(a for a in sorted(played, key=lambda a: a.name) if a.name.startswith("000"))


def images_of(collection):
    """The images the collection's materials show."""
    found = []
    for obj in collection.all_objects:
        for slot in getattr(obj, "material_slots", []):
            tree = slot.material.node_tree if slot.material else None
            for node in tree.nodes if tree else []:
                image = getattr(node, "image", None)
                if image is not None and image not in found:
                    found.append(image)
    return found


def timed_export(path, **options):
    start = time.perf_counter()
    result = try_operator(bpy.ops.export_scene.wadforge, filepath=path, use_base=False, **options)
    return result, time.perf_counter() - start


def new_objects(work, prefix, bone):
    first = os.path.join(work, "first")
    report = {}
    report["import"] = try_operator(bpy.ops.import_scene.wadforge, filepath=sys.argv[3], manifest_directory=first)
    collections = [c for c in bpy.data.collections if c.get("wadforge_gltf")]
    report["layout_x"] = sorted(round(c.get("wadforge_layout_offset", (0, 0, 0))[0], 4) for c in collections)
    report["frame_range"] = [bpy.context.scene.frame_start, bpy.context.scene.frame_end]
    new_object()
    new_static()
    before = glb_files(first)
    time.sleep(0.01)
    report["export"], _ = timed_export(os.path.join(work, "out.wad"))
    after = glb_files(first)
    report["export_rewrote"] = rewritten(before, after)
    report["new_files"] = sorted(os.listdir(os.path.join(first, "new")))
    report["turned"] = rotate_key(first_action_of(prefix).name, bone, 1, 20.0)["frame"]
    report["edited_export"], _ = timed_export(os.path.join(work, "edited.wad"))
    report["edited_export_rewrote"] = rewritten(after, glb_files(first))
    # A texture painted (one texel): exactly the collections whose materials show that image.
    before = glb_files(first)
    image = images_of(next(c for c in bpy.data.collections if c.name.startswith("000_PLANT0")))[0]
    image.pixels[0] = 1.0 - image.pixels[0]
    users = [c for c in bpy.data.collections if c.get("wadforge_gltf") and image in images_of(c)]
    report["painted_users"] = sorted(c["wadforge_gltf"] for c in users)
    report["painted_export"], _ = timed_export(os.path.join(work, "painted.wad"))
    report["painted_rewrote"] = rewritten(before, glb_files(first))
    # A mesh named after no slot: the export stops, saying what to do.
    stray = bpy.data.objects.new("NOT_A_SLOT", bpy.data.meshes.new("NOT_A_SLOT"))
    stray.data.from_pydata([(0, 0, 0), (1, 0, 0), (0, 1, 0)], [], [(0, 1, 2)])
    bpy.context.scene.collection.objects.link(stray)
    report["unknown_slot_export"], _ = timed_export(os.path.join(work, "unknown.wad"))
    return report


def bench(work):
    first = os.path.join(work, "first")
    start = time.perf_counter()
    report = {"import": try_operator(bpy.ops.import_scene.wadforge, filepath=sys.argv[3], manifest_directory=first)}
    report["import_seconds"] = time.perf_counter() - start
    report["objects"] = sum(1 for c in bpy.data.collections if c.get("wadforge_gltf"))
    for step, options in (("unchanged", {}), ("unchanged_again", {}), ("everything", {"everything": True})):
        before = glb_files(first)
        result, seconds = timed_export(os.path.join(work, f"{step}.wad"), **options)
        report[step] = {"result": result, "seconds": seconds, "rewrote": len(rewritten(before, glb_files(first)))}
    return report


def main(argv):
    zip_path, wadforge, _, work, mode = argv[1:6]
    os.environ["PATH"] = os.path.dirname(os.path.abspath(wadforge)) + os.pathsep + os.environ.get("PATH", "")
    with json_stdout() as emit:
        install(zip_path)
        emit(new_objects(work, argv[6], argv[7]) if mode == "new" else bench(work))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
