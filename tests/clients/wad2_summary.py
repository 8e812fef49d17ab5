#!/usr/bin/env python3
"""Summarise Tomb Editor Wad2 object files as JSON, written apart from wadforge's Rust codec.

A second reader, taken from TombLib's C# loader (Wad2Loader.cs, ChunkReader.cs, LEB128.cs) and
the project's Wad2 notes, so the test suite can check every Wad2 file the Rust side reads or
writes against a reader that shares none of its code. Standard library only (Python 3.11).

Usage: wad2_summary.py FILE...  One JSON object per file (a list when several), keys sorted.
A bad file prints "wad2_summary: FILE: offset N: problem" on stderr and exits 1, never a traceback.
Values are reported as stored: legacy W2Ani/W2Anm end frames are not decremented and legacy W2Cmd
conditions are not unpacked as TombLib does after reading, so the summary checks bytes, not fix-ups.
"""

import json
import math
import struct
import sys
import zlib

#: Deepest nesting of legacy W2Bone trees, so a hostile file cannot exhaust Python's stack.
MAX_BONE_DEPTH = 64
#: TombLib's WadLinkOpcode values, given to bones flattened out of a legacy W2Bone tree.
NOT_USE_STACK, POP, PUSH, READ = 0, 1, 2, 3
#: Numbers before an animation's children, and where next animation/frame sit among them:
#: W2Anm (TombLib's AnimationObsolete) has two unused numbers and old speeds, W2Ani old speeds,
#: W2Ani3 a blend frame count. State, end frame and frame rate always come first.
ANIMATION_FIELDS = {"W2Anm": (11, 9), "W2Ani": (9, 7), "W2Ani2": (5, 3), "W2Ani3": (6, 3)}
POLYGONS = ("W2Tr", "W2Uq", "W2Tr2", "W2Uq2")
CURVES = ("W2CurveStart", "W2CurveEnd", "W2CurveHStart", "W2CurveHEnd")


class Wad2Error(Exception):
    """A problem in the file, at a byte offset (of the inflated stream when `inflated`)."""

    def __init__(self, offset, problem):
        super().__init__(offset, problem)
        self.offset, self.problem, self.inflated = offset, problem, False

    def __str__(self):
        where = " of the inflated stream" if self.inflated else ""
        return f"offset {self.offset}{where}: {self.problem}"


class Cursor:
    """The content of one chunk (`id`, starting at byte `start`), read from `pos` up to `end`.

    Every read is checked against the bytes left, so a hostile count or size gives an error
    with an offset instead of a short read. All cursors of a file share `unknown`: the ids met
    where this reader decodes nothing.
    """

    def __init__(self, data, chunk_id, start, pos, end, unknown):
        self.data, self.id, self.start = data, chunk_id, start
        self.pos, self.end, self.unknown = pos, end, unknown

    def fail(self, problem, offset=None):
        return Wad2Error(self.pos if offset is None else offset, f"{self.id}: {problem}")

    def left(self):
        return self.end - self.pos

    def take(self, count, what):
        """`count` raw bytes."""
        if count < 0 or count > self.left():
            raise self.fail(f"{what} needs {count} bytes, {self.left()} left")
        self.pos += count
        return self.data[self.pos - count:self.pos]

    def sleb(self, what):
        """A signed LEB128 number: TombLib uses the signed form everywhere, sizes included."""
        start, value, shift = self.pos, 0, 0
        for _ in range(10):
            if self.pos >= self.end:
                raise self.fail(f"{what}: LEB128 number cut short", start)
            byte = self.data[self.pos]
            self.pos += 1
            value |= (byte & 0x7F) << shift
            shift += 7
            if not byte & 0x80:
                value -= (1 << shift) if byte & 0x40 else 0
                if not -(1 << 63) <= value < (1 << 63):
                    raise self.fail(f"{what}: LEB128 number {value} does not fit 64 bits", start)
                return value
        raise self.fail(f"{what}: LEB128 number longer than 10 bytes", start)

    def floats(self, count, what, finite=False):
        """`count` f32 LE values; `finite` refuses NaN and infinities (values the JSON reports)."""
        start = self.pos
        values = list(struct.unpack(f"<{count}f", self.take(4 * count, what)))
        if finite and not all(math.isfinite(v) for v in values):
            raise self.fail(f"{what} is not finite", start)
        return values

    def done(self):
        """A chunk's content must be used to its end: a checker flags what TombLib would skip."""
        if self.pos != self.end:
            raise self.fail(f"{self.left()} unread bytes at the end of its content")

    def chunks(self):
        """Yields each chunk of the child stream from `pos` as a Cursor, up to the closing 00."""
        while True:
            offset = self.pos
            length = self.sleb("chunk id length")
            if length == 0:
                break
            if length < 0 or length > self.left():
                raise self.fail(f"chunk id length {length}, {self.left()} bytes left", offset)
            raw = self.take(length, "chunk id")
            if not raw.isascii():
                raise self.fail(f"chunk id {raw!r} is not ASCII", offset)
            chunk_id = raw.decode("ascii")
            size = self.sleb(f"size of {chunk_id}")
            if size < 0 or size > self.left():
                raise self.fail(f"{chunk_id} size {size} runs past the {self.left()} bytes left",
                                offset)
            self.pos += size
            yield Cursor(self.data, chunk_id, offset, self.pos - size, self.pos, self.unknown)
        self.done()


