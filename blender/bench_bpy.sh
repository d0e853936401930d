#!/usr/bin/env bash
# The MD2 export benchmark (bench_export.py) in PyPI's bpy, with the add-on
# zip installed as an extension as a user installs it, for each VERSION in
# the same run: Blender's glTF exporter path and the add-on's own choice of
# path, median of RUNS after a warm-up, for faerie (198 frames).
#   bash blender/bench_bpy.sh [ZIP] -- VERSION...     e.g. -- 4.2 4.5 5.0 5.3
# ZIP: the add-on zip (default: blender/package.sh's Linux one, built now).
# Each VERSION's venv is target/bpy/venv-VERSION, as blender/test_bpy.sh
# leaves it (outside CI); run that first, e.g. `bash blender/test_bpy.sh 4.2`.
# RUNS (default 3) and MODELS (default md2/assimpdeb_faerie.md2) from the
# environment. Prints `uptime` before and after: the machine is shared.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/.." && pwd)
export RETROMODEL_CORPUS="${RETROMODEL_CORPUS:-$repo/../shared/corpus}"
zip=""
if [ "${1:-}" != -- ]; then zip=$(realpath "$1"); shift; fi
[ "${1:-}" = -- ] && shift
[ "$#" -gt 0 ] || { echo "usage: bash blender/bench_bpy.sh [ZIP] -- VERSION..." >&2; exit 2; }
if [ -z "$zip" ]; then
  version=$(sed -n 's/^version = "\(.*\)"/\1/p' "$here/retromodel_io/blender_manifest.toml")
  PACKAGE_PLATFORMS=linux-x64 bash "$here/package.sh" >/dev/null
  zip="$here/dist/retromodel_io-$version-linux_x64.zip"
fi
unset BLENDER_USER_CONFIG BLENDER_USER_SCRIPTS BLENDER_USER_DATAFILES BLENDER_USER_EXTENSIONS
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# As test_bpy.sh: leave without the interpreter's teardown (bpy 4.2 crashes in it).
driver='import os, runpy, sys
sys.argv = sys.argv[1:]
runpy.run_path(sys.argv[0], run_name="__main__")
sys.stdout.flush()
os._exit(0)'
echo "add-on: $zip"
echo "load before: $(uptime)"
for v in "$@"; do
  venv="$repo/target/bpy/venv-$v"
  [ -x "$venv/bin/python" ] || { echo "no $venv: run bash blender/test_bpy.sh $v first" >&2; exit 1; }
  mkdir -p "$tmp/$v/out"
  (cd "$tmp/$v" && BLENDER_USER_RESOURCES="$tmp/$v" RETROMODEL_EXTENSION_ZIP="$zip" RETROMODEL_BENCH_WAYS=0,1 \
    "$venv/bin/python" -c "$driver" "$here/bench_export.py" -- "$RETROMODEL_CORPUS" "$tmp/$v/out" "${RUNS:-3}" \
    ${MODELS:-md2/assimpdeb_faerie.md2}) 2>&1 | tee "$tmp/$v.log" | grep "^RESULT" || { echo "bpy $v: no result:" >&2; tail -n 20 "$tmp/$v.log" >&2; exit 1; }
done
echo "load after: $(uptime)"
