"""Edits an imported wadforge glTF in Blender the way an artist would, then exports it.

    target/harness/venv/bin/python tests/harness/blender_edit.py IN.glb OUT.glb
        [--move-bone BONE DX DY DZ]          move the vertices of BONE's vertex group (metres, Blender axes)
        [--move-all DX DY DZ]                move every vertex of every mesh (a static has no bones)
        [--scale-bone BONE FACTOR]           scale the vertices of BONE's vertex group about the bone's pivot
        [--move-vertex BONE DX DY DZ]        move BONE's first vertex (and the copies at its place)
        [--add-face BONE]                    add a triangle of three new vertices beside BONE's first vertex
        [--remove-vertex BONE]               delete BONE's first vertex (and the copies at its place) and
                                             its faces
        [--rotate-key ACTION BONE KEY DEG]   turn BONE about its local X by DEG at key index KEY of ACTION
        [--invert-texture]                   replace every texel's RGB by 255 - RGB (alpha kept)
        [--keep-armature-object]             export with Blender's default of keeping the armature node
        [--split-by-bone]                    split each skinned mesh into one object per bone, parented
                                             to that bone (no skin), world positions kept

Imports and exports with the faithful settings of blender_roundtrip.py. Prints one JSON document
saying what was edited. Exit codes: 0 ok, 1 failure, 64 usage.
"""

import math
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import bpy  # noqa: E402

from blender_inspect import action_channelbags, fresh_scene, import_faithful, json_stdout  # noqa: E402
from blender_roundtrip import export_keywords  # noqa: E402


def move_bone(bone, delta):
    moved = 0
    for ob in [o for o in bpy.data.objects if o.type == "MESH"]:
        group = ob.vertex_groups.get(bone)
        if group is None:
            continue
        for v in ob.data.vertices:
            if any(g.group == group.index and g.weight > 0.5 for g in v.groups):
                v.co = (v.co[0] + delta[0], v.co[1] + delta[1], v.co[2] + delta[2])
                moved += 1
        ob.data.update()
    if moved == 0:
        raise RuntimeError(f"no vertex follows bone {bone}")
    return moved


def bone_vertices(bone):
    """(mesh object, vertex group, vertices following BONE) of every mesh; fails when none does."""
    found = []
    for ob in [o for o in bpy.data.objects if o.type == "MESH"]:
        group = ob.vertex_groups.get(bone)
        if group is None:
            continue
        verts = [v for v in ob.data.vertices if any(g.group == group.index and g.weight > 0.5 for g in v.groups)]
        if verts:
            found.append((ob, group, verts))
    if not found:
        raise RuntimeError(f"no vertex follows bone {bone}")
    return found


def scale_bone(bone, factor):
    scaled = 0
    for ob, _, verts in bone_vertices(bone):
        arm = next((m.object for m in ob.modifiers if m.type == "ARMATURE"), None)
        head = arm.matrix_world @ arm.data.bones[bone].head_local
        pivot = ob.matrix_world.inverted() @ head
        for v in verts:
            v.co = pivot + (v.co - pivot) * factor
            scaled += 1
        ob.data.update()
    return scaled


def first_vertex_and_copies(bone):
    """The mesh object holding BONE's first vertex, and the indices of the vertices at its place
    (the glTF importer keeps a vertex split at UV seams as several)."""
    ob, _, verts = bone_vertices(bone)[0]
    first = verts[0].co.copy()
    return ob, [v.index for v in verts if (v.co - first).length < 1e-6], list(first)


def move_vertex(bone, delta):
    ob, copies, before = first_vertex_and_copies(bone)
    for i in copies:
        v = ob.data.vertices[i]
        v.co = (v.co[0] + delta[0], v.co[1] + delta[1], v.co[2] + delta[2])
    ob.data.update()
    return {"before": before, "copies": len(copies)}


