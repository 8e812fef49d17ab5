"""Import a glTF/GLB into a fresh Blender scene and describe what Blender made.

    target/harness/venv/bin/python tests/harness/blender_inspect.py FILE.glb [--eval-poses]

Prints ONE JSON document to stdout (Blender's own chatter goes to stderr):

  blender, gltf_addon      versions
  import                   file and the import settings used
  scene                    fps, frame range
  objects                  every object: name, type, parent, parent_type,
                           parent_bone, matrix_world (row-major 4x4),
                           custom_properties (glTF extras land here)
  armatures                per armature object: name, data name,
                           matrix_world, bones [{name, parent, head, tail,
                           length, roll-free rest matrix "matrix_local"
                           (armature space, row-major)}], animation_data
                           (active action, slot, NLA tracks)
  actions                  per action: name, frame_range, slots, users,
                           fcurves, keyframes (total), frames (union of key
                           frames), bones {bone: {fcurves, keys, frames,
                           paths {prop: [keys per array index]}}}
  meshes                   per mesh object: name, mesh, vertices, polygons,
                           loops, triangles, edges, vertex_groups,
                           vertex_group_sizes, skinned_to, attributes
                           [{name, domain, data_type}], uv_layers,
                           materials [{name, has_image_texture, images
                           [{name, size}]}]
  images                   name, size, channels, depth, alpha_mode,
                           has_alpha_channel, uses_alpha (a pixel with
                           alpha < 1), packed, file_format

With --eval-poses an extra "poses" list: per armature, the mesh objects skinned
to it, the bounding box at rest ("rest", pose_position = REST) and, for every
action used by the armature (active + NLA strips; all actions if none), for
every key frame: the world-space axis-aligned bounding box (min, max, Blender
Z-up world coordinates, full float precision) of all evaluated (deformed)
vertices of those meshes, and "per_mesh": the same box per mesh object. Before every frame all pose bones are reset to
identity so channels an action does not key cannot leak in from the previous
action, and NLA evaluation is switched off so only the assigned action acts.

Exit codes: 0 ok; 1 import failed or raised; 64 usage.
The module is also imported by blender_roundtrip.py (fresh_scene,
import_faithful, json_stdout, addon_version).
"""
import contextlib
import json
import math
import os
import sys

import bpy

IMPORT_SETTINGS = dict(
    bone_heuristic="BLENDER",
    guess_original_bind_pose=True,
    merge_vertices=False,
    disable_bone_shape=True,
)


# ----------------------------------------------------------------- plumbing
@contextlib.contextmanager
def json_stdout():
    """Send everything written to fd 1 (Python and C alike) to stderr while the
    body runs; yields a function that writes the final JSON to the real
    stdout."""
    sys.stdout.flush()
    real = os.dup(1)
    os.dup2(2, 1)
    saved_py = sys.stdout
    sys.stdout = sys.stderr
    out = []
    try:
        yield out.append
    finally:
        sys.stdout.flush()
        sys.stderr.flush()
        os.dup2(real, 1)
        os.close(real)
        sys.stdout = saved_py
        for doc in out:
            sys.stdout.write(json.dumps(doc, indent=1, allow_nan=True) + "\n")
        sys.stdout.flush()


def addon_version():
    import addon_utils

    for m in addon_utils.modules():
        if m.__name__ == "io_scene_gltf2":
            return list(m.bl_info.get("version", ()))
    return None


def fresh_scene():
    bpy.ops.wm.read_factory_settings(use_empty=True)
    scene = bpy.context.scene
    scene.render.fps = 30
    scene.render.fps_base = 1
    return scene


def import_faithful(path):
    path = os.path.abspath(path)
    if not os.path.isfile(path):
        raise RuntimeError(f"no such file: {path}")
    result = bpy.ops.import_scene.gltf(filepath=path, **IMPORT_SETTINGS)
    if "FINISHED" not in result:
        raise RuntimeError(f"import_scene.gltf returned {sorted(result)}")
    return path


def num(x):
    x = float(x)
    return int(x) if x.is_integer() else x


def vec(v):
    return [float(c) for c in v]


def mat(m):
    return [[float(c) for c in row] for row in m]


def idprop(v):
    if hasattr(v, "to_dict"):
        return {k: idprop(x) for k, x in v.to_dict().items()}
    if hasattr(v, "to_list"):
        return [idprop(x) for x in v.to_list()]
    if isinstance(v, dict):
        return {k: idprop(x) for k, x in v.items()}
    if isinstance(v, (list, tuple)):
        return [idprop(x) for x in v]
    if isinstance(v, (bool, int, float, str)) or v is None:
        return v
    return repr(v)


