#!/usr/bin/env bash
# Conversion speed (BENCHMARKS.md, "Conversion speed"): whole-process
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
hyperfine --warmup 3 --runs 20 --export-json "$OUT/single.json" \
  "$BIN convert --force $MODEL $OUT/faerie.glb" \
  "assimp export $MODEL $OUT/faerie_assimp.glb"
hyperfine --warmup 3 --runs 20 --export-json "$OUT/single_skin.json" \
  "$BIN convert --force --skin $CORPUS/md2/faerie2.bmp $MODEL $OUT/faerie_skin.glb"
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
