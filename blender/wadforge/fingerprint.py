"""A fingerprint of what a collection's export would write: export re-exports only the
collections whose fingerprint changed since import (or since their last export), so a scene of
120 imported objects with one edited exports one glTF file, not 120.

The fingerprint hashes what the glTF exporter reads of the collection's objects: their names,
kinds, parents and transforms (the root objects' as they were before import's layout moved them,
see layout.py), custom properties, the meshes' vertices, corners, UVs, colour attributes,
normals, vertex groups and weights, materials and their images (names, files, sizes and pixels), the
armatures' bones, and the actions they play with their
curves' keys and custom properties. What it misses (a change the exporter sees through none of
these) is built as imported: the panel's "Export all" option (ExportTombRaider.everything)
re-exports every collection.
"""

import hashlib

import numpy as np

from . import layout

FINGERPRINT = "wadforge_fingerprint"


def of_collection(collection, actions, pixels=None):
    """The fingerprint (hex) of `collection`'s objects and `actions` (the actions they play).
    `pixels`: a dict kept across the collections of one import or export, so that an image they
    share (import's atlas) is read once."""
    h = hashlib.sha256()
    offset = layout.offset_of(collection)
    pixels = {} if pixels is None else pixels
    for obj in sorted(collection.all_objects, key=lambda o: o.name):
        add_object(h, obj, offset, pixels)
    for action in sorted(actions, key=lambda a: a.name):
        add_action(h, action)
    return h.hexdigest()


def add_text(h, *parts):
    for part in parts:
        h.update(str(part).encode())
        h.update(b"\0")


def add_array(h, collection, attribute, width, dtype=np.float32):
    values = np.empty(len(collection) * width, dtype=dtype)
    if len(collection):
        collection.foreach_get(attribute, values)
    h.update(values.tobytes())


def add_object(h, obj, offset, pixels):
    add_text(h, obj.name, obj.type, obj.parent.name if obj.parent else "", obj.parent_bone)
    basis = np.array(obj.matrix_basis, dtype=np.float64)
    if obj.parent is None:
        basis[:3, 3] -= offset
    h.update(np.round(basis, 6).tobytes())
    add_text(h, sorted((k, repr(v)) for k, v in custom_properties(obj)))
    add_text(h, [(m.type, getattr(m, "object", None) and m.object.name) for m in obj.modifiers])
    data = obj.data
    if data is None:
        return
    add_text(h, data.name, sorted((k, repr(v)) for k, v in custom_properties(data)))
    if obj.type == "MESH":
        add_mesh(h, obj, data, pixels)
    elif obj.type == "ARMATURE":
        for bone in data.bones:
            add_text(h, bone.name, bone.parent.name if bone.parent else "")
            h.update(np.round(np.array(bone.matrix_local, dtype=np.float64), 6).tobytes())


def add_mesh(h, obj, mesh, pixels):
    add_array(h, mesh.vertices, "co", 3)
    add_array(h, mesh.loops, "vertex_index", 1, np.int32)
    add_array(h, mesh.polygons, "loop_total", 1, np.int32)
    add_array(h, mesh.polygons, "material_index", 1, np.int32)
    for attribute in mesh.attributes:
        add_text(h, attribute.name, attribute.domain, attribute.data_type)
        field = {"FLOAT2": "vector", "FLOAT_VECTOR": "vector", "FLOAT_COLOR": "color",
                 "BYTE_COLOR": "color", "FLOAT": "value", "INT": "value"}.get(attribute.data_type)
        width = {"vector": 3 if attribute.data_type == "FLOAT_VECTOR" else 2, "color": 4, "value": 1}.get(field)
        if field is not None:
            dtype = np.int32 if attribute.data_type == "INT" else np.float32
            add_array(h, attribute.data, field, width, dtype)
    if mesh.has_custom_normals:
        add_array(h, mesh.corner_normals, "vector", 3)
    add_text(h, [g.name for g in obj.vertex_groups])
    weights = [(v.index, g.group, round(g.weight, 6)) for v in mesh.vertices for g in v.groups]
    add_text(h, weights)
    for material in mesh.materials:
        add_material(h, material, pixels)


def add_material(h, material, pixels):
    if material is None:
        add_text(h, "no material")
        return
    add_text(h, material.name, sorted((k, repr(v)) for k, v in custom_properties(material)))
    tree = material.node_tree
    if tree is None:
        return
    for node in sorted(tree.nodes, key=lambda n: n.name):
        add_text(h, node.name, node.bl_idname)
        for socket in node.inputs:
            value = getattr(socket, "default_value", None)
            add_text(h, socket.identifier, repr(value[:] if hasattr(value, "__len__") else value),
                     [(link.from_node.name, link.from_socket.identifier) for link in socket.links])
        image = getattr(node, "image", None)
        if image is not None:
            add_text(h, image.name, image.filepath, tuple(image.size), image.packed_file is not None,
                     pixels_digest(image, pixels))


def pixels_digest(image, pixels):
    """A hash of the image's pixels as Blender holds them (painted, or saved over), read once per
    `pixels` dict."""
    if image.name not in pixels:
        values = np.empty(len(image.pixels), dtype=np.float32)
        image.pixels.foreach_get(values)
        pixels[image.name] = hashlib.sha256(values.tobytes()).hexdigest()
    return pixels[image.name]


def add_action(h, action):
    add_text(h, action.name, sorted((k, repr(v)) for k, v in custom_properties(action)))
    # Its markers are its sounds (sound_markers.py): a moved one is a change to export.
    add_text(h, [(m.name, m.frame) for m in action.pose_markers])
    for curve in curves_of(action):
        add_text(h, curve.data_path, curve.array_index, len(curve.keyframe_points))
        add_array(h, curve.keyframe_points, "co", 2)
        add_array(h, curve.keyframe_points, "handle_left", 2)
        add_array(h, curve.keyframe_points, "handle_right", 2)
        add_text(h, [k.interpolation for k in curve.keyframe_points])


def curves_of(action):
    """The action's F-curves: a layered action's (Blender 4.4 and newer) or a legacy one's."""
    layers = getattr(action, "layers", None)
    if layers is not None and len(layers):
        return [fc for layer in layers for strip in layer.strips
                for bag in getattr(strip, "channelbags", []) for fc in bag.fcurves]
    return list(getattr(action, "fcurves", []))


def custom_properties(block):
    """The block's own custom properties (not the extension's bookkeeping, which changes on export)."""
    return [(k, plain(block[k])) for k in block.keys() if k not in (FINGERPRINT, layout.OFFSET)]


def plain(value):
    """A custom property's value as plain Python, whose repr holds no address."""
    if hasattr(value, "to_dict"):
        return value.to_dict()
    if hasattr(value, "to_list"):
        return value.to_list()
    return value