def custom_props(idblock):
    return {k: idprop(idblock[k]) for k in idblock.keys() if not k.startswith("_")}


# ----------------------------------------------------------------- actions
def action_channelbags(action):
    """[(slot or None, fcurves)] for legacy and layered (Blender >= 4.4) actions."""
    out = []
    layers = getattr(action, "layers", None)
    if layers is not None and len(layers):
        for layer in layers:
            for strip in layer.strips:
                for cb in getattr(strip, "channelbags", []):
                    out.append((cb.slot, list(cb.fcurves)))
    elif hasattr(action, "fcurves"):  # legacy (pre 4.4) or empty
        out.append((None, list(action.fcurves)))
    return out


def bone_of(data_path, group):
    pre = 'pose.bones["'
    if data_path.startswith(pre):
        end = data_path.find('"]', len(pre))
        if end > 0:
            return data_path[len(pre):end], data_path[end + 3:]
    return (group.name if group else ""), data_path


def action_users():
    users = {}
    for ob in bpy.data.objects:
        ad = ob.animation_data
        if not ad:
            continue
        if ad.action:
            users.setdefault(ad.action.name, []).append({"object": ob.name, "as": "active"})
        for tr in ad.nla_tracks:
            for st in tr.strips:
                if st.action:
                    users.setdefault(st.action.name, []).append(
                        {"object": ob.name, "as": "nla", "track": tr.name, "muted": tr.mute})
    return users


def describe_action(action, users):
    frames_all = set()
    bones = {}
    nfc = nkeys = 0
    for slot, fcurves in action_channelbags(action):
        for fc in fcurves:
            nfc += 1
            bone, prop = bone_of(fc.data_path, fc.group)
            frames = [k.co[0] for k in fc.keyframe_points]
            nkeys += len(frames)
            frames_all.update(frames)
            b = bones.setdefault(bone, {"fcurves": 0, "frames": set(), "paths": {}})
            b["fcurves"] += 1
            b["frames"].update(frames)
            lst = b["paths"].setdefault(prop, [])
            while len(lst) <= fc.array_index:
                lst.append(0)
            lst[fc.array_index] = len(frames)
    for b in bones.values():
        b["keys"] = len(b["frames"])
        b["frames"] = [num(f) for f in sorted(b["frames"])]
    slots = []
    for s in getattr(action, "slots", []):
        slots.append({"identifier": s.identifier, "name": getattr(s, "name_display", s.identifier),
                      "target_id_type": s.target_id_type})
    return {
        "name": action.name,
        "frame_range": [num(f) for f in action.frame_range],
        "curve_frame_range": [num(f) for f in action.curve_frame_range],
        "use_frame_range": bool(action.use_frame_range),
        "slots": slots,
        "users": users.get(action.name, []),
        "fcurves": nfc,
        "keyframes": nkeys,
        "frames": [num(f) for f in sorted(frames_all)],
        "bones": dict(sorted(bones.items())),
        "custom_properties": custom_props(action),
    }


# ----------------------------------------------------------------- scene description
def describe_anim_data(ob):
    ad = ob.animation_data
    if not ad:
        return None
    slot = getattr(ad, "action_slot", None)
    return {
        "action": ad.action.name if ad.action else None,
        "action_slot": slot.identifier if slot else None,
        "use_nla": bool(ad.use_nla),
        "nla_tracks": [{"name": t.name, "mute": bool(t.mute),
                        "strips": [{"name": s.name, "action": s.action.name if s.action else None,
                                    "frame_start": num(s.frame_start), "frame_end": num(s.frame_end)}
                                   for s in t.strips]} for t in ad.nla_tracks],
    }


def skinned_to(ob):
    for m in ob.modifiers:
        if m.type == "ARMATURE" and m.object is not None:
            return m.object.name
    return None


def describe_image(img):
    info = {"name": img.name, "size": list(img.size), "channels": img.channels, "depth": img.depth,
            "alpha_mode": img.alpha_mode, "has_alpha_channel": img.channels == 4,
            "packed": img.packed_file is not None, "file_format": img.file_format,
            "filepath": img.filepath, "uses_alpha": None}
    w, h = img.size
    if img.channels == 4 and w * h > 0:
        import numpy as np

        px = np.empty(w * h * 4, dtype=np.float32)
        img.pixels.foreach_get(px)
        info["uses_alpha"] = bool((px[3::4] < 1.0).any())
    elif w * h > 0:
        info["uses_alpha"] = False
    return info


