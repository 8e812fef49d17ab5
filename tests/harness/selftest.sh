#!/usr/bin/env bash
# Self-test of the real-client harness: installs it (tests/harness/setup.sh),
# writes a hand-made skinned + animated sample .glb, and checks that
#   * the Khronos validator finds 0 errors / 0 warnings in it,
#   * Blender (bpy) imports it as 1 armature with 3 bones, 2 actions with the
#     right key frames per bone, 1 mesh with 24 vertices / 36 triangles,
#     3 vertex groups, a UV map, a material with the 4x4 image, the extras,
#   * with --eval-poses the deformed bounding box at every key equals the one
#     computed independently from the glTF (make_sample.py --describe), keys
#     with equal rotations give equal boxes and keys with different rotations
#     give different boxes,
#   * a Blender export (blender_roundtrip.py, .glb and .gltf+.bin+.png)
#     validates with 0 errors and re-imports with the same checks passing.
# Prints one PASS/FAIL line per check and a closing "N passed, N failed";
# exits non-zero on any failure. Work files go to target/harness/tmp/.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$ROOT"
H=tests/harness
PY=target/harness/venv/bin/python
TMP=target/harness/tmp

fail() { printf 'selftest: FAILED: %s\n' "$*" >&2; exit 1; }
step() { printf '\n== %s\n' "$*" >&2; }

step "setup"
bash "$H/setup.sh"

rm -rf "$TMP"
mkdir -p "$TMP"

step "make sample"
"$PY" "$H/make_sample.py" "$TMP/sample.glb" --describe >"$TMP/expect.json" || fail "make_sample.py"

step "validate sample"
node "$H/validate.mjs" "$TMP/sample.glb" >"$TMP/validate-sample.json" || fail "validate.mjs sample.glb exited $?"

step "inspect sample (--eval-poses)"
"$PY" "$H/blender_inspect.py" "$TMP/sample.glb" --eval-poses >"$TMP/inspect-sample.json" 2>"$TMP/inspect-sample.log" ||
  { cat "$TMP/inspect-sample.log" >&2; fail "blender_inspect.py sample.glb"; }

step "round trip through Blender (GLB and glTF separate)"
"$PY" "$H/blender_roundtrip.py" "$TMP/sample.glb" "$TMP/roundtrip.glb" >"$TMP/roundtrip-glb.json" 2>"$TMP/roundtrip-glb.log" ||
  { cat "$TMP/roundtrip-glb.log" >&2; fail "blender_roundtrip.py -> .glb"; }
"$PY" "$H/blender_roundtrip.py" "$TMP/sample.glb" "$TMP/sep/roundtrip.gltf" >"$TMP/roundtrip-gltf.json" 2>"$TMP/roundtrip-gltf.log" ||
  { cat "$TMP/roundtrip-gltf.log" >&2; fail "blender_roundtrip.py -> .gltf"; }

step "validate exports"
node "$H/validate.mjs" "$TMP/roundtrip.glb" "$TMP/sep/roundtrip.gltf" >"$TMP/validate-roundtrip.json" ||
  fail "validate.mjs on the exports exited $?"

step "inspect exports (--eval-poses)"
"$PY" "$H/blender_inspect.py" "$TMP/roundtrip.glb" --eval-poses >"$TMP/inspect-roundtrip.json" 2>"$TMP/inspect-roundtrip.log" ||
  { cat "$TMP/inspect-roundtrip.log" >&2; fail "blender_inspect.py roundtrip.glb"; }
"$PY" "$H/blender_inspect.py" "$TMP/sep/roundtrip.gltf" --eval-poses >"$TMP/inspect-roundtrip-gltf.json" 2>"$TMP/inspect-roundtrip-gltf.log" ||
  { cat "$TMP/inspect-roundtrip-gltf.log" >&2; fail "blender_inspect.py roundtrip.gltf"; }

step "validator negative test (missing .bin must be reported, exit 0)"
mkdir -p "$TMP/broken"
cp "$TMP/sep/roundtrip.gltf" "$TMP/broken/"
node "$H/validate.mjs" "$TMP/broken/roundtrip.gltf" >"$TMP/validate-broken.json" || fail "validate.mjs on broken .gltf exited $?"
set +e
node "$H/validate.mjs" "$TMP/does-not-exist.glb" >"$TMP/validate-missing.json"
missing_rc=$?
set -e
echo "$missing_rc" >"$TMP/validate-missing.rc"

step "checks"
"$PY" - "$TMP" <<'PYEOF'
import json, math, os, sys

