// The benchmark's reference: three.js's own MD2Loader drawing an MD2 (its
// skin decoded by the browser), timed from the bytes to the first
// animated frame, as the viewer is timed from the drop.
import * as THREE from 'three';
import { MD2Loader } from 'three/examples/jsm/loaders/MD2Loader.js';

const canvas = document.getElementById('canvas');
const renderer = new THREE.WebGLRenderer({ canvas, antialias: true, preserveDrawingBuffer: true });
renderer.setSize(800, 600, false);
const scene = new THREE.Scene();
scene.background = new THREE.Color(0x0d0f13);
scene.add(new THREE.HemisphereLight(0xffffff, 0x404050, 2.2));
const camera = new THREE.PerspectiveCamera(45, 800 / 600, 0.1, 1000);
const clock = new THREE.Clock();
let mixer = null;
let waiting = [];
renderer.setAnimationLoop(() => {
  mixer?.update(clock.getDelta());
  renderer.render(scene, camera);
  const w = waiting;
  waiting = [];
  for (const f of w) f(performance.now());
});
const nextFrame = () => new Promise((resolve) => waiting.push(resolve));

/** Loads model + skin bytes (both from File objects, like a drop); returns ms to the first animated frame. */
window.benchMd2Loader = async (modelFile, skinFile) => {
  const started = performance.now();
  const [buffer, bitmap] = await Promise.all([modelFile.arrayBuffer(), skinFile ? createImageBitmap(skinFile) : null]);
  const read = performance.now();
  const geometry = new MD2Loader().parse(buffer);
  const material = new THREE.MeshStandardMaterial();
  if (bitmap) {
    material.map = new THREE.Texture(bitmap);
    material.map.colorSpace = THREE.SRGBColorSpace;
    material.map.needsUpdate = true;
  }
  const mesh = new THREE.Mesh(geometry, material);
  scene.clear();
  scene.add(new THREE.HemisphereLight(0xffffff, 0x404050, 2.2));
  scene.add(mesh);
  geometry.computeBoundingSphere();
  const { center, radius } = geometry.boundingSphere;
  camera.position.copy(center).add(new THREE.Vector3(0, 0, radius * 3));
  camera.lookAt(center);
  mixer = new THREE.AnimationMixer(mesh);
  mixer.clipAction(geometry.animations[0]).play();
  mixer.update(0);
  const built = performance.now();
  await nextFrame();
  const shown = await nextFrame();
  return { ms: shown - started, clips: geometry.animations.length, steps: { files_and_skin: read - started, parse: built - read, frames: shown - built } };
};
window.benchReady = true;
