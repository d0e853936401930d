#!/usr/bin/env bash
# Headless test of the Blender add-on with Debian's blender (3.4): installs
# it when missing, installs the Linux wheel crates/retromodel-py/wheels.sh
# built (building them when missing) into a folder Blender's Python is pointed at,
# and runs test_blender.py and test_roundtrip.py; then checks the per-platform
# zips package.sh writes and installs the Linux one as a legacy add-on.
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
# The Linux wheel crates/retromodel-py/wheels.sh built (the zips below need
# its other wheels too): built only when missing.
linux_wheel() { ls "$repo"/target/retromodel-py/dist/retromodel-*-abi3-manylinux_2_28_x86_64.whl 2>/dev/null | head -n 1 || true; }
wheel=$(linux_wheel)
if [ -z "$wheel" ]; then
  bash "$repo/crates/retromodel-py/wheels.sh"
  wheel=$(linux_wheel)
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
# An unchanged MD2 keeps its frames through Blender (the `_MD2_VERTEX` map);
# an edited one is baked afresh.
RETROMODEL_PYTHONPATH="$work/site" blender -b --factory-startup --python-exit-code 1 --python "$here/test_vertex_map.py" -- "$RETROMODEL_CORPUS" "$work/out" >"$work/vertex_map.log" 2>&1 || { cat "$work/vertex_map.log"; exit 1; }; grep -E "^blender vertex map" "$work/vertex_map.log"
# Quake MDL: import (shape keys, skins through the palette) and export.
RETROMODEL_PYTHONPATH="$work/site" blender -b --factory-startup --python-exit-code 1 --python "$here/test_mdl.py" -- "$RETROMODEL_CORPUS" "$work/out" >"$work/mdl.log" 2>&1 || { cat "$work/mdl.log"; exit 1; }; grep -E "^(mdl|blender mdl)" "$work/mdl.log"
RETROMODEL_PYTHONPATH="$work/site" blender -b --factory-startup --python-exit-code 1 --python "$here/test_md3.py" -- "$RETROMODEL_CORPUS" "$work/out" >"$work/md3.log" 2>&1 || { cat "$work/md3.log"; exit 1; }; grep -E "^(md3|blender md3)" "$work/md3.log"
# Inter-Quake Model: import (an action per animation, named as in the file),
# export back and of a scene made in Blender (every action, nothing typed).
RETROMODEL_PYTHONPATH="$work/site" blender -b --factory-startup --python-exit-code 1 --python "$here/test_iqm.py" -- "$RETROMODEL_CORPUS" "$work/out" >"$work/iqm.log" 2>&1 || { cat "$work/iqm.log"; exit 1; }; grep -E "^(iqm|blender iqm)" "$work/iqm.log"
RETROMODEL_PYTHONPATH="$work/site" blender -b --factory-startup --python-exit-code 1 --python "$here/test_md3_player.py" -- "$RETROMODEL_CORPUS" "$work/out" >"$work/md3_player.log" 2>&1 || { cat "$work/md3_player.log"; exit 1; }; grep -E "^blender md3 player" "$work/md3_player.log"
# The export panel's text files: QuakeC's .qc beside an MD2 or MDL, GZDoom's MODELDEF beside an MD2 or MD3.
RETROMODEL_PYTHONPATH="$work/site" blender -b --factory-startup --python-exit-code 1 --python "$here/test_textfiles.py" -- "$RETROMODEL_CORPUS" "$work/out" >"$work/textfiles.log" 2>&1 || { cat "$work/textfiles.log"; exit 1; }; grep -E "^blender textfiles" "$work/textfiles.log"
RETROMODEL_PYTHONPATH="$work/site" blender -b --factory-startup --python-exit-code 1 --python "$here/test_import_options.py" -- "$RETROMODEL_CORPUS" "$work/out" >"$work/options.log" 2>&1 || { cat "$work/options.log"; exit 1; }; grep -E "^[a-z][a-z0-9 ]+: " "$work/options.log"
# The installable zips, one per platform (package.sh builds the wheels with
# crates/retromodel-py/wheels.sh when they are missing): the add-on, its 4.2+
# manifest naming the platform and the wheel, the wheel.
# blender/check_extension.sh checks them with Blender 4.2's own validator.
zips=$(bash "$here/package.sh")
python3 - $zips <<'PY'
import sys, tomllib, zipfile
platforms = {"linux_x64": "manylinux_2_28_x86_64", "windows_x64": "win_amd64",
             "macos_arm64": "macosx_11_0_arm64", "macos_x64": "macosx_10_12_x86_64"}
assert len(sys.argv[1:]) == len(platforms), sys.argv
for path in sys.argv[1:]:
    platform = path.removesuffix(".zip").rsplit("-", 1)[1]
    z = zipfile.ZipFile(path)
    names = set(z.namelist())
    wheels = [n for n in names if n.endswith(".whl")]
    assert "retromodel_io/__init__.py" in names, names
    assert len(wheels) == 1 and wheels[0].endswith(f"-cp39-abi3-{platforms[platform]}.whl"), wheels
    manifest = tomllib.loads(z.read("retromodel_io/blender_manifest.toml").decode())
    assert manifest["wheels"] == ["./" + wheels[0].removeprefix("retromodel_io/")], manifest
    assert manifest["platforms"] == [platform.replace("_", "-")], manifest
    assert manifest["license"] == ["SPDX:GPL-3.0-or-later"], manifest
    assert manifest["type"] == "add-on" and manifest["id"] == "retromodel_io", manifest
    print(f"add-on zip: {path}")
PY
# Blender 3.x's legacy path: the Linux zip installs and enables as an add-on,
# with the zip's own wheel in RETROMODEL_PYTHONPATH.
linux_zip=$(echo "$zips" | grep -- '-linux_x64.zip$')
rm -rf "$work/legacy"
mkdir -p "$work/legacy/scripts"
python3 - "$linux_zip" "$work/legacy" <<'PY'
import sys, zipfile
z = zipfile.ZipFile(sys.argv[1])
[wheel] = [n for n in z.namelist() if n.endswith(".whl")]
z.extract(wheel, sys.argv[2])
PY
python3 -m pip install -q --disable-pip-version-check --root-user-action=ignore --no-deps \
  --target "$work/legacy/site" "$work"/legacy/retromodel_io/wheels/*.whl
version=$(sed -n 's/^version = "\(.*\)"/\1/p' "$here/retromodel_io/blender_manifest.toml")
BLENDER_USER_SCRIPTS="$work/legacy/scripts" RETROMODEL_PYTHONPATH="$work/legacy/site" \
  blender -b --factory-startup --python-exit-code 1 --python "$here/test_legacy_install.py" -- "$linux_zip" "$version" \
  >"$work/legacy.log" 2>&1 || { cat "$work/legacy.log"; exit 1; }
grep "^legacy add-on install" "$work/legacy.log"