def describe_material(mat_):
    if mat_ is None:
        return {"name": None, "has_image_texture": False, "images": []}
    images = []
    if mat_.node_tree:
        for node in mat_.node_tree.nodes:
            if node.type == "TEX_IMAGE" and node.image is not None:
                images.append({"name": node.image.name, "size": list(node.image.size), "node": node.name})
    return {"name": mat_.name, "has_image_texture": bool(images), "images": images,
            "blend_method": getattr(mat_, "blend_method", None),
            "surface_render_method": getattr(mat_, "surface_render_method", None)}


def describe_mesh_object(ob):
    me = ob.data
    me.calc_loop_triangles()
    groups = [vg.name for vg in ob.vertex_groups]
    sizes = [0] * len(groups)
    for v in me.vertices:
        for g in v.groups:
            if g.weight > 0.0 and g.group < len(sizes):
                sizes[g.group] += 1
    return {
        "name": ob.name,
        "mesh": me.name,
        "parent": ob.parent.name if ob.parent else None,
        "skinned_to": skinned_to(ob),
        "vertices": len(me.vertices),
        "edges": len(me.edges),
        "polygons": len(me.polygons),
        "loops": len(me.loops),
        "triangles": len(me.loop_triangles),
        "vertex_groups": groups,
        "vertex_group_sizes": dict(zip(groups, sizes)),
        "attributes": [{"name": a.name, "domain": a.domain, "data_type": a.data_type}
                       for a in me.attributes if not a.name.startswith(".")],
        "uv_layers": [uv.name for uv in me.uv_layers],
        "shape_keys": [k.name for k in me.shape_keys.key_blocks] if me.shape_keys else [],
        "materials": [describe_material(m) for m in me.materials],
    }


def describe_armature(ob):
    bones = []
    for b in ob.data.bones:
        bones.append({"name": b.name, "parent": b.parent.name if b.parent else None,
                      "head": vec(b.head_local), "tail": vec(b.tail_local), "length": float(b.length),
                      "matrix_local": mat(b.matrix_local)})
    return {"name": ob.name, "data": ob.data.name, "matrix_world": mat(ob.matrix_world),
            "pose_position": ob.data.pose_position, "bones": bones,
            "animation_data": describe_anim_data(ob)}


def describe_scene():
    scene = bpy.context.scene
    users = action_users()
    return {
        "scene": {"name": scene.name, "fps": scene.render.fps, "fps_base": scene.render.fps_base,
                  "frame_start": scene.frame_start, "frame_end": scene.frame_end},
        "objects": [{"name": o.name, "type": o.type, "data": o.data.name if o.data else None,
                     "parent": o.parent.name if o.parent else None, "parent_type": o.parent_type,
                     "parent_bone": o.parent_bone or None, "matrix_world": mat(o.matrix_world),
                     "custom_properties": custom_props(o)} for o in bpy.data.objects],
        "armatures": [describe_armature(o) for o in bpy.data.objects if o.type == "ARMATURE"],
        "actions": [describe_action(a, users) for a in bpy.data.actions],
        "meshes": [describe_mesh_object(o) for o in bpy.data.objects if o.type == "MESH"],
        "materials": [m.name for m in bpy.data.materials],
        "images": [describe_image(i) for i in bpy.data.images if i.type == "IMAGE"],
    }


# ----------------------------------------------------------------- pose evaluation
def deformed_bbox(objects):
    import numpy as np

    depsgraph = bpy.context.evaluated_depsgraph_get()
    lo = np.full(3, np.inf)
    hi = np.full(3, -np.inf)
    n = 0
    for ob in objects:
        ev = ob.evaluated_get(depsgraph)
        me = ev.to_mesh()
        try:
            cnt = len(me.vertices)
            if cnt == 0:
                continue
            co = np.empty(cnt * 3, dtype=np.float32)
            me.vertices.foreach_get("co", co)
            co = co.reshape(-1, 3).astype(np.float64)
            m = np.array(ev.matrix_world, dtype=np.float64)
            w = co @ m[:3, :3].T + m[:3, 3]
            lo = np.minimum(lo, w.min(axis=0))
            hi = np.maximum(hi, w.max(axis=0))
            n += cnt
        finally:
            ev.to_mesh_clear()
    if n == 0:
        return {"vertices": 0, "min": None, "max": None}
    return {"vertices": n, "min": [float(c) for c in lo], "max": [float(c) for c in hi]}


