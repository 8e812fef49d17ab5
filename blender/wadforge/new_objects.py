"""New objects: an armature (a moveable, with the meshes it deforms and the actions it plays) or a
mesh (a static, or a moveable of one mesh) that no import made, exported as a glTF of its own
into the manifest directory's `new/` folder and built by `wadforge build --new FILE=SLOT`, which
reads it as `import --slot` reads a foreign model (spheres, lighting from its normals, link
offsets, one TR mesh per bone by weight, its actions as animations).

The slot is the object's `wadforge_slot` property (the Object properties panel's field), else its
name without Blender's `.001` suffix (`ANIMATING1`); build refuses a name its catalogue lacks,
saying the nearest ones.
"""

import os

import bpy
from bpy.props import StringProperty

from . import layout, runner

SLOT = "wadforge_slot"
FOLDER = "new"


def slot_of(obj):
    """The slot name the object takes: its `wadforge_slot`, else its name without `.NNN`."""
    chosen = str(obj.get(SLOT, "")).strip()
    if chosen:
        return chosen
    stem, dot, suffix = obj.name.rpartition(".")
    return stem if dot and suffix.isdigit() else obj.name


def deformed_by(mesh):
    """The armature a mesh follows (its parent, or its Armature modifier's object), if any."""
    for modifier in mesh.modifiers:
        if modifier.type == "ARMATURE" and modifier.object is not None:
            return modifier.object
    if mesh.parent is not None and mesh.parent.type == "ARMATURE":
        return mesh.parent
    return None


def find(view_layer, imported):
    """[(root object, its objects)] of the view layer's new objects: each armature with the meshes
    it deforms, each mesh that follows no armature. `imported`: the collections import made (their
    objects are not new, whichever directory they came from). Objects of collections excluded from
    the view layer are left out (the exporter could not select them)."""
    taken = {o for c in imported for o in c.all_objects}
    found = []
    candidates = [o for o in view_layer.objects if o not in taken]
    for obj in sorted(candidates, key=lambda o: o.name):
        if obj.type == "ARMATURE":
            meshes = [m for m in candidates if m.type == "MESH" and deformed_by(m) == obj]
            found.append((obj, [obj, *meshes]))
        elif obj.type == "MESH" and deformed_by(obj) is None:
            found.append((obj, [obj]))
    return found


def played(objects):
    """The actions the objects play: active, or on their NLA tracks."""
    actions = set()
    for obj in objects:
        data = obj.animation_data
        if data is None:
            continue
        if data.action:
            actions.add(data.action)
        for track in data.nla_tracks:
            actions.update(strip.action for strip in track.strips if strip.action)
    return actions


def export(context, directory, root, objects, keep, settings):
    """The new object's glTF written as `directory/new/SLOT.glb`; returns (path, slot)."""
    slot = slot_of(root)
    if not slot or os.sep in slot or "/" in slot or "=" in slot:
        raise runner.WadforgeError(
            f"{root.name}: {slot!r} is not a slot name; name the object after its catalogue slot (ANIMATING1) "
            "or set its slot in Object properties > wadforge")
    folder = os.path.join(directory, FOLDER)
    os.makedirs(folder, exist_ok=True)
    path = os.path.join(folder, f"{slot}.glb")
    keep(played(objects))
    selected = [o for o in context.view_layer.objects if o.select_get()]
    for obj in selected:
        obj.select_set(False)
    try:
        for obj in objects:
            obj.select_set(True)
        with layout.at_origin(objects):
            result = bpy.ops.export_scene.gltf(filepath=path, use_selection=True, **settings)
    finally:
        for obj in objects:
            obj.select_set(False)
        for obj in selected:
            obj.select_set(True)
    if "FINISHED" not in result:
        raise runner.WadforgeError(f"Blender's glTF exporter could not write {path}")
    return path, slot


class WADFORGE_PT_object_slot(bpy.types.Panel):
    """The slot a new object takes (Object properties, tab "wadforge slot")."""

    bl_label = "wadforge slot"
    bl_space_type = "PROPERTIES"
    bl_region_type = "WINDOW"
    bl_context = "object"

    @classmethod
    def poll(cls, context):
        obj = context.object
        return obj is not None and obj.type in ("ARMATURE", "MESH")

    def draw(self, context):
        obj = context.object
        layout_ = self.layout
        layout_.prop(obj, "wadforge_slot_name", text="Slot")
        layout_.label(text=f"Exported as a new object in slot {slot_of(obj)} (unless imported)")


def get_slot(obj):
    return str(obj.get(SLOT, ""))


def set_slot(obj, value):
    obj[SLOT] = value.strip()


def register():
    bpy.types.Object.wadforge_slot_name = StringProperty(
        name="Slot",
        description="The catalogue slot a new object takes (ANIMATING1, a static's name, or a moveable id); "
        "empty: the object's name",
        get=get_slot,
        set=set_slot,
    )


def unregister():
    del bpy.types.Object.wadforge_slot_name


CLASSES = (WADFORGE_PT_object_slot,)
