#!/usr/bin/env python3
"""Write a small, valid, skinned and animated .glb by hand (std lib only).

    python3 tests/harness/make_sample.py OUT.glb [--describe]

Content (designed so the harness self-test can predict what Blender sees):
  * 3 joints in a chain: Root (0,0,0) -> Mid (+0,1,0) -> Tip (+0,1,0), each a
    node with a translation; a skin "Rig" with inverse bind matrices.
  * node "Body" with mesh "BodyMesh": one primitive of 3 axis-aligned boxes
    (8 vertices, 12 triangles each; 24 vertices, 36 triangles in total), box i
    centred on joint i and weighted 1.0 to joint i. Attributes POSITION,
    NORMAL, TEXCOORD_0, JOINTS_0, WEIGHTS_0.
  * material "Skin" whose baseColorTexture is an embedded 4x4 RGBA PNG (one
    pixel fully transparent).
  * animations "000_IDLE" (Root rotation about Z, 4 keys) and "001_WALK" (Mid
    rotation about X and Tip rotation about Z, 5 keys each), LINEAR, key k at
    k/30 s. Keys with equal rotations on every channel give equal poses; see
    ANIMATIONS and --describe.
  * extras on the Body node: {"wadforge": {"slot": 7}}.

--describe prints a JSON description of what was written (animation key
angles, expected counts, which key frames must have equal poses) to stdout.
"""
import json
import math
import struct
import sys
import zlib

JOINTS = [  # name, parent index, local translation
    ("Root", None, (0.0, 0.0, 0.0)),
    ("Mid", 0, (0.0, 1.0, 0.0)),
    ("Tip", 1, (0.0, 1.0, 0.0)),
]
BOX_HALF = (0.3, 0.25, 0.2)  # half extents (x, y, z) of every box

# animation name -> list of (joint index, axis, angles in degrees per key)
ANIMATIONS = {
    "000_IDLE": [(0, "z", [0.0, 20.0, 20.0, -10.0])],
    "001_WALK": [(1, "x", [0.0, 45.0, 90.0, 45.0, 0.0]), (2, "z", [0.0, 30.0, 60.0, 30.0, 0.0])],
}
FPS = 30


def quat(axis, deg):
    h = math.radians(deg) / 2.0
    s, c = math.sin(h), math.cos(h)
    return {"x": (s, 0.0, 0.0, c), "y": (0.0, s, 0.0, c), "z": (0.0, 0.0, s, c)}[axis]


def world_translation(j):
    x = y = z = 0.0
    while j is not None:
        _, parent, t = JOINTS[j]
        x, y, z = x + t[0], y + t[1], z + t[2]
        j = parent
    return (x, y, z)


def png_rgba(width, height, pixels):
    """pixels: list of rows, each a list of (r, g, b, a) bytes."""
    def chunk(tag, data):
        return struct.pack(">I", len(data)) + tag + data + struct.pack(">I", zlib.crc32(tag + data) & 0xFFFFFFFF)

    raw = b"".join(b"\x00" + bytes(c for px in row for c in px) for row in pixels)
    ihdr = struct.pack(">IIBBBBB", width, height, 8, 6, 0, 0, 0)  # 8-bit RGBA
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b"")


class Bin:
    def __init__(self):
        self.data = bytearray()
        self.views = []
        self.accessors = []

    def view(self, blob, target=None):
        while len(self.data) % 4:
            self.data.append(0)
        v = {"buffer": 0, "byteOffset": len(self.data), "byteLength": len(blob)}
        if target is not None:
            v["target"] = target
        self.data += blob
        self.views.append(v)
        return len(self.views) - 1

    def accessor(self, fmt, ctype, atype, rows, target=None, minmax=False, normalized=False):
        blob = b"".join(struct.pack("<" + fmt, *r) if isinstance(r, tuple) else struct.pack("<" + fmt, r) for r in rows)
        a = {"bufferView": self.view(blob, target), "componentType": ctype, "count": len(rows), "type": atype}
        if normalized:
            a["normalized"] = True
        if minmax:
            cols = list(zip(*[r if isinstance(r, tuple) else (r,) for r in rows]))
            a["min"] = [min(c) for c in cols]
            a["max"] = [max(c) for c in cols]
        self.accessors.append(a)
        return len(self.accessors) - 1


FLOAT, UBYTE, USHORT = 5126, 5121, 5123
ARRAY_BUFFER, ELEMENT_ARRAY_BUFFER = 34962, 34963


def f32(v):
    return struct.unpack("<f", struct.pack("<f", v))[0]


