#!/usr/bin/env bash
# Compares reading Quake III MD3 files with Assimp's MD3 import of the same
# bytes in memory, in the same run (issue 31's bar: ours reading and
# decoding every frame at least as fast as Assimp's import, which keeps
# frame 0). The files come from Debian's OpenArena packages (never
# committed): extracted from their pk3 archives into bench/build/md3/.
#
# Needs: cargo, g++, libassimp-dev, python3, and openarena-data
# (apt-get install g++ libassimp-dev openarena-data).
#
# Usage: bench/md3_compare.sh
# Environment:
#   RETROMODEL_OPENARENA  OpenArena's baseoa folder (default /usr/share/games/openarena/baseoa)
#   ITERATIONS            operations timed per measurement (default 300)
#   RUNS                  how many times both are measured, alternating (default 3)
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/.." && pwd)"
baseoa="${RETROMODEL_OPENARENA:-/usr/share/games/openarena/baseoa}"
iterations="${ITERATIONS:-300}"
runs="${RUNS:-3}"
build="$here/build"
work="$build/md3"
# A player's three parts (sarge: upper 595 KB), the largest player part
# in pak0 (sorceress's upper, 1.3 MB) and a weapon of a few surfaces.
members=(models/players/sarge/lower.md3 models/players/sarge/upper.md3 models/players/sarge/head.md3
         models/players/sorceress/upper.md3 models/weapons2/rocketl/rocketl.md3)

[[ -f "$baseoa/pak0.pk3" ]] || { echo "md3_compare.sh: $baseoa/pak0.pk3 not found (apt-get install openarena-data)" >&2; exit 1; }
if ! command -v g++ >/dev/null || [[ ! -f /usr/include/assimp/Importer.hpp ]]; then
    echo "md3_compare.sh: needs g++ and Assimp's headers: apt-get install g++ libassimp-dev" >&2
    exit 1
fi
mkdir -p "$work"
files=()
names=()
for m in "${members[@]}"; do
    out="$work/$(echo "$m" | cut -d/ -f3)_$(basename "$m")"
    python3 - "$baseoa/pak0.pk3" "$m" "$out" <<'PY'
import sys, zipfile
with zipfile.ZipFile(sys.argv[1]) as z, open(sys.argv[3], "wb") as f:
    f.write(z.read(sys.argv[2]))
PY
    files+=("$out")
    names+=("$(basename "$out" .md3)")
done
echo "== building the Assimp harness (g++ -O2, -lassimp)"
g++ -O2 -std=c++17 -Wall -Wextra -o "$build/assimp_harness" "$here/assimp_harness.cpp" -lassimp
echo "== building bench_parse (cargo --release)"
(cd "$root" && cargo build --release -q -p retromodel-bench --bin bench_parse)
target_dir="$(cd "$root" && cargo metadata --format-version 1 --no-deps 2>/dev/null |
    sed -n 's/.*"target_directory":"\([^"]*\)".*/\1/p')"
ours="${target_dir:-$root/target}/release/bench_parse"

results="$build/md3_results.txt"
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
echo "MD3 read speed, µs per operation (median of $runs runs of the median batch of 10 over $iterations)"
echo "CPU: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //'), $(nproc) cores"
printf '%-24s %10s %12s %12s %14s %14s\n' model bytes assimp ours_parse ours_all_frames "all/assimp"
for i in "${!names[@]}"; do
    m="${names[$i]}"
    a="$(median_of assimp_import "$m")"
    p="$(median_of ours_parse "$m")"
    d="$(median_of ours_parse_decode "$m")"
    r="$(awk -v a="$a" -v d="$d" 'BEGIN { if (a == "-" || d == "-") print "-"; else printf "%.2f", d / a }')"
    printf '%-24s %10s %12s %12s %14s %14s\n' "$m" "$(wc -c <"${files[$i]}" | tr -d ' ')" "$a" "$p" "$d" "$r"
done
