#!/usr/bin/env bash
# Acceptance checks of the glTF exporter, run by .ci/run:
#   1. exports every corpus model (md2/, ms3d/, gametrees/) to GLB (MD2 also
#      quantized) with expectations.json from the library's own decoding and
#      skinning (`gltf_accept`, src/bin/gltf_accept.rs);
#   2. Khronos glTF-Validator on every GLB and on three .gltf exports with
#      their .bin and PNG files (validate.mjs): no errors;
#   2b. every skin of every GLB and .gltf: its joints have one common root
#      (skin_roots.mjs, which walks the node tree itself: the validator's
#      check depends on the joints' order);
#   3. three.js GLTFLoader + AnimationMixer (three.mjs): morphed and skinned
#      positions match the expectations within 1e-4 × extent; and three.js
#      loads the .gltf exports (gltf_files.mjs) as the same models as their
#      .glb;
#      Four models exported with --quantize --compress (EXT_meshopt_compression)
#      validate too, and three.js (with MeshoptDecoder) loads each as exactly
#      the model exported with --quantize alone;
#   3b. the glTF importer (import_accept, src/bin/import_accept.rs) and
#      three.js (import_three.mjs) give the same triangles and the same
#      posed vertices (1e-4 × extent) for Blender's exports in the corpus and
#      Khronos sample files from assimp-testmodels;
#   3c. MD2s compiled from glTF (md2_accept) match three.js's poses of the
#      source frame by frame (md2_three.mjs), pass validate --strict
#      --engine quake2, and load in assimp and Maverick Model 3D with the
#      same counts;
#   3d. `retromodel render` against three.js in Debian's Chromium (headless,
#      WebGL on SwiftShader; render_accept.sh, render_three.mjs,
#      render_compare): alpha-mask IoU >= 0.97 and mean colour difference
#      <= 8/255 for sample, faerie, sydney, jeep1 and Woman4 (two times) in
#      several views, and a mirrored skin must fail the colour bound;
#   3d. MS3Ds compiled from glTF (the CLI) pass validate --strict --engine
#      milkshape and load in assimp and Maverick with the same counts
#      (ms3d-peers); skinned ones (ms3d_accept) match three.js's skinned
#      positions of the source within 1e-3 of the extent (ms3d-three.js),
#      and a rig with LINEAR, STEP and CUBICSPLINE actions does at every
#      1/30 s and halfway between (ms3d_compile_keys, ms3d-keys-three.js);
#   3e. gltf-transform's quantize/meshopt/sparse versions of the walker
#      compiled to MS3D against three.js at every 1/30 s
#      (tests/ms3d_gltf_transform.rs);
#   3f. IQMs converted by the CLI skinned by three.js against the IQM's own
#      frames evaluated from its bytes (iqm_three.mjs);
#   4. assimp (when installed) imports every GLB (not the --compress ones:
#      assimp 5.2 has no EXT_meshopt_compression).
# Needs node/npm and cargo. Exits non-zero when any check fails.
#   bash acceptance/accept.sh [OUT_DIR]
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/.." && pwd)"
corpus="${RETROMODEL_CORPUS:-$root/../shared/corpus}"
out="${1:-$(mktemp -d)}"
mkdir -p "$out"
results=()
status=0
record() { results+=("$1: $2"); [ "$2" = ok ] || status=1; }

for d in md2 ms3d gametrees; do
  test -d "$corpus/$d" || { echo "corpus folder missing: $corpus/$d"; exit 1; }
done
command -v node >/dev/null && command -v npm >/dev/null || { echo "node and npm are needed"; exit 1; }

echo "--- npm ci (pinned gltf-validator and three)"
(cd "$here" && npm ci --no-audit --no-fund --loglevel=error)

echo "--- export GLBs and expectations to $out"
(cd "$root" && cargo build --release --locked -p retromodel-acceptance --bin gltf_accept)
"${CARGO_TARGET_DIR:-$root/target}/release/gltf_accept" "$out" \
  "$corpus/md2" "$corpus/ms3d" "$corpus/gametrees"
