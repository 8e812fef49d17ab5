#!/usr/bin/env bash
# Installs the real-client test harness into target/harness/ (and nowhere else):
#   target/harness/venv  Python 3.11 venv with bpy (Blender as a Python module)
#   target/harness/node  npm prefix with the Khronos gltf-validator
# and headless Chromium for the gallery page, as the system package `chromium` (only when
# missing, only as root with apt-get; otherwise the browser test skips with a message).
# Idempotent: each part writes a stamp file naming the pinned versions, and a
# re-run whose stamps match (and whose installs still look intact) does nothing.
# Run from anywhere; paths are resolved relative to the repository root.
set -euo pipefail

# ---- pinned versions (change here; stamps make the next run reinstall) ----
BPY_VERSION="5.0.1"
NUMPY_VERSION="1.26.4"          # bpy 5.0.1 requires numpy>=1.26,<2.0
# bpy's other dependencies, pinned so a fresh install is reproducible
PY_DEPS="cython==3.3.1 requests==2.34.2 zstandard==0.25.0 charset_normalizer==3.5.2 idna==3.20 urllib3==2.8.0 certifi==2026.10.18"
GLTF_VALIDATOR_VERSION="2.0.0-dev.3.10"
PYTHON="${PYTHON:-python3}"

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
HARNESS="$ROOT/target/harness"
VENV="$HARNESS/venv"
NODE_PREFIX="$HARNESS/node"
PY_STAMP="$VENV/.wadforge-harness-stamp"
NODE_STAMP="$NODE_PREFIX/.wadforge-harness-stamp"
PY_WANT="bpy==$BPY_VERSION numpy==$NUMPY_VERSION $PY_DEPS"
NODE_WANT="gltf-validator@$GLTF_VALIDATOR_VERSION"

log() { printf '[harness-setup] %s\n' "$*" >&2; }
die() { printf '[harness-setup] ERROR: %s\n' "$*" >&2; exit 1; }
trap 'printf "[harness-setup] ERROR: command failed (line %s): %s\n" "$LINENO" "$BASH_COMMAND" >&2' ERR

mkdir -p "$HARNESS"

# ---------------------------------------------------------------- Python/bpy
py_ok() {
  [ -f "$PY_STAMP" ] && [ "$(cat "$PY_STAMP")" = "$PY_WANT" ] && [ -x "$VENV/bin/python" ] &&
    "$VENV/bin/python" - "$BPY_VERSION" <<'PYEOF' 2>/dev/null
import sys, importlib.metadata as m
sys.exit(0 if m.version("bpy") == sys.argv[1] else 1)
PYEOF
}

if py_ok; then
  log "venv: $VENV already has $PY_WANT (stamp matches), skipping"
else
  command -v "$PYTHON" >/dev/null || die "'$PYTHON' not found; bpy $BPY_VERSION needs CPython 3.11 (set PYTHON=/path/to/python3.11)"
  pyver="$("$PYTHON" -c 'import sys; print("%d.%d" % sys.version_info[:2])')"
  [ "$pyver" = "3.11" ] || die "bpy $BPY_VERSION wheels need CPython 3.11, but $PYTHON is $pyver (set PYTHON=/path/to/python3.11)"
  if [ -e "$VENV" ]; then
    log "venv: removing stale/incomplete $VENV"
    rm -rf "$VENV"
  fi
  log "venv: creating $VENV with $PYTHON ($pyver)"
  "$PYTHON" -m venv "$VENV" || die "could not create venv (is python3.11-venv installed?)"
  log "venv: pip install $PY_WANT (the bpy wheel is a 374 MB download, ~1 GB installed)"
  # --no-cache-dir: write nothing outside target/ (no ~/.cache/pip)
  # shellcheck disable=SC2086 # PY_WANT is a list of requirement words
  "$VENV/bin/python" -m pip install --disable-pip-version-check --no-input --no-cache-dir $PY_WANT ||
    die "pip install of $PY_WANT failed (see pip output above)"
  log "venv: smoke test (import bpy)"
  "$VENV/bin/python" -c 'import bpy, sys; print("[harness-setup] bpy", bpy.app.version_string, "on Python", sys.version.split()[0], file=sys.stderr)' ||
    die "bpy installed but 'import bpy' failed (missing system libraries? see above)"
  printf '%s' "$PY_WANT" >"$PY_STAMP"
fi

# ---------------------------------------------------------------- Node/gltf-validator
node_ok() {
  [ -f "$NODE_STAMP" ] && [ "$(cat "$NODE_STAMP")" = "$NODE_WANT" ] &&
    [ -f "$NODE_PREFIX/node_modules/gltf-validator/package.json" ]
}

if node_ok; then
  log "node: $NODE_PREFIX already has $NODE_WANT (stamp matches), skipping"
else
  command -v node >/dev/null || die "node not found (install Node.js >= 18, e.g. apt-get install nodejs npm)"
  command -v npm >/dev/null || die "npm not found (install npm)"
  node_major="$(node -p 'process.versions.node.split(".")[0]')"
  [ "$node_major" -ge 16 ] || die "node $(node --version) is too old; validate.mjs needs Node.js >= 16"
  log "node: npm install --prefix $NODE_PREFIX $NODE_WANT"
  mkdir -p "$NODE_PREFIX"
  # --cache: keep npm's download cache under target/ too (no ~/.npm)
  npm install --prefix "$NODE_PREFIX" --cache "$HARNESS/npm-cache" --no-audit --no-fund --save-exact "$NODE_WANT" ||
    die "npm install of $NODE_WANT failed (see npm output above)"
  node -e 'require(process.argv[1]).version()' "$NODE_PREFIX/node_modules/gltf-validator" >/dev/null ||
    die "gltf-validator installed but cannot be loaded by node"
  printf '%s' "$NODE_WANT" >"$NODE_STAMP"
fi

# ---------------------------------------------------------------- Chromium (gallery page)
# Not fatal: tests/cli_gallery.rs skips the browser check, saying so, where it is absent.
if command -v chromium >/dev/null; then
  log "chromium: $(command -v chromium) present, skipping"
elif [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
  log "chromium: apt-get install -y chromium"
  if ! { DEBIAN_FRONTEND=noninteractive apt-get update -qq &&
         DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium; } >&2; then
    log "chromium: could not be installed; the gallery's browser test will be skipped"
  fi
else
  log "chromium: absent and not installable here (needs root and apt-get); the gallery's browser test will be skipped"
fi

log "ready: python=$VENV/bin/python  validator=$NODE_PREFIX/node_modules/gltf-validator"
