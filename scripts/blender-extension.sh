#!/usr/bin/env bash
# Makes the Blender extension (blender/wadforge) into target/wadforge-blender.zip, which Blender
# 4.2+ installs from Edit > Preferences > Get Extensions > Install from Disk.
set -euo pipefail
cd "$(dirname "$0")/.."
mkdir -p target
out=target/wadforge-blender.zip
tmp="$out.$$.tmp"
rm -f "$tmp"
python3 - "$tmp" <<'PY'
import os, sys, zipfile
root = "blender/wadforge"
with zipfile.ZipFile(sys.argv[1], "w", zipfile.ZIP_DEFLATED) as z:
    for name in sorted(os.listdir(root)):
        if name.endswith((".py", ".toml")):
            z.write(os.path.join(root, name), name)
PY
mv "$tmp" "$out"
echo "$out"