def walk(cursor, handlers):
    """Reads a child stream, handing each chunk to handlers[id]; other ids are noted, skipped."""
    for chunk in cursor.chunks():
        handler = handlers.get(chunk.id)
        if handler is None:
            cursor.unknown.add(chunk.id)
        else:
            handler(chunk)


def number(c):
    """An Int leaf: one SLEB128 value filling the chunk."""
    value = c.sleb("value")
    c.done()
    return value


def vector(c, count, finite=False):
    """A Vector2/3/4 leaf: `count` f32 values filling the chunk."""
    values = c.floats(count, "vector", finite)
    c.done()
    return values


def real(c):
    """A Float leaf: f64, or f32 when the chunk holds 4 bytes (TombLib reads both)."""
    if c.left() not in (4, 8):
        raise c.fail(f"a float takes 4 or 8 bytes, not {c.left()}")
    value = struct.unpack("<f" if c.left() == 4 else "<d", c.take(c.left(), "float"))[0]
    c.done()
    return value


def flag(c):
    """A Bool leaf: one byte."""
    value = c.take(1, "flag")[0]
    c.done()
    return value


def text(c):
    """A String leaf: raw UTF-8 to the chunk's end (TombLib replaces bad sequences, so do we)."""
    return c.take(c.left(), "string").decode("utf-8", errors="replace")


def vec3(c):
    return vector(c, 3)


def box(c):
    """W2BBox, W2KfBB, W2StaticVB, W2StaticCB: { W2BBMin, W2BBMax }."""
    walk(c, {"W2BBMin": vec3, "W2BBMax": vec3})


def curves():
    """Handlers for the blend curve points of W2Ani3 and W2Disp2."""
    return {curve: (lambda c: vector(c, 2)) for curve in CURVES}


def new_mesh():
    return {"name": None, "positions": 0, "normals": 0, "colours": 0, "shades": 0,
            "weights": 0, "attributes": 0, "triangles": 0, "quads": 0, "index_sum": 0,
            "texture_sum": 0, "position_sum": [0.0, 0.0, 0.0], "blend_modes": [],
            "double_sided": 0}


def read_polygon(c, mesh, corners_of):
    """W2Tr/W2Uq (legacy) or W2Tr2/W2Uq2 (with the parent texture area), then an empty stream."""
    quad = c.id.startswith("W2Uq")
    corners = [c.sleb("corner index") for _ in range(4 if quad else 3)]
    c.sleb("shine")
    mesh["texture_sum"] += c.sleb("texture index")
    if c.id.endswith("2"):
        c.floats(4, "parent area")
    c.floats(2 * len(corners), "UVs")
    blend = c.sleb("blend mode")
    mesh["double_sided"] += c.take(1, "double-sided flag")[0] != 0
    walk(c, {})
    mesh["quads" if quad else "triangles"] += 1
    mesh["index_sum"] += sum(corners)
    if blend not in mesh["blend_modes"]:
        mesh["blend_modes"].append(blend)
    corners_of.append((c, corners))


def vertex_lists(mesh):
    """Handlers for a mesh's per-vertex lists; each element adds one to its count in `mesh`."""
    def counted(key, read):
        def handler(c):
            read(c)
            mesh[key] += 1
        return handler

    def position(c):
        for axis, value in enumerate(vector(c, 3, finite=True)):
            mesh["position_sum"][axis] += value

    def attribute(c):  # glow, move, then an empty child stream
        c.sleb("glow")
        c.sleb("move")
        walk(c, {})

    def weight(c):  # four (i32 bone, f32 weight) pairs, then an empty child stream
        c.take(32, "four bone weights")
        walk(c, {})
    lists = {
        "W2VrtPos": {"W2Pos": counted("positions", position)},
        "W2VrtNorm": {"W2N": counted("normals", vec3)},
        "W2VrtShd": {"W2VxCol": counted("colours", vec3), "W2Shd": counted("shades", number)},
        "W2VrtAttr": {"W2VxAttr": counted("attributes", attribute)},
        "W2VrtWghts": {"W2VrtWght": counted("weights", weight)},
    }
    return {list_id: (lambda c, inner=inner: walk(c, inner)) for list_id, inner in lists.items()}


