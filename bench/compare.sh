#!/usr/bin/env bash
# Compares retromodel's MD2 and MS3D parsing with Assimp's import (and, for
# MD2, when node and npm are there, three.js's MD2Loader) on the same bytes
# in memory. three.js has no MS3D loader.
#
# Needs: cargo, g++ and libassimp-dev (Debian: apt-get install g++ libassimp-dev).
# Optional: node and npm (three.js is then installed into bench/build/js).
#
# Usage: bench/compare.sh
# Environment:
#   RETROMODEL_CORPUS  corpus folder (default: ../shared/corpus beside the repository)
#   ITERATIONS         operations timed per measurement (default 2000)
#   MS3D_ITERATIONS    the same for the MS3D files (default 1000; Assimp takes
#                      about 5 ms per import of the animated Woman4)
#   RUNS               how many times the whole measurement is repeated; the
#                      table shows the median run of each figure (default 3)
#   THREE_ITERATIONS   iterations for three.js, which is ~1000x slower (default 30)
#   NO_THREE=1         skip three.js
#
# Every harness reads each file once, warms up, then times batches of 10
# operations and reports the median batch (and the fastest); see
# bench/assimp_harness.cpp, bench/src/bin/bench_parse.rs and
# bench/three_harness.mjs.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/.." && pwd)"
corpus="${RETROMODEL_CORPUS:-$root/../shared/corpus}"
iterations="${ITERATIONS:-2000}"
runs="${RUNS:-3}"
three_iterations="${THREE_ITERATIONS:-30}"
build="$here/build"
ms3d_iterations="${MS3D_ITERATIONS:-1000}"
models=(assimpdeb_faerie assimpdeb_sydney)
# Woman4 as GLScene ships it (Assimp 5.2.5 rejects its model comment) and as
# Maverick Model 3D re-exported it (same mesh and 69 276 keys, no extras).
ms3d_models=(assimpdeb_Wuson assimpdeb_jeep1 glscene_Woman4 mm3d_from_glscene_Woman4)

files=()
for m in "${models[@]}"; do
    f="$corpus/md2/$m.md2"
    if [[ ! -f "$f" ]]; then
        echo "compare.sh: $f not found; set RETROMODEL_CORPUS to the corpus folder" >&2
        exit 1
    fi
    files+=("$f")
done
ms3d_files=()
for m in "${ms3d_models[@]}"; do
    f="$corpus/ms3d/$m.ms3d"
    if [[ ! -f "$f" ]]; then
        echo "compare.sh: $f not found; set RETROMODEL_CORPUS to the corpus folder" >&2
        exit 1
    fi
    ms3d_files+=("$f")
done

if ! command -v g++ >/dev/null || [[ ! -f /usr/include/assimp/Importer.hpp ]]; then
    echo "compare.sh: needs g++ and Assimp's headers: apt-get install g++ libassimp-dev" >&2
    exit 1
fi
mkdir -p "$build"

echo "== building the Assimp harness (g++ -O2, -lassimp)"
g++ -O2 -std=c++17 -Wall -Wextra -o "$build/assimp_harness" "$here/assimp_harness.cpp" -lassimp

echo "== building bench_parse (cargo --release)"
(cd "$root" && cargo build --release -q -p retromodel-bench --bin bench_parse)
target_dir="$(cd "$root" && cargo metadata --format-version 1 --no-deps 2>/dev/null |
    sed -n 's/.*"target_directory":"\([^"]*\)".*/\1/p')"
ours="${target_dir:-$root/target}/release/bench_parse"

three_loader=""
if [[ "${NO_THREE:-0}" != 1 ]] && command -v node >/dev/null && command -v npm >/dev/null; then
    loader="$build/js/node_modules/three/examples/jsm/loaders/MD2Loader.js"
    if [[ ! -f "$loader" ]]; then
        echo "== installing three.js into $build/js (npm)"
        mkdir -p "$build/js"
        [[ -f "$build/js/package.json" ]] || echo '{ "private": true }' >"$build/js/package.json"
        (cd "$build/js" && npm install --no-audit --no-fund --silent three) ||
            echo "note: npm install three failed; skipping three.js" >&2
    fi
    [[ -f "$loader" ]] && three_loader="$loader"
else
    echo "note: node/npm not available (or NO_THREE=1); skipping three.js"
fi

results="$build/results.txt"
: >"$results"
for ((run = 1; run <= runs; run++)); do
    echo "== run $run of $runs"
    "$build/assimp_harness" "$iterations" "${files[@]}" | tee -a "$results"
    "$ours" "$iterations" "${files[@]}" | tee -a "$results"
    if [[ -n "$three_loader" ]]; then
        node "$here/three_harness.mjs" "$three_loader" "$three_iterations" "${files[@]}" | tee -a "$results"
    fi
    # The harness exits with 1 when Assimp rejects a file (a FAILED line).
    "$build/assimp_harness" "$ms3d_iterations" "${ms3d_files[@]}" | tee -a "$results" || true
    "$ours" "$ms3d_iterations" "${ms3d_files[@]}" | tee -a "$results"
done

