#!/usr/bin/env bash
# Converts every corpus model (and the sample) with a retromodel binary in
# every way the CLI offers, and keeps every output file, every message and
# every exit status in one folder, so that two builds can be compared byte
# for byte:
#   bash tools/snapshot_outputs.sh OUT_DIR [RETROMODEL_BINARY]
#   diff -r OLD_DIR NEW_DIR
# Used to show that a refactoring changes no output.
set -uo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/.." && pwd)"
corpus="${RETROMODEL_CORPUS:-$root/../shared/corpus}"
out="${1:?usage: snapshot_outputs.sh OUT_DIR [RETROMODEL_BINARY]}"
cli="${2:-$root/target/release/retromodel}"
mkdir -p "$out"
out="$(cd "$out" && pwd)"

# run NAME ARGS...: runs the CLI in $out/NAME.d, keeps stdout, stderr and
# the exit status (paths in messages are made relative to the corpus).
run() {
  local name="$1"; shift
  local dir="$out/$name.d"
  mkdir -p "$dir"
  # $PRE: files to create first (to see that they are not replaced).
  (cd "$dir" && for f in ${PRE:-}; do echo keep >"$f"; done && "$cli" "$@" >stdout 2>stderr; echo $? >status)
  sed -i -e "s#$corpus#CORPUS#g" -e "s#$root#ROOT#g" -e "s#$dir#OUT#g" "$dir/stdout" "$dir/stderr"
}

models=("$root/examples/models/sample.md2")
while IFS= read -r f; do models+=("$f"); done < <(find "$corpus/md2" "$corpus/ms3d" "$corpus/gametrees" -type f \( -iname '*.md2' -o -iname '*.ms3d' \) | sort)

for m in "${models[@]}"; do
  rel="${m#"$corpus"/}"; rel="${rel#"$root"/}"
  key="$(echo "$rel" | tr '/' '_')"
  ext="${m##*.}"; ext="${ext,,}"
  run "$key.info" info "$m"
  run "$key.info-json" info --json "$m"
  run "$key.validate" validate "$m"
  run "$key.validate-strict" validate --strict "$m"
  run "$key.glb" convert "$m" out.glb
  run "$key.gltf" convert "$m" out.gltf
  run "$key.obj" convert "$m" out.obj
  run "$key.q" convert --quantize "$m" out.glb
  run "$key.qc" convert --quantize --compress "$m" out.glb
  run "$key.qc-gltf" convert --quantize --compress "$m" out.gltf
  run "$key.c" convert --compress "$m" out.glb
  run "$key.self" convert "$m" "out.$ext"
  if [ "$ext" = md2 ]; then
    run "$key.original" convert --layout original "$m" out.md2
    run "$key.repair" convert --repair "$m" out.md2
    run "$key.obj-frame" convert --frame 1 "$m" out.obj
    run "$key.obj-anim" convert --anim stand --frame 2 "$m" out.obj
    run "$key.bad-time" convert --time 1 "$m" out.obj
    run "$key.bad-clip" convert --clip a:0-1 "$m" out.glb
  else
    run "$key.obj-time" convert --time 0.5 "$m" out.obj
    run "$key.obj-time2" convert --time 2.25 "$m" out.obj
    run "$key.clip" convert --clip a:0-5 --clip b:3-10.5 "$m" out.glb
    run "$key.bad-frame" convert --frame 1 "$m" out.obj
  fi
  # Refusals: an existing output, and options that do not apply.
  PRE="out.glb" run "$key.exists" convert "$m" out.glb
  PRE="out.bin" run "$key.exists-bin" convert "$m" out.gltf
  run "$key.frame-glb" convert --frame 1 "$m" out.glb
done

# Batch mode over the corpus, with 1 job so that messages keep their order.
run batch-glb convert "$corpus" --out-dir batch --to glb --jobs 1 --quiet
run batch-obj convert "$corpus/ms3d" --out-dir batch --to obj --jobs 1 --quiet --clip x:0-2
run batch-again convert "$corpus/md2" --out-dir batch --to glb --jobs 1 --quiet
sh -c 'cd "$1" && find . -type f | sort | xargs sha256sum' _ "$out" > "$out.sha256"
echo "snapshot: $(find "$out" -type f | wc -l) files in $out; checksums in $out.sha256"