def read_mesh(c, label):
    """W2Mesh: every child TombLib's LoadMesh knows; then each polygon's corners are checked
    against the positions (at the end, so the check does not depend on the children's order)."""
    mesh, corners_of = new_mesh(), []

    def name(c2):
        mesh["name"] = text(c2)
    polygon = (lambda c2: read_polygon(c2, mesh, corners_of))
    walk(c, {"W2Index": number, "W2MeshName": name, "W2BBox": box,
             "W2MeshSphere": lambda c2: walk(c2, {"W2SphC": vec3, "W2SphR": real}),
             "W2MeshLightType": number, "W2MeshVisible": flag,
             "W2Polys": lambda c2: walk(c2, {kind: polygon for kind in POLYGONS}),
             **vertex_lists(mesh)})
    for index, (polygon_chunk, corners) in enumerate(corners_of):
        bad = [i for i in corners if not 0 <= i < mesh["positions"]]
        if bad:
            raise polygon_chunk.fail(
                f"{label} ({mesh['name']!r}) polygon {index}: corner index {bad[0]} out of range "
                f"of {mesh['positions']} positions", polygon_chunk.start)
    mesh["blend_modes"].sort()
    return mesh


def bone_parts(bone):
    """Handlers filling a bone [opcode, name, translation, mesh index] from its children."""
    def translation(c):
        bone[2] = vec3(c)

    def mesh_index(c):
        bone[3] = number(c)
    return {"W2BoneTrans": translation, "W2BoneMesh": mesh_index}


def read_bone2(c):
    """W2Bone2: SLEB opcode, i32 LE length + UTF-8 name; children W2BoneTrans, W2BoneMesh."""
    opcode = c.sleb("opcode")
    length = struct.unpack("<i", c.take(4, "name length"))[0]
    name = c.take(length, "name").decode("utf-8", errors="replace")
    bone = [opcode, name, [0.0, 0.0, 0.0], None]
    walk(c, bone_parts(bone))
    return bone


def read_bone_tree(c, depth=0):
    """Legacy W2Bone: a nested tree of (bone, children), each bone as W2Bone2 gives it."""
    if depth > MAX_BONE_DEPTH:
        raise c.fail(f"bone tree deeper than {MAX_BONE_DEPTH}", c.start)
    bone, children = [NOT_USE_STACK, "", [0.0, 0.0, 0.0], None], []

    def name(c2):
        bone[1] = text(c2)
    walk(c, {"W2BoneName": name, **bone_parts(bone),
             "W2Bone": lambda c2: children.append(read_bone_tree(c2, depth + 1))})
    return bone, children


def flatten_bone_tree(tree):
    """TombLib's BuildNewMeshTree: the root at the origin, then descendants depth first, each
    opcode saying where the bone sits among its siblings (only child, first, last, or between)."""
    root, children = tree
    bones = [[NOT_USE_STACK, root[1], [0.0, 0.0, 0.0], root[3]]]

    def visit(siblings):
        for place, (bone, grandchildren) in enumerate(siblings):
            if len(siblings) == 1:
                bone[0] = NOT_USE_STACK
            else:
                bone[0] = PUSH if place == 0 else POP if place == len(siblings) - 1 else READ
            bones.append(bone)
            visit(grandchildren)
    visit(children)
    return bones


def read_state_change(c, animation):
    """W2StCh: SLEB state; W2Disp (a leaf of 4 numbers) or W2Disp2 (6 numbers, then curves)."""
    c.sleb("state")

    def dispatch(c2):
        for _ in range(4 if c2.id == "W2Disp" else 6):
            c2.sleb("dispatch field")
        if c2.id == "W2Disp":
            c2.done()
        else:
            walk(c2, curves())
        animation["dispatches"] += 1
    walk(c, {"W2Disp": dispatch, "W2Disp2": dispatch})
    animation["state_changes"] += 1


