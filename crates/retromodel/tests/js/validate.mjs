// Runs the Khronos glTF validator on .glb/.gltf files and prints a summary
// per file; exits 1 when any file has errors.
//
//   cd crates/retromodel/tests/js && npm install
//   node validate.mjs FILE.glb [FILE.glb ...]
//
// The GLB files come from the `export_gltf` example:
//   cargo run -p retromodel --example export_gltf -- OUT_DIR MODEL...
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import validator from "gltf-validator";

let failed = 0;
for (const file of process.argv.slice(2)) {
  const bytes = new Uint8Array(readFileSync(file));
  const report = await validator.validateBytes(bytes, {
    maxIssues: 0,
    externalResourceFunction: (uri) =>
      Promise.resolve(new Uint8Array(readFileSync(join(dirname(file), decodeURIComponent(uri))))),
  });
  const i = report.issues;
  console.log(`${file}: ${i.numErrors} errors, ${i.numWarnings} warnings, ${i.numInfos} infos, ${i.numHints} hints`);
  const seen = new Map();
  for (const m of i.messages) {
    if (m.severity > 1) continue; // errors (0) and warnings (1) only
    const key = `${m.severity === 0 ? "error" : "warning"} ${m.code}`;
    if (!seen.has(key)) seen.set(key, { count: 0, pointer: m.pointer, message: m.message });
    seen.get(key).count++;
  }
  for (const [key, { count, pointer, message }] of seen) {
    console.log(`  ${key} (${count}×), first at ${pointer}: ${message}`);
  }
  if (i.numErrors > 0) failed++;
}
process.exit(failed > 0 ? 1 : 0);