tmp = sys.argv[1]
load = lambda name: json.load(open(os.path.join(tmp, name)))
expect = load("expect.json")
results = []


def check(label, ok, detail=""):
    results.append(ok)
    print(("PASS " if ok else "FAIL ") + label + ("" if ok or not detail else f"  -- {detail}"))


def close(a, b, tol=1e-5):
    return a is not None and b is not None and all(abs(x - y) <= tol for x, y in zip(a, b)) and len(a) == len(b)


def box_eq(a, b, tol=1e-5):
    return close(a["min"], b["min"], tol) and close(a["max"], b["max"], tol)


def box_dist(a, b):
    return max(abs(x - y) for x, y in zip(a["min"] + a["max"], b["min"] + b["max"]))


def check_validation(doc, label, want_paths):
    files = doc["files"]
    check(f"{label}: one report per file", [f["path"] for f in files] == want_paths, [f["path"] for f in files])
    for f in files:
        check(f"{label}: {os.path.basename(f['path'])} has 0 errors", f["errors"] == 0,
              [m for m in f["messages"] if m["severity"] == "error"][:5])
        check(f"{label}: {os.path.basename(f['path'])} messages well-formed",
              all(set(m) >= {"code", "message", "severity", "pointer"} for m in f["messages"]))


def check_inspect(doc, label, exact_counts=True):
    check(f"{label}: Blender 5.0.1", doc.get("blender") == "5.0.1", doc.get("blender"))
    check(f"{label}: fps 30", doc["scene"]["fps"] == 30 and doc["scene"]["fps_base"] == 1, doc["scene"])
    arms = doc["armatures"]
    check(f"{label}: 1 armature", len(arms) == 1, len(arms))
    if arms:
        bones = [(b["name"], b["parent"]) for b in arms[0]["bones"]]
        want = [(b["name"], b["parent"]) for b in expect["bones"]]
        check(f"{label}: 3 bones in a chain", sorted(bones, key=str) == sorted(want, key=str), bones)
        heads = {b["name"]: b["head"] for b in arms[0]["bones"]}
        check(f"{label}: bone heads at Blender z = 0, 1, 2",
              all(close(heads.get(n), h, 1e-5) for n, h in (("Root", [0, 0, 0]), ("Mid", [0, 0, 1]), ("Tip", [0, 0, 2]))), heads)
    acts = {a["name"]: a for a in doc["actions"]}
    check(f"{label}: 2 actions named as the animations", sorted(acts) == sorted(expect["animations"]), sorted(acts))
    for name, ea in expect["animations"].items():
        a = acts.get(name)
        if not a:
            continue
        check(f"{label}: {name} frame range", a["frame_range"] == [0, ea["keys"] - 1], a["frame_range"])
        check(f"{label}: {name} key frames", a["frames"] == ea["frames"], a["frames"])
        want_bones = {b: {"keys": ea["keys"], "frames": ea["frames"], "paths": {"rotation_quaternion": [ea["keys"]] * 4}}
                      for b in ea["bones"]}
        got_bones = {b: {"keys": v["keys"], "frames": v["frames"], "paths": v["paths"]} for b, v in a["bones"].items()}
        check(f"{label}: {name} keys per bone", got_bones == want_bones, got_bones)
        check(f"{label}: {name} has a slot", len(a["slots"]) >= 1, a["slots"])
    meshes = doc["meshes"]
    check(f"{label}: 1 mesh object", len(meshes) == 1, len(meshes))
    if meshes:
        m = meshes[0]
        em = expect["mesh"]
        if exact_counts:
            check(f"{label}: mesh has {em['vertices']} vertices", m["vertices"] == em["vertices"], m["vertices"])
        else:
            check(f"{label}: mesh has >= {em['vertices']} vertices", m["vertices"] >= em["vertices"], m["vertices"])
        check(f"{label}: mesh has {em['triangles']} triangles", m["triangles"] == em["triangles"] and m["loops"] == 3 * em["triangles"],
              (m["triangles"], m["loops"]))
        check(f"{label}: mesh skinned to the armature", arms and m["skinned_to"] == arms[0]["name"], m["skinned_to"])
        check(f"{label}: 3 vertex groups named as the bones", sorted(m["vertex_groups"]) == sorted(b["name"] for b in expect["bones"]),
              m["vertex_groups"])
        check(f"{label}: every group holds one box", all(n >= 8 for n in m["vertex_group_sizes"].values()) and
              sum(m["vertex_group_sizes"].values()) == m["vertices"], m["vertex_group_sizes"])
        check(f"{label}: UV map", len(m["uv_layers"]) == 1 and any(a["name"] == m["uv_layers"][0] and a["domain"] == "CORNER"
                                                                    for a in m["attributes"]), m["uv_layers"])
        mats = m["materials"]
        check(f"{label}: material with the 4x4 image texture", len(mats) == 1 and mats[0]["name"] == expect["material"] and
              mats[0]["has_image_texture"] and mats[0]["images"][0]["size"] == expect["image"]["size"], mats)
    objs = {o["name"]: o for o in doc["objects"]}
    body = objs.get(expect["mesh"]["object"])
    check(f"{label}: mesh node name and extras kept", body is not None and body["custom_properties"] == expect["mesh"]["extras"],
          body and body["custom_properties"])
    imgs = doc["images"]
    check(f"{label}: 1 image 4x4 with alpha", len(imgs) == 1 and imgs[0]["size"] == expect["image"]["size"] and
          imgs[0]["has_alpha_channel"] and imgs[0]["uses_alpha"] is True, imgs)

    # ---- poses
    poses = doc.get("poses") or []
    check(f"{label}: poses for 1 armature", len(poses) == 1, len(poses))
    if not poses:
        return
    p = poses[0]
    check(f"{label}: rest bbox matches the glTF", box_eq(p["rest"], expect["rest_bbox"]["blender"]),
          (p["rest"], expect["rest_bbox"]["blender"]))
    pacts = {a["name"]: a for a in p["actions"]}
    check(f"{label}: poses for both actions", sorted(pacts) == sorted(expect["animations"]), sorted(pacts))
    for name, ea in expect["animations"].items():
        pa = pacts.get(name)
        if not pa:
            continue
        frames = [f["frame"] for f in pa["frames"]]
        check(f"{label}: {name} evaluated at every key", frames == ea["frames"], frames)
        if frames != ea["frames"]:
            continue
        for k, f in enumerate(pa["frames"]):
            want = ea["bbox"][k]["blender"]
            check(f"{label}: {name} frame {k} bbox matches the glTF", box_eq(f, want),
                  f"got min {f['min']} max {f['max']}, want min {want['min']} max {want['max']}")
        same = ea["same_pose_as"]
        for i in range(len(frames)):
            for j in range(i + 1, len(frames)):
                d = box_dist(pa["frames"][i], pa["frames"][j])
                if same[i] == same[j]:
                    check(f"{label}: {name} frames {i},{j} same rotation -> same bbox", d <= 1e-5, d)
                else:
                    check(f"{label}: {name} frames {i},{j} different rotation -> different bbox", d > 1e-3, d)