def read_keyframe(c, animation):
    """W2Kf { W2KfOffs, W2KfBB, W2KfA per bone }."""
    def angle(c2):
        vec3(c2)
        animation["angles"] += 1
    walk(c, {"W2KfOffs": vec3, "W2KfBB": box, "W2KfA": angle})
    animation["keyframes"] += 1


def read_animation(c):
    """W2Anm/W2Ani/W2Ani2/W2Ani3: header numbers; name, keyframes, state changes, commands."""
    count, next_at = ANIMATION_FIELDS[c.id]
    fields = [c.sleb("header field") for _ in range(count)]
    animation = {"kind": c.id, "state": fields[0], "end_frame": fields[1],
                 "frame_rate": fields[2], "next_animation": fields[next_at],
                 "next_frame": fields[next_at + 1], "keyframes": 0, "angles": 0,
                 "state_changes": 0, "dispatches": 0, "commands": [], "velocities": None,
                 "name": None}

    def command(c2):  # W2Cmd2, or legacy W2Cmd: type, p1, p2, p3 as stored
        animation["commands"].append([c2.sleb("command field") for _ in range(4)])
        walk(c2, {"W2CmdSnd": number})

    def name(c2):
        animation["name"] = text(c2)

    def velocities(c2):
        animation["velocities"] = vector(c2, 4, finite=True)
    walk(c, {"W2AnmName": name, "W2AniV": velocities, "W2Cmd": command, "W2Cmd2": command,
             "W2Kf": lambda c2: read_keyframe(c2, animation),
             "W2StCh": lambda c2: read_state_change(c2, animation), **curves()})
    return animation


def read_moveable(c):
    """W2Moveable: SLEB slot id; meshes, an optional skin, bones, animations."""
    moveable = {"id": c.sleb("slot id"), "meshes": [], "skin": None, "bones": [],
                "animations": []}
    label = f"moveable {moveable['id']}"

    def mesh(c2):
        moveable["meshes"].append(read_mesh(c2, f"{label} mesh {len(moveable['meshes'])}"))

    def skin_mesh(c2):
        moveable["skin"] = read_mesh(c2, f"{label} skin")
    walk(c, {"W2Mesh": mesh, "W2MovSkin": lambda c2: walk(c2, {"W2Mesh": skin_mesh}),
             "W2Bone2": lambda c2: moveable["bones"].append(read_bone2(c2)),
             "W2Bone": lambda c2: moveable["bones"].extend(flatten_bone_tree(read_bone_tree(c2))),
             **{kind: lambda c2: moveable["animations"].append(read_animation(c2))
                for kind in ANIMATION_FIELDS}})
    for bone in moveable["bones"]:
        if bone[3] is not None and not 0 <= bone[3] < len(moveable["meshes"]):
            raise c.fail(f"{label} bone {bone[1]!r}: mesh index {bone[3]} out of range of "
                         f"{len(moveable['meshes'])} meshes", c.start)
    return moveable


def read_static(c):
    """W2Static2 (slot id, flags) or legacy W2Static (and a lighting type); mesh, boxes, lights."""
    static = {"id": c.sleb("slot id"), "flags": c.sleb("flags"), "mesh": None}
    if c.id == "W2Static":
        c.sleb("lighting type")

    def mesh(c2):
        static["mesh"] = read_mesh(c2, f"static {static['id']} mesh")
    light = {"W2StaticLightPos": vec3, "W2StaticLightR": real, "W2StaticLightI": real}
    walk(c, {"W2Mesh": mesh, "W2StaticVB": box, "W2StaticCB": box,
             "W2StaticAmbientLight": number, "W2StaticShatterSound": number,
             "W2StaticShatter": flag, "W2StaticLight": lambda c2: walk(c2, light)})
    return static


def read_image(c):
    """W2Txt/W2Spr: SLEB width, height; children; W2TxtData must hold width*height BGRA pixels."""
    width, height = c.sleb("width"), c.sleb("height")
    if width < 0 or height < 0:
        raise c.fail(f"size {width} x {height} is negative", c.start)

    def data(c2):
        if c2.left() != width * height * 4:
            raise c2.fail(f"{c2.left()} bytes for {width} x {height} pixels, not "
                          f"{width * height * 4}", c2.start)
        c2.pos = c2.end

    def sides(c2):
        c2.take(16, "four sides")
        c2.done()
    walk(c, {"W2Index": number, "W2TxtName": text, "W2TxtRelPath": text, "W2TxtData": data,
             "W2SprSides": sides})
    return [width, height]


