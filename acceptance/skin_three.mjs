// three.js's evaluation of a glTF file, for tests that compare a compiled
// model with it: GLTFLoader (with MeshoptDecoder) loads FILE; for every
// mesh primitive the rest pose (the nodes as the file places them, no
// animation applied) and, for every animation, the pose at every 1/30 s
// from 0 to its duration (its end included), each vertex skinned and
// morphed on the CPU (Mesh.getVertexPosition, then the world matrix).
// Writes JSON to OUT:
//   { meshes: [{ node, primitive, indices: [...], vertices,
//                skin: null | { bones: [glTF node name], joints: [4 per vertex], weights: [4 per vertex] } }],
//     rest: [[x, y, z, ...] per mesh],
//     animations: [{ name, duration, times: [...], poses: [[[...] per mesh] per time] }] }
//
//   node skin_three.mjs FILE OUT.json
import { readFileSync, writeFileSync } from "node:fs";

import { THREE, loadGltf, poseAt, primitiveObjects } from "./three_node.mjs";
const { MeshoptDecoder } = await import("three/examples/jsm/libs/meshopt_decoder.module.js");
await MeshoptDecoder.ready;

const [file, out] = process.argv.slice(2);
if (!file || !out) {
  console.error("usage: node skin_three.mjs FILE OUT.json");
  process.exit(2);
}

// loadGltf without a Meshopt decoder: parse here with one.
const { GLTFLoader } = await import("three/examples/jsm/loaders/GLTFLoader.js");
const bytes = readFileSync(file);
const gltf = await new Promise((resolve, reject) =>
  new GLTFLoader()
    .setMeshoptDecoder(MeshoptDecoder)
    .parse(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength), "", resolve, reject),
);
void loadGltf;

const objects = [...primitiveObjects(gltf).entries()].sort(([a], [b]) => {
  const [an, ap] = a.split("/").map(Number);
  const [bn, bp] = b.split("/").map(Number);
  return an - bn || ap - bp;
});
const v = new THREE.Vector3();
const positions = () =>
  objects.map(([, o]) => {
    const n = o.geometry.attributes.position.count;
    const p = new Array(3 * n);
    for (let i = 0; i < n; i++) {
      o.getVertexPosition(i, v);
      v.applyMatrix4(o.matrixWorld);
      p[3 * i] = v.x;
      p[3 * i + 1] = v.y;
      p[3 * i + 2] = v.z;
    }
    return p;
  });
gltf.scene.updateMatrixWorld(true);
const rest = positions();
// Every node's rest transform, restored before each pose (a clip leaves
// alone what it does not animate, and an earlier clip's mixer moved it).
const saved = [];
gltf.scene.traverse((o) => saved.push([o, o.position.clone(), o.quaternion.clone(), o.scale.clone()]));
const restore = () => {
  for (const [o, p, q, s] of saved) {
    o.position.copy(p);
    o.quaternion.copy(q);
    o.scale.copy(s);
  }
};
const meshes = objects.map(([key, o]) => {
  const [node, primitive] = key.split("/").map(Number);
  const index = o.geometry.index;
  const count = o.geometry.attributes.position.count;
  const indices = index ? Array.from(index.array) : Array.from({ length: count }, (_, i) => i);
  // A skinned primitive's influences as three.js reads them (denormalised,
  // meshopt-decoded), its bones by the glTF node names.
  let skin = null;
  if (o.isSkinnedMesh && o.geometry.attributes.skinIndex && o.geometry.attributes.skinWeight) {
    const ji = o.geometry.attributes.skinIndex;
    const wi = o.geometry.attributes.skinWeight;
    const json = gltf.parser.json.nodes || [];
    const bones = o.skeleton.bones.map((b) => {
      const at = gltf.parser.associations.get(b);
      const index = at && at.nodes !== undefined ? at.nodes : -1;
      return index >= 0 && json[index] ? json[index].name || "" : "";
    });
    const joints = [];
    const weights = [];
    for (let i = 0; i < count; i++) {
      joints.push(ji.getX(i), ji.getY(i), ji.getZ(i), ji.getW(i));
      weights.push(wi.getX(i), wi.getY(i), wi.getZ(i), wi.getW(i));
    }
    skin = { bones, joints, weights };
  }
  return { node, primitive, indices, vertices: count, skin };
});
const animations = gltf.animations.map((clip) => {
  const times = [];
  for (let k = 0; k / 30 < clip.duration - 1e-9; k++) times.push(k / 30);
  times.push(clip.duration);
  const poses = times.map((t) => {
    restore();
    poseAt(gltf, clip, t);
    return positions();
  });
  return { name: clip.name, duration: clip.duration, times, poses };
});
writeFileSync(out, JSON.stringify({ meshes, rest, animations }));
console.log(`${file}: ${meshes.length} meshes, ${animations.length} animations`);
