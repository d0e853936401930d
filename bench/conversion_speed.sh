#!/usr/bin/env bash
# Conversion speed (BENCHMARKS.md, "Conversion"): whole-process
# retromodel convert vs assimp export on one MD2, then batch conversion of
# the shared corpus with --jobs 1 and 2. Run from the repository root after
# `cargo build --release -p retromodel-cli`. Output goes to /tmp/conv.
set -u
CORPUS=${RETROMODEL_CORPUS:-../shared/corpus}
BIN=target/release/retromodel
OUT=/tmp/conv
mkdir -p "$OUT"
MODEL=$CORPUS/md2/assimpdeb_faerie.md2

echo "== machine"; nproc; grep -m1 'model name' /proc/cpuinfo; uptime

echo "== single file"
# Each run writes a new file (the output is removed before each run, for
# both tools): replacing an existing file costs ext4 an early flush
# (auto_da_alloc), which would measure the disk rather than the tools.
# -N: no shell in between. This VM is noisy (neighbours), so the two tools
# alternate over 8 rounds of 30 runs and the medians of the rounds'
# medians are compared.
for r in 1 2 3 4 5 6 7 8; do
  hyperfine -N --warmup 3 --runs 30 --export-json "$OUT/single_$r.json" \
    --prepare "rm -f $OUT/faerie.glb $OUT/faerie_assimp.glb" \
    "$BIN convert $MODEL $OUT/faerie.glb" \
    "assimp export $MODEL $OUT/faerie_assimp.glb" > /dev/null
done
python3 - "$OUT" <<'PY'
import json, statistics as st, sys
out = sys.argv[1]
rounds = [json.load(open(f"{out}/single_{r}.json"))["results"] for r in range(1, 9)]
ours = [st.median(r[0]["times"]) * 1e3 for r in rounds]
theirs = [st.median(r[1]["times"]) * 1e3 for r in rounds]
print("retromodel convert, median per round (ms):", " ".join(f"{x:.2f}" for x in ours))
print("assimp export,      median per round (ms):", " ".join(f"{x:.2f}" for x in theirs))
a, b = st.median(ours), st.median(theirs)
print(f"median of rounds: retromodel {a:.2f} ms, assimp {b:.2f} ms, ratio {a / b:.2f}")
# All 240 runs of each tool pooled: this VM's times have two modes (about
# 4.5 and 6.3 ms for both tools), so low percentiles and the mean are shown too.
pooled = [[t * 1e3 for r in rounds for t in r[k]["times"]] for k in (0, 1)]
def pct(x, p):
    x = sorted(x)
    return x[int(p * (len(x) - 1))]
for p in (0.1, 0.25, 0.5):
    x, y = pct(pooled[0], p), pct(pooled[1], p)
    print(f"pooled p{int(p * 100)}: retromodel {x:.2f} ms, assimp {y:.2f} ms, ratio {x / y:.2f}")
x, y = st.mean(pooled[0]), st.mean(pooled[1])
print(f"pooled mean: retromodel {x:.2f} ms, assimp {y:.2f} ms, ratio {x / y:.2f}")
PY
# For reference: --sync (a disk flush before the rename), and replacing an
# existing output (--force; assimp replaces it too).
hyperfine -N --warmup 5 --runs 40 --export-json "$OUT/single_sync.json" \
  --prepare "rm -f $OUT/faerie_sync.glb" \
  "$BIN convert --sync $MODEL $OUT/faerie_sync.glb"
hyperfine -N --warmup 5 --runs 40 --export-json "$OUT/single_force.json" \
  "$BIN convert --force $MODEL $OUT/faerie.glb" \
  "assimp export $MODEL $OUT/faerie_assimp.glb"
hyperfine -N --warmup 3 --runs 30 --export-json "$OUT/single_skin.json" \
  --prepare "rm -f $OUT/faerie_skin.glb" \
  "$BIN convert --skin $CORPUS/md2/faerie2.bmp $MODEL $OUT/faerie_skin.glb"
ls -l "$OUT"/faerie*.glb
uptime

echo "== batch"
for j in 1 2; do
  rm -rf "$OUT/batch"
  /usr/bin/time -v "$BIN" convert "$CORPUS" --out-dir "$OUT/batch" --to glb --force --quiet --jobs $j \
    2> "$OUT/batch_j$j.time"
  echo "exit $?"
  grep -E 'converted|failed|Elapsed|Maximum resident' "$OUT/batch_j$j.time"
  hyperfine --warmup 1 --runs 5 --export-json "$OUT/batch_j$j.json" -i \
    "$BIN convert $CORPUS --out-dir $OUT/batch --to glb --force --quiet --jobs $j"
done
uptime