def read_sprite_sequence(c):
    """W2SpriteSeq: SLEB slot id; W2SpritePtr per sprite."""
    slot, sprites = c.sleb("slot id"), []
    walk(c, {"W2SpritePtr": lambda c2: sprites.append(number(c2))})
    return [slot, len(sprites)]


def read_metadata(c):
    """W2Metadata { W2Timestamp (6 numbers, then an empty stream), W2UserNotes }."""
    def timestamp(c2):
        for _ in range(6):
            c2.sleb("timestamp field")
        walk(c2, {})
    walk(c, {"W2Timestamp": timestamp, "W2UserNotes": text})


def read_animated_texture_sets(c):
    """Not summarised: an empty list is checked, any set marks the chunk as not decoded."""
    if c.left() == 1:
        walk(c, {})
    else:
        c.unknown.add(c.id)


def read_top(cursor):
    """The top-level chunk stream: one handler per chunk TombLib's LoadWad2 knows."""
    summary = {"game_version": None, "sound_system": None, "textures": [], "sprites": [],
               "sprite_sequences": [], "moveables": [], "statics": []}

    def setter(key):
        def handler(c):
            summary[key] = number(c)
        return handler

    def items(key, item_ids, read):
        """A list chunk (W2Textures...): each child of `item_ids` read into summary[key]."""
        return lambda c: walk(c, {i: (lambda c2: summary[key].append(read(c2))) for i in item_ids})
    walk(cursor, {
        "W2SuggestedGameVersion": setter("game_version"),
        "W2SoundSystem": setter("sound_system"),
        "W2Textures": items("textures", ["W2Txt"], read_image),
        "W2Sprites": items("sprites", ["W2Spr"], read_image),
        "W2SpriteSequences": items("sprite_sequences", ["W2SpriteSeq"], read_sprite_sequence),
        "W2Moveables": items("moveables", ["W2Moveable"], read_moveable),
        "W2Statics": items("statics", ["W2Static", "W2Static2"], read_static),
        "W2Metadata": read_metadata, "W2AnimatedTextureSets": read_animated_texture_sets})
    summary["sprites"] = len(summary["sprites"])
    return summary


def chunk_stream(data):
    """Checks the header; returns the bytes holding the chunk stream and where it starts there
    (the file itself, or the zlib stream inflated when flag bit 31 says so)."""
    if len(data) < 8:
        raise Wad2Error(0, f"{len(data)} bytes, shorter than the 8-byte header")
    if data[:4] != b"WAD2":
        old = " (the deprecated lower-case format)" if data[:4] == b"Wad2" else ""
        raise Wad2Error(0, f"magic {data[:4]!r} is not WAD2{old}")
    flags = struct.unpack_from("<I", data, 4)[0]
    if flags & 0x7FFFFFFF:
        raise Wad2Error(4, f"flags {flags:#010x}: only bit 31 (compressed) is defined")
    if not flags & 0x80000000:
        return data, 8
    length = struct.unpack_from("<i", data, 8)[0] if len(data) >= 12 else -1
    if length < 0 or length > len(data) - 12:
        raise Wad2Error(8, f"compressed length {length}, {max(len(data) - 12, 0)} bytes left")
    inflater = zlib.decompressobj()
    limit = 64 * 1024 * 1024 + 64 * len(data)  # raw BGRA textures compress tens of times
    try:
        inflated = inflater.decompress(data[12:12 + length], limit)
    except zlib.error as error:
        raise Wad2Error(12, f"zlib stream: {error}") from None
    if inflater.unconsumed_tail or not inflater.eof:
        raise Wad2Error(12, f"zlib stream cut short or inflating past {limit} bytes")
    return inflated, 0


def summarise(name, data):
    """The JSON summary of one file; Wad2Error when the file is bad."""
    stream, start = chunk_stream(data)
    cursor = Cursor(stream, "top-level stream", start, start, len(stream), set())
    try:
        summary = read_top(cursor)
    except Wad2Error as error:
        error.inflated = stream is not data
        raise
    summary["file"] = name
    summary["unknown"] = sorted(cursor.unknown)
    return summary


def main(paths):
    if not paths:
        print("usage: wad2_summary.py FILE...", file=sys.stderr)
        return 2
    summaries = []
    for path in paths:
        try:
            with open(path, "rb") as file:
                data = file.read()
            summaries.append(summarise(path.replace("\\", "/").rsplit("/", 1)[-1], data))
        except (OSError, Wad2Error) as error:
            print(f"wad2_summary: {path}: {error}", file=sys.stderr)
            return 1
    print(json.dumps(summaries[0] if len(summaries) == 1 else summaries, sort_keys=True))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
