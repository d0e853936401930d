#!/usr/bin/env bash
# Two builds of retromodel, in the same run: whole-process conversion of
# one MD2 (faerie, 198 frames) and one MS3D (Woman4, 31 joints) to .glb,
# and batch conversion of the corpus with --jobs 1 and 2. The builds
# alternate (hyperfine runs them in turn, over 6 rounds), so a noisy VM
# slows both alike. Used to show that a refactoring costs no speed:
#   bash bench/compare_builds.sh OLD_BINARY NEW_BINARY
set -u
old="${1:?usage: compare_builds.sh OLD_BINARY NEW_BINARY}"
new="${2:?usage: compare_builds.sh OLD_BINARY NEW_BINARY}"
corpus="${RETROMODEL_CORPUS:-$(dirname "$0")/../../shared/corpus}"
out=$(mktemp -d)
# The batch input: the corpus's MD2 and MS3D models (both builds read
# those; newer builds also read glTF and OBJ, which would be more work).
mkdir -p "$out/in"
cp -r "$corpus/md2" "$corpus/ms3d" "$corpus/gametrees" "$out/in/"
echo "== machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2), load $(cut -d' ' -f1-3 /proc/loadavg)"
for model in md2/assimpdeb_faerie.md2 ms3d/glscene_Woman4.ms3d; do
  name=$(basename "$model")
  for r in 1 2 3 4 5 6; do
    hyperfine -N --warmup 3 --runs 30 --export-json "$out/$name.$r.json" \
      --prepare "rm -f $out/old.glb $out/new.glb" \
      "$old convert $corpus/$model $out/old.glb" \
      "$new convert $corpus/$model $out/new.glb" >/dev/null 2>&1
  done
done
for j in 1 2; do
  for r in 1 2 3; do
    hyperfine --warmup 1 --runs 5 -i --export-json "$out/batch$j.$r.json" \
      "$old convert $out/in --out-dir $out/batch-old --to glb --force --quiet --jobs $j" \
      "$new convert $out/in --out-dir $out/batch-new --to glb --force --quiet --jobs $j" >/dev/null 2>&1
  done
done
python3 - "$out" <<'PY'
import glob, json, statistics as st, sys
out = sys.argv[1]
def rounds(prefix):
    files = sorted(glob.glob(f"{out}/{prefix}.*.json"))
    return [[st.median(r["times"]) * 1e3 for r in json.load(open(f))["results"]] for f in files]
for label, prefix in [("faerie.md2 -> .glb", "assimpdeb_faerie.md2"),
                      ("Woman4.ms3d -> .glb", "glscene_Woman4.ms3d"),
                      ("corpus batch --jobs 1", "batch1"), ("corpus batch --jobs 2", "batch2")]:
    rs = rounds(prefix)
    a = st.median(r[0] for r in rs); b = st.median(r[1] for r in rs)
    print(f"{label:24s} old {a:8.2f} ms  new {b:8.2f} ms  new/old {b / a:.3f}  "
          f"(rounds: {' '.join(f'{r[1] / r[0]:.2f}' for r in rs)})")
PY
rm -rf "$out"
