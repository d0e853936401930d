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
