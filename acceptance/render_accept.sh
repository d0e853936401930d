#!/usr/bin/env bash
# `retromodel render` against three.js (accept.sh's render-three.js step):
# each case is drawn by our CLI (mostly unlit: texture x colour, so the
# colours compare without either renderer's lighting; one lit) and, from our GLB of the same
# model with the camera the PNG's tEXt chunk and `--verbose` give, by
# three.js in Debian's Chromium (render_three.mjs, WebGL on SwiftShader,
# one browser launch); render_compare then requires an alpha-mask IoU of
# at least 0.97 and a mean colour difference inside both silhouettes under
# its stated bound (a mirrored texture fails it) for every case.
#   bash acceptance/render_accept.sh CLI OUT_DIR
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/.." && pwd)"
corpus="${RETROMODEL_CORPUS:-$root/../shared/corpus}"
cli="$1"
out="$2/render"
mkdir -p "$out"
cases="$out/cases.json"
echo "[" >"$cases"
first=1
# name | model | convert and render options (texture) | render options
# (size, shading, view, moment)
while IFS='|' read -r name model tex opts; do
  [ -n "$name" ] || continue
  glb="$out/$name.glb"
  # shellcheck disable=SC2086
  "$cli" convert --force $tex "$model" "$glb" 2>/dev/null
  # shellcheck disable=SC2086
  "$cli" render --force -v $tex $opts "$model" "$out/$name.png" >"$out/$name.json" 2>/dev/null
  [ "$first" = 1 ] || echo "," >>"$cases"
  first=0
  printf '{"name":"%s","glb":"%s","info":"%s","ours":"%s","out":"%s"}\n' \
    "$name" "$glb" "$out/$name.json" "$out/$name.png" "$out/$name.three.rgba" >>"$cases"
done <<CASES
sample-front|$root/examples/models/sample.md2||--size 256 --unlit --view front
sample-run|$root/examples/models/sample.md2||--size 256 --unlit --anim run --time 0.25 --view three-quarter
faerie-stand|$corpus/md2/assimpdeb_faerie.md2|--skin $corpus/md2/faerie2.bmp|--size 256 --unlit --anim stand --time 0.35
faerie-back|$corpus/md2/assimpdeb_faerie.md2|--skin $corpus/md2/faerie2.bmp|--size 256 --unlit --view back
sydney-left|$corpus/md2/assimpdeb_sydney.md2|--skin $corpus/md2/sydney.bmp|--size 256 --unlit --view left
jeep1|$corpus/ms3d/assimpdeb_jeep1.ms3d||--size 256 --unlit --view three-quarter
jeep1-top|$corpus/ms3d/assimpdeb_jeep1.ms3d||--size 256 --unlit --view top
woman4-t1|$corpus/ms3d/glscene_Woman4.ms3d||--size 512 --unlit --time 1.5 --view front
faerie-lit|$corpus/md2/assimpdeb_faerie.md2|--skin $corpus/md2/faerie2.bmp|--size 256 --anim stand --time 0.35 --view front
woman4-t40|$corpus/ms3d/glscene_Woman4.ms3d||--size 512 --time 40 --view right
CASES
# The negative control: three.js draws faerie with its skin mirrored left to
# right; the silhouettes must match and the colours must not.
"${CARGO_TARGET_DIR:-$root/target}/release/render_compare" flip "$corpus/md2/faerie2.bmp" "$out/faerie2.mirrored.png"
"$cli" convert --force --skin "$out/faerie2.mirrored.png" "$corpus/md2/assimpdeb_faerie.md2" "$out/faerie-mirrored.glb" 2>/dev/null
printf ',{"name":"faerie-stand","mirrored":true,"glb":"%s","info":"%s","ours":"%s","out":"%s"}\n' \
  "$out/faerie-mirrored.glb" "$out/faerie-stand.json" "$out/faerie-stand.png" "$out/faerie-mirrored.three.rgba" >>"$cases"
echo "]" >>"$cases"
node "$here/render_three.mjs" "$cases"
"${CARGO_TARGET_DIR:-$root/target}/release/render_compare" "$cases"
