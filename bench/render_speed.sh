#!/usr/bin/env bash
# Contact sheet speed (BENCHMARKS.md, "Rendering"): the sheet
# of the whole corpus beside batch conversion of the same folder to .glb,
# in the same run, with 1 and 2 jobs. Run from the repository root after
# `cargo build --release -p retromodel-cli`:
#   bash bench/render_speed.sh [CLI] [ROUNDS]
# Every output is removed before each run (replacing a file costs ext4 an
# early flush, which would measure the disk). The VM is shared, so the
# two commands alternate: ROUNDS (default 6) rounds of hyperfine, each
# running both, and the rounds' medians and best times are compared.
# Then one callgrind run of each at -j1 (instruction counts are
# repeatable under load). Output goes to /tmp/render_speed.
set -u
CORPUS=${RETROMODEL_CORPUS:-../shared/corpus}
BIN=${1:-target/release/retromodel}
ROUNDS=${2:-6}
OUT=/tmp/render_speed
mkdir -p "$OUT"

echo "== machine"; nproc; grep -m1 'model name' /proc/cpuinfo; uptime
# The number of models (what the sheet says it drew).
MODELS=$("$BIN" render --force -q "$CORPUS" --sheet "$OUT/sheet.png" 2>&1 | sed -n 's/^rendered \([0-9]*\).*/\1/p')
for j in 1 2; do
  for r in $(seq "$ROUNDS"); do
    hyperfine -N --warmup 1 --runs 5 --export-json "$OUT/j${j}_$r.json" \
      --prepare "rm -rf $OUT/sheet.png $OUT/glbout" \
      "$BIN render -q -j$j $CORPUS --sheet $OUT/sheet.png" \
      "$BIN convert -q -j$j --to glb --out-dir $OUT/glbout $CORPUS" > /dev/null 2>&1
  done
done
python3 - "$OUT" "$ROUNDS" "$MODELS" <<'PY'
import json, statistics as st, sys
out, rounds, models = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
print(f"== {rounds} rounds x 5 runs each, alternating; {models} models")
for j in (1, 2):
    rows = {}
    for r in range(1, rounds + 1):
        for res in json.load(open(f"{out}/j{j}_{r}.json"))["results"]:
            what = "sheet" if " render " in res["command"] else "convert"
            d = rows.setdefault(what, {"median": [], "min": [], "cpu": []})
            d["median"].append(res["median"])
            d["min"].append(res["min"])
            d["cpu"].append(res["user"] + res["system"])
    for what, d in rows.items():
        print(f"-j{j} {what:8s} wall median {st.median(d['median']):.3f} s, best {min(d['min']):.3f} s, "
              f"CPU (user+sys, median of rounds' means) {st.median(d['cpu']):.3f} s, "
              f"{models / st.median(d['median']):.0f} models/s")
    s, c = rows["sheet"], rows["convert"]
    print(f"-j{j} sheet / convert: wall median {st.median(s['median']) / st.median(c['median']):.2f}, "
          f"best {min(s['min']) / min(c['min']):.2f}, CPU {st.median(s['cpu']) / st.median(c['cpu']):.2f}")
PY
echo "== callgrind, -j1 (instructions)"
rm -rf "$OUT/sheet.png" "$OUT/glbout"
valgrind --tool=callgrind --callgrind-out-file="$OUT/cg.sheet" "$BIN" render -q -j1 "$CORPUS" --sheet "$OUT/sheet.png" 2>&1 >/dev/null | grep -E "Collected" | sed 's/^==[0-9]*==/sheet  /'
valgrind --tool=callgrind --callgrind-out-file="$OUT/cg.convert" "$BIN" convert -q -j1 --to glb --out-dir "$OUT/glbout" "$CORPUS" 2>&1 >/dev/null | grep -E "Collected" | sed 's/^==[0-9]*==/convert/'
