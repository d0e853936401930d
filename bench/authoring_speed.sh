#!/usr/bin/env bash
# Whole-process authoring speed (issue 10): faerie.glb -> md2 and
# blender_walker.glb -> md2 against faerie.md2 -> glb, in one hyperfine run,
# for one or more builds (so a before and an after alternate in one run):
#   bash bench/authoring_speed.sh RUNS BINARY [BINARY...]
# Each conversion is timed twice: writing over the output of the run before
# (`--force`, "over") and writing a new file (the output deleted before each
# run, "new"). They differ: on ext4, renaming a file over an existing one
# makes the kernel start writing the new file's data out at once
# (`auto_da_alloc`), which costs the 2.6 MB glb far more than the 0.3 MB MD2.
# `info IN.glb` (reading and importing the glTF, writing nothing) is timed
# too: the floor under any conversion from that file.
# Prints per command the median and best wall time, mean user and system
# CPU, then per binary the peak RSS and page faults of each conversion.
set -euo pipefail
runs="${1:?usage: authoring_speed.sh RUNS BINARY [BINARY...]}"; shift
bins=(); for b in "$@"; do bins+=("$(realpath "$b")"); done
set -- "${bins[@]}"
corpus="${RETROMODEL_CORPUS:-$(cd "$(dirname "$0")/.." && pwd)/../shared/corpus}"
work="$(mktemp -d)"; trap 'rm -rf "$work"' EXIT
cp "$corpus/md2/assimpdeb_faerie.md2" "$work/faerie.md2"
cp "$corpus/gltf/blender_walker.glb" "$work/walker.glb"
"$1" convert --force -q "$work/faerie.md2" "$work/faerie.glb" 2>/dev/null
cmds=()
for b in "$@"; do
  cmds+=("$b convert --force -q faerie.md2 out.glb"
         "$b convert --force -q faerie.glb out.md2"
         "$b convert --force -q walker.glb walker.md2"
         "$b info faerie.glb"
         "$b info walker.glb")
done
cd "$work"
summary() {
  python3 - "$1" "$2" <<'PY'
import json, sys
for r in json.load(open(sys.argv[1]))["results"]:
    print(f"{r['median']*1e3:6.1f} ms median {min(r['times'])*1e3:6.1f} best "
          f"{r['user']*1e3:5.1f} user {r['system']*1e3:5.1f} sys  {sys.argv[2]}  {r['command']}")
PY
}
# Over: every run replaces the output of the run before.
hyperfine -N --warmup 5 --runs "$runs" --export-json over.json "${cmds[@]}" >/dev/null 2>&1
summary over.json over
# New: the outputs are deleted before each run (the prepare command is not
# timed), so each run writes a new file, as a first conversion does.
hyperfine -N --warmup 5 --runs "$runs" --prepare "rm -f out.glb out.md2 walker.md2" \
  --export-json new.json "${cmds[@]}" >/dev/null 2>&1
summary new.json new
for b in "$@"; do
  for c in "faerie.md2 out.glb" "faerie.glb out.md2" "walker.glb walker.md2"; do
    /usr/bin/time -f "%M kB peak, %R page faults: $b convert $c" "$b" convert --force -q $c >/dev/null 2>"$work/t" || true
    tail -n 1 "$work/t"
  done
done