def remove_vertex(bone):
    import bmesh

    ob, copies, before = first_vertex_and_copies(bone)
    bm = bmesh.new()
    bm.from_mesh(ob.data)
    bm.verts.ensure_lookup_table()
    faces = {f.index for i in copies for f in bm.verts[i].link_faces}
    bmesh.ops.delete(bm, geom=[bm.verts[i] for i in copies], context="VERTS")
    bm.to_mesh(ob.data)
    bm.free()
    ob.data.update()
    return {"position": before, "copies": len(copies), "faces": len(faces)}


def add_face(bone):
    import bmesh

    ob, group, verts = bone_vertices(bone)[0]
    corner = verts[0].co.copy()
    material = next((p.material_index for p in ob.data.polygons if verts[0].index in p.vertices), 0)
    bm = bmesh.new()
    bm.from_mesh(ob.data)
    deform = bm.verts.layers.deform.verify()
    offsets = [(0.02, 0.0, 0.02), (0.06, 0.0, 0.02), (0.02, 0.0, 0.06)]
    new = []
    for d in offsets:
        v = bm.verts.new((corner[0] + d[0], corner[1] + d[1], corner[2] + d[2]))
        v[deform][group.index] = 1.0
        new.append(v)
    face = bm.faces.new(new)
    face.material_index = material
    bm.to_mesh(ob.data)
    bm.free()
    ob.data.update()
    return {"vertices": 3, "faces": 1}


def move_all(delta):
    moved = 0
    for ob in [o for o in bpy.data.objects if o.type == "MESH"]:
        for v in ob.data.vertices:
            v.co = (v.co[0] + delta[0], v.co[1] + delta[1], v.co[2] + delta[2])
            moved += 1
        ob.data.update()
    if moved == 0:
        raise RuntimeError("the scene has no mesh vertices")
    return moved


def rotate_key(action_name, bone, key, degrees):
    action = bpy.data.actions[action_name]
    path = f'pose.bones["{bone}"].rotation_quaternion'
    curves = {}
    for _, fcs in action_channelbags(action):
        for fc in fcs:
            if fc.data_path == path:
                curves[fc.array_index] = fc
    if len(curves) != 4:
        raise RuntimeError(f"{action_name} has no rotation of {bone}")
    q = [curves[i].keyframe_points[key].co[1] for i in range(4)]  # w, x, y, z
    h = math.radians(degrees) / 2
    r = (math.cos(h), math.sin(h), 0.0, 0.0)  # about the bone's local X
    w1, x1, y1, z1 = q
    w2, x2, y2, z2 = r
    turned = (
        w1 * w2 - x1 * x2 - y1 * y2 - z1 * z2,
        w1 * x2 + x1 * w2 + y1 * z2 - z1 * y2,
        w1 * y2 - x1 * z2 + y1 * w2 + z1 * x2,
        w1 * z2 + x1 * y2 - y1 * x2 + z1 * w2,
    )
    for i in range(4):
        point = curves[i].keyframe_points[key]
        point.co[1] = turned[i]
        point.handle_left[1] = turned[i]
        point.handle_right[1] = turned[i]
        curves[i].update()
    return {"frame": curves[0].keyframe_points[key].co[0], "before": q, "after": list(turned)}


def invert_texture():
    inverted = 0
    for img in [i for i in bpy.data.images if i.type == "IMAGE" and i.size[0] > 0]:
        px = list(img.pixels)
        for i in range(0, len(px), 4):
            px[i], px[i + 1], px[i + 2] = 1.0 - px[i], 1.0 - px[i + 1], 1.0 - px[i + 2]
        img.pixels[:] = px
        img.update()
        img.pack()
        inverted += 1
    if inverted == 0:
        raise RuntimeError("no image to paint")
    return inverted


