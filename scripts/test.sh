#!/usr/bin/env bash
# Runs every check of the project: formatting, lints, and the whole test suite.
# `.ci/run` calls exactly this script; so can you: `bash scripts/test.sh`.
set -euo pipefail
cd "$(dirname "$0")/.."

echo "== cargo fmt --check"
cargo fmt --all -- --check

echo "== cargo clippy (warnings are errors)"
cargo clippy --workspace --all-targets -- -D warnings

echo "== cargo doc (warnings are errors)"
RUSTDOCFLAGS="-D warnings" cargo doc --workspace --no-deps --quiet

echo "== real clients: Blender 5.0.1 (bpy) and the Khronos glTF validator, under target/harness"
bash tests/harness/setup.sh
bash scripts/blender-extension.sh --validate  # Blender's `extension build` and `validate`: any error fails

echo "== cargo test (a missing harness fails here rather than skipping)"
export WADFORGE_REQUIRE_HARNESS=1
cargo test --workspace --release

echo "== fuzz smoke run: every reader's fuzz target for 3 s (scripts/fuzz.sh; long runs: bash scripts/fuzz.sh SECONDS)"
bash scripts/fuzz.sh --smoke
