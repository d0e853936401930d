#!/usr/bin/env bash
# Headless tests of the add-on as a user installs it, in the Blenders people
# use: for each VERSION of PyPI's `bpy` (Blender as a Python module; 4.x and
# 5.0 on Python 3.11, 5.1+ on 3.13, found on PATH or in pyenv), a fresh venv
# gets `pip install bpy==VERSION`, and each test script runs in it as plain
# Python with BLENDER_USER_RESOURCES in a new temporary folder, where
# addon_under_test.py installs the Linux zip (blender/package.sh) as an
# extension with Blender's `extensions.package_install_files` (which
# installs the wheel inside) and enables it:
#   test_blender.py     import MD2, MS3D, MilkShape ASCII; export MD2 and MS3D;
#                       options reach the compiler; bad files give a report
#   test_roundtrip.py   every corpus MD2 and MS3D imported and exported back
#   test_vertex_map.py  unchanged MD2s keep their frames, edited ones are baked afresh
#   test_import_options.py   the import panel's options (when present; it
#                       registers the source add-on itself, with the zip's
#                       wheel in RETROMODEL_PYTHONPATH)
#   test_mdl.py         import Quake MDLs (frames as shape keys, skins through
#                       the palette); export MDL with the panel's options
#   test_md3.py         import an OpenArena MD3 (a mesh per surface, frames as
#                       shape keys) and a whole player (parts at tags, cfg
#                       actions); export MD3 with the panel's options
#   test_iqm.py         import Inter-Quake Models (an action per animation,
#                       named as in the file) and export them back, checked
#                       against the files' bytes and Blender's evaluated
#                       meshes; export a scene made in Blender (two actions)
#   test_md3_player.py  export a Quake III player built in Blender (three parts
#                       at tag empties, an action) as its seven files
#   test_textfiles.py   export MD2/MDL with the .qc frame list, MD2/MD3 with
#                       GZDoom's MODELDEF (frames numbered, FrameIndex lines)
# BPY_SCRIPTS="test_mdl.py" runs only the scripts named.
# VERSION `debian` runs the same scripts in Debian's blender (3.4, as
# blender/test.sh installs it) with the zip's wheel in RETROMODEL_PYTHONPATH.
#   bash blender/test_bpy.sh 4.2 5.3     # CI (.ci/run): 4.2 LTS and the newest
#   bash blender/test_bpy.sh 4.5 debian  # by hand: 4.5 LTS, Debian's 3.4
# A VERSION like `4.5` takes the newest 4.5.x; `4.5.15` that one. Each bpy wheel (350-400 MB) is
# downloaded once per run into target/bpy/ (none is cached elsewhere: pip
# runs with --no-cache-dir), or taken from target/blender-ext where
# check_extension.sh left it (BPY_KEEP=1); under CI=true each version's
# wheel and venv (1 GB) go once its tests ran, unless BPY_KEEP=1.
# Prints one summary line per version: versions, what passed, seconds.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/.." && pwd)
export RETROMODEL_CORPUS="${RETROMODEL_CORPUS:-$repo/../shared/corpus}"
[ "$#" -gt 0 ] || { echo "usage: bash blender/test_bpy.sh VERSION... (a PyPI bpy version, or debian)" >&2; exit 2; }
work="$repo/target/bpy"
mkdir -p "$work/wheels"
pip_q=(-q --disable-pip-version-check --no-cache-dir)
# Blender's own user folders must not leak in: only BLENDER_USER_RESOURCES.
unset BLENDER_USER_CONFIG BLENDER_USER_SCRIPTS BLENDER_USER_DATAFILES BLENDER_USER_EXTENSIONS
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# The Linux zip, built from the add-on as it is now.
version=$(sed -n 's/^version = "\(.*\)"/\1/p' "$here/retromodel_io/blender_manifest.toml")
PACKAGE_PLATFORMS=linux-x64 bash "$here/package.sh" >/dev/null
zip="$here/dist/retromodel_io-$version-linux_x64.zip"
test -f "$zip"
echo "add-on: $zip"

# The zip's own wheel, for Blender 3.x's legacy path (RETROMODEL_PYTHONPATH)
# and for a test that registers the source add-on itself instead of
# installing the zip through addon_under_test.py.
(cd "$tmp" && python3 -m zipfile -e "$zip" zip)
python3 -m pip install "${pip_q[@]}" --root-user-action=ignore --no-deps --target "$tmp/site" "$tmp"/zip/retromodel_io/wheels/*.whl

scripts=(test_blender.py test_roundtrip.py)
if [ -f "$here/test_vertex_map.py" ]; then scripts+=(test_vertex_map.py); fi
if [ -f "$here/test_import_options.py" ]; then scripts+=(test_import_options.py); fi
if [ -f "$here/test_mdl.py" ]; then scripts+=(test_mdl.py); fi
if [ -f "$here/test_md3.py" ]; then scripts+=(test_md3.py); fi
if [ -f "$here/test_md3_player.py" ]; then scripts+=(test_md3_player.py); fi
if [ -f "$here/test_iqm.py" ]; then scripts+=(test_iqm.py); fi
if [ -f "$here/test_textfiles.py" ]; then scripts+=(test_textfiles.py); fi
# BPY_SCRIPTS="test_mdl.py ..." runs only those (by hand, to save minutes).
if [ -n "${BPY_SCRIPTS:-}" ]; then read -r -a scripts <<<"$BPY_SCRIPTS"; fi

# Runs a test script as __main__ and leaves with its status without the
# interpreter's teardown: bpy 4.2.23 crashes in it (SIGSEGV) once a glTF
# export ran, even in a script of only a glTF import and export.
driver='import os, runpy, sys, traceback
sys.argv = sys.argv[1:]
try:
    runpy.run_path(sys.argv[0], run_name="__main__")
    code = 0
except SystemExit as e:
    code = e.code if isinstance(e.code, int) else (e.code is not None)
except BaseException:
    traceback.print_exc()
    code = 1
sys.stdout.flush()
sys.stderr.flush()
os._exit(code)'

python_for() { # bpy VERSION -> a python of the minor version its wheel needs
  local minor=3.11
  case "$1" in 5.0 | 5.0.*) ;; 5.* | [6-9].*) minor=3.13 ;; esac
  local candidates=("python$minor")
  if command -v pyenv >/dev/null 2>&1; then
    candidates+=($(ls -d "$(pyenv root)"/versions/"$minor".*/bin/"python$minor" 2>/dev/null | sort -rV))
  fi
  # pyenv's shims are on PATH for every version but run only the selected ones.
  for c in "${candidates[@]}"; do
    if "$c" -c 'import venv' >/dev/null 2>&1; then command -v "$c"; return; fi
  done
  echo "bpy $1 needs Python $minor: none on PATH or in pyenv" >&2
  return 1
}