shopt -s nullglob
glbs=("$out"/*.glb)
[ "${#glbs[@]}" -gt 0 ] || { echo "no GLB written"; exit 1; }

echo "--- .gltf (+ .bin + PNG files) and .glb of three models, by the CLI"
(cd "$root" && cargo build --release --locked -p retromodel-cli)
cli="${CARGO_TARGET_DIR:-$root/target}/release/retromodel"
mkdir -p "$out/gltf" "$out/gltf-glb"
gltf_pairs=()
for spec in "$root/examples/models/sample.md2|sample md2" \
            "$corpus/ms3d/assimpdeb_jeep1.ms3d|jeep1" \
            "$corpus/ms3d/nehe_lesson31_Model.ms3d|nehe_lesson31"; do
  src="${spec%%|*}"; name="${spec#*|}"
  "$cli" convert --force "$src" "$out/gltf/$name.gltf"
  "$cli" convert --force "$src" "$out/gltf-glb/$name.glb"
  gltf_pairs+=("$out/gltf/$name.gltf" "$out/gltf-glb/$name.glb")
done
ls "$out/gltf"

echo "--- --quantize --compress (EXT_meshopt_compression) and --quantize GLBs of four models, by the CLI"
mkdir -p "$out/meshopt" "$out/meshopt-ref"
meshopt_pairs=()
for spec in "$root/examples/models/sample.md2|sample" \
            "$corpus/md2/assimpdeb_faerie.md2|faerie" \
            "$corpus/ms3d/assimpdeb_jeep1.ms3d|jeep1" \
            "$corpus/ms3d/glscene_Woman4.ms3d|Woman4"; do
  src="${spec%%|*}"; name="${spec#*|}"
  "$cli" convert --force --quantize --compress "$src" "$out/meshopt/$name.qc.glb" 2>/dev/null
  "$cli" convert --force --quantize "$src" "$out/meshopt-ref/$name.q.glb" 2>/dev/null
  meshopt_pairs+=("$out/meshopt/$name.qc.glb" "$out/meshopt-ref/$name.q.glb")
done
# and as .gltf (+ .bin + PNGs): buffer 0 in the .bin, the fallback buffer without a file
"$cli" convert --force --quantize --compress "$root/examples/models/sample.md2" "$out/meshopt/sample.qc.gltf" 2>/dev/null
meshopt_pairs+=("$out/meshopt/sample.qc.gltf" "$out/meshopt-ref/sample.q.glb")
ls -l "$out/meshopt" "$out/meshopt-ref"

echo "--- Khronos glTF-Validator"
if node "$here/validate.mjs" "$out" "$out/gltf" "$out/meshopt"; then record validator ok; else record validator FAILED; fi

echo "--- every skin's joints have one common root (checked here, not by the validator)"
if node "$here/skin_roots.mjs" "$out" "$out/gltf" "$out/meshopt" | grep -v "^ok "; then record skin-roots ok; else record skin-roots FAILED; fi

echo "--- three.js"
if node "$here/three.mjs" "$out"; then record three.js ok; else record three.js FAILED; fi
echo "--- three.js: each .gltf (with its .bin and PNGs) loads as the same model as its .glb"
if node "$here/gltf_files.mjs" "${gltf_pairs[@]}"; then record gltf-files ok; else record gltf-files FAILED; fi
echo "--- three.js: each --compress GLB (MeshoptDecoder) loads as the same model as the uncompressed one"
if node "$here/gltf_files.mjs" "${meshopt_pairs[@]}"; then record meshopt ok; else record meshopt FAILED; fi

echo "--- three.js: retromodel's glTF importer (import_accept + Pose) poses Blender's and Khronos' files as three.js does"
# Blender 3.4's exports from the corpus, and glTF sample files of Debian's
# assimp-testmodels when installed (strips and fans, a morphed cube, an
# engine of 115 primitives with matrix nodes, texture transforms). Not
# simple_skin.gltf: its rotation keys are rounded to 3 decimals (not unit
# length), which three.js slerps as they are and glTF (and Pose) normalise.
(cd "$root" && cargo build --release --locked -p retromodel-acceptance --bin import_accept)
import_files=("$corpus/gltf/blender_walker.glb" "$corpus/gltf/blender_shapekeys.glb" "$corpus/gltf/blender_objects.gltf")
assimp_gltf=/usr/share/assimp/models/glTF2
if [ -d "$assimp_gltf" ]; then
  import_files+=("$assimp_gltf/glTF-Sample-Models/AnimatedMorphCube-glTF/AnimatedMorphCube.gltf"
                 "$assimp_gltf/2CylinderEngine-glTF-Binary/2CylinderEngine.glb"
                 "$assimp_gltf/textureTransform/TextureTransformTest.gltf"
                 "$assimp_gltf/BoxTextured-glTF-Binary/BoxTextured.glb")
  for m in 04 05 06 11 12 13 14 15; do
    import_files+=("$assimp_gltf/glTF-Asset-Generator/Mesh_PrimitiveMode/Mesh_PrimitiveMode_$m.gltf")
  done
fi
mkdir -p "$out/import"
if "${CARGO_TARGET_DIR:-$root/target}/release/import_accept" "$out/import" "${import_files[@]}" &&
   node "$here/import_three.mjs" "$out/import"; then record import-three.js ok; else record import-three.js FAILED; fi

echo "--- MD2 compiler: three.js poses each source glTF where the MD2 frames are (md2_accept + md2_three.mjs)"
# Every frame of every MD2 compiled from Blender's exports and the
# animated and multi-primitive samples: every source vertex within half
# a grid step (+ 1e-4 of the extent) of three.js's skinned, morphed,
# node-animated position. Each MD2 is then checked by our validator
# (--strict --engine quake2: no problem at all) and loaded by assimp and
# Maverick Model 3D with the same triangle count (and, for Maverick, the
# same vertex count; assimp splits vertices by texture coordinate).
(cd "$root" && cargo build --release --locked -p retromodel-acceptance --bin md2_accept)
md2_files=("$corpus/gltf/blender_walker.glb" "$corpus/gltf/blender_shapekeys.glb" "$corpus/gltf/blender_objects.gltf")
if [ -d "$assimp_gltf" ]; then
  # Every sample with geometry that fits Quake II's limits (2CylinderEngine
  # and ClearCoat have 121,496 and 37,116 triangles: refused, the limit
  # named), among them a skin (simple_skin,
  # unnamed animation), texture transforms and every primitive mode.
  md2_files+=("$assimp_gltf/glTF-Sample-Models/AnimatedMorphCube-glTF/AnimatedMorphCube.gltf"
              "$assimp_gltf/BoxTextured-glTF-Binary/BoxTextured.glb"
              "$assimp_gltf/BoxTexcoords-glTF/boxTexcoords.gltf"
              "$assimp_gltf/textureTransform/TextureTransformTest.gltf"
              "$assimp_gltf/simple_skin/simple_skin.gltf")
  for m in 04 05 06 11 12 13 14 15; do
    md2_files+=("$assimp_gltf/glTF-Asset-Generator/Mesh_PrimitiveMode/Mesh_PrimitiveMode_$m.gltf")
  done
fi
mkdir -p "$out/md2"
if "${CARGO_TARGET_DIR:-$root/target}/release/md2_accept" "$out/md2" "${md2_files[@]}" &&
   node "$here/md2_three.mjs" "$out/md2"; then record md2-three.js ok; else record md2-three.js FAILED; fi
peers=ok
for f in "$out"/md2/*.md2; do
  name=$(basename "$f")
  "$cli" validate --strict --engine quake2 "$f" >/dev/null || { echo "FAILED validate --strict --engine quake2 $name"; peers=FAILED; }
  tris=$(python3 -c 'import struct,sys; print(struct.unpack("<17i", open(sys.argv[1],"rb").read(68))[8])' "$f")
  verts=$(python3 -c 'import struct,sys; print(struct.unpack("<17i", open(sys.argv[1],"rb").read(68))[6])' "$f")
  if command -v assimp >/dev/null 2>&1; then
    faces=$(assimp info "$f" 2>/dev/null | awk '/^Faces:/ {print $2; exit}')
    [ "$faces" = "$tris" ] || { echo "FAILED assimp $name: $faces faces, the MD2 has $tris triangles"; peers=FAILED; }
  fi
  if command -v mm3d >/dev/null 2>&1; then
    rm -rf "$out/mm3d" && mkdir -p "$out/mm3d" && cp "$f" "$out/mm3d/"
    (cd "$out/mm3d" && QT_QPA_PLATFORM=offscreen timeout 120 mm3d --batch --convert obj "$name" >/dev/null 2>&1)
    obj="$out/mm3d/${name%.md2}.obj"
    mv=$(grep -c '^v ' "$obj" 2>/dev/null || echo 0); mf=$(grep -c '^f ' "$obj" 2>/dev/null || echo 0)
    [ "$mv" = "$verts" ] && [ "$mf" = "$tris" ] ||
      { echo "FAILED mm3d $name: $mv vertices, $mf faces; the MD2 has $verts and $tris"; peers=FAILED; }
  fi
  echo "checked  $name: $verts vertices, $tris triangles (validator, assimp, Maverick Model 3D)"
done
record md2-peers "$peers"

echo "--- MS3D compiler: Blender's exports converted to .ms3d by the CLI load in assimp and Maverick Model 3D"
# convert X.glb X.ms3d (ms3d::compile: the skinned walker, the node-animated
# objects, the shape-keyed mesh written at its default weights); each MS3D
# passes validate --strict --engine milkshape (MilkShape 1.8's limits) and
# loads in assimp with the same triangle count (assimp splits vertices by
# normal and texture coordinate) and in Maverick Model 3D with the same
# vertex and triangle counts, read from the MS3D's own header.
peers=ok
mkdir -p "$out/ms3d"
ms3d_sources=("$corpus/gltf/blender_walker.glb" "$corpus/gltf/blender_objects.gltf" "$corpus/gltf/blender_shapekeys.glb")
[ -d "$assimp_gltf" ] && ms3d_sources+=("$assimp_gltf/simple_skin/simple_skin.gltf")
for f in "${ms3d_sources[@]}"; do
  name=$(basename "${f%.*}").ms3d
  ms3d="$out/ms3d/$name"
  "$cli" convert --force "$f" "$ms3d" 2>"$out/ms3d/$name.log" || { cat "$out/ms3d/$name.log"; echo "FAILED convert $name"; peers=FAILED; continue; }
  "$cli" validate --strict --engine milkshape "$ms3d" >/dev/null || { echo "FAILED validate --strict --engine milkshape $name"; peers=FAILED; }
  read -r verts tris < <(python3 -c 'import struct,sys; b=open(sys.argv[1],"rb").read(); v=struct.unpack_from("<H",b,14)[0]; print(v, struct.unpack_from("<H",b,16+15*v)[0])' "$ms3d")
  if command -v assimp >/dev/null 2>&1; then
    faces=$(assimp info "$ms3d" 2>/dev/null | awk '/^Faces:/ {print $2; exit}')
    [ "$faces" = "$tris" ] || { echo "FAILED assimp $name: $faces faces, the MS3D has $tris triangles"; peers=FAILED; }
  fi
  if command -v mm3d >/dev/null 2>&1; then
    rm -rf "$out/ms3d/mm3d" && mkdir -p "$out/ms3d/mm3d" && cp "$ms3d" "$out/ms3d/mm3d/"
    (cd "$out/ms3d/mm3d" && QT_QPA_PLATFORM=offscreen timeout 120 mm3d --batch --convert obj "$name" >/dev/null 2>&1)
    obj="$out/ms3d/mm3d/${name%.ms3d}.obj"
    mv=$(grep -c '^v ' "$obj" 2>/dev/null || echo 0); mf=$(grep -c '^f ' "$obj" 2>/dev/null || echo 0)
    [ "$mv" = "$verts" ] && [ "$mf" = "$tris" ] ||
      { echo "FAILED mm3d $name: $mv vertices, $mf faces; the MS3D has $verts and $tris"; peers=FAILED; }
  fi
  echo "checked  $name: $verts vertices, $tris triangles (validator, assimp, Maverick Model 3D)"
done
record ms3d-peers "$peers"

echo "--- MS3D compiler: three.js's skinned positions of each skinned source glTF against the MS3D as MilkShape skins it (ms3d_accept + md2_three.mjs)"
# Blender's skinned walker and assimp-testmodels' simple_skin: every source
# vertex at every 1/30 s of every animation and halfway between within 1e-3
# of the extent (the
# script's "half a grid step" is set to 9e-4 x extent by ms3d_accept).
(cd "$root" && cargo build --release --locked -p retromodel-acceptance --bin ms3d_accept)
skinned=("$corpus/gltf/blender_walker.glb")
[ -d "$assimp_gltf" ] && skinned+=("$assimp_gltf/simple_skin/simple_skin.gltf")
mkdir -p "$out/ms3d-three"
if "${CARGO_TARGET_DIR:-$root/target}/release/ms3d_accept" "$out/ms3d-three" "${skinned[@]}" &&
   node "$here/md2_three.mjs" "$out/ms3d-three" ms3d_expectations.json; then record ms3d-three.js ok; else record ms3d-three.js FAILED; fi

echo "--- MS3D compiler: LINEAR, STEP and CUBICSPLINE actions of a skinned rig against three.js (ms3d_compile_keys + ms3d_three.mjs)"
# The test builds the rig (retromodel-testkit rig_gltf), compiles it,
# evaluates the MS3D with its own evaluator written from MS3D.md and has
# ms3d_three.mjs compare with three.js at every 1/30 s and halfway between
# (1e-3 of the extent; the bind pose 1e-5). CI=1: it may not skip.
if (cd "$root" && CI=1 cargo test --locked -p retromodel --test ms3d_compile_keys -- --nocapture); then
  record ms3d-keys-three.js ok
else
  record ms3d-keys-three.js FAILED
fi

echo "--- MS3D compiler: gltf-transform's quantize, meshopt and sparse walkers against three.js (tests/ms3d_gltf_transform.rs)"
# gltf_transform_walker.sh makes them with the pinned @gltf-transform/cli;
# skin_three.mjs poses them (MeshoptDecoder) at every 1/30 s of every clip:
# the MS3D as MilkShape skins it within 1e-3 of the extent, its bind pose
# within 1e-5 of three.js's rest pose, and no scale taken for motion.
if (cd "$root" && CI=1 cargo test --release --locked -p retromodel-acceptance --test ms3d_gltf_transform); then
  record ms3d-gltf-transform ok
else
  record ms3d-gltf-transform FAILED
fi

echo "--- IQM: the CLI's .glb skinned by three.js against the IQM's own frames (iqm_three.mjs)"
# lsalzman's mrfixit (idle) and raylib's guy (jump, dance): every corner
# of every triangle at a few frames within 1e-4 of the extent of the
# vertex the IQM's bytes give, evaluated by iqm_three.mjs itself (iqm.txt:
# channels, T·R·S, world · inverse bind world, ubyte weights / 255).
mkdir -p "$out/iqm"
iqm=ok
for spec in "lsalzman_mrfixit|idle" "raylib_guy|jump" "raylib_guy|dance"; do
  name="${spec%%|*}"; anim="${spec#*|}"
  "$cli" convert --force "$corpus/iqm/$name.iqm" "$out/iqm/$name.glb" 2>/dev/null &&
    node "$here/iqm_three.mjs" "$corpus/iqm/$name.iqm" "$out/iqm/$name.glb" "$anim" 2>&1 | grep -v "^THREE.GLTFLoader: Couldn't load texture" ||
    { echo "FAILED $name $anim"; iqm=FAILED; }
done
record iqm-three.js "$iqm"

echo "--- retromodel render against three.js in Chromium (render_accept.sh: alpha-mask IoU, colours, a mirrored-skin control)"
(cd "$root" && cargo build --release --locked -p retromodel-acceptance --bin render_compare)
if command -v "${CHROMIUM:-/usr/bin/chromium}" >/dev/null 2>&1; then
  if bash "$here/render_accept.sh" "$cli" "$out"; then record render-three.js ok; else record render-three.js FAILED; fi
else
  echo "chromium not installed"
  record render-three.js "FAILED (chromium not installed)"
fi

echo "--- assimp"
if command -v assimp >/dev/null 2>&1; then
  # GLBs of models with nothing to draw have no mesh: assimp refuses those
  # ("No meshes"), as expected. Quantized GLBs (.q.glb) must import too:
  # assimp 5.2 does not know KHR_mesh_quantization, but the exporter keeps
  # base positions as floats so the mesh still imports (only the morph
  # targets are integers).
  empty=$(node -e 'for (const m of JSON.parse(require("fs").readFileSync(process.argv[1], "utf8")).models)
    for (const g of m.glbs) if (m.meshes.length === 0) console.log(g.file)' "$out/expectations.json")
  bad=0
  for f in "${glbs[@]}"; do
    name=$(basename "$f")
    if log=$(assimp info "$f" 2>&1) && grep -q "Meshes:" <<<"$log"; then
      echo "ok       $name:$(grep -m1 "Meshes:" <<<"$log" | tr -s ' ')"
    elif grep -qxF "$name" <<<"$empty"; then
      echo "expected $name: no mesh to import ($(grep -m1 ERROR <<<"$log" || true))"
    else
      echo "FAILED   $name:"; grep -v '%$' <<<"$log" | tail -n 5 | sed 's/^/    /'
      bad=$((bad + 1))
    fi
  done
  echo "assimp: ${#glbs[@]} GLBs, $bad failed"
  if [ "$bad" -eq 0 ]; then record assimp ok; else record assimp FAILED; fi
else
  echo "assimp not installed: skipped"
  results+=("assimp: skipped (not installed)")
fi

echo
echo "=== glTF acceptance summary (${#glbs[@]} GLBs in $out)"
printf '  %s\n' "${results[@]}"
exit "$status"
