// three.js draws what `retromodel render` drew, for render_compare:
//   node render_three.mjs CASES.json
// CASES.json (written by render.sh) lists cases {name, glb, info, out}:
// `glb` is our export of the model, `info` the JSON that `render
// --verbose` printed (image size, camera, light, shading, moment). Each
// case is drawn by three.js (GLTFLoader, AnimationMixer) in Debian's
// Chromium, headless, with WebGL on SwiftShader (Chromium's CPU
// implementation of the GPU), one sample per pixel, the same camera and
// size; the framebuffer's RGBA8 (top row first, as it is in the
// framebuffer: premultiplied by alpha) is written to `out`.
//
// The page and the files are served from 127.0.0.1 by a small server in
// this process; nothing else is reached. Chromium runs with a fresh
// profile (playwright's temporary one) and without any of its background network services.
import { createServer } from "node:http";
import { readFileSync, writeFileSync, statSync } from "node:fs";
import { join, dirname, resolve, extname } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";

const here = dirname(fileURLToPath(import.meta.url));
const casesFile = process.argv[2];
if (!casesFile) {
  console.error("usage: node render_three.mjs CASES.json");
  process.exit(2);
}
const cases = JSON.parse(readFileSync(casesFile, "utf8"));
const threeRoot = join(here, "node_modules", "three");

// Files the page may fetch: three's modules, and each case's GLB.
const glbs = new Map(cases.map((c, i) => [`/glb/${i}.glb`, resolve(c.glb)]));
const page = `<!doctype html><html><head><meta charset="utf-8">
<script type="importmap">{"imports":{"three":"/three/build/three.module.js","three/addons/":"/three/examples/jsm/"}}</script>
<script type="module">
import * as THREE from "three";
import { GLTFLoader } from "three/addons/loaders/GLTFLoader.js";
window.renderCase = async (url, info) => {
  const gltf = await new GLTFLoader().loadAsync(url);
  const { width, height, camera: c, light, shading, moment } = info;
  const canvas = document.createElement("canvas");
  const renderer = new THREE.WebGLRenderer({ canvas, antialias: false, alpha: true, preserveDrawingBuffer: true });
  renderer.setPixelRatio(1);
  renderer.setSize(width, height, false);
  renderer.setClearColor(0x000000, 0);
  const scene = gltf.scene;
  // Our own materials, from glTF's: unlit = texture × colour
  // (MeshBasicMaterial); lit = Lambert under an ambient and a directional
  // light of our strengths × π (three's Lambert BRDF divides by π).
  scene.traverse((o) => {
    if (!o.isMesh) return;
    const m = o.material;
    const common = {
      map: m.map, color: m.color, transparent: m.transparent, opacity: m.opacity,
      alphaTest: m.alphaTest, side: m.side, depthWrite: m.depthWrite,
    };
    o.material = shading === "unlit"
      ? new THREE.MeshBasicMaterial(common)
      : new THREE.MeshLambertMaterial({ ...common, emissive: m.emissive });
  });
  if (shading !== "unlit") {
    scene.add(new THREE.AmbientLight(0xffffff, Math.PI * light.ambient));
    const sun = new THREE.DirectionalLight(0xffffff, Math.PI * light.diffuse);
    sun.position.set(...light.direction_scene);
    scene.add(sun);
    scene.add(sun.target);
  }
  if (moment && moment.animation !== undefined) {
    const clip = gltf.animations.find((a) => a.name === moment.animation);
    if (!clip) throw new Error("no animation " + moment.animation);
    const mixer = new THREE.AnimationMixer(scene);
    const action = mixer.clipAction(clip);
    action.setLoop(THREE.LoopOnce, 1);
    action.clampWhenFinished = true;
    action.play();
    mixer.setTime(moment.time);
  }
  if (moment && moment.animation === undefined && moment.frame !== undefined) {
    // A model's frame k: weight 1 on morph target k.
    scene.traverse((o) => {
      if (o.morphTargetInfluences) o.morphTargetInfluences.forEach((_, k, w) => { w[k] = k === moment.frame ? 1 : 0; });
    });
  }
  scene.updateMatrixWorld(true);
  const camera = new THREE.PerspectiveCamera(c.fov_y_degrees, width / height, c.near, c.far);
  camera.position.set(...c.eye);
  camera.up.set(...c.up);
  camera.lookAt(...c.target);
  camera.updateMatrixWorld(true);
  renderer.render(scene, camera);
  const gl = renderer.getContext();
  const pixels = new Uint8Array(width * height * 4);
  gl.readPixels(0, 0, width, height, gl.RGBA, gl.UNSIGNED_BYTE, pixels);
  // GL's rows go bottom-up.
  const flipped = new Uint8Array(pixels.length);
  const row = width * 4;
  for (let y = 0; y < height; y++) flipped.set(pixels.subarray((height - 1 - y) * row, (height - y) * row), y * row);
  const renderer_info = gl.getParameter(gl.getExtension("WEBGL_debug_renderer_info")?.UNMASKED_RENDERER_WEBGL ?? gl.RENDERER);
  renderer.dispose();
  let s = "";
  for (let i = 0; i < flipped.length; i += 0x8000) s += String.fromCharCode(...flipped.subarray(i, i + 0x8000));
  return { rgba: btoa(s), renderer: renderer_info };
};
window.ready = true;
</script></head><body></body></html>`;

