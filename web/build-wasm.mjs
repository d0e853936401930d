// Builds the library's WebAssembly module for the page: cargo (release,
// wasm32-unknown-unknown) then wasm-bindgen (--target web) into src/pkg/,
// which vite bundles. Needs the wasm32 target and wasm-bindgen-cli of
// exactly the version the crate pins (crates/retromodel-wasm/Cargo.toml).
import { execFileSync } from 'node:child_process';
import { readFileSync, mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';

const web = dirname(fileURLToPath(import.meta.url));
const root = join(web, '..');
const manifest = readFileSync(join(root, 'crates/retromodel-wasm/Cargo.toml'), 'utf8');
const pinned = /wasm-bindgen = "=([0-9.]+)"/.exec(manifest)?.[1];
if (!pinned) throw new Error('crates/retromodel-wasm/Cargo.toml: no pinned wasm-bindgen version');

function run(cmd, args, options = {}) {
  console.log(`> ${cmd} ${args.join(' ')}`);
  return execFileSync(cmd, args, { cwd: root, stdio: options.capture ? 'pipe' : 'inherit', encoding: 'utf8' });
}

let version = '';
try {
  version = run('wasm-bindgen', ['--version'], { capture: true }).trim();
} catch {
  throw new Error(`wasm-bindgen not found: cargo install wasm-bindgen-cli --version ${pinned} --locked`);
}
if (!version.endsWith(` ${pinned}`)) {
  throw new Error(`${version}, but the crate pins ${pinned}: cargo install wasm-bindgen-cli --version ${pinned} --locked --force`);
}
// The `wasm` profile (Cargo.toml: release with LTO); SIMD128, which every
// browser with WebAssembly SIMD (all current ones) runs.
process.env.CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUSTFLAGS ??= '-C target-feature=+simd128';
run('cargo', ['build', '-p', 'retromodel-wasm', '--target', 'wasm32-unknown-unknown', '--profile', 'wasm', '--locked']);
const target = process.env.CARGO_TARGET_DIR ?? join(root, 'target');
const out = join(web, 'src/pkg');
mkdirSync(out, { recursive: true });
run('wasm-bindgen', [
  '--target', 'web',
  '--no-typescript',
  '--out-dir', out,
  join(target, 'wasm32-unknown-unknown/wasm/retromodel_wasm.wasm'),
]);
