"""Import a glTF/GLB into a fresh Blender scene and export it again.

    target/harness/venv/bin/python tests/harness/blender_roundtrip.py IN.glb OUT.glb|OUT.gltf

Import uses the faithful settings of blender_inspect.py; export uses
EXPORT_SETTINGS below, with export_format chosen by OUT's extension (.glb ->
GLB, .gltf -> GLTF_SEPARATE, i.e. .gltf + .bin + textures beside it).
Every export keyword is checked against the installed add-on's operator
properties first; a keyword the add-on does not know is dropped and listed in
"missing_keywords" (never silently).

Prints ONE JSON document to stdout:
  blender, gltf_addon, input, output, export_settings (as passed),
  missing_keywords, blender_counts (objects by type, actions, meshes, images
  in the scene that was exported), exported_counts (nodes, meshes, skins,
  animations [names], materials, images, textures, joints per skin, read back
  from the written file).
Exit codes: 0 ok; 1 import/export failed; 64 usage.
"""
import json
import os
import struct
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import bpy  # noqa: E402

from blender_inspect import addon_version, fresh_scene, import_faithful, json_stdout, IMPORT_SETTINGS  # noqa: E402

EXPORT_SETTINGS = dict(
    export_force_sampling=False,
    export_animation_mode="ACTIONS",
    export_extras=True,
    export_attributes=True,
    export_yup=True,
    export_armature_object_remove=True,
)


def export_keywords(out_path):
    fmt = "GLTF_SEPARATE" if out_path.lower().endswith(".gltf") else "GLB"
    wanted = dict(export_format=fmt, **EXPORT_SETTINGS)
    known = {p.identifier for p in bpy.ops.export_scene.gltf.get_rna_type().properties}
    kw = {k: v for k, v in wanted.items() if k in known}
    missing = sorted(set(wanted) - known)
    return kw, missing


def read_gltf_json(path):
    with open(path, "rb") as f:
        data = f.read()
    if data[:4] == b"glTF":
        jlen, jtype = struct.unpack_from("<II", data, 12)
        if jtype != 0x4E4F534A:
            raise RuntimeError(f"{path}: first GLB chunk is not JSON")
        return json.loads(data[20:20 + jlen])
    return json.loads(data)


def exported_counts(path):
    g = read_gltf_json(path)
    return {
        "nodes": len(g.get("nodes", [])),
        "node_names": [n.get("name") for n in g.get("nodes", [])],
        "meshes": len(g.get("meshes", [])),
        "skins": len(g.get("skins", [])),
        "joints_per_skin": [len(s.get("joints", [])) for s in g.get("skins", [])],
        "animations": [a.get("name") for a in g.get("animations", [])],
        "materials": len(g.get("materials", [])),
        "textures": len(g.get("textures", [])),
        "images": len(g.get("images", [])),
        "extensions_used": g.get("extensionsUsed", []),
        "generator": g.get("asset", {}).get("generator"),
    }


def blender_counts():
    by_type = {}
    for o in bpy.data.objects:
        by_type[o.type] = by_type.get(o.type, 0) + 1
    return {"objects": by_type, "actions": [a.name for a in bpy.data.actions], "meshes": len(bpy.data.meshes),
            "images": len(bpy.data.images), "materials": len(bpy.data.materials)}


def roundtrip(src, dst):
    dst = os.path.abspath(dst)
    fresh_scene()
    src = import_faithful(src)
    kw, missing = export_keywords(dst)
    os.makedirs(os.path.dirname(dst), exist_ok=True)
    if os.path.exists(dst):
        os.remove(dst)
    result = bpy.ops.export_scene.gltf(filepath=dst, **kw)
    if "FINISHED" not in result or not os.path.isfile(dst):
        raise RuntimeError(f"export_scene.gltf returned {sorted(result)}; {dst} exists: {os.path.isfile(dst)}")
    return {
        "blender": bpy.app.version_string,
        "gltf_addon": addon_version(),
        "input": src,
        "output": dst,
        "import_settings": IMPORT_SETTINGS,
        "export_settings": kw,
        "missing_keywords": missing,
        "blender_counts": blender_counts(),
        "exported_counts": exported_counts(dst),
    }


def main(argv):
    batch = len(argv) > 1 and argv[1] == "--batch"
    pairs = argv[2:] if batch else argv[1:]
    if len(pairs) < 2 or len(pairs) % 2 or (not batch and len(pairs) != 2):
        sys.stderr.write("usage: blender_roundtrip.py IN.glb|IN.gltf OUT.glb|OUT.gltf\n"
                         "       blender_roundtrip.py --batch IN OUT [IN OUT ...]  (one JSON list)\n")
        return 64
    with json_stdout() as emit:
        docs, status = [], 0
        for src, dst in zip(pairs[0::2], pairs[1::2]):
            try:
                docs.append(roundtrip(src, dst))
            except Exception as e:  # noqa: BLE001 - report and fail
                import traceback

                traceback.print_exc()
                sys.stderr.write(f"blender_roundtrip.py: FAILED on {src}: {e}\n")
                docs.append({"error": str(e), "input": src, "output": dst})
                status = 1
        emit(docs if batch else docs[0])
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv))
