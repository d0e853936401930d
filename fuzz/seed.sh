#!/usr/bin/env bash
# Fills fuzz/corpus/<target>/ with seeds: the library's sample models and
# the model files of the shared test corpus ($RETROMODEL_CORPUS, by default
# ../shared/corpus beside the repository): *.md2 for the md2_* targets,
# *.ms3d for the ms3d_* targets. The corpus folder is git-ignored: model
# files must never be committed.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(dirname "$here")"
corpus="${RETROMODEL_CORPUS:-$root/../shared/corpus}"
targets=(md2_parse md2_roundtrip ms3d_parse ms3d_roundtrip)
dirs=()
for t in "${targets[@]}"; do dirs+=("$here/corpus/$t"); done
# The export target takes both formats: the sample models and every corpus
# model under 64 KiB (bigger ones would only slow it down).
dirs+=("$here/corpus/export" "$here/corpus/ms3d_ascii")
# The glTF importer: our exports of the sample models (written by
# write_sample), and the corpus's GLBs and assimp-testmodels' glTF files
# under 64 KiB (a .gltf with external buffers fails without a resource
# source, but its JSON is still a seed worth mutating).
dirs+=("$here/corpus/gltf_import")
cargo run --quiet --manifest-path "$here/Cargo.toml" --example write_sample -- "${dirs[@]}"
if [ -d "$corpus" ]; then
  for t in "${targets[@]}"; do
    d="$here/corpus/$t"
    ext="${t%%_*}" # md2_parse -> md2
    find "$corpus" -name "*.$ext" -type f -exec cp -n {} "$d/" \;
    echo "$d: $(ls "$d" | wc -l) seeds"
  done
  find "$corpus" \( -name '*.md2' -o -name '*.ms3d' \) -type f -size -64k -exec cp -n {} "$here/corpus/export/" \;
  # The MilkShape ASCII target takes the corpus's .txt models and, for its
  # binary half, the .ms3d files.
  d="$here/corpus/ms3d_ascii"
  find "$corpus/ms3d_ascii" -name '*.txt' -type f -exec cp -n {} "$d/" \;
  find "$corpus" -name '*.ms3d' -type f -size -64k -exec cp -n {} "$d/" \;
  echo "$d: $(ls "$d" | wc -l) seeds"
  echo "$here/corpus/export: $(ls "$here/corpus/export" | wc -l) seeds"
  find "$corpus" -name '*.glb' -type f -size -128k -exec cp -n {} "$here/corpus/gltf_import/" \;
  if [ -d /usr/share/assimp/models/glTF2 ]; then
    find /usr/share/assimp/models/glTF2 \( -name '*.glb' -o -name '*.gltf' \) -type f -size -64k \
      -exec sh -c 'cp -n "$1" "$2/assimp_$(basename "$(dirname "$1")")_$(basename "$1")"' _ {} "$here/corpus/gltf_import" \;
  fi
  echo "$here/corpus/gltf_import: $(ls "$here/corpus/gltf_import" | wc -l) seeds"
  # The MS3D compiler takes the glTF seeds and the small MS3D files.
  d="$here/corpus/gltf_to_ms3d"
  mkdir -p "$d"
  cp -n "$here/corpus/gltf_import/"* "$d/" 2>/dev/null || true
  find "$corpus" -name '*.ms3d' -type f -size -64k -exec cp -n {} "$d/" \;
  # And the hand-made skins of other tools' kinds (quantized, zero scale).
  cp -n "$root"/crates/retromodel/tests/regression/ms3d_compile_*.glb "$d/" 2>/dev/null || true
  # The project's own skinned test models: Blender's STEP/LINEAR/CUBICSPLINE
  # export and its eight-influence rig (tests/blender/*.py), and, where
  # npx is present, what gltf-transform makes of every corpus glTF and of
  # those fixtures (quantized, meshopt, sparse; fuzz/gltf_transform_seeds.sh).
  # Every compiler target takes them.
  skinned="$here/corpus/.skinned"
  mkdir -p "$skinned"
  cp -n "$root"/crates/retromodel/tests/fixtures/*.glb "$skinned/"
  if command -v npx >/dev/null; then
    bash "$here/gltf_transform_seeds.sh" "$skinned" ||
      echo "note: gltf-transform seeds not made" >&2
  fi
  find "$skinned" -name '*.glb' -size -128k -exec cp -n {} "$d/" \;
  echo "$d: $(ls "$d" | wc -l) seeds"
  # The MD2 compiler takes the glTF seeds and the small MD2 and MS3D files.
  d="$here/corpus/gltf_to_md2"
  mkdir -p "$d"
  cp -n "$here/corpus/gltf_import/"* "$d/" 2>/dev/null || true
  find "$corpus" \( -name '*.md2' -o -name '*.ms3d' \) -type f -size -64k -exec cp -n {} "$d/" \;
  find "$skinned" -name '*.glb' -size -128k -exec cp -n {} "$d/" \;
  echo "$d: $(ls "$d" | wc -l) seeds"
  # The MD5 compiler: the glTF seeds and the small MS3D files (an MD2 has
  # no joints to become); the md5meshes join below.
  d="$here/corpus/gltf_to_md5"
  mkdir -p "$d"
  cp -n "$here/corpus/gltf_import/"* "$d/" 2>/dev/null || true
  find "$corpus" -name '*.ms3d' -type f -size -64k -exec cp -n {} "$d/" \;
  find "$skinned" -name '*.glb' -size -128k -exec cp -n {} "$d/" \;
  echo "$d: $(ls "$d" | wc -l) seeds"
  # The MDL compiler: the glTF seeds, the small MD2, MS3D and MDL files.
  d="$here/corpus/gltf_to_mdl"
  mkdir -p "$d"
  cp -n "$here/corpus/gltf_import/"* "$d/" 2>/dev/null || true
  find "$corpus" \( -name '*.md2' -o -name '*.ms3d' -o -name '*.mdl' \) -type f -size -64k -exec cp -n {} "$d/" \;
  find "$skinned" -name '*.glb' -size -128k -exec cp -n {} "$d/" \;
  echo "$d: $(ls "$d" | wc -l) seeds"
  # The MD3 compiler: the glTF seeds, the small MD2 and MS3D files (the
  # MD3 seeds, made by the md3 targets' seeding, may be added by hand).
  d="$here/corpus/gltf_to_md3"
  mkdir -p "$d"
  cp -n "$here/corpus/gltf_import/"* "$d/" 2>/dev/null || true
  find "$corpus" \( -name '*.md2' -o -name '*.ms3d' \) -type f -size -64k -exec cp -n {} "$d/" \;
  find "$skinned" -name '*.glb' -size -128k -exec cp -n {} "$d/" \;
  echo "$d: $(ls "$d" | wc -l) seeds"
  # The MDL targets: the corpus's MDL files (all under 64 KiB and the
  # rest, which seed deep frame lists).
  for t in mdl_parse mdl_roundtrip; do
    d="$here/corpus/$t"
    mkdir -p "$d"
    find "$corpus/mdl" -name '*.mdl' -type f -exec cp -n {} "$d/" \;
    echo "$d: $(ls "$d" | wc -l) seeds"
  done
else
  echo "note: no corpus at $corpus; seeded with the sample models only" >&2
fi
# The MD3 targets (and the MD3 compiler): OpenArena's MD3 files under
# 64 KiB, taken out of Debian's openarena-data pk3s when installed (never
# committed).
baseoa="${RETROMODEL_OPENARENA:-/usr/share/games/openarena/baseoa}"
if [ -f "$baseoa/pak0.pk3" ]; then
  for t in md3_parse md3_roundtrip gltf_to_md3; do
    d="$here/corpus/$t"
    mkdir -p "$d"
    python3 - "$d" "$baseoa"/*.pk3 <<'PY'
import os, sys, zipfile
out = sys.argv[1]
for pak in sys.argv[2:]:
    with zipfile.ZipFile(pak) as z:
        for i in z.infolist():
            if i.filename.lower().endswith(".md3") and i.file_size < 64 * 1024:
                name = i.filename.replace("/", "_")
                path = os.path.join(out, name)
                if not os.path.exists(path):
                    with open(path, "wb") as f:
                        f.write(z.read(i))
PY
    echo "$d: $(ls "$d" | wc -l) seeds"
  done
fi
# md5_parse: assimp-testmodels' md5meshes, when installed (Debian
# assimp-testmodels); the testkit rig joins them as mesh\0anim\0scale from
# `MD5_RIG_DIR=DIR cargo test -p retromodel --test md5_rig dump_rig`.
mkdir -p "$here/corpus/md5_parse"
if [ -d /usr/share/assimp/models/MD5 ]; then
  find /usr/share/assimp/models/MD5 -name '*.md5mesh' -type f -exec cp -n {} "$here/corpus/md5_parse/" \;
fi
if [ -d "$here/corpus/gltf_to_md5" ]; then
  find "$here/corpus/md5_parse" -name '*.md5mesh' -type f -exec cp -n {} "$here/corpus/gltf_to_md5/" \;
fi
# IQM: the corpus's IQM files (raylib's guy and guyanim, lsalzman's mrfixit)
# for the IQM targets, with the glTF seeds for gltf_to_iqm; IQE: our own
# CC0 sources of the reference comparison (crates/retromodel/tests/data/).
for t in iqm_parse iqm_roundtrip gltf_to_iqm iqe_parse; do mkdir -p "$here/corpus/$t"; done
if [ -d "$corpus/iqm" ]; then
  for t in iqm_parse iqm_roundtrip gltf_to_iqm; do
    find "$corpus/iqm" -name '*.iqm' -type f -exec cp -n {} "$here/corpus/$t/" \;
  done
fi
cp -n "$here/corpus/gltf_import/"* "$here/corpus/gltf_to_iqm/" 2>/dev/null || true
cp -n "$root"/crates/retromodel/tests/data/iqm_reference/*.iqe "$here/corpus/iqe_parse/"
for t in iqm_parse iqm_roundtrip gltf_to_iqm iqe_parse; do echo "$here/corpus/$t: $(ls "$here/corpus/$t" | wc -l) seeds"; done
