#!/usr/bin/env bash
# Checks the per-platform zips blender/package.sh writes with Blender 4.2's
# own extension tool (blender_ext.py, from PyPI's bpy 4.2 wheel, downloaded
# once into target/blender-ext: ~350 MB), run on plain Python 3.11+:
# `validate` accepts each zip, `build --split-platforms` names and fills
# them the same (check_extension.py). Builds the zips when missing.
#   bash blender/check_extension.sh
# BPY_WHEEL=path/to/bpy-4.2.*.whl uses a wheel already downloaded.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/.." && pwd)
work="$repo/target/blender-ext"
mkdir -p "$work"
bpy=${BPY_WHEEL:-$(ls "$work"/bpy-4.2.*-cp311-*.whl 2>/dev/null | head -n 1 || true)}
if [ -z "$bpy" ]; then
  python3 -m pip download -q --disable-pip-version-check --no-deps --only-binary=:all: \
    --python-version 3.11 --platform manylinux_2_28_x86_64 --dest "$work" "bpy==4.2.*"
  bpy=$(ls "$work"/bpy-4.2.*-cp311-*.whl | head -n 1)
fi
rm -f "$work/blender_ext.py"
python3 - "$bpy" "$work" <<'PY'
import sys, zipfile
from pathlib import Path
z = zipfile.ZipFile(sys.argv[1])
[name] = [n for n in z.namelist() if n.endswith("/addons_core/bl_pkg/cli/blender_ext.py")]
Path(sys.argv[2], "blender_ext.py").write_bytes(z.read(name))
print(f"blender_ext.py from {Path(sys.argv[1]).name}: {name}")
PY
# CI's disk is small: the 350 MB wheel goes once blender_ext.py is out,
# unless BPY_KEEP=1 (.ci/run: blender/test_bpy.sh installs it next).
if [ "${CI:-}" = true ] && [ -z "${BPY_WHEEL:-}" ] && [ "${BPY_KEEP:-0}" != 1 ]; then rm -f "$bpy"; fi
version=$(sed -n 's/^version = "\(.*\)"/\1/p' "$here/retromodel_io/blender_manifest.toml")
rm -f "$here"/dist/retromodel_io-"$version"-*.zip
bash "$here/package.sh" >/dev/null
python3 "$here/check_extension.py" "$work/blender_ext.py" "$here/dist" "$here/retromodel_io" "$version"
