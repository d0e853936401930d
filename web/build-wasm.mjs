// Builds the library's WebAssembly module for the page: cargo (release,
// wasm32-unknown-unknown) then wasm-bindgen (--target web) into src/pkg/,
// which vite bundles. It brings what it needs itself, so `npm run serve`
// works on a fresh machine (CI takes the same path, .ci/run):
// - the wasm32-unknown-unknown standard library: `rustup target add` when
//   it is missing (as crates/retromodel-py/wheels.sh adds its targets);
// - wasm-bindgen-cli of exactly the version the crate pins
//   (crates/retromodel-wasm/Cargo.toml): `cargo install --debug` when it is
//   missing or another version (a debug build: 1 minute to compile instead
//   of 5 to 11 for release, and the same output; it runs 2 s on the
//   viewer's module instead of 0.5 s).
// When it cannot, it stops with one line naming the command to run.
import { execFileSync } from 'node:child_process';
import { readFileSync, readdirSync, mkdirSync, existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { dirname, join, delimiter } from 'node:path';
import { homedir } from 'node:os';

const TARGET = 'wasm32-unknown-unknown';
const web = dirname(fileURLToPath(import.meta.url));
const root = join(web, '..');
const manifest = readFileSync(join(root, 'crates/retromodel-wasm/Cargo.toml'), 'utf8');
const pinned = /wasm-bindgen = "=([0-9.]+)"/.exec(manifest)?.[1];
if (!pinned) stop('crates/retromodel-wasm/Cargo.toml pins no wasm-bindgen version (wasm-bindgen = "=x.y.z")');
const installCommand = `cargo install wasm-bindgen-cli --version ${pinned} --locked --force --debug`;

/** Prints one line and ends the build with a failure. */
function stop(line) {
  console.error(`build-wasm: ${line}`);
  process.exit(1);
}

function run(cmd, args, options = {}) {
  if (!options.quiet) console.log(`> ${cmd} ${args.join(' ')}`);
  return execFileSync(cmd, args, { cwd: root, stdio: options.capture ? 'pipe' : 'inherit', encoding: 'utf8' });
}

/** Whether the toolchain cargo will use here has the standard library for TARGET. */
function hasTargetStd() {
  let libdir;
  try {
    libdir = run('rustc', ['--print', 'target-libdir', '--target', TARGET], { capture: true, quiet: true }).trim();
  } catch {
    return false;
  }
  return existsSync(libdir) && readdirSync(libdir).some((name) => name.startsWith('libcore-'));
}

function onPath(cmd) {
  return (process.env.PATH ?? '').split(delimiter).some((dir) => dir && existsSync(join(dir, cmd)));
}

// 1. The wasm32 standard library (without it: "can't find crate for `std`").
if (!hasTargetStd()) {
  if (!onPath('rustup')) {
    stop(`the Rust standard library for ${TARGET} is missing and there is no rustup to add it: install it with your Rust (rustup target add ${TARGET})`);
  }
  try {
    run('rustup', ['target', 'add', TARGET]);
  } catch {
    stop(`could not add the ${TARGET} target; run: rustup target add ${TARGET}`);
  }
  if (!hasTargetStd()) stop(`rustup added ${TARGET} but rustc still has no standard library for it; run: rustup target add ${TARGET}`);
}

// 2. wasm-bindgen-cli of the pinned version: on PATH, or where cargo installs it.
const installBin = process.env.CARGO_INSTALL_ROOT
  ? join(process.env.CARGO_INSTALL_ROOT, 'bin')
  : join(process.env.CARGO_HOME ?? join(homedir(), '.cargo'), 'bin');
const candidates = ['wasm-bindgen', join(installBin, 'wasm-bindgen')];

/** The first wasm-bindgen of the pinned version, and the versions seen. */
function findWasmBindgen() {
  const seen = [];
  for (const cmd of candidates) {
    try {
      const version = run(cmd, ['--version'], { capture: true, quiet: true }).trim();
      if (version === `wasm-bindgen ${pinned}`) return { cmd, seen };
      seen.push(`${cmd} is ${version}`);
    } catch {
      // absent here
    }
  }
  return { cmd: null, seen };
}

let { cmd: wasmBindgen, seen } = findWasmBindgen();
if (!wasmBindgen) {
  console.log(`build-wasm: wasm-bindgen ${pinned} (the version crates/retromodel-wasm pins) is not installed${seen.length ? ` (${seen.join(', ')})` : ''}; installing it`);
  try {
    run('cargo', installCommand.split(' ').slice(1));
  } catch {
    stop(`could not install wasm-bindgen ${pinned}; run: ${installCommand}`);
  }
  ({ cmd: wasmBindgen } = findWasmBindgen());
  if (!wasmBindgen) stop(`installed wasm-bindgen ${pinned} but found it neither on PATH nor in ${installBin}; put that folder on PATH`);
}

// 3. The `wasm` profile (Cargo.toml: release with LTO); SIMD128, which every
// browser with WebAssembly SIMD (all current ones) runs.
process.env.CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUSTFLAGS ??= '-C target-feature=+simd128';
try {
  run('cargo', ['build', '-p', 'retromodel-wasm', '--target', TARGET, '--profile', 'wasm', '--locked']);
} catch {
  stop('cargo could not build crates/retromodel-wasm (its messages are above)');
}
const target = process.env.CARGO_TARGET_DIR ?? join(root, 'target');
const out = join(web, 'src/pkg');
mkdirSync(out, { recursive: true });
try {
  run(wasmBindgen, [
    '--target', 'web',
    '--no-typescript',
    '--out-dir', out,
    join(target, `${TARGET}/wasm/retromodel_wasm.wasm`),
  ]);
} catch {
  stop('wasm-bindgen failed (its messages are above)');
}