check_validation(load("validate-sample.json"), "validate sample", [os.path.join(tmp, "sample.glb")])
check_inspect(load("inspect-sample.json"), "sample")

for rt_name in ("roundtrip-glb.json", "roundtrip-gltf.json"):
    rt = load(rt_name)
    check(f"{rt_name}: no missing export keywords", rt["missing_keywords"] == [], rt["missing_keywords"])
    ec = rt["exported_counts"]
    check(f"{rt_name}: exported 1 mesh, 1 skin of 3 joints, 2 animations",
          ec["meshes"] == 1 and ec["joints_per_skin"] == [3] and sorted(ec["animations"]) == sorted(expect["animations"]), ec)
    check(f"{rt_name}: armature object removed (4 nodes: 3 joints + mesh)", ec["nodes"] == 4, ec["node_names"])
check_validation(load("validate-roundtrip.json"), "validate exports",
                 [os.path.join(tmp, "roundtrip.glb"), os.path.join(tmp, "sep", "roundtrip.gltf")])
check_inspect(load("inspect-roundtrip.json"), "roundtrip.glb", exact_counts=False)
check_inspect(load("inspect-roundtrip-gltf.json"), "roundtrip.gltf", exact_counts=False)

broken = load("validate-broken.json")["files"][0]
check("validator reports the missing .bin of a .gltf as an error", broken["errors"] > 0 and
      any(m["severity"] == "error" for m in broken["messages"]), broken["messages"][:3])
missing_rc = int(open(os.path.join(tmp, "validate-missing.rc")).read())
missing = load("validate-missing.json")["files"][0]
check("validator exits non-zero on an unreadable file and still prints JSON", missing_rc != 0 and "fatal" in missing,
      (missing_rc, missing))

passed = sum(results)
failed = len(results) - passed
print(f"{passed} passed, {failed} failed")
sys.exit(1 if failed else 0)
PYEOF
