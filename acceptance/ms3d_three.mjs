// Checks MS3Ds compiled from glTF against three.js: for every file of the
// expectations (written by the test `ms3d_compile_keys.rs` of the library,
// or anything in the same form), three.js's GLTFLoader + AnimationMixer
// poses the source glTF at each frame's time (skinning on the CPU:
// Mesh.getVertexPosition, then the world matrix; a frame with animation
// null is the rest pose, checked before any animation is played), and
// every source vertex must be within `allowed` (a distance) of where the
// MS3D puts it, as an evaluator written from MS3D.md skinned it. Prints
// the worst error per file as a fraction of its extent; exits 1 on any
// mismatch.
//
//   node ms3d_three.mjs EXPECTATIONS.json
import { readFileSync } from "node:fs";

import { THREE, loadGltf, poseAt, primitiveObjects } from "./three_node.mjs";

const path = process.argv[2];
if (!path) {
  console.error("usage: node ms3d_three.mjs EXPECTATIONS.json");
  process.exit(2);
}
const { files } = JSON.parse(readFileSync(path, "utf8"));

const failures = [];
for (const entry of files) {
  const fail = (why) => failures.push(`${entry.file}: ${why}`);
  const gltf = await loadGltf(entry.file);
  gltf.scene.updateMatrixWorld(true);
  const objects = primitiveObjects(gltf);
  const found = entry.meshes.map((m) => objects.get(`${m.node}/${m.primitive}`));
  found.forEach((o, j) => {
    if (!o) fail(`mesh ${j} (${entry.meshes[j].name}): no three.js object`);
  });
  const v = new THREE.Vector3();
  const worst = new Map(); // clip name -> [error / extent, where]
  let checks = 0;
  for (const frame of entry.frames) {
    const clipName = frame.animation === null ? "(rest)" : frame.animation_name;
    if (frame.animation !== null) {
      const clip = gltf.animations[frame.animation];
      if (!clip || clip.name !== frame.animation_name) {
        fail(`animation ${frame.animation}: three.js has ${clip?.name}, expected ${frame.animation_name}`);
        continue;
      }
      poseAt(gltf, clip, frame.time);
    }
    entry.meshes.forEach((m, j) => {
      const o = found[j];
      if (!o) return;
      const p = frame.positions[j];
      for (let i = 0; i < m.vertices; i++) {
        if (p[3 * i] === null) continue;
        o.getVertexPosition(i, v);
        v.applyMatrix4(o.matrixWorld);
        const d = Math.hypot(v.x - p[3 * i], v.y - p[3 * i + 1], v.z - p[3 * i + 2]);
        checks++;
        const prev = worst.get(clipName) ?? [0, ""];
        if (!(d / entry.extent <= prev[0])) {
          worst.set(clipName, [Number.isNaN(d) ? Infinity : d / entry.extent, `t=${frame.time} mesh ${j} vertex ${i}`]);
        }
        if (!(d <= frame.allowed)) {
          fail(`${clipName} t=${frame.time} mesh ${j} vertex ${i}: three.js (${v.x.toFixed(5)}, ${v.y.toFixed(5)}, ${v.z.toFixed(5)}), MS3D (${p.slice(3 * i, 3 * i + 3).map((x) => x.toFixed(5)).join(", ")}), ${(d / entry.extent).toExponential(2)} of the extent`);
        }
      }
    });
  }
  for (const [clip, [e, at]] of worst) {
    console.log(`${entry.file.replace(/^.*\//, "")} ${clip}: worst ${e.toExponential(2)} of the extent at ${at}`);
  }
  console.log(`${entry.file.replace(/^.*\//, "")}: ${entry.frames.length} times, ${checks} vertex checks`);
}
if (failures.length) {
  console.log(`\n${failures.length} failures; the first:`);
  for (const f of failures.slice(0, 20)) console.log("  " + f);
}
console.log(`three.js ${THREE.REVISION}: ${files.length} files, ${failures.length} failures`);
process.exit(failures.length > 0 || files.length === 0 ? 1 : 0);
