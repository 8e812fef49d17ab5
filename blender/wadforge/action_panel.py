"""The active action's wadforge properties, in a panel of the Dope Sheet's sidebar (Action
editor, tab "wadforge") and of the Object properties.

They are plain custom properties of the action: Blender's glTF exporter writes an action's custom
properties as its animation's `extras`, where `wadforge build` reads them. An action that names
no animation of the object's manifest becomes a new animation: what it leaves unset takes the
defaults (a state of its own, itself as next animation, no speed, one keyframe a tick). On an
action of an imported animation, a property set here replaces the manifest's value (state
changes are added to the manifest's).
"""

import bpy
from bpy.props import BoolProperty, StringProperty

# (property, label, default) in the order the panel shows them; build reads the same names.
PROPERTIES = (
    ("wadforge_state", "State", 0),
    ("wadforge_next", "Next animation", ""),
    ("wadforge_next_frame", "Next frame", 0),
    ("wadforge_frame_duration", "Frame duration (ticks)", 1),
    ("wadforge_speed", "Speed", 0.0),
    ("wadforge_acceleration", "Acceleration", 0.0),
    ("wadforge_lateral_speed", "Lateral speed (TR4)", 0.0),
    ("wadforge_lateral_acceleration", "Lateral acceleration (TR4)", 0.0),
    ("wadforge_state_changes", "State changes", ""),
)
# What build takes when a new action leaves a property unset (an imported one keeps the manifest's).
UNSET = {
    "wadforge_state": "a state of its own",
    "wadforge_next": "itself",
    "wadforge_state_changes": "none",
}
SYNTAX = "STATE: FROM-TO > ANIMATION@FRAME, ...; STATE: ..."


def active_action(context):
    """The action of the active object (or of the Dope Sheet's Action editor), if any."""
    space = getattr(context, "space_data", None)
    action = getattr(space, "action", None) if space is not None else None
    if action is not None:
        return action
    obj = context.active_object
    data = obj.animation_data if obj is not None else None
    return data.action if data is not None else None


class WADFORGE_OT_action_property(bpy.types.Operator):
    """Set a wadforge property of the active action to its default, or remove it"""

    bl_idname = "wadforge.action_property"
    bl_label = "wadforge action property"
    bl_options = {"REGISTER", "UNDO"}

    name: StringProperty(options={"HIDDEN"})
    remove: BoolProperty(options={"HIDDEN"})

    @classmethod
    def poll(cls, context):
        return active_action(context) is not None

    def execute(self, context):
        action = active_action(context)
        defaults = {name: default for name, _, default in PROPERTIES}
        if self.name not in defaults:
            self.report({"ERROR"}, f"{self.name} is not a wadforge action property")
            return {"CANCELLED"}
        if self.remove:
            if self.name in action:
                del action[self.name]
        else:
            action[self.name] = defaults[self.name]
        return {"FINISHED"}


def draw_properties(layout, context):
    action = active_action(context)
    if action is None:
        layout.label(text="No active action")
        return
    layout.label(text=f"Action {action.name}", icon="ACTION")
    for name, label, _ in PROPERTIES:
        row = layout.row(align=True)
        if name in action:
            row.prop(action, f'["{name}"]', text=label)
            op = row.operator(WADFORGE_OT_action_property.bl_idname, text="", icon="X")
            op.name, op.remove = name, True
        else:
            new = UNSET.get(name, "1" if name == "wadforge_frame_duration" else "0")
            row.label(text=f"{label}: manifest's (new action: {new})")
            op = row.operator(WADFORGE_OT_action_property.bl_idname, text="", icon="ADD")
            op.name, op.remove = name, False
    layout.label(text=SYNTAX)


class WADFORGE_PT_action_dopesheet(bpy.types.Panel):
    """The active action's wadforge properties, in the Dope Sheet's sidebar"""

    bl_label = "Tomb Raider animation"
    bl_idname = "WADFORGE_PT_action_dopesheet"
    bl_space_type = "DOPESHEET_EDITOR"
    bl_region_type = "UI"
    bl_category = "wadforge"

    def draw(self, context):
        draw_properties(self.layout, context)


class WADFORGE_PT_action_object(bpy.types.Panel):
    """The active object's action's wadforge properties, in the Object properties"""

    bl_label = "Tomb Raider animation"
    bl_idname = "WADFORGE_PT_action_object"
    bl_space_type = "PROPERTIES"
    bl_region_type = "WINDOW"
    bl_context = "object"
    bl_options = {"DEFAULT_CLOSED"}

    @classmethod
    def poll(cls, context):
        return context.active_object is not None and context.active_object.type == "ARMATURE"

    def draw(self, context):
        draw_properties(self.layout, context)


CLASSES = (WADFORGE_OT_action_property, WADFORGE_PT_action_dopesheet, WADFORGE_PT_action_object)
