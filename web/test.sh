#!/usr/bin/env bash
# Builds the viewer (the library's WebAssembly + the page, web/dist/) and
# runs its browser tests in headless Chromium against the command line
# (web/tests/viewer.mjs). Needs: node + npm, rustup, /usr/bin/chromium
# (.ci/run installs it when missing) and the corpus (RETROMODEL_CORPUS);
# build-wasm.mjs adds the wasm32-unknown-unknown target and installs
# wasm-bindgen-cli of the crate's pinned version when they are missing.
set -euo pipefail
cd "$(dirname "$0")"
root=$(cd .. && pwd)
export RETROMODEL_CORPUS="${RETROMODEL_CORPUS:-$root/../shared/corpus}"
cargo build -p retromodel-cli --locked --manifest-path "$root/Cargo.toml"
export RETROMODEL_BIN="${CARGO_TARGET_DIR:-$root/target}/debug/retromodel"
npm ci --no-audit --no-fund
npm run build
node --test --test-concurrency=1 tests/viewer.mjs
