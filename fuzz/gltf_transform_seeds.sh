#!/usr/bin/env bash
# Writes what gltf-transform makes of every glTF in the shared corpus
# ($RETROMODEL_CORPUS/gltf) and of the project's own Blender fixtures
# (crates/retromodel/tests/fixtures/*.glb) into OUT_DIR, as seeds for the
# compiler fuzz targets (gltf_to_md2, gltf_to_ms3d, gltf_to_md5):
#   NAME_quantize.glb  KHR_mesh_quantization (integer positions, normals,
#                      texture coordinates, joints and weights);
#   NAME_meshopt.glb   quantized and EXT_meshopt_compression (filtered
#                      animation outputs among them);
#   NAME_sparse.glb    sparse accessors where they save space (morph targets).
# A .gltf with external buffers is first packed into one .glb (`copy`).
# Nothing derived from a model is committed: fuzz/corpus is git-ignored.
#   bash fuzz/gltf_transform_seeds.sh OUT_DIR
# Needs npx (Node); @gltf-transform/cli is pinned as in acceptance/.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(dirname "$here")"
corpus="${RETROMODEL_CORPUS:-$root/../shared/corpus}"
out="${1:?usage: gltf_transform_seeds.sh OUT_DIR}"
mkdir -p "$out"
gt=(npx --yes @gltf-transform/cli@4.5.1)
made=0
for src in "$corpus"/gltf/*.glb "$corpus"/gltf/*.gltf "$root"/crates/retromodel/tests/fixtures/*.glb; do
  [ -f "$src" ] || continue
  name="$(basename "${src%.*}")"
  glb="$out/$name.glb"
  # The source itself, as one .glb (resolves a .gltf's external buffer).
  [ -f "$glb" ] || "${gt[@]}" copy "$src" "$glb" >/dev/null
  for op in quantize meshopt sparse; do
    dst="$out/${name}_$op.glb"
    [ -f "$dst" ] && continue
    if "${gt[@]}" "$op" "$glb" "$dst" >/dev/null 2>&1; then
      made=$((made + 1))
    else
      echo "note: gltf-transform $op failed on $name" >&2
    fi
  done
done
echo "$out: $made gltf-transform outputs"
