"""Each sound command of an animation as a marker of its action (the Action editor's pose
markers, "Show Pose Markers"), named after the sound at its frame; at export the markers go back
as the action's `wadforge_sounds` property, which build reads as the animation's sound commands.

Import writes each animation's sounds into the glTF scene's extras (`tr_sounds`: glTF animation
name → `SOUND@FRAME; ...`, the frame from the animation's first), since Blender's glTF importer keeps scene
extras but not an animation's. A marker's frame counts from its action's first frame; its name is
the sound's catalogue name (sounds.yaml of the import lists them) or its id.
"""

import contextlib

# The scene extras' key import writes, and the action property build reads.
SOUNDS = "tr_sounds"
PROPERTY = "wadforge_sounds"
GLTF_NAME = "wadforge_gltf_name"


def gltf_name(action):
    return action.get(GLTF_NAME) or action.name


def first_frame(action):
    return int(round(action.frame_range[0]))


def add_markers(actions, extras):
    """Markers on `actions` for the sounds the scene extras list for their animations, in the
    commands' order (export writes them back in the markers' order)."""
    sounds = extras.get(SOUNDS) or {}
    if not isinstance(sounds, dict):
        return
    for action in actions:
        line = sounds.get(gltf_name(action))
        if not isinstance(line, str):
            continue
        start = first_frame(action)
        for part in line.split(";"):
            name, at, frame = part.strip().rpartition("@")
            if at and frame.lstrip("-").isdigit():
                marker = action.pose_markers.new(name)
                marker.frame = start + int(frame)


def line_of(action):
    """The action's markers as `wadforge_sounds` takes them, in the markers' order."""
    start = first_frame(action)
    return "; ".join(f"{m.name}@{m.frame - start}" for m in action.pose_markers)


@contextlib.contextmanager
def as_properties(actions, extras):
    """Each action's markers in its `wadforge_sounds` property while its export runs: the actions
    with markers, and those whose animation played sounds at import (all their markers removed:
    no sounds). An action with neither keeps the manifest's commands."""
    sounds = extras.get(SOUNDS) or {}
    had = sounds if isinstance(sounds, dict) else {}
    before = {}
    try:
        for action in actions:
            if len(action.pose_markers) or gltf_name(action) in had:
                before[action] = action.get(PROPERTY)
                action[PROPERTY] = line_of(action)
        yield
    finally:
        for action, value in before.items():
            if value is None:
                del action[PROPERTY]
            else:
                action[PROPERTY] = value

