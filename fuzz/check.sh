#!/usr/bin/env bash
# Keeps the fuzz targets from rotting: builds them on stable Rust and runs
# each once over the saved regression inputs (no fuzzing). Every target gets
# every saved input, whatever its format: no target may crash on any input.
# Called by CI.
#
#   bash fuzz/check.sh
#
# With cargo-fuzz installed it builds exactly what `cargo fuzz run -s none`
# runs (libFuzzer with coverage instrumentation); without it, a plain cargo
# build of the same binaries (libfuzzer-sys links libFuzzer either way, the
# targets just run uninstrumented), so CI needs nothing beyond cargo.
# FUZZ_CHECK_PLAIN=1 forces the plain build.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(dirname "$here")"
inputs="$root/crates/retromodel/tests/regression"
targets=(md2_parse md2_roundtrip mdl_parse mdl_roundtrip md3_parse md3_roundtrip ms3d_parse ms3d_roundtrip ms3d_ascii texture_decode export gltf_import gltf_to_ms3d gltf_to_md2 gltf_to_md5 gltf_to_mdl gltf_to_md3 md5_parse iqm_parse iqm_roundtrip gltf_to_iqm iqe_parse)

if [ -z "${FUZZ_CHECK_PLAIN:-}" ] && cargo fuzz --version >/dev/null 2>&1; then
  echo "fuzz/check.sh: cargo fuzz build -s none"
  (cd "$here" && cargo fuzz build -s none)
  host="$(rustc -vV | sed -n 's/^host: //p')"
  bin_dir="$here/target/$host/release"
else
  echo "fuzz/check.sh: plain cargo build (cargo-fuzz not installed or FUZZ_CHECK_PLAIN set)"
  cargo build --locked --manifest-path "$here/Cargo.toml" --bins
  bin_dir="$here/target/debug"
fi

for t in "${targets[@]}"; do
  # -runs=0 runs every file of the folder once and fuzzes nothing.
  "$bin_dir/$t" -runs=0 "$inputs" >"$here/target/check-$t.log" 2>&1 || {
    cat "$here/target/check-$t.log" >&2
    echo "fuzz/check.sh: $t failed on $inputs" >&2
    exit 1
  }
  echo "fuzz/check.sh: $t ok ($(grep -c . <(ls "$inputs")) saved inputs replayed)"
done