def build():
    b = Bin()
    pos, nrm, uv, jnt, wgt, idx = [], [], [], [], [], []
    # corner order: bit0 -> x, bit1 -> y, bit2 -> z
    faces = [(0, 2, 3, 1), (4, 5, 7, 6), (0, 1, 5, 4), (2, 6, 7, 3), (0, 4, 6, 2), (1, 3, 7, 5)]
    for j in range(len(JOINTS)):
        cx, cy, cz = world_translation(j)
        base = len(pos)
        for c in range(8):
            sx, sy, sz = (1 if c & 1 else -1), (1 if c & 2 else -1), (1 if c & 4 else -1)
            pos.append(tuple(f32(v) for v in (cx + sx * BOX_HALF[0], cy + sy * BOX_HALF[1], cz + sz * BOX_HALF[2])))
            n = 1.0 / math.sqrt(3.0)
            nrm.append(tuple(f32(v) for v in (sx * n, sy * n, sz * n)))
            uv.append((0.25 + 0.5 * (c & 1), 0.25 + 0.5 * ((c >> 1) & 1)))
            jnt.append((j, 0, 0, 0))
            wgt.append((1.0, 0.0, 0.0, 0.0))
        for a, bb, c, d in faces:  # two triangles per quad, counter-clockwise seen from outside
            idx += [base + a, base + bb, base + c, base + a, base + c, base + d]
    a_pos = b.accessor("3f", FLOAT, "VEC3", pos, ARRAY_BUFFER, minmax=True)
    a_nrm = b.accessor("3f", FLOAT, "VEC3", nrm, ARRAY_BUFFER)
    a_uv = b.accessor("2f", FLOAT, "VEC2", uv, ARRAY_BUFFER)
    a_jnt = b.accessor("4B", UBYTE, "VEC4", jnt, ARRAY_BUFFER)
    a_wgt = b.accessor("4f", FLOAT, "VEC4", wgt, ARRAY_BUFFER)
    a_idx = b.accessor("H", USHORT, "SCALAR", idx, ELEMENT_ARRAY_BUFFER)

    ibm = []
    for j in range(len(JOINTS)):
        x, y, z = world_translation(j)
        ibm.append((1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, -x, -y, -z, 1))  # column-major
    a_ibm = b.accessor("16f", FLOAT, "MAT4", ibm)

    red, green, blue, white, clear = (255, 0, 0, 255), (0, 255, 0, 255), (0, 0, 255, 255), (255, 255, 255, 255), (255, 0, 255, 0)
    png = png_rgba(4, 4, [[red, green, blue, white], [green, blue, white, red], [blue, white, red, green], [white, red, green, clear]])
    v_png = b.view(png)

    animations = []
    for name, channels in ANIMATIONS.items():
        samplers, chans = [], []
        for joint, axis, angles in channels:
            t = b.accessor("f", FLOAT, "SCALAR", [k / FPS for k in range(len(angles))], minmax=True)
            q = b.accessor("4f", FLOAT, "VEC4", [quat(axis, d) for d in angles])
            samplers.append({"input": t, "output": q, "interpolation": "LINEAR"})
            chans.append({"sampler": len(samplers) - 1, "target": {"node": joint, "path": "rotation"}})
        animations.append({"name": name, "samplers": samplers, "channels": chans})

    nodes = []
    for j, (name, parent, t) in enumerate(JOINTS):
        n = {"name": name, "translation": list(t)}
        kids = [k for k, (_, p, _) in enumerate(JOINTS) if p == j]
        if kids:
            n["children"] = kids
        nodes.append(n)
    nodes.append({"name": "Body", "mesh": 0, "skin": 0, "extras": {"wadforge": {"slot": 7}}})

    gltf = {
        "asset": {"version": "2.0", "generator": "wadforge tests/harness/make_sample.py"},
        "scene": 0,
        "scenes": [{"name": "Scene", "nodes": [0, len(JOINTS)]}],
        "nodes": nodes,
        "skins": [{"name": "Rig", "joints": list(range(len(JOINTS))), "skeleton": 0, "inverseBindMatrices": a_ibm}],
        "meshes": [{"name": "BodyMesh", "primitives": [{
            "attributes": {"POSITION": a_pos, "NORMAL": a_nrm, "TEXCOORD_0": a_uv, "JOINTS_0": a_jnt, "WEIGHTS_0": a_wgt},
            "indices": a_idx, "material": 0, "mode": 4}]}],
        "materials": [{"name": "Skin", "pbrMetallicRoughness": {
            "baseColorTexture": {"index": 0}, "metallicFactor": 0.0, "roughnessFactor": 1.0}}],
        "textures": [{"sampler": 0, "source": 0}],
        "samplers": [{"magFilter": 9728, "minFilter": 9728, "wrapS": 33071, "wrapT": 33071}],
        "images": [{"name": "Atlas", "bufferView": v_png, "mimeType": "image/png"}],
        "animations": animations,
        "accessors": b.accessors,
        "bufferViews": b.views,
        "buffers": [{"byteLength": len(b.data)}],
    }
    while len(b.data) % 4:
        b.data.append(0)
    gltf["buffers"][0]["byteLength"] = len(b.data)
    js = json.dumps(gltf, separators=(",", ":")).encode()
    js += b" " * (-len(js) % 4)
    body = struct.pack("<II", len(js), 0x4E4F534A) + js + struct.pack("<II", len(b.data), 0x004E4942) + bytes(b.data)
    return struct.pack("<III", 0x46546C67, 2, 12 + len(body)) + body


