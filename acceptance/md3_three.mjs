// Poses a Quake III player exported to glTF in three.js (GLTFLoader +
// AnimationMixer) at the times a JSON file names, and compares the world
// position of a node (the `head` part) with the position the caller
// computed from the MD3 files' tags itself.
//
//   node md3_three.mjs CASES.json
//
// CASES.json: {"file": "x.glb", "node": "head", "tolerance": 1e-3,
//              "cases": [{"animation": "name", "time": 0.1,
//                         "position": [x, y, z]}]}
// Prints one line per animation and exits 1 on any mismatch.
import { readFileSync } from "node:fs";

import { THREE, loadGltf, poseAt } from "./three_node.mjs";

const spec = JSON.parse(readFileSync(process.argv[2], "utf8"));
const gltf = await loadGltf(spec.file);
const index = gltf.parser.json.nodes.findIndex((n) => n.name === spec.node);
let object = null;
gltf.scene.traverse((o) => {
  if (gltf.parser.associations.get(o)?.nodes === index && !o.isMesh) object ??= o;
});
if (!object) {
  console.log(`no node ${spec.node} in three.js`);
  process.exit(1);
}
// A new mixer leaves what a clip does not animate where the last clip
// put it: every case starts from the file's rest pose, as glTF has it.
const rest = [];
gltf.scene.traverse((o) => rest.push([o, o.position.clone(), o.quaternion.clone(), o.scale.clone()]));
const v = new THREE.Vector3();
const worst = new Map();
let failed = 0;
for (const c of spec.cases) {
  const clip = gltf.animations.find((a) => a.name === c.animation);
  if (!clip) {
    console.log(`${c.animation}: no such animation in three.js`);
    failed++;
    continue;
  }
  for (const [o, p, q, s] of rest) {
    o.position.copy(p);
    o.quaternion.copy(q);
    o.scale.copy(s);
  }
  poseAt(gltf, clip, c.time);
  object.getWorldPosition(v);
  const d = Math.max(...[v.x, v.y, v.z].map((x, k) => Math.abs(x - c.position[k])));
  worst.set(c.animation, Math.max(worst.get(c.animation) ?? 0, d));
  if (!(d <= spec.tolerance)) {
    console.log(`${c.animation} at ${c.time}: ${spec.node} at ${[v.x, v.y, v.z]}, expected ${c.position}`);
    failed++;
  }
}
for (const [name, d] of worst) console.log(`${name}: worst ${d.toExponential(2)}`);
process.exit(failed ? 1 : 0);
