// Runs the Khronos glTF validator on .glb/.gltf files and prints a table:
// errors, warnings, infos and hints per file, then each distinct error and
// warning (code, count, first place, message). Exits 1 when any file has an
// error or cannot be validated; warnings are reported, not fatal.
//
//   cd acceptance && npm ci
//   node validate.mjs DIR_OR_FILE [DIR_OR_FILE ...]
//
// A directory stands for every .glb/.gltf in it. accept.sh runs this on the
// output of `cargo run -p retromodel-acceptance --bin gltf_accept`.
import { readFileSync, readdirSync, statSync } from "node:fs";
import { dirname, join, basename } from "node:path";
import validator from "gltf-validator";

const files = [];
for (const arg of process.argv.slice(2)) {
  if (statSync(arg).isDirectory()) {
    for (const f of readdirSync(arg).sort()) {
      if (/\.(glb|gltf)$/i.test(f)) files.push(join(arg, f));
    }
  } else {
    files.push(arg);
  }
}
if (files.length === 0) {
  console.error("usage: node validate.mjs DIR_OR_FILE...  (no .glb/.gltf given)");
  process.exit(2);
}

const rows = [];
const details = [];
let failed = 0;
for (const file of files) {
  let report;
  try {
    report = await validator.validateBytes(new Uint8Array(readFileSync(file)), {
      maxIssues: 0,
      externalResourceFunction: (uri) =>
        Promise.resolve(new Uint8Array(readFileSync(join(dirname(file), decodeURIComponent(uri))))),
    });
  } catch (e) {
    failed++;
    rows.push([basename(file), "FAILED", "", "", ""]);
    details.push(`${basename(file)}: validator threw: ${e?.message ?? e}`);
    continue;
  }
  const i = report.issues;
  rows.push([basename(file), i.numErrors, i.numWarnings, i.numInfos, i.numHints]);
  const seen = new Map();
  for (const m of i.messages) {
    if (m.severity > 1) continue; // errors (0) and warnings (1) only
    const key = `${m.severity === 0 ? "ERROR" : "warning"} ${m.code}`;
    if (!seen.has(key)) seen.set(key, { count: 0, pointer: m.pointer, message: m.message });
    seen.get(key).count++;
  }
  for (const [key, { count, pointer, message }] of seen) {
    details.push(`${basename(file)}: ${key} (${count}×), first at ${pointer}: ${message}`);
  }
  if (i.numErrors > 0) failed++;
}

const header = ["file", "errors", "warnings", "infos", "hints"];
const width = header.map((h, c) => Math.max(h.length, ...rows.map((r) => String(r[c]).length)));
const line = (r) => r.map((x, c) => (c === 0 ? String(x).padEnd(width[c]) : String(x).padStart(width[c]))).join("  ");
console.log(line(header));
for (const r of rows) console.log(line(r));
if (details.length) {
  console.log("\nerrors and warnings:");
  for (const d of details) console.log("  " + d);
}
const total = (c) => rows.reduce((s, r) => s + (Number(r[c]) || 0), 0);
console.log(
  `\nvalidator: ${files.length} files, ${failed} failing, ${total(1)} errors, ${total(2)} warnings, ${total(3)} infos, ${total(4)} hints`,
);
process.exit(failed > 0 ? 1 : 0);
