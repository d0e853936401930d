// Checks retromodel's MD2 compiler against three.js: for every file of
// md2_expectations.json (written by `md2_accept DIR FILE...`, see
// src/bin/md2_accept.rs), three.js's GLTFLoader + AnimationMixer poses the
// source glTF at each MD2 frame's time (skinning and morphing on the CPU:
// Mesh.getVertexPosition, then the world matrix), and every source vertex
// must be where the MD2 frame decodes it (mapped back to glTF's axes and
// units), within half the frame's grid step on each axis plus 1e-4 of the
// model's extent. Prints a table; exits 1 on any mismatch.
//
//   node md2_three.mjs DIR [EXPECTATIONS.json]
//
// (default md2_expectations.json; ms3d_accept writes ms3d_expectations.json
// in the same form, the MS3D skinned as MilkShape does, with half_step set
// so that the allowance is 1e-3 of the extent).
import { readFileSync } from "node:fs";
import { join } from "node:path";

import { THREE, loadGltf, poseAt, primitiveObjects } from "./three_node.mjs";

const RELATIVE_TOLERANCE = 1e-4;
const dir = process.argv[2];
if (!dir) {
  console.error("usage: node md2_three.mjs DIR  (DIR holds md2_expectations.json)");
  process.exit(2);
}
const expectations = process.argv[3] ?? "md2_expectations.json";
const { files } = JSON.parse(readFileSync(join(dir, expectations), "utf8"));

const rows = [];
const failures = [];
for (const entry of files) {
  const fail = (why) => failures.push(`${entry.file}: ${why}`);
  let gltf;
  try {
    gltf = await loadGltf(entry.file);
  } catch (e) {
    fail(`GLTFLoader failed: ${e?.message ?? e}`);
    continue;
  }
  gltf.scene.updateMatrixWorld(true);
  const objects = primitiveObjects(gltf);
  const found = entry.meshes.map((m) => objects.get(`${m.node}/${m.primitive}`));
  found.forEach((o, j) => {
    if (!o) fail(`mesh ${j} (${entry.meshes[j].name}): no three.js object`);
  });
  const slack = RELATIVE_TOLERANCE * Math.max(entry.extent, 1e-6);
  let worst = 0; // error over allowed
  let worstAt = "";
  let checks = 0;
  const v = new THREE.Vector3();
  for (const frame of entry.frames) {
    if (frame.animation !== null) {
      const clip = gltf.animations[frame.animation];
      // GLTFLoader names an unnamed animation `animation_INDEX`.
      const expected = frame.animation_name || `animation_${frame.animation}`;
      if (!clip || clip.name !== expected) {
        fail(`animation ${frame.animation}: three.js has ${clip?.name}, expected ${expected}`);
        continue;
      }
      poseAt(gltf, clip, frame.time);
    }
    entry.meshes.forEach((m, j) => {
      const o = found[j];
      if (!o) return;
      const p = frame.positions[j];
      for (let i = 0; i < m.vertices; i++) {
        if (p[3 * i] === null) continue; // a vertex no triangle uses
        o.getVertexPosition(i, v);
        v.applyMatrix4(o.matrixWorld);
        const got = [v.x, v.y, v.z];
        for (let k = 0; k < 3; k++) {
          const allowed = frame.half_step[k] + slack;
          const ratio = Math.abs(got[k] - p[3 * i + k]) / allowed;
          checks++;
          if (!(ratio <= worst)) {
            worst = Number.isNaN(ratio) ? Infinity : ratio;
            worstAt = `${frame.name} (t=${frame.time}) mesh ${j} vertex ${i} axis ${k}: three ${got[k].toFixed(5)}, MD2 ${p[3 * i + k].toFixed(5)}, allowed ${allowed.toExponential(2)}`;
          }
        }
      }
    });
  }
  const ok = worst <= 1;
  if (!ok) fail(`error ${worst.toFixed(3)}× the allowance at ${worstAt}`);
  rows.push([entry.file.replace(/^.*\//, ""), entry.frames.length, checks, worst.toFixed(3), ok ? "ok" : "MISMATCH"]);
}
const header = ["file", "frames", "axis checks", "worst / allowed", "result"];
const width = header.map((h, c) => Math.max(h.length, ...rows.map((r) => String(r[c]).length)));
const line = (r) => r.map((x, c) => (c === 0 ? String(x).padEnd(width[c]) : String(x).padStart(width[c]))).join("  ");
console.log(line(header));
for (const r of rows) console.log(line(r));
if (failures.length) {
  console.log("\nfailures:");
  for (const f of failures) console.log("  " + f);
}
console.log(`\nthree.js ${THREE.REVISION}: ${rows.length} files, ${failures.length} failures (allowed: half a grid step + ${RELATIVE_TOLERANCE} × extent)`);
process.exit(failures.length > 0 || rows.length === 0 ? 1 : 0);
