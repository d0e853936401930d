#!/usr/bin/env bash
# Builds the retromodel wheel (abi3, maturin), installs it with numpy and
# pytest into a fresh virtual environment and runs tests/ against the
# corpus and the command line (the Rust binary, RETROMODEL_CLI, and the
# `retromodel` command the wheel installs). Run from anywhere:
#   bash crates/retromodel-py/test.sh
# RETROMODEL_PY_PROFILE=dev builds the wheel unoptimised (reusing the
# `cargo test --workspace` build); the default is --release, the wheel
# that ships. PYTHON picks the interpreter (default python3).
# RETROMODEL_WHEEL=path/to/retromodel-*.whl installs that wheel instead of
# building one (.ci/run: the manylinux wheel wheels.sh just built, so that
# the module is compiled once).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
python=${PYTHON:-python3}
work="$repo/target/retromodel-py"
venv="$work/venv"
export RETROMODEL_CORPUS="${RETROMODEL_CORPUS:-$repo/../shared/corpus}"
export RETROMODEL_CLI="${RETROMODEL_CLI:-$repo/target/debug/retromodel}"

rm -rf "$venv" "$work/wheels"
mkdir -p "$work"
"$python" -m venv "$venv"
"$venv/bin/python" -m pip install -q --disable-pip-version-check -r "$here/requirements-build.txt"

if [ -n "${RETROMODEL_WHEEL:-}" ]; then
  wheel=$RETROMODEL_WHEEL
  test -f "$wheel" || { echo "RETROMODEL_WHEEL: no such wheel: $wheel" >&2; exit 1; }
else
  profile=(--release)
  [ "${RETROMODEL_PY_PROFILE:-release}" = dev ] && profile=()
  "$venv/bin/maturin" build --quiet "${profile[@]}" --locked \
    --manifest-path "$here/Cargo.toml" --interpreter "$venv/bin/python" --out "$work/wheels"
  wheel=$(ls "$work"/wheels/retromodel-*-abi3-*.whl)
fi
echo "wheel: $(basename "$wheel") ($(du -k "$wheel" | cut -f1) KiB)"
"$venv/bin/python" -m pip install -q --disable-pip-version-check --no-deps "$wheel"

if [ ! -x "$RETROMODEL_CLI" ]; then
  cargo build -p retromodel-cli --locked --quiet
fi
cd "$here"
"$venv/bin/python" -m pytest -q -p no:cacheprovider tests
