#!/usr/bin/env bash
# Makes the Blender extension (blender/wadforge) into target/wadforge-blender.zip with Blender's own
# `extension build` (what `blender --command extension build` runs: the manifest checked as the
# extensions platform checks it, the files picked by its rules), which Blender 4.2+ installs from
# Edit > Preferences > Get Extensions > Install from Disk and the extensions platform takes.
#
#   bash scripts/blender-extension.sh             the zip
#   bash scripts/blender-extension.sh --validate  the zip, then Blender's `extension validate` on it:
#                                                 any error fails (scripts/test.sh runs this)
#
# Blender's tool: the harness's Blender (target/harness, `bash tests/harness/setup.sh`) when it is
# installed, else the Blender program $BLENDER or `blender` on PATH.
set -euo pipefail
cd "$(dirname "$0")/.."

validate=no
case "${1:-}" in
"") ;;
--validate) validate=yes ;;
*)
    echo "usage: bash scripts/blender-extension.sh [--validate]" >&2
    exit 2
    ;;
esac

# Blender's command-line tool for extensions, as `blender --command extension` runs it: with
# Blender's list of the extensions platform's tags.
cli=(target/harness/venv/lib/python3*/site-packages/bpy/*/scripts/addons_core/bl_pkg/cli/blender_ext.py)
blender=${BLENDER:-blender}
if [ -f "${cli[0]}" ]; then
    tags="${cli[0]%/addons_core/*}/modules/_bpy_internal/extensions/tags.py"
    extension() {
        local command=$1
        shift
        target/harness/venv/bin/python "${cli[0]}" "$command" --valid-tags "$tags" "$@"
    }
elif command -v "$blender" >/dev/null; then
    extension() { "$blender" --factory-startup --command extension "$@"; }
else
    echo "error: making the extension takes Blender's own tool: install the test harness" \
        "(bash tests/harness/setup.sh), or put Blender 4.2 or newer on PATH or in \$BLENDER" >&2
    exit 1
fi

mkdir -p target
out=target/wadforge-blender.zip
extension build --source-dir blender/wadforge --output-filepath "$out"
if [ "$validate" = yes ]; then
    echo "== Blender's extension validator on $out"
    extension validate "$out"
fi
echo "$out"
