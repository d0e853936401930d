// Poses a glTF exported from a Quake MDL in three.js (GLTFLoader +
// AnimationMixer, morphing on the CPU through Mesh.getVertexPosition) at
// the times a JSON file names, and compares every vertex with the
// positions the caller decoded from the MDL's bytes itself.
//
//   node mdl_three.mjs CASES.json
//
// CASES.json: {"file": "x.glb", "tolerance": 1e-4,
//              "cases": [{"animation": "name", "time": 0.1,
//                         "positions": [x, y, z, ...]}]}
// Prints one line per case and exits 1 on any mismatch.
import { readFileSync } from "node:fs";

import { THREE, loadGltf, poseAt, primitiveObjects } from "./three_node.mjs";

const spec = JSON.parse(readFileSync(process.argv[2], "utf8"));
const gltf = await loadGltf(spec.file);
const objects = [...primitiveObjects(gltf).values()];
if (objects.length !== 1) {
  console.error(`expected one mesh, three.js has ${objects.length}`);
  process.exit(1);
}
const mesh = objects[0];
const v = new THREE.Vector3();
let failed = 0;
for (const c of spec.cases) {
  const clip = gltf.animations.find((a) => a.name === c.animation);
  if (!clip) {
    console.log(`${c.animation}: no such animation in three.js`);
    failed++;
    continue;
  }
  poseAt(gltf, clip, c.time);
  let worst = 0;
  const n = c.positions.length / 3;
  for (let i = 0; i < n; i++) {
    mesh.getVertexPosition(i, v);
    v.applyMatrix4(mesh.matrixWorld);
    const got = [v.x, v.y, v.z];
    for (let k = 0; k < 3; k++) {
      const d = Math.abs(got[k] - c.positions[3 * i + k]);
      if (!(d <= worst)) worst = Number.isNaN(d) ? Infinity : d;
    }
  }
  const ok = worst <= spec.tolerance;
  if (!ok) failed++;
  console.log(`${c.animation} t=${c.time}: ${n} vertices, worst ${worst.toExponential(2)} ${ok ? "ok" : "MISMATCH"}`);
}
process.exit(failed ? 1 : 0);