# The median over the runs of one figure (column 4: median of batches,
# column 5: fastest batch) for one operation on one model.
median_of() { # what model column
    local values n
    values="$(awk -v w="$1" -v m="$2" -v c="$3" '$1 == "RESULT" && $2 == w && $3 == m { print $c }' "$results" | sort -g)"
    n="$(printf '%s\n' "$values" | grep -c . || true)"
    if [[ "$n" -eq 0 ]]; then
        echo "-"
    else
        printf '%s\n' "$values" | sed -n "$(((n + 1) / 2))p"
    fi
}
ratio() { # a b
    if [[ "$1" == "-" || "$2" == "-" ]]; then echo "-"; else awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; fi
}

echo
echo "MD2 parse speed, µs per operation (median of $runs runs; each run's figure is"
echo "the median of batches of 10 over $iterations operations; 'fastest' is the fastest batch)"
echo "CPU: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //'), $(nproc) cores"
labels=(
    "memcpy:memcpy of the file bytes"
    "assimp_import:assimp ReadFileFromMemory (keeps frame 0)"
    "ours_parse:ours: Md2::from_bytes"
    "ours_parse_decode:ours: parse + decode all frames"
    "ours_parse_decode_reuse:ours: parse + decode all, 1 buffer"
    "fill_all_frames:floor: write constants to all-frames buffers"
    "threejs_md2loader:three.js MD2Loader.parse (all frames)"
)

for m in "${models[@]}"; do
    bytes="$(wc -c <"$corpus/md2/$m.md2" | tr -d ' ')"
    assimp="$(median_of assimp_import "$m" 4)"
    echo
    echo "$m.md2 ($bytes bytes)"
    printf '  %-42s %10s %10s %12s\n' "operation" "µs/op" "fastest" "ours/assimp"
    for entry in "${labels[@]}"; do
        what="${entry%%:*}"
        label="${entry#*:}"
        med="$(median_of "$what" "$m" 4)"
        [[ "$med" == "-" ]] && continue
        fast="$(median_of "$what" "$m" 5)"
        printf '  %-42s %10.2f %10.2f %12s\n' "$label" "$med" "$fast" "$(ratio "$med" "$assimp")"
    done
    parse="$(median_of ours_parse "$m" 4)"
    decode="$(median_of ours_parse_decode "$m" 4)"
    gbps="$(awk -v b="$bytes" -v us="$parse" 'BEGIN { printf "%.1f", b / us / 1000 }')"
    reuse="$(median_of ours_parse_decode_reuse "$m" 4)"
    r="$(ratio "$decode" "$assimp")"
    r_reuse="$(ratio "$reuse" "$assimp")"
    met_parse="$(awk -v g="$gbps" 'BEGIN { print (g >= 3 ? "met" : "NOT met") }')"
    met_decode="$(awk -v r="$r" 'BEGIN { print (r <= 1.5 ? "met" : "NOT met") }')"
    echo "  parse throughput: $gbps GB/s (target >= 3 GB/s: $met_parse)"
    met_reuse="$(awk -v r="$r_reuse" 'BEGIN { print (r <= 1.5 ? "met" : "NOT met") }')"
    echo "  parse + decode all frames: ${r}x assimp (target <= 1.5x: $met_decode)"
    echo "  parse + decode all frames into 1 buffer: ${r_reuse}x assimp (target <= 1.5x: $met_reuse)"
done

echo
echo "MS3D parse speed, µs per operation (median of $runs runs; each run's figure is"
echo "the median of batches of 10 over $ms3d_iterations operations; 'fastest' is the fastest batch)"
ms3d_labels=(
    "memcpy:memcpy of the file bytes"
    "assimp_import:assimp ReadFileFromMemory"
    "ours_parse:ours: Ms3d::from_bytes"
    "ours_load:ours: parse + Skeleton + GroupMeshes"
)
for m in "${ms3d_models[@]}"; do
    bytes="$(wc -c <"$corpus/ms3d/$m.ms3d" | tr -d ' ')"
    assimp="$(median_of assimp_import "$m" 4)"
    echo
    echo "$m.ms3d ($bytes bytes)"
    printf '  %-42s %10s %10s %12s\n' "operation" "µs/op" "fastest" "ours/assimp"
    for entry in "${ms3d_labels[@]}"; do
        what="${entry%%:*}"
        label="${entry#*:}"
        med="$(median_of "$what" "$m" 4)"
        [[ "$med" == "-" ]] && continue
        fast="$(median_of "$what" "$m" 5)"
        printf '  %-42s %10.2f %10.2f %12s\n' "$label" "$med" "$fast" "$(ratio "$med" "$assimp")"
    done
    failed="$(awk -v m="$m" '$1 == "FAILED" && $3 == m { $1 = $2 = $3 = ""; sub(/^ +/, ""); print; exit }' "$results")"
    parse="$(median_of ours_parse "$m" 4)"
    gbps="$(awk -v b="$bytes" -v us="$parse" 'BEGIN { printf "%.1f", b / us / 1000 }')"
    echo "  parse throughput: $gbps GB/s"
    if [[ "$assimp" == "-" ]]; then
        echo "  assimp could not import it: ${failed:-no result}"
    else
        speedup="$(ratio "$assimp" "$parse")"
        met="$(awk -v s="$speedup" 'BEGIN { print (s >= 5 ? "met" : "NOT met") }')"
        echo "  parse is ${speedup}x faster than assimp (target >= 5x: $met)"
    fi
done