def split_by_bone():
    split = 0
    # Parent in the rest pose, as an artist rigging a model does (a posed bone would bake its
    # pose into the child's placement).
    armatures = [o for o in bpy.data.objects if o.type == "ARMATURE"]
    for a in armatures:
        a.data.pose_position = "REST"
    bpy.context.view_layer.update()
    for ob in [o for o in bpy.data.objects if o.type == "MESH" and o.vertex_groups]:
        arm = next((m.object for m in ob.modifiers if m.type == "ARMATURE"), None) or ob.parent
        for group in list(ob.vertex_groups):
            part = ob.copy()
            part.data = ob.data.copy()
            part.name = f"{ob.name}_{group.name}"
            bpy.context.collection.objects.link(part)
            mesh = part.data
            keep = set()
            for v in mesh.vertices:
                best = max(v.groups, key=lambda g: g.weight, default=None)
                if best is not None and part.vertex_groups[best.group].name == group.name:
                    keep.add(v.index)
            import bmesh

            bm = bmesh.new()
            bm.from_mesh(mesh)
            bm.verts.ensure_lookup_table()
            bmesh.ops.delete(bm, geom=[v for v in bm.verts if v.index not in keep], context="VERTS")
            bm.to_mesh(mesh)
            bm.free()
            if len(mesh.vertices) == 0:
                bpy.data.objects.remove(part)
                continue
            for m in list(part.modifiers):
                part.modifiers.remove(m)
            part.vertex_groups.clear()
            world = part.matrix_world.copy()
            part.parent = arm
            part.parent_type = "BONE"
            part.parent_bone = group.name
            part.matrix_world = world
            split += 1
        bpy.data.objects.remove(ob)
    for a in armatures:
        a.data.pose_position = "POSE"
    bpy.context.view_layer.update()
    if split == 0:
        raise RuntimeError("no skinned mesh to split")
    return split


def main(argv):
    args = argv[1:]
    if len(args) < 2:
        sys.stderr.write(__doc__)
        return 64
    src, dst = args[0], os.path.abspath(args[1])
    rest = args[2:]
    with json_stdout() as emit:
        try:
            fresh_scene()
            import_faithful(src)
            report = {"input": src, "output": dst}
            keep_armature = "--keep-armature-object" in rest
            rest = [r for r in rest if r != "--keep-armature-object"]
            while rest:
                flag = rest.pop(0)
                if flag == "--move-bone":
                    bone, dx, dy, dz = rest[0], float(rest[1]), float(rest[2]), float(rest[3])
                    rest = rest[4:]
                    report["moved_vertices"] = move_bone(bone, (dx, dy, dz))
                elif flag == "--move-all":
                    dx, dy, dz = float(rest[0]), float(rest[1]), float(rest[2])
                    rest = rest[3:]
                    report["moved_vertices"] = move_all((dx, dy, dz))
                elif flag == "--scale-bone":
                    bone, factor = rest[0], float(rest[1])
                    rest = rest[2:]
                    report["scaled_vertices"] = scale_bone(bone, factor)
                elif flag == "--move-vertex":
                    bone, delta = rest[0], (float(rest[1]), float(rest[2]), float(rest[3]))
                    rest = rest[4:]
                    report["moved_vertex"] = move_vertex(bone, delta)
                elif flag == "--add-face":
                    bone = rest.pop(0)
                    report["added"] = add_face(bone)
                elif flag == "--remove-vertex":
                    bone = rest.pop(0)
                    report["removed"] = remove_vertex(bone)
                elif flag == "--rotate-key":
                    action, bone, key, deg = rest[0], rest[1], int(rest[2]), float(rest[3])
                    rest = rest[4:]
                    report["rotated"] = rotate_key(action, bone, key, deg)
                elif flag == "--split-by-bone":
                    report["split_objects"] = split_by_bone()
                elif flag == "--invert-texture":
                    report["inverted_images"] = invert_texture()
                else:
                    raise RuntimeError(f"unknown option {flag}")
            kw, _ = export_keywords(dst)
            if keep_armature:
                kw["export_armature_object_remove"] = False
            if os.path.exists(dst):
                os.remove(dst)
            result = bpy.ops.export_scene.gltf(filepath=dst, **kw)
            if "FINISHED" not in result:
                raise RuntimeError(f"export returned {sorted(result)}")
        except Exception as e:  # noqa: BLE001 - report and fail
            import traceback

            traceback.print_exc()
            emit({"error": str(e)})
            return 1
        emit(report)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
