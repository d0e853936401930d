#!/usr/bin/env bash
# Builds the add-on's installable zip, dist/retromodel_io-VERSION.zip, with
# the retromodel wheel (built by crates/retromodel-py/test.sh, or given as
# $1) inside it: Blender 4.2+ installs the wheel from the manifest's
# `wheels` line; Blender 3.x users install the wheel into Blender's Python
# (or point RETROMODEL_PYTHONPATH at it) and the zip as a legacy add-on.
#   bash blender/package.sh [WHEEL]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/.." && pwd)
wheel=${1:-$(ls "$repo"/target/retromodel-py/wheels/retromodel-*-abi3-*.whl | head -n 1)}
version=$(sed -n 's/^version = "\(.*\)"/\1/p' "$here/retromodel_io/blender_manifest.toml")
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
cp -r "$here/retromodel_io" "$stage/"
rm -rf "$stage/retromodel_io/__pycache__"
mkdir -p "$stage/retromodel_io/wheels"
cp "$wheel" "$stage/retromodel_io/wheels/"
# Top-level key: before the first [table].
sed -i "s|^license = .*|&\nwheels = [\"./wheels/$(basename "$wheel")\"]|" "$stage/retromodel_io/blender_manifest.toml"
mkdir -p "$here/dist"
out="$here/dist/retromodel_io-$version.zip"
rm -f "$out"
(cd "$stage" && python3 -m zipfile -c "$out" retromodel_io)
echo "$out"
