#!/usr/bin/env bash
# Headless test of the Blender add-on with Debian's blender (3.4): installs
# it when missing, installs the wheel crates/retromodel-py/test.sh built
# (building it when missing) into a folder Blender's Python is pointed at,
# and runs test_blender.py.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/.." && pwd)
export RETROMODEL_CORPUS="${RETROMODEL_CORPUS:-$repo/../shared/corpus}"
# Blender's glTF importer (which the add-on's import goes through) needs
# NumPy in Debian's Python; without recommends, blender does not pull it in.
if ! command -v blender >/dev/null 2>&1 || [ ! -d /usr/lib/python3/dist-packages/numpy ]; then
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends blender python3-numpy >/dev/null
fi
wheel=$(ls "$repo"/target/retromodel-py/wheels/retromodel-*-abi3-*.whl 2>/dev/null | head -n 1 || true)
if [ -z "$wheel" ]; then
  bash "$repo/crates/retromodel-py/test.sh"
  wheel=$(ls "$repo"/target/retromodel-py/wheels/retromodel-*-abi3-*.whl | head -n 1)
fi
work="$repo/target/retromodel-blender"
rm -rf "$work"
mkdir -p "$work/out"
python3 -m pip install -q --disable-pip-version-check --root-user-action=ignore --no-deps --target "$work/site" "$wheel"
status=0
RETROMODEL_PYTHONPATH="$work/site" blender -b --factory-startup --python-exit-code 1 \
  --python "$here/test_blender.py" -- "$RETROMODEL_CORPUS" "$work/out" >"$work/blender.log" 2>&1 || status=$?
grep -vE "^(Blender quit|Read prefs|Warning: Unable to find|Color management)" "$work/blender.log" || true
[ "$status" = 0 ] || exit "$status"
# Every corpus MD2 and MS3D imported and exported back to its own format.
RETROMODEL_PYTHONPATH="$work/site" blender -b --factory-startup --python-exit-code 1 \
  --python "$here/test_roundtrip.py" -- "$RETROMODEL_CORPUS" "$work/out" >"$work/roundtrip.log" 2>&1 || status=$?
grep -vE "^(Blender quit|Read prefs|Warning: Unable to find|Color management)" "$work/roundtrip.log" || true
[ "$status" = 0 ] || exit "$status"
# The installable zip: the add-on, its 4.2+ manifest naming the wheel, the wheel.
zip=$(bash "$here/package.sh" "$wheel")
python3 - "$zip" "$(basename "$wheel")" <<'PY'
import sys, tomllib, zipfile
z = zipfile.ZipFile(sys.argv[1])
names = set(z.namelist())
assert "retromodel_io/__init__.py" in names, names
assert f"retromodel_io/wheels/{sys.argv[2]}" in names, names
manifest = tomllib.loads(z.read("retromodel_io/blender_manifest.toml").decode())
assert manifest["wheels"] == [f"./wheels/{sys.argv[2]}"], manifest
assert manifest["type"] == "add-on" and manifest["id"] == "retromodel_io", manifest
print(f"add-on zip: {sys.argv[1]}")
PY
