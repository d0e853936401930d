// three.js and its GLTFLoader in Node: first the few browser globals
// GLTFLoader expects (images become 1×1 stand-ins), then the modules.
// Shared by three.mjs and gltf_files.mjs.
globalThis.self ??= globalThis;
globalThis.ProgressEvent ??= class ProgressEvent {
  constructor(type, init = {}) {
    Object.assign(this, { type, ...init });
  }
};
globalThis.createImageBitmap ??= async () => ({ width: 1, height: 1, close() {} });

export const THREE = await import("three");
export const { GLTFLoader } = await import("three/examples/jsm/loaders/GLTFLoader.js");

import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";

/// Loads a .glb or a .gltf with GLTFLoader (its URIs read from its folder,
/// as data: URLs).
export function loadGltf(file) {
  const manager = new THREE.LoadingManager();
  manager.setURLModifier((url) => {
    if (url.startsWith("data:")) return url;
    const name = decodeURIComponent(url.replace(/^.*\//, ""));
    const bytes = readFileSync(join(dirname(file), name));
    const type = name.endsWith(".png") ? "image/png" : "application/octet-stream";
    return `data:${type};base64,${bytes.toString("base64")}`;
  });
  const bytes = readFileSync(file);
  const data = file.endsWith(".gltf")
    ? bytes.toString("utf8")
    : bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
  return new Promise((resolve, reject) => new GLTFLoader(manager).parse(data, dirname(file) + "/", resolve, reject));
}

/// Poses the loaded file `time` seconds into `clip` (played once, held
/// at its end) and updates every world matrix.
export function poseAt(gltf, clip, time) {
  const mixer = new THREE.AnimationMixer(gltf.scene);
  const action = mixer.clipAction(clip);
  action.setLoop(THREE.LoopOnce, 1);
  action.clampWhenFinished = true;
  action.play();
  mixer.setTime(time);
  gltf.scene.updateMatrixWorld(true);
}

/// glTF (node, primitive) → three.js object, keyed `node/primitive`: a
/// node's one primitive is the node's object, several are children of a
/// group that is.
export function primitiveObjects(gltf) {
  const objects = new Map();
  gltf.scene.traverse((o) => {
    const ref = gltf.parser.associations.get(o);
    if (!o.isMesh || !ref || ref.meshes === undefined) return;
    const node = ref.nodes ?? gltf.parser.associations.get(o.parent)?.nodes;
    objects.set(`${node}/${ref.primitives ?? 0}`, o);
  });
  return objects;
}
