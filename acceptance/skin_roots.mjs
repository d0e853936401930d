// Checks what glTF 2.0 asks of every skin ("joints ... must have a common
// root") in .glb/.gltf files, without the Khronos validator, whose
// SKIN_NO_COMMON_ROOT check depends on the order of the joints: for every
// skin, walking up from each joint through the nodes' `children` lists
// must end at one and the same node, a root of the default scene; the
// skin's `skeleton`, when given, must lie above or at every joint. Prints
// a line per file with skins; exits 1 on the first file that fails.
//
//   node skin_roots.mjs DIR_OR_FILE [DIR_OR_FILE ...]
import { readFileSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";

function json(file) {
  const bytes = readFileSync(file);
  if (!file.toLowerCase().endsWith(".glb")) return JSON.parse(bytes.toString("utf8"));
  // GLB: 12-byte header, then the JSON chunk (length, type, data).
  const length = bytes.readUInt32LE(12);
  return JSON.parse(bytes.subarray(20, 20 + length).toString("utf8"));
}

const files = [];
for (const arg of process.argv.slice(2)) {
  if (statSync(arg).isDirectory()) {
    for (const f of readdirSync(arg).sort()) if (/\.(glb|gltf)$/i.test(f)) files.push(join(arg, f));
  } else files.push(arg);
}
if (files.length === 0) {
  console.error("usage: node skin_roots.mjs DIR_OR_FILE...");
  process.exit(2);
}

let failed = 0;
let skins = 0;
for (const file of files) {
  const doc = json(file);
  const nodes = doc.nodes ?? [];
  const parent = new Array(nodes.length).fill(-1);
  nodes.forEach((n, i) => (n.children ?? []).forEach((c) => (parent[c] = i)));
  const top = (n) => {
    for (let k = 0; k <= nodes.length && parent[n] >= 0; k++) n = parent[n];
    return n;
  };
  const ancestors = (n) => {
    const out = new Set([n]);
    for (let k = 0; k <= nodes.length && parent[n] >= 0; k++) out.add((n = parent[n]));
    return out;
  };
  const sceneRoots = new Set(doc.scenes?.[doc.scene ?? 0]?.nodes ?? []);
  (doc.skins ?? []).forEach((skin, s) => {
    skins++;
    const tops = [...new Set(skin.joints.map(top))];
    let why = "";
    if (tops.length !== 1) why = `joints below ${tops.length} roots (${tops.join(", ")})`;
    else if (!sceneRoots.has(tops[0])) why = `root ${tops[0]} is not in the scene`;
    else if (skin.skeleton !== undefined && !skin.joints.every((j) => ancestors(j).has(skin.skeleton)))
      why = `skeleton ${skin.skeleton} is not above every joint`;
    if (why) {
      console.log(`FAILED ${file}: skin ${s}: ${why}`);
      failed++;
    } else {
      console.log(`ok     ${file}: skin ${s}: ${skin.joints.length} joints under node ${tops[0]} (${nodes[tops[0]].name ?? ""})`);
    }
  });
}
console.log(`skin roots: ${files.length} files, ${skins} skins, ${failed} failed`);
process.exit(failed ? 1 : 0);
