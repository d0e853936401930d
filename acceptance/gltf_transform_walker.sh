#!/usr/bin/env bash
# Writes what gltf-transform makes of the corpus's skinned Blender walker
# (gltf/blender_walker.glb, CC0, made by the project) into OUT_DIR, for the
# MS3D compiler's acceptance test (tests/ms3d_gltf_transform.rs):
#   walker_quantize.glb  KHR_mesh_quantization: positions as integers, the
#                        dequantisation folded into the skin's inverse bind
#                        matrices;
#   walker_meshopt.glb   quantized and EXT_meshopt_compression;
#   walker_sparse.glb    sparse accessors where they save space.
# Nothing derived from a model is committed: run at test time.
#   bash acceptance/gltf_transform_walker.sh OUT_DIR
# Needs npx (Node); @gltf-transform/cli is pinned below.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/.." && pwd)"
corpus="${RETROMODEL_CORPUS:-$root/../shared/corpus}"
out="${1:?usage: gltf_transform_walker.sh OUT_DIR}"
src="$corpus/gltf/blender_walker.glb"
test -f "$src" || { echo "missing $src" >&2; exit 1; }
mkdir -p "$out"
gt=(npx --yes @gltf-transform/cli@4.5.1)
"${gt[@]}" quantize "$src" "$out/walker_quantize.glb" >/dev/null
"${gt[@]}" meshopt "$src" "$out/walker_meshopt.glb" >/dev/null
"${gt[@]}" sparse "$src" "$out/walker_sparse.glb" >/dev/null
ls "$out"/walker_*.glb
