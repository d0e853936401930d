#!/usr/bin/env bash
# Builds the add-on's installable zips, one per platform, named as Blender's
# `blender --command extension build --split-platforms` names them:
#   dist/retromodel_io-VERSION-linux_x64.zip     manylinux_2_28_x86_64 wheel
#   dist/retromodel_io-VERSION-windows_x64.zip   win_amd64 wheel
#   dist/retromodel_io-VERSION-macos_arm64.zip   macosx_11_0_arm64 wheel
#   dist/retromodel_io-VERSION-macos_x64.zip     macosx_10_12_x86_64 wheel
# Each holds the add-on folder, its platform's retromodel wheel and a
# manifest whose `platforms` and `wheels` lines name them: Blender 4.2+
# installs the wheel from there. Blender 3.x users install the wheel into
# Blender's Python (or point RETROMODEL_PYTHONPATH at it) and the zip as a
# legacy add-on (bl_info in __init__.py).
# The wheels come from crates/retromodel-py/wheels.sh (run when one is
# missing) in target/retromodel-py/dist, or from the folder given as $1.
#   bash blender/package.sh [WHEEL_DIR]
# PACKAGE_PLATFORMS="linux-x64 ..." builds only those platforms' zips (and
# needs only their wheels): blender/test_bpy.sh uses the Linux one.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/.." && pwd)
wheels=${1:-$repo/target/retromodel-py/dist}
version=$(sed -n 's/^version = "\(.*\)"/\1/p' "$here/retromodel_io/blender_manifest.toml")
# Blender platform, wheel platform tag.
platforms=(
  "linux-x64 manylinux_2_28_x86_64"
  "windows-x64 win_amd64"
  "macos-arm64 macosx_11_0_arm64"
  "macos-x64 macosx_10_12_x86_64"
)
if [ -n "${PACKAGE_PLATFORMS:-}" ]; then
  chosen=()
  for p in "${platforms[@]}"; do
    case " $PACKAGE_PLATFORMS " in *" ${p%% *} "*) chosen+=("$p") ;; esac
  done
  [ "${#chosen[@]}" -gt 0 ] || { echo "PACKAGE_PLATFORMS names no platform of: ${platforms[*]%% *}" >&2; exit 1; }
  platforms=("${chosen[@]}")
fi
find_wheel() { ls "$wheels"/retromodel-*-abi3-"$1".whl 2>/dev/null | head -n 1; }
for p in "${platforms[@]}"; do
  set -- $p
  if [ -z "$(find_wheel "$2")" ]; then
    if [ "$wheels" = "$repo/target/retromodel-py/dist" ]; then
      bash "$repo/crates/retromodel-py/wheels.sh" >&2
    fi
    [ -n "$(find_wheel "$2")" ] || { echo "no $2 wheel in $wheels (crates/retromodel-py/wheels.sh builds it)" >&2; exit 1; }
  fi
done
mkdir -p "$here/dist"
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
for p in "${platforms[@]}"; do
  set -- $p
  wheel=$(find_wheel "$2")
  rm -rf "$stage/retromodel_io"
  cp -r "$here/retromodel_io" "$stage/"
  rm -rf "$stage/retromodel_io/__pycache__"
  mkdir -p "$stage/retromodel_io/wheels"
  cp "$wheel" "$stage/retromodel_io/wheels/"
  # Top-level keys: before the first [table].
  sed -i "s|^license = .*|&\nplatforms = [\"$1\"]\nwheels = [\"./wheels/$(basename "$wheel")\"]|" \
    "$stage/retromodel_io/blender_manifest.toml"
  out="$here/dist/retromodel_io-$version-${1//-/_}.zip"
  rm -f "$out"
  (cd "$stage" && python3 -m zipfile -c "$out" retromodel_io)
  echo "$out"
done
