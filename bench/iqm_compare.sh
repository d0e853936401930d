#!/usr/bin/env bash
# Compares reading Inter-Quake Models with Assimp's IQM import of the same
# bytes in memory, in the same run (issue 38's bar: ours decoding every
# frame's pose at least as fast as Assimp's import, which keeps the
# channels as animation keys and poses nothing). The files are the
# corpus's (RETROMODEL_CORPUS, default ../shared/corpus): lsalzman's
# mrfixit, raylib's guy and its animation-only twin.
#
# Needs: cargo, g++, libassimp-dev (apt-get install g++ libassimp-dev).
#
# Usage: bench/iqm_compare.sh
# Environment:
#   ITERATIONS  operations timed per measurement (default 300)
#   RUNS        how many times both are measured, alternating (default 3)
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/.." && pwd)"
corpus="${RETROMODEL_CORPUS:-$root/../shared/corpus}"
iterations="${ITERATIONS:-300}"
runs="${RUNS:-3}"
build="$here/build"
files=("$corpus/iqm/lsalzman_mrfixit.iqm" "$corpus/iqm/raylib_guy.iqm" "$corpus/iqm/raylib_guyanim.iqm")
for f in "${files[@]}"; do
    [[ -f "$f" ]] || { echo "iqm_compare.sh: $f not found (set RETROMODEL_CORPUS)" >&2; exit 1; }
done
if ! command -v g++ >/dev/null || [[ ! -f /usr/include/assimp/Importer.hpp ]]; then
    echo "iqm_compare.sh: needs g++ and Assimp's headers: apt-get install g++ libassimp-dev" >&2
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

results="$build/iqm_results.txt"
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
echo "IQM read speed, µs per operation (median of $runs runs of the median batch of 10 over $iterations)"
echo "CPU: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //'), $(nproc) cores"
printf '%-24s %10s %12s %12s %14s %14s %14s\n' model bytes assimp ours_parse ours_all_poses "all/assimp" ours_all_skins
for f in "${files[@]}"; do
    m="$(basename "$f" .iqm)"
    a="$(median_of assimp_import "$m")"
    p="$(median_of ours_parse "$m")"
    d="$(median_of ours_parse_decode "$m")"
    k="$(median_of ours_parse_skin "$m")"
    r="$(awk -v a="$a" -v d="$d" 'BEGIN { if (a == "-" || d == "-") print "-"; else printf "%.2f", d / a }')"
    printf '%-24s %10s %12s %12s %14s %14s %14s\n' "$m" "$(wc -c <"$f" | tr -d ' ')" "$a" "$p" "$d" "$r" "$k"
done
