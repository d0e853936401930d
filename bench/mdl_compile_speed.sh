#!/usr/bin/env bash
# MDL compile against the MD2 compile of the same source (issue 30: "as
# fast as the MD2 compile of the same source"): Blender's walker and our
# faerie.glb (faerie.md2 converted), each compiled to .md2 and to .mdl by
# one build, whole process, alternating, RUNS times each; prints the
# median and best wall time per command, then the instructions of one
# single-threaded run of each (callgrind, when valgrind is there).
#   bash bench/mdl_compile_speed.sh RUNS BINARY
set -euo pipefail
runs="${1:?usage: mdl_compile_speed.sh RUNS BINARY}"
bin="$(realpath "${2:?usage: mdl_compile_speed.sh RUNS BINARY}")"
corpus="${RETROMODEL_CORPUS:-$(cd "$(dirname "$0")/.." && pwd)/../shared/corpus}"
work="$(mktemp -d)"; trap 'rm -rf "$work"' EXIT
cp "$corpus/gltf/blender_walker.glb" "$work/walker.glb"
cp "$corpus/quake/palette.lmp" "$work/palette.lmp"
"$bin" convert --force -q "$corpus/md2/assimpdeb_faerie.md2" "$work/faerie.glb" 2>/dev/null
cd "$work"
cmds=("convert --force -q walker.glb walker.md2"
      "convert --force -q walker.glb walker.mdl --palette palette.lmp"
      "convert --force -q faerie.glb faerie.md2"
      "convert --force -q faerie.glb faerie.mdl --palette palette.lmp")
python3 - "$runs" "$bin" "${cmds[@]}" <<'PY'
import statistics, subprocess, sys, time
runs, binary, cmds = int(sys.argv[1]), sys.argv[2], sys.argv[3:]
times = {c: [] for c in cmds}
for _ in range(runs):
    for c in cmds:
        t = time.perf_counter()
        subprocess.run([binary] + c.split(), check=True, stderr=subprocess.DEVNULL)
        times[c].append(time.perf_counter() - t)
for c in cmds:
    print(f"{statistics.median(times[c])*1e3:7.2f} ms median {min(times[c])*1e3:7.2f} best  {c}")
PY
if command -v valgrind >/dev/null; then
  for c in "${cmds[@]}"; do
    # shellcheck disable=SC2086
    n=$(RAYON_NUM_THREADS=1 valgrind --tool=callgrind --callgrind-out-file=/dev/null "$bin" $c 2>&1 \
        | sed -n 's/.*Collected : \([0-9]*\).*/\1/p')
    echo "$n instructions  $c"
  done
fi