def reset_pose(arm):
    for pb in arm.pose.bones:
        pb.location = (0.0, 0.0, 0.0)
        pb.rotation_quaternion = (1.0, 0.0, 0.0, 0.0)
        pb.rotation_euler = (0.0, 0.0, 0.0)
        pb.rotation_axis_angle = (0.0, 0.0, 1.0, 0.0)
        pb.scale = (1.0, 1.0, 1.0)


def assign_action(arm, action):
    ad = arm.animation_data or arm.animation_data_create()
    ad.action = action
    slot = getattr(ad, "action_slot", None) if hasattr(ad, "action_slot") else None
    if hasattr(ad, "action_slot") and slot is None and len(getattr(action, "slots", [])):
        cand = [s for s in action.slots if s.target_id_type == "OBJECT"] or list(action.slots)
        ad.action_slot = cand[0]
        slot = ad.action_slot
    return slot.identifier if slot is not None else None


def eval_poses():
    scene = bpy.context.scene
    result = []
    for arm in [o for o in bpy.data.objects if o.type == "ARMATURE"]:
        meshes = [o for o in bpy.data.objects if o.type == "MESH" and skinned_to(o) == arm.name]
        ad = arm.animation_data
        acts = []
        if ad:
            if ad.action:
                acts.append(ad.action)
            for tr in ad.nla_tracks:
                for st in tr.strips:
                    if st.action and st.action not in acts:
                        acts.append(st.action)
        source = "animation_data"
        if not acts:
            acts = list(bpy.data.actions)
            source = "all_actions"
        entry = {"armature": arm.name, "meshes": [o.name for o in meshes], "actions_from": source}
        ad = arm.animation_data or arm.animation_data_create()
        saved = (ad.action, getattr(ad, "action_slot", None), ad.use_nla)
        ad.use_nla = False
        if hasattr(ad, "action_blend_type"):
            ad.action_blend_type = "REPLACE"
            ad.action_influence = 1.0

        # rest (bind) pose
        ad.action = None
        reset_pose(arm)
        arm.data.pose_position = "REST"
        scene.frame_set(scene.frame_current)
        entry["rest"] = deformed_bbox(meshes)
        arm.data.pose_position = "POSE"

        entry["actions"] = []
        for act in acts:
            slot = assign_action(arm, act)
            frames = sorted({k.co[0] for _, fcs in action_channelbags(act) for fc in fcs for k in fc.keyframe_points})
            poses = []
            for f in frames:
                reset_pose(arm)
                whole = math.floor(f)
                scene.frame_set(int(whole), subframe=float(f - whole))
                bb = deformed_bbox(meshes)
                # Per mesh object too: a skeleton may show several (a body and its joint meshes).
                per_mesh = {o.name: {k: v for k, v in deformed_bbox([o]).items() if k != "vertices"} for o in meshes}
                poses.append({"frame": num(f), "min": bb["min"], "max": bb["max"], "per_mesh": per_mesh})
            entry["actions"].append({"name": act.name, "slot": slot, "frames": poses})
        # restore
        ad.action = saved[0]
        if saved[1] is not None and hasattr(ad, "action_slot"):
            try:
                ad.action_slot = saved[1]
            except Exception:  # noqa: BLE001 - best effort restore
                pass
        ad.use_nla = saved[2]
        result.append(entry)
    return result


# ----------------------------------------------------------------- main
def inspect(path, eval_poses_too):
    fresh_scene()
    imported = import_faithful(path)
    doc = {"blender": bpy.app.version_string, "gltf_addon": addon_version(),
           "import": {"file": imported, "settings": IMPORT_SETTINGS}}
    doc.update(describe_scene())
    if eval_poses_too:
        doc["poses"] = eval_poses()
    return doc


def main(argv):
    args = [a for a in argv[1:] if not a.startswith("--")]
    flags = {a for a in argv[1:] if a.startswith("--")}
    unknown = flags - {"--eval-poses", "--batch"}
    batch = "--batch" in flags
    if not args or (len(args) != 1 and not batch) or unknown:
        sys.stderr.write("usage: blender_inspect.py FILE.glb|FILE.gltf [--eval-poses]\n"
                         "       blender_inspect.py --batch FILE... [--eval-poses]  (one JSON list, one entry per file)\n")
        return 64
    with json_stdout() as emit:
        docs = []
        status = 0
        for path in args:
            try:
                docs.append(inspect(path, "--eval-poses" in flags))
            except Exception as e:  # noqa: BLE001 - report and fail
                import traceback

                traceback.print_exc()
                sys.stderr.write(f"blender_inspect.py: FAILED on {path}: {e}\n")
                docs.append({"error": str(e), "file": path})
                status = 1
        emit(docs if batch else docs[0])
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv))
