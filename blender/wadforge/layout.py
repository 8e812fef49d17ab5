"""Imported objects side by side along X, each collection's root objects moved by an offset that
export takes back: the glTF exporter bakes a root object's transform into the nodes it writes
(the armature's into its root bones), which build would read as a moved skeleton or mesh, so
each collection's export runs with its offset undone (`undone`)."""

import contextlib

import numpy as np
from mathutils import Vector

OFFSET = "wadforge_layout_offset"
# Space between two objects, in metres.
GAP = 0.5


def offset_of(collection):
    """The offset layout gave the collection's root objects (zero for none)."""
    return np.array(list(collection.get(OFFSET, (0.0, 0.0, 0.0))), dtype=np.float64)


def roots(objects):
    return [o for o in objects if o.parent is None]


def x_extent(objects):
    """The lowest and highest world X of the objects' meshes (None without a mesh)."""
    xs = [(o.matrix_world @ Vector(corner)).x for o in objects if o.type == "MESH" for corner in o.bound_box]
    return (min(xs), max(xs)) if xs else None


def side_by_side(collections, start=0.0):
    """Moves each collection's root objects along X so that the collections stand one after the
    other from `start`, GAP apart; records each offset on its collection."""
    x = start
    for collection in collections:
        objects = list(collection.all_objects)
        extent = x_extent(objects)
        if extent is None:
            continue
        shift = x - extent[0]
        for obj in roots(objects):
            obj.location.x += shift
        collection[OFFSET] = (shift, 0.0, 0.0)
        x += extent[1] - extent[0] + GAP


def end_of(collections):
    """Where the next collection laid out after `collections` starts."""
    ends = [x_extent(list(c.all_objects)) for c in collections]
    ends = [e[1] for e in ends if e is not None]
    return max(ends) + GAP if ends else 0.0


@contextlib.contextmanager
def undone(collection):
    """The collection's root objects back where import put them while its export runs."""
    offset = Vector(offset_of(collection))
    moved = roots(collection.all_objects) if offset.length else []
    for obj in moved:
        obj.location -= offset
    try:
        yield
    finally:
        for obj in moved:
            obj.location += offset


@contextlib.contextmanager
def at_origin(objects):
    """A new object's root objects at the world origin while its export runs: the object's origin
    is the TR object's, wherever it stands in the scene."""
    moved = [(o, o.location.copy()) for o in roots(objects)]
    for obj, _ in moved:
        obj.location = (0.0, 0.0, 0.0)
    try:
        yield
    finally:
        for obj, location in moved:
            obj.location = location
