// The benchmark's reference: three.js's own MD2Loader drawing an MD2 (its
// skin decoded by the browser), timed from the bytes to the first
// animated frame, as the viewer is timed from the drop. It draws what the
// viewer draws, so that both pay the same GPU work: a canvas of the
// viewer's size (the page's window, which the benchmark sizes so),
// antialiased, the viewer's lights, background and grid, and the model
// framed as the viewer frames it (Viewer.frame).
import * as THREE from 'three';
import { MD2Loader } from 'three/examples/jsm/loaders/MD2Loader.js';

const canvas = document.getElementById('canvas');
const width = window.innerWidth;
const height = window.innerHeight;
const renderer = new THREE.WebGLRenderer({ canvas, antialias: true, preserveDrawingBuffer: true });
renderer.setSize(width, height, false);
renderer.outputColorSpace = THREE.SRGBColorSpace;
const scene = new THREE.Scene();
scene.background = new THREE.Color(0x0d0f13);
const lights = () => {
  scene.add(new THREE.HemisphereLight(0xffffff, 0x404050, 2.2));
  const sun = new THREE.DirectionalLight(0xffffff, 1.6);
  sun.position.set(3, 5, 4);
  scene.add(sun);
};
lights();
scene.add(new THREE.GridHelper(10, 20, 0x555c6c, 0x2c313c));
const camera = new THREE.PerspectiveCamera(45, width / height, 0.01, 1000);
camera.position.set(2, 1.5, 3);
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

/** Points the camera at the posed mesh and puts a grid under it, as the viewer does. */
function frame(mesh) {
  mesh.updateMatrixWorld(true);
  const box = new THREE.Box3().setFromObject(mesh, true);
  const size = box.getSize(new THREE.Vector3());
  const center = box.getCenter(new THREE.Vector3());
  const radius = Math.max(size.length() / 2, 1e-3);
  const distance = radius / Math.sin((camera.fov * Math.PI) / 360);
  camera.near = distance / 100;
  camera.far = distance * 100;
  camera.position.copy(center).add(new THREE.Vector3(0.55, 0.35, 1).normalize().multiplyScalar(distance * 1.05));
  camera.lookAt(center);
  camera.updateProjectionMatrix();
  const step = 10 ** Math.floor(Math.log10(radius));
  const grid = new THREE.GridHelper(step * 20, 20, 0x555c6c, 0x2c313c);
  grid.position.set(center.x, box.min.y, center.z);
  scene.add(grid);
}

/** Loads model + skin bytes (both from File objects, like a drop); returns ms to the first animated frame. */
window.benchMd2Loader = async (modelFile, skinFile) => {
  const started = performance.now();
  const [buffer, bitmap] = await Promise.all([modelFile.arrayBuffer(), skinFile ? createImageBitmap(skinFile, { imageOrientation: 'flipY' }) : null]);
  const read = performance.now();
  const geometry = new MD2Loader().parse(buffer);
  // (WebGL ignores flipY for an ImageBitmap: the bitmap is decoded
  // flipped, as MD2Loader's texture coordinates expect.)
  const material = new THREE.MeshStandardMaterial();
  if (bitmap) {
    material.map = new THREE.Texture(bitmap);
    material.map.colorSpace = THREE.SRGBColorSpace;
    material.map.needsUpdate = true;
  }
  const mesh = new THREE.Mesh(geometry, material);
  scene.clear();
  lights();
  scene.add(mesh);
  mixer = new THREE.AnimationMixer(mesh);
  mixer.clipAction(geometry.animations[0]).play();
  mixer.update(0);
  frame(mesh);
  const built = performance.now();
  await nextFrame();
  const second = await nextFrame();
  // Until the GPU has drawn it (as the viewer is timed): a pixel read back.
  const gl = renderer.getContext();
  gl.readPixels(0, 0, 1, 1, gl.RGBA, gl.UNSIGNED_BYTE, new Uint8Array(4));
  const shown = performance.now();
  return {
    ms: shown - started,
    frames_ms: second - started,
    clips: geometry.animations.length,
    steps: { files_and_skin: read - started, parse: built - read, frames: second - built, gpu: shown - second },
  };
};
window.benchReady = true;