def qrot(q, v):
    """Rotate vector v by unit quaternion q = (x, y, z, w)."""
    x, y, z, w = q
    tx, ty, tz = 2 * (y * v[2] - z * v[1]), 2 * (z * v[0] - x * v[2]), 2 * (x * v[1] - y * v[0])
    return (v[0] + w * tx + (y * tz - z * ty), v[1] + w * ty + (z * tx - x * tz), v[2] + w * tz + (x * ty - y * tx))


def qmul(a, b):
    ax, ay, az, aw = a
    bx, by, bz, bw = b
    return (aw * bx + ax * bw + ay * bz - az * by, aw * by - ax * bz + ay * bw + az * bx,
            aw * bz + ax * by - ay * bx + az * bw, aw * bw - ax * bx - ay * by - az * bz)


def skinned_bbox(local_rot):
    """Bounding box of the skinned mesh with joint j's local rotation
    local_rot[j] (quaternion), in glTF (Y-up) and Blender (Z-up) world space."""
    world = []  # (rotation, translation) per joint
    for j, (_, parent, t) in enumerate(JOINTS):
        if parent is None:
            world.append((local_rot[j], t))
        else:
            pr, pt = world[parent]
            wt = qrot(pr, t)
            world.append((qmul(pr, local_rot[j]), (pt[0] + wt[0], pt[1] + wt[1], pt[2] + wt[2])))
    pts = []
    for j in range(len(JOINTS)):
        rot, trans = world[j]
        for c in range(8):
            # bind-space offset of the corner from joint j (the IBM removes the rest translation)
            off = tuple(f32((1 if c >> a & 1 else -1) * BOX_HALF[a]) for a in range(3))
            p = qrot(rot, off)
            pts.append((trans[0] + p[0], trans[1] + p[1], trans[2] + p[2]))
    lo = [min(p[a] for p in pts) for a in range(3)]
    hi = [max(p[a] for p in pts) for a in range(3)]
    # glTF (x, y, z) -> Blender (x, -z, y)
    return {"gltf": {"min": lo, "max": hi},
            "blender": {"min": [lo[0], -hi[2], lo[1]], "max": [hi[0], -lo[2], hi[1]]}}


def describe():
    ident = (0.0, 0.0, 0.0, 1.0)
    anims = {}
    for name, channels in ANIMATIONS.items():
        nkeys = len(channels[0][2])
        poses = [tuple(tuple(ch[2][k] for ch in channels)) for k in range(nkeys)]
        boxes = []
        for k in range(nkeys):
            rots = [ident] * len(JOINTS)
            for j, axis, angles in channels:
                rots[j] = quat(axis, angles[k])
            boxes.append(skinned_bbox(rots))
        anims[name] = {
            "bones": {JOINTS[j][0]: {"axis": axis, "angles_deg": angles} for j, axis, angles in channels},
            "keys": nkeys,
            "frames": list(range(nkeys)),
            # key frame -> the first key frame with an identical pose
            "same_pose_as": [poses.index(p) for p in poses],
            "bbox": boxes,
        }
    return {
        "bones": [{"name": n, "parent": None if p is None else JOINTS[p][0]} for n, p, _ in JOINTS],
        "mesh": {"object": "Body", "vertices": 8 * len(JOINTS), "triangles": 12 * len(JOINTS),
                 "extras": {"wadforge": {"slot": 7}}},
        "material": "Skin",
        "image": {"name": "Atlas", "size": [4, 4], "uses_alpha": True},
        "animations": anims,
        "rest_bbox": skinned_bbox([ident] * len(JOINTS)),
    }


def main(argv):
    if len(argv) < 2:
        sys.stderr.write(__doc__)
        return 64
    with open(argv[1], "wb") as f:
        f.write(build())
    if "--describe" in argv[2:]:
        print(json.dumps(describe(), indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
