#!/usr/bin/env bash
# Cross-checks `retromodel validate --engine ioquake3` against ioquake3's own
# IQM loader: R_LoadIQM and the static helpers before it are cut out of
# code/renderergl1/tr_model_iqm.c at build time (nothing of it is kept here),
# compiled with the stubs in ioq3_iqm_harness.c under AddressSanitizer, and
# run on every file given; a file "loads" when R_LoadIQM returns qtrue without
# a read past its buffer.
#   bash tools/engine_loaders/iqm_run.sh IOQ3_GIT FILE.iqm...
# (make_iqm_cases.py writes the hand-made cases.)
# IOQ3_GIT is a git directory of ioquake/ioq3 (5956299e; HEAD is read).
# Prints one line per file: agree or DIFFER, the loader's exit (0 loaded,
# 1 AddressSanitizer, 2 refused) and validate's. Needs gcc with
# AddressSanitizer and the retromodel binary (RETROMODEL_BIN, default
# target/debug/retromodel).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
bin=${RETROMODEL_BIN:-$here/../../target/debug/retromodel}
ioq3=$1
shift
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
git --git-dir="$ioq3" show HEAD:code/renderercommon/iqm.h >"$work/iqm.h"
git --git-dir="$ioq3" show HEAD:code/renderergl1/tr_model_iqm.c >"$work/source.c"
# From after the LL macro (identityMatrix, IQM_CheckRange, the matrix and
# quaternion helpers) through R_LoadIQM's closing brace.
awk '/^#define\tLL\(x\)/ {p = 1} p {print} /^qboolean R_LoadIQM\(/ {l = 1} l && /^}/ {exit}' \
  "$work/source.c" >"$work/loadiqm.inc"
gcc -g -O0 -fsanitize=address -fno-omit-frame-pointer -w -I"$work" \
  -o "$work/harness" "$here/ioq3_iqm_harness.c" -lm
for f in "$@"; do
  set +e
  ASAN_OPTIONS=detect_leaks=0 "$work/harness" "$f" >/dev/null 2>&1
  own=$?
  "$bin" validate --engine ioquake3 "$f" >/dev/null 2>&1
  ours=$?
  set -e
  loads=$([ $own = 0 ] && echo 0 || echo 1)
  verdict=$([ "$loads" = "$ours" ] && echo agree || echo DIFFER)
  echo "$verdict ioquake3 $(basename "$f"): loader $own, validate $ours"
done
