#!/usr/bin/env bash
# Compares reading Quake MDL files with Assimp's MDL import of the same
# bytes in memory, in the same run (issue 30's bar: ours reading and decoding
# every frame at least as fast as Assimp's import, which keeps frame 0).
#
# Needs: cargo, g++ and libassimp-dev (Debian: apt-get install g++ libassimp-dev).
#
# Usage: bench/mdl_compare.sh
# Environment:
#   RETROMODEL_CORPUS  corpus folder (default: ../shared/corpus beside the repository)
#   ITERATIONS         operations timed per measurement (default 500)
#   RUNS               how many times both are measured, alternating (default 3)
#
# Output: every RESULT line (median and fastest µs per operation, see
# bench/assimp_harness.cpp and bench/src/bin/bench_parse.rs), then per model
# the ratios ours / Assimp's of the medians over the runs.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/.." && pwd)"
corpus="${RETROMODEL_CORPUS:-$root/../shared/corpus}"
iterations="${ITERATIONS:-500}"
runs="${RUNS:-3}"
build="$here/build"
# The player (1 skin, 324 frames), the biggest monster of id's set (the
# Shambler), an Ogre, and a flame whose frames are one frame group.
models=(c0burn_progs_player c0burn_progs_shambler c0burn_progs_ogre c0burn_progs_flame2)

files=()
for m in "${models[@]}"; do
    f="$corpus/mdl/$m.mdl"
    [[ -f "$f" ]] || { echo "mdl_compare.sh: $f not found; set RETROMODEL_CORPUS" >&2; exit 1; }
    files+=("$f")
done
if ! command -v g++ >/dev/null || [[ ! -f /usr/include/assimp/Importer.hpp ]]; then
    echo "mdl_compare.sh: needs g++ and Assimp's headers: apt-get install g++ libassimp-dev" >&2
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

results="$build/mdl_results.txt"
: >"$results"
for ((run = 1; run <= runs; run++)); do
    echo "== run $run of $runs"
    "$build/assimp_harness" "$iterations" "${files[@]}" | tee -a "$results" || true
    "$ours" "$iterations" "${files[@]}" | tee -a "$results"
done

median_of() { # what model
    awk -v w="$1" -v m="$2" '$1 == "RESULT" && $2 == w && $3 == m { print $4 }' "$results" | sort -g |
        awk '{ v[NR] = $1 } END { if (NR) print v[int((NR + 1) / 2)]; else print "-" }'
}
echo
echo "MDL read speed, µs per operation (median of $runs runs of the median batch of 10 over $iterations)"
echo "CPU: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //'), $(nproc) cores"
printf '%-24s %10s %12s %12s %14s %14s\n' model bytes assimp ours_parse ours_all_frames "all/assimp"
for m in "${models[@]}"; do
    a="$(median_of assimp_import "$m")"
    p="$(median_of ours_parse "$m")"
    d="$(median_of ours_parse_decode "$m")"
    r="$(awk -v a="$a" -v d="$d" 'BEGIN { if (a == "-" || d == "-") print "-"; else printf "%.2f", d / a }')"
    printf '%-24s %10s %12s %12s %14s %14s\n' "$m" "$(wc -c <"$corpus/mdl/$m.mdl" | tr -d ' ')" "$a" "$p" "$d" "$r"
done
