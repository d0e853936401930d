#!/usr/bin/env bash
# Compiles every corpus model to MD2 in the ways the compiler offers and
# keeps every output, report and exit status in one folder, so that two
# builds can be compared byte for byte (a speed change must change no
# output):
#   bash tools/snapshot_compiles.sh OUT_DIR [RETROMODEL_BINARY]
#   diff -r OLD_DIR NEW_DIR
# Cases: each glTF and OBJ of corpus/gltf and each MS3D with --grid frame,
# animation and model (PNG skins) and for UFO:AI at 5 fps; each MD2 through our .glb and back, with
# and without --player (for UFO:AI, whose limits most corpus models fit).
set -uo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/.." && pwd)"
corpus="${RETROMODEL_CORPUS:-$root/../shared/corpus}"
out="${1:?usage: snapshot_compiles.sh OUT_DIR [RETROMODEL_BINARY]}"
cli="$(realpath "${2:-$root/target/release/retromodel}")"
mkdir -p "$out"
out="$(cd "$out" && pwd)"
run() {
  local name="$1"; shift
  local dir="$out/$name.d"
  mkdir -p "$dir"
  (cd "$dir" && "$cli" "$@" >stdout 2>stderr; echo $? >status)
  sed -i -e "s#$corpus#CORPUS#g" -e "s#$dir#OUT#g" -e "s#$out#SNAP#g" "$dir/stdout" "$dir/stderr"
}
cases=0
while IFS= read -r m; do
  key="$(basename "$m")"
  for grid in frame animation model; do
    run "$key.$grid" convert --grid "$grid" --skin-format png --json "$m" out.md2
    cases=$((cases + 1))
  done
  run "$key.ufoai" convert --engine ufoai --fps 5 --skin-format png --json "$m" out.md2
  cases=$((cases + 1))
done < <(find "$corpus/gltf" "$corpus/ms3d" -type f \( -iname '*.glb' -o -iname '*.gltf' -o -iname '*.obj' -o -iname '*.ms3d' \) | sort)
while IFS= read -r m; do
  key="$(basename "$m")"
  mkdir -p "$out/$key.glb.d"
  (cd "$out/$key.glb.d" && "$cli" convert "$m" in.glb >/dev/null 2>&1)
  if [ -f "$out/$key.glb.d/in.glb" ]; then
    run "$key.back" convert --engine ufoai --json "$out/$key.glb.d/in.glb" out.md2
    run "$key.player" convert --engine ufoai --player --json "$out/$key.glb.d/in.glb" out.md2
    cases=$((cases + 2))
  fi
done < <(find "$corpus/md2" -type f -iname '*.md2' | sort)
sh -c 'cd "$1" && find . -type f | sort | xargs sha256sum' _ "$out" > "$out.sha256"
echo "snapshot: $cases compile cases, $(find "$out" -type f | wc -l) files in $out; checksums in $out.sha256"
