#!/usr/bin/env bash
# Cross-checks `retromodel validate --engine` against the engines' own MD2
# loaders: each loader's function is cut out of the engine's source at build
# time (nothing of it is kept here), compiled with the stubs in *_harness.c
# under AddressSanitizer, and run on every file given; a file "loads" when the
# loader returns it without a refusal or a read past its buffer.
#   bash tools/engine_loaders/run.sh ID_QUAKE2_GIT YQUAKE2_GIT Q2PRO_GIT FILE.md2...
# (make_cases.py writes the hand-made cases.)
# Each *_GIT is a git directory of the engine (id-Software/Quake-2,
# yquake2/yquake2 at 69599f5, skullernet/q2pro at 3aa0d40; HEAD is read).
# Prints one line per file and engine: agree or DIFFER, the loader's exit
# (0 loaded, 1 AddressSanitizer, 2 refused, 4 Q2PRO's empty model) and
# validate's. Needs gcc with AddressSanitizer and the retromodel binary
# (RETROMODEL_BIN, default target/debug/retromodel).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
bin=${RETROMODEL_BIN:-$here/../../target/debug/retromodel}
id=$1 yq=$2 q2pro=$3
shift 3
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
build() { # NAME GIT HEADER_PATH LOADER_SOURCE
  local dir=$work/$1
  mkdir -p "$dir"
  git --git-dir="$2" show "HEAD:$3" >"$dir/$(basename "$3")"
  git --git-dir="$2" show "HEAD:$4" >"$dir/source.c"
  cp "$here/$1_harness.c" "$dir/"
}
# id: Mod_LoadAliasModel, to its closing brace.
build id "$id" qcommon/qfiles.h ref_gl/gl_model.c
awk '/^void Mod_LoadAliasModel \(model_t \*mod, void \*buffer\)$/ {p = 1} p {print} p && /^}/ {exit}' \
  "$work/id/source.c" >"$work/id/loadmd2.inc"
# yquake2: Mod_LoadMD2 (its return type on the line before).
build y "$yq" src/common/header/files.h src/client/refresh/files/models.c
awk '/^Mod_LoadMD2 \(/ {print "void *"; p = 1} p {print} p && /^}/ {exit}' \
  "$work/y/source.c" >"$work/y/loadmd2.inc"
# Q2PRO: MOD_ValidateMD2 through MOD_LoadMD2.
build q "$q2pro" inc/format/md2.h src/refresh/models.c
awk '/^static const char \*MOD_ValidateMD2/ {p = 1} /^static int MOD_LoadMD2/ {l = 1}
     p {print} l && /^}/ {exit}' "$work/q/source.c" >"$work/q/loadmd2.inc"
for e in id y q; do
  gcc -g -O0 -fsanitize=address -fno-omit-frame-pointer -w -I"$work/$e" \
    -o "$work/$e/harness" "$work/$e/${e}_harness.c" -lm
done
declare -A profile=([id]=quake2 [y]=yquake2 [q]=q2pro)
for f in "$@"; do
  for e in id y q; do
    set +e
    ASAN_OPTIONS=detect_leaks=0 "$work/$e/harness" "$f" >/dev/null 2>&1
    own=$?
    "$bin" validate --engine "${profile[$e]}" "$f" >/dev/null 2>&1
    ours=$?
    set -e
    loads=$([ $own = 0 ] && echo 0 || echo 1)
    verdict=$([ "$loads" = "$ours" ] && echo agree || echo DIFFER)
    echo "$verdict ${profile[$e]} $(basename "$f"): loader $own, validate $ours"
  done
done