summary=()
failed=0
for v in "$@"; do
  started=$(date +%s)
  log="$work/$v"
  rm -rf "$log"
  mkdir -p "$log/out"
  wheel=""
  if [ "$v" = debian ]; then
    if ! command -v blender >/dev/null 2>&1 || [ ! -d /usr/lib/python3/dist-packages/numpy ]; then
      export DEBIAN_FRONTEND=noninteractive
      apt-get update -qq
      apt-get install -y -qq --no-install-recommends blender python3-numpy >/dev/null
    fi
    runner=(env RETROMODEL_PYTHONPATH="$tmp/site" blender -b --factory-startup --python-exit-code 1 --python)
    name="Debian blender $(blender --version 2>/dev/null | head -n 1 | awk '{print $2}')"
    py=$(blender -b --factory-startup --python-expr 'import sys; print("PY", sys.version.split()[0])' 2>/dev/null | sed -n 's/^PY //p')
  else
    python=$(python_for "$v")
    spec="bpy==$v"
    case "$v" in *.*.*) ;; *) spec="bpy==$v.*" ;; esac
    # The wheel: downloaded once per run (check_extension.sh's 4.2 one is reused).
    wheel=$(ls "$work"/wheels/bpy-"$v"[.-]*.whl "$repo"/target/blender-ext/bpy-"$v"[.-]*.whl 2>/dev/null | sort -V | tail -n 1 || true)
    if [ -z "$wheel" ]; then
      "$python" -m pip download "${pip_q[@]}" --no-deps --only-binary=:all: --dest "$work/wheels" "$spec"
      wheel=$(ls "$work"/wheels/bpy-"$v"[.-]*.whl | sort -V | tail -n 1)
    fi
    venv="$work/venv-$v"
    rm -rf "$venv"
    "$python" -m venv "$venv"
    "$venv/bin/python" -m pip install "${pip_q[@]}" --root-user-action=ignore "$wheel"
    runner=(env RETROMODEL_EXTENSION_ZIP="$zip" "$venv/bin/python" -c "$driver")
    name="bpy $("$venv/bin/python" -c 'import importlib.metadata as m; print(m.version("bpy"))')"
    py=$("$venv/bin/python" -c 'import sys; print(sys.version.split()[0])')
  fi
  results=()
  for s in "${scripts[@]}"; do
    res="$tmp/$v-${s%.py}"
    mkdir -p "$res"
    t0=$(date +%s)
    status=0
    # Run from the temporary folder: nothing of the source tree on sys.path
    # but the test's own folder (the add-on comes from the installed zip).
    how=()
    if ! grep -q addon_under_test "$here/$s"; then how=(env RETROMODEL_PYTHONPATH="$tmp/site"); fi
    (cd "$res" && BLENDER_USER_RESOURCES="$res" "${how[@]}" "${runner[@]}" "$here/$s" -- "$RETROMODEL_CORPUS" "$log/out") \
      >"$log/${s%.py}.log" 2>&1 || status=$?
    if [ "$status" = 0 ] && grep -q "^Traceback\|^Error: Python: Traceback" "$log/${s%.py}.log"; then
      # A traceback caught by Blender (a failed operator) fails the test too.
      status=traceback
    fi
    if [ "$status" = 0 ]; then
      results+=("${s%.py} passed ($(( $(date +%s) - t0 )) s)")
    else
      failed=1
      results+=("${s%.py} FAILED ($status, $(( $(date +%s) - t0 )) s)")
      echo "--- $name: $s failed ($status), last lines of $log/${s%.py}.log:"
      grep -vE "^(Blender quit|Read prefs|Warning: Unable to find|Color management)" "$log/${s%.py}.log" | tail -n 40
    fi
  done
  if [ "${CI:-}" = true ] && [ "${BPY_KEEP:-0}" != 1 ] && [ "$v" != debian ]; then
    rm -rf "$venv"
    rm -f "$wheel"
  fi
  line="$name, Python $py: $(IFS=';'; echo "${results[*]}" | sed 's/;/, /g'); $(( $(date +%s) - started )) s in all"
  echo "$line"
  summary+=("$line")
done
echo
echo "=== Blender compatibility"
printf '%s\n' "${summary[@]}"
exit "$failed"