const types = { ".js": "text/javascript", ".glb": "model/gltf-binary", ".html": "text/html" };
const server = createServer((req, res) => {
  const url = decodeURIComponent(new URL(req.url, "http://x").pathname);
  let file = null;
  if (url === "/favicon.ico") {
    res.writeHead(204);
    res.end();
    return;
  }
  if (url === "/" || url === "/index.html") {
    res.writeHead(200, { "content-type": "text/html" });
    res.end(page);
    return;
  }
  if (url.startsWith("/three/")) {
    const f = resolve(threeRoot, "." + url.slice("/three".length));
    if (f.startsWith(threeRoot + "/")) file = f;
  } else if (glbs.has(url)) {
    file = glbs.get(url);
  }
  try {
    if (!file || !statSync(file).isFile()) throw new Error("not found");
    res.writeHead(200, { "content-type": types[extname(file)] ?? "application/octet-stream" });
    res.end(readFileSync(file));
  } catch {
    res.writeHead(404);
    res.end();
  }
});
// Never hang CI: a browser that stops answering fails the step.
const watchdog = setTimeout(() => {
  console.error("FAILED: three.js rendering took more than 180 s");
  process.exit(1);
}, 180_000);
watchdog.unref();
await new Promise((ok) => server.listen(0, "127.0.0.1", ok));
const origin = `http://127.0.0.1:${server.address().port}`;

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium",
  headless: true,
  args: [
    // WebGL on SwiftShader, Chromium's software GPU (there is no GPU).
    "--use-gl=angle",
    "--use-angle=swiftshader",
    "--enable-unsafe-swiftshader",
    "--ignore-gpu-blocklist",
    "--no-sandbox",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-default-apps",
    "--disable-extensions",
    "--no-first-run",
    "--no-default-browser-check",
    "--metrics-recording-only",
    "--disable-features=Translate,MediaRouter,OptimizationHints",
  ],
});
let status = 0;
try {
  const tab = await browser.newPage();
  tab.on("console", (m) => { if (m.type() === "error") console.error("page:", m.text()); });
  tab.on("pageerror", (e) => console.error("page error:", e.message));
  await tab.goto(origin + "/");
  await tab.waitForFunction(() => window.ready === true);
  let reported = false;
  for (const [i, c] of cases.entries()) {
    const info = JSON.parse(readFileSync(c.info, "utf8"));
    const { rgba, renderer } = await tab.evaluate(([u, inf]) => window.renderCase(u, inf), [`/glb/${i}.glb`, info]);
    if (!reported) {
      const version = JSON.parse(readFileSync(join(threeRoot, "package.json"), "utf8")).version;
      console.log(`three.js ${version} in Chromium, WebGL renderer: ${renderer}`);
      reported = true;
    }
    writeFileSync(c.out, Buffer.from(rgba, "base64"));
    console.log(`drew     ${c.name} (${info.width}x${info.height})`);
  }
} catch (e) {
  console.error("FAILED:", e.message ?? e);
  status = 1;
} finally {
  await browser.close();
  server.close();
}
process.exit(status);
