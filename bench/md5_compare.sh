#!/usr/bin/env bash
# Compares reading an MD5 (md5mesh + md5anim, from memory) with Assimp's MD5
# import of the same bytes, in the same run. The model is a player-sized one
# the test kit makes (bench_md5 --write: 40 joints, 3,000 vertices with two
# weights each, 6,000 weights, 3,000 triangles, 300 frames), written into
# bench/build/md5/.
#
# Needs: cargo, g++ and libassimp-dev (Debian: apt-get install g++ libassimp-dev).
#
# Usage: bench/md5_compare.sh
# Environment:
#   ITERATIONS  imports timed per measurement (default 200)
#   RUNS        how many times both are measured, alternating (default 3)
#
# Output: every RESULT line (median and fastest µs per operation, see
# bench/src/bin/bench_md5.rs and bench/assimp_md5_harness.cpp), then per
# run the ratios ours / Assimp's (median and fastest).
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/.." && pwd)"
iterations="${ITERATIONS:-200}"
runs="${RUNS:-3}"
build="$here/build"
mkdir -p "$build/md5"

if ! command -v g++ >/dev/null || [[ ! -f /usr/include/assimp/Importer.hpp ]]; then
    echo "md5_compare.sh: needs g++ and Assimp's headers: apt-get install g++ libassimp-dev" >&2
    exit 1
fi
echo "== building the Assimp MD5 harness (g++ -O2, -lassimp)"
g++ -O2 -std=c++17 -Wall -Wextra -o "$build/assimp_md5_harness" "$here/assimp_md5_harness.cpp" -lassimp
echo "== building bench_md5 (cargo --release)"
(cd "$root" && cargo build --release -q -p retromodel-bench --bin bench_md5)
target_dir="$(cd "$root" && cargo metadata --format-version 1 --no-deps 2>/dev/null |
    sed -n 's/.*"target_directory":"\([^"]*\)".*/\1/p')"
ours="${target_dir:-$root/target}/release/bench_md5"
"$ours" --write "$build/md5"
mesh="$build/md5/player.md5mesh"
anim="$build/md5/player.md5anim"
echo "== $(wc -c <"$mesh") + $(wc -c <"$anim") bytes, $iterations imports per measurement, $runs runs"

for run in $(seq "$runs"); do
    out="$("$ours" "$iterations" "$mesh" "$anim"; "$build/assimp_md5_harness" "$iterations" "$mesh" "$anim")"
    echo "$out"
    echo "$out" | awk -v run="$run" '
        $1 == "RESULT" { med[$2] = $4; fast[$2] = $5 }
        END {
            for (w in med) if (w ~ /^ours_/)
                printf "run %d: %s / assimp_import: %.2f (median), %.2f (fastest)\n",
                    run, w, med[w] / med["assimp_import"], fast[w] / fast["assimp_import"]
        }'
done
