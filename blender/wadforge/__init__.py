"""wadforge inside Blender: File > Import and File > Export > Tomb Raider objects, and a file
dropped on the 3D viewport (or the Outliner) imported.

Import runs `wadforge import` into a manifest directory and brings each object's glTF into its own
collection, with the settings wadforge's round trip needs, laid out side by side (layout.py); export
writes the glTF of each object changed since import (fingerprint.py) back over its file in that
directory, with the settings build needs, each armature or mesh no import made into its `new/`
folder (new_objects.py), and runs `wadforge build` (with `--new` for those). A panel
(Dope Sheet sidebar, Object properties) edits the active action's wadforge properties, which make
an action that names no animation a new one (action_panel.py).
Nothing else of the user's is written: only the directory's glTF files and the chosen output.
Object properties > wadforge slot sets a new object's slot.
"""

import bpy
from bpy.props import BoolProperty, CollectionProperty, StringProperty
from bpy_extras.io_utils import ExportHelper, ImportHelper

from . import action_panel, new_objects, runner, scene_io

# The files import takes, by extension (Blender's file handlers match them in any case).
EXTENSIONS = (".wad", ".wad2", ".phd", ".tr2", ".tr4")
FILE_KINDS = "*.wad;*.wad2;*.phd;*.tr2;*.tr4;*.WAD;*.WAD2;*.PHD;*.TR2;*.TR4;*.Wad2"


class WadforgePreferences(bpy.types.AddonPreferences):
    bl_idname = __package__

    wadforge_path: StringProperty(
        name="wadforge program",
        description="The wadforge program to run; empty: the one on PATH",
        subtype="FILE_PATH",
    )

    def draw(self, context):
        self.layout.prop(self, "wadforge_path")


class FileObject(bpy.types.PropertyGroup):
    """An object of the file chosen for import, to pick."""

    key: StringProperty(description="What wadforge's --only takes for it")
    pick: BoolProperty(name="", description="Import this object", default=False)


class ImportTombRaider(bpy.types.Operator, ImportHelper):
    """Import the objects of a WAD, Wad2 or TR1-TR4 level (through a wadforge manifest directory)"""

    bl_idname = "import_scene.wadforge"
    bl_label = "Import Tomb Raider objects"
    bl_options = {"REGISTER", "UNDO"}

    filename_ext = ".wad"
    filter_glob: StringProperty(default=FILE_KINDS, options={"HIDDEN"})
    only: StringProperty(
        name="Only",
        description="Slot names or ids, comma-separated (empty: every object)",
    )
    manifest_directory: StringProperty(
        name="Manifest directory",
        description="Where wadforge writes the objects' glTF and YAML (empty: FILE_wadforge beside the file); "
        "new or empty",
        subtype="DIR_PATH",
    )

    objects: CollectionProperty(type=FileObject, options={"SKIP_SAVE"})
    listed: StringProperty(options={"HIDDEN", "SKIP_SAVE"})

    def invoke(self, context, event):
        # A file dropped on the viewport (ImportTombRaiderDrop) comes with its path: the options
        # and the file's objects in a dialog, as the glTF importer does, rather than the browser.
        if self.properties.is_property_set("filepath"):
            self.check(context)
            return context.window_manager.invoke_props_dialog(
                self, title=bpy.path.basename(self.filepath), confirm_text="Import")
        return super().invoke(context, event)

    def check(self, context):
        # The file browser calls this as the chosen file changes: list that file's objects.
        path = bpy.path.abspath(self.filepath)
        if path == self.listed:
            return False
        self.listed = path
        self.objects.clear()
        for label, key in scene_io.file_objects(context, path):
            item = self.objects.add()
            item.name = label
            item.key = key
        return True

    def draw(self, context):
        layout = self.layout
        layout.prop(self, "manifest_directory")
        layout.prop(self, "only")
        if self.objects:
            box = layout.box()
            box.label(text=f"{len(self.objects)} objects (none picked: every one, or those Only names)")
            for item in self.objects:
                box.prop(item, "pick", text=item.name)

    def execute(self, context):
        picked = [item.key for item in self.objects if item.pick]
        typed = [name.strip() for name in self.only.split(",") if name.strip()]
        try:
            return scene_io.import_objects(self, context, scene_io.program(context), typed + picked)
        except runner.WadforgeError as e:
            self.report({"ERROR"}, str(e))
            return {"CANCELLED"}


class ExportTombRaider(bpy.types.Operator, ExportHelper):
    """Export the scene's Tomb Raider objects (those changed since import, and new ones) into a WAD or Wad2"""

    bl_idname = "export_scene.wadforge"
    bl_label = "Export Tomb Raider objects"
    bl_options = {"REGISTER"}

    filename_ext = ".wad"
    filter_glob: StringProperty(default="*.wad;*.wad2;*.WAD;*.WAD2", options={"HIDDEN"})
    base: StringProperty(
        name="Base",
        description="The WAD or Wad2 to patch: its other objects are kept (empty: the imported file, when it "
        "is a WAD or Wad2)",
        subtype="FILE_PATH",
    )
    use_base: BoolProperty(
        name="Patch the base",
        description="Keep the base's objects that the scene does not hold",
        default=True,
    )
    everything: BoolProperty(
        name="Export all",
        description="Re-export every imported object, not only those changed since import or the last export",
        default=False,
    )

    def check(self, context):
        # A .wad2 output keeps its extension (ExportHelper would add .wad).
        if self.filepath.lower().endswith(".wad2"):
            return False
        return super().check(context)

    def execute(self, context):
        try:
            return scene_io.export_objects(self, context, scene_io.program(context))
        except runner.WadforgeError as e:
            self.report({"ERROR"}, str(e))
            return {"CANCELLED"}


class ImportTombRaiderDrop(bpy.types.FileHandler):
    """A WAD, Wad2 or level dropped on the 3D viewport, or on the Outliner's view layer, imported
    by import_scene.wadforge (as the glTF add-on's IO_FH_gltf2 does for .glb and .gltf)."""

    bl_idname = "WADFORGE_FH_import"
    bl_label = "Tomb Raider objects"
    bl_import_operator = ImportTombRaider.bl_idname
    bl_file_extensions = ";".join(EXTENSIONS)

    @classmethod
    def poll_drop(cls, context):
        # The rule of bpy_extras.io_utils.poll_file_object_drop (newer than Blender 4.2).
        area = context.area
        if area is None:
            return False
        if area.type == "VIEW_3D":
            return True
        return area.type == "OUTLINER" and area.spaces.active.display_mode == "VIEW_LAYER"


def menu_import(self, context):
    self.layout.operator(ImportTombRaider.bl_idname, text="Tomb Raider objects (.wad, .wad2, .phd, .tr2, .tr4)")


def menu_export(self, context):
    self.layout.operator(ExportTombRaider.bl_idname, text="Tomb Raider objects (.wad, .wad2)")


CLASSES = (
    (WadforgePreferences, FileObject, ImportTombRaider, ExportTombRaider, ImportTombRaiderDrop)
    + action_panel.CLASSES
    + new_objects.CLASSES
)


def register():
    new_objects.register()
    for cls in CLASSES:
        bpy.utils.register_class(cls)
    bpy.types.TOPBAR_MT_file_import.append(menu_import)
    bpy.types.TOPBAR_MT_file_export.append(menu_export)


def unregister():
    bpy.types.TOPBAR_MT_file_export.remove(menu_export)
    bpy.types.TOPBAR_MT_file_import.remove(menu_import)
    for cls in reversed(CLASSES):
        bpy.utils.unregister_class(cls)
    new_objects.unregister()

