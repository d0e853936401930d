#!/usr/bin/env bash
# Builds the retromodel wheels the Blender add-on ships, all on Linux, one
# abi3 wheel (CPython 3.9+, so every Blender from 4.2 on Python 3.11 to 5.1+
# on 3.13) per platform, with maturin and zig as the linker (no MinGW, no
# Apple SDK: the module is pure Rust):
#   manylinux_2_28_x86_64, win_amd64, macosx_11_0_arm64, macosx_10_12_x86_64
# into target/retromodel-py/dist/, then checks them without running them
# (check_wheels.py: tags, file type and CPU, imports, abi3audit, same
# version and names, the `retromodel` command's entry point) and installs
# the Linux one in a fresh venv, imports it and runs its `retromodel` command.
#   bash crates/retromodel-py/wheels.sh
# RETROMODEL_SDIST_CHECK=1 also builds the sdist and pip-installs it into a
# fresh venv (compiling it from source, slow) and imports it.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
python=${PYTHON:-python3}
work="$repo/target/retromodel-py"
dist="$work/dist"
tools="$work/tools-venv"
export CARGO_BUILD_JOBS="${CARGO_BUILD_JOBS:-2}"
version=$(sed -n 's/^version = "\(.*\)"/\1/p' "$repo/Cargo.toml" | head -n 1)

# maturin with zig (PyPI's ziglang), abi3audit and pefile for the checks.
if [ ! -x "$tools/bin/abi3audit" ]; then
  rm -rf "$tools"
  "$python" -m venv "$tools"
  "$tools/bin/python" -m pip install -q --disable-pip-version-check \
    "$(grep '^maturin==' "$here/requirements-build.txt" | sed 's/maturin/maturin[zig]/')" \
    ziglang==0.17.1 abi3audit==0.0.26 pefile==2024.8.26
fi
# maturin finds zig as `python3 -m ziglang` on PATH.
export PATH="$tools/bin:$PATH"
rustup target add x86_64-pc-windows-gnu aarch64-apple-darwin x86_64-apple-darwin >/dev/null 2>&1 || true

rm -rf "$dist"
mkdir -p "$dist"
build() { # TARGET [MATURIN ARGS...]
  local target=$1 started
  shift
  started=$(date +%s)
  echo "--- $target"
  "$tools/bin/maturin" build --quiet --release --locked --zig --target "$target" "$@" \
    --manifest-path "$here/Cargo.toml" --out "$dist"
  echo "--- $target built in $(( $(date +%s) - started )) s"
  # CI's disk is small and its clone fresh: each target's build goes once used.
  if [ "${CI:-}" = true ]; then rm -rf "$repo/target/$target"; fi
}
build x86_64-unknown-linux-gnu --compatibility manylinux_2_28
# Under CI the Windows and macOS modules, which CI checks but cannot run
# (tags, file type and CPU, imports, abi3audit, the command's entry point:
# none depends on how hard the compiler optimised), are built at
# opt-level 1: 164 s against 192 s for the Windows module from nothing
# (measured 2026-12-06), about 85 s of CI for the three; the Linux module,
# which the Python and Blender tests run, and every wheel built outside CI
# (a release) keep the release profile's full optimisation.
if [ "${CI:-}" = true ]; then export CARGO_PROFILE_RELEASE_OPT_LEVEL=1; fi
build x86_64-pc-windows-gnu
# --strip (symbols and line tables out: the module shrinks ~10 times) is
# tried with zig for macOS only so far; the Linux and Windows modules keep
# theirs (wheels of 9.6 and 12.6 MB).
MACOSX_DEPLOYMENT_TARGET=11.0 build aarch64-apple-darwin --strip
MACOSX_DEPLOYMENT_TARGET=10.12 build x86_64-apple-darwin --strip
ls -l "$dist"

"$tools/bin/python" "$here/check_wheels.py" "$dist" "$version" "$here/retromodel.pyi"

# The Linux wheel installs and imports in a fresh venv, outside the source tree.
venv="$work/wheel-venv"
rm -rf "$venv"
"$python" -m venv "$venv"
"$venv/bin/python" -m pip install -q --disable-pip-version-check "$dist"/retromodel-*-manylinux_2_28_x86_64.whl
(cd "$work" && "$venv/bin/python" -c "import retromodel, sys; assert retromodel.__version__ == sys.argv[1], retromodel.__version__; print('imported', retromodel.__file__, retromodel.__version__)" "$version")
# The command it installs (pip's console script) runs the command line.
said=$(cd "$work" && "$venv/bin/retromodel" --version)
[ "$said" = "retromodel $version" ] || { echo "installed retromodel --version said: $said" >&2; exit 1; }
corpus="${RETROMODEL_CORPUS:-$repo/../shared/corpus}"
(cd "$work" && "$venv/bin/retromodel" info "$corpus/md2/assimpdeb_sydney.md2" >/dev/null) ||
  { echo "installed retromodel info failed ($?)" >&2; exit 1; }
status=0
(cd "$work" && "$venv/bin/retromodel" info --no-such-flag 2>/dev/null) || status=$?
[ "$status" = 2 ] || { echo "installed retromodel: a usage error gave status $status, not 2" >&2; exit 1; }
echo "installed command: $said; info ran, a usage error gave 2"

if [ "${RETROMODEL_SDIST_CHECK:-0}" = 1 ]; then
  # `pip install retromodel` where no wheel fits: pip builds the sdist.
  "$tools/bin/maturin" sdist --manifest-path "$here/Cargo.toml" --out "$work/sdist"
  sdist=$(ls "$work"/sdist/retromodel-"$version".tar.gz)
  venv="$work/sdist-venv"
  rm -rf "$venv"
  "$python" -m venv "$venv"
  "$venv/bin/python" -m pip install -q --disable-pip-version-check "$sdist"
  (cd "$work" && "$venv/bin/python" -c "import retromodel, sys; assert retromodel.__version__ == sys.argv[1]; print('sdist installed and imported', retromodel.__file__)" "$version")
fi
