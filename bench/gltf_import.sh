#!/usr/bin/env bash
# glTF import speed (BENCHMARKS.md, "glTF import"): retromodel's
# gltf::import against assimp's ReadFileFromMemory of the same bytes (hint
# "glb", no post-processing), in the same run, on Blender's skinned walker
# and on faerie.glb (our export of faerie.md2: 198 morph targets), 3 runs.
#   bash bench/gltf_import.sh
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/.." && pwd)"
corpus="${RETROMODEL_CORPUS:-$root/../shared/corpus}"
build="${BUILD_DIR:-/tmp/retromodel-bench}"
mkdir -p "$build"
g++ -O2 -std=c++17 -Wall -Wextra -o "$build/assimp_harness" "$here/assimp_harness.cpp" -lassimp
(cd "$root" && cargo build --release -q -p retromodel-bench --bin bench_parse -p retromodel-cli)
"$root/target/release/retromodel" convert --force "$corpus/md2/assimpdeb_faerie.md2" "$build/faerie.glb" 2>/dev/null
cp "$corpus/gltf/blender_walker.glb" "$build/walker.glb"
files=("$build/walker.glb" "$build/faerie.glb")
echo "CPU: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //'), $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
: >"$build/gltf_results.txt"
for run in 1 2 3; do
  "$build/assimp_harness" 300 "${files[@]}" | tee -a "$build/gltf_results.txt"
  "$root/target/release/bench_parse" 300 "${files[@]}" | tee -a "$build/gltf_results.txt"
done
python3 - "$build/gltf_results.txt" <<'PY'
import statistics as st, sys
rows = [l.split() for l in open(sys.argv[1]) if l.startswith("RESULT")]
for model in ("walker", "faerie"):
    get = lambda what, col: st.median(float(r[col]) for r in rows if r[1] == what and r[2] == model)
    a, o = get("assimp_import", 3), get("ours_import", 3)
    af, of = get("assimp_import", 4), get("ours_import", 4)
    print(f"{model}.glb: assimp {a:.1f} µs (fastest {af:.1f}), ours {o:.1f} µs (fastest {of:.1f}): ours/assimp {o / a:.2f} (fastest {of / af:.2f})")
PY
