// The three.js side: draws the GLB the library made (GLTFLoader), or an
// MD2's scene from the library's arrays (as GLTFLoader would build it,
// its frames blended on the CPU), plays its animations (AnimationMixer)
// and the view's helpers.
import * as THREE from 'three';
import { GLTFLoader } from 'three/examples/jsm/loaders/GLTFLoader.js';
import { OrbitControls } from 'three/examples/jsm/controls/OrbitControls.js';
import { VertexNormalsHelper } from 'three/examples/jsm/helpers/VertexNormalsHelper.js';

const BACKGROUND = 0x0d0f13;

/**
 * A texture of decoded RGBA pixels, set up as GLTFLoader sets up the
 * texture of a glTF image without a sampler: not flipped, sRGB, linear
 * magnification, trilinear mipmapped minification, repeating.
 */
function imageTexture({ width, height, pixels }) {
  const texture = new THREE.DataTexture(pixels, width, height, THREE.RGBAFormat, THREE.UnsignedByteType);
  texture.flipY = false;
  texture.colorSpace = THREE.SRGBColorSpace;
  texture.magFilter = THREE.LinearFilter;
  texture.minFilter = THREE.LinearMipmapLinearFilter;
  texture.wrapS = THREE.RepeatWrapping;
  texture.wrapT = THREE.RepeatWrapping;
  texture.generateMipmaps = true;
  texture.needsUpdate = true;
  return texture;
}

/**
 * The material GLTFLoader makes of a glTF material (`m`: the JSON of
 * `ShownArrays.material()`, or null for a primitive without one), and
 * then for a mesh without tangents (GLTFLoader's assignFinalMaterial).
 */
function gltfMaterial(m) {
  if (!m) {
    return new THREE.MeshStandardMaterial({ color: 0xffffff, emissive: 0x000000, metalness: 1, roughness: 1, transparent: false, depthTest: true, side: THREE.FrontSide });
  }
  const [r, g, b, a] = m.baseColor;
  const params = {
    color: new THREE.Color().setRGB(r, g, b, THREE.LinearSRGBColorSpace),
    opacity: a,
    metalness: m.metallic,
    roughness: m.roughness,
    emissive: new THREE.Color().setRGB(...m.emissive, THREE.LinearSRGBColorSpace),
    transparent: m.alphaMode === 'BLEND',
  };
  if (m.doubleSided) params.side = THREE.DoubleSide;
  if (m.alphaMode === 'BLEND') params.depthWrite = false;
  if (m.alphaMode === 'MASK') params.alphaTest = m.alphaCutoff ?? 0.5;
  const material = new THREE.MeshStandardMaterial(params);
  if (m.name) material.name = m.name;
  // GLTFLoader's clone for a mesh without tangents.
  material.normalScale.y *= -1;
  return material;
}

/**
 * A mesh whose morph targets (relative, as glTF's) are blended on the
 * CPU, into its position and normal attributes, rather than in the vertex
 * shader from a morph texture: for an MD2's 198 frames that texture, its
 * upload and the shader's loop over every target were a third of the
 * time to the first frame. The blend is the vertex shader's, operation
 * for operation in 32-bit floats (`transformed += morph * influence`, for
 * each non-zero influence in target order), so the pixels are those of
 * the same mesh morphed by three.js on the GPU (tested against
 * GLTFLoader's); `getVertexPosition` is three.js's own morphing (in
 * doubles), so framing and picking are the same too.
 */
class BlendedMesh extends THREE.Mesh {
  /**
   * `base`: {position, normal} (Float32Arrays, the rest pose); `targets`:
   * {position, normal (or null)}, every target's displacements, target
   * after target; `names`: the targets' names.
   */
  constructor(geometry, material, base, targets, names) {
    super(geometry, material);
    this.base = base;
    this.targets = targets;
    this.morphTargetInfluences = new Array(names.length).fill(0);
    this.morphTargetDictionary = Object.fromEntries(names.map((n, i) => [n, i]));
    this.blended = null;
    this.blend();
  }

  /** Puts the pose of the current influences into the attributes (when they changed). */
  blend() {
    const influences = this.morphTargetInfluences;
    // The influences as the shader gets them (a float uniform array).
    const active = [];
    for (let i = 0; i < influences.length; i++) {
      const w = Math.fround(influences[i]);
      if (w !== 0) active.push(i, w);
    }
    const key = active.join(',');
    if (key === this.blended) return;
    this.blended = key;
    const f = Math.fround;
    const count = this.base.position.length;
    for (const name of ['position', 'normal']) {
      const deltas = this.targets[name];
      const attribute = this.geometry.getAttribute(name);
      const out = attribute.array;
      out.set(this.base[name]);
      if (deltas) {
        for (let k = 0; k < active.length; k += 2) {
          const offset = active[k] * count;
          const w = active[k + 1];
          for (let j = 0; j < count; j++) out[j] = f(out[j] + f(deltas[offset + j] * w));
        }
      }
      attribute.needsUpdate = true;
    }
  }

  /** three.js's `Mesh.getVertexPosition` of the unblended mesh with these influences. */
  getVertexPosition(index, target) {
    const p = this.base.position;
    const deltas = this.targets.position;
    const count = p.length;
    const influences = this.morphTargetInfluences;
    let x = 0;
    let y = 0;
    let z = 0;
    for (let i = 0; i < influences.length; i++) {
      const w = influences[i];
      if (w === 0) continue;
      const o = i * count + index * 3;
      x += deltas[o] * w;
      y += deltas[o + 1] * w;
      z += deltas[o + 2] * w;
    }
    return target.set(p[index * 3], p[index * 3 + 1], p[index * 3 + 2]).add(_morph.set(x, y, z));
  }
}
const _morph = new THREE.Vector3();

/**
 * What GLTFLoader makes of a GLB of one mesh with morph targets and
 * animations of its weights (an MD2's), made from the arrays
 * (`ShownArrays`) instead: a group holding the mesh (blended on the CPU:
 * `BlendedMesh`), and one clip per animation (`NumberKeyframeTrack`s of
 * the mesh's `morphTargetInfluences`).
 */
function morphModel(arrays, map) {
  const base = { position: arrays.positions(), normal: arrays.normals() };
  const geometry = new THREE.BufferGeometry();
  geometry.setAttribute('position', new THREE.BufferAttribute(base.position.slice(), 3));
  geometry.setAttribute('normal', new THREE.BufferAttribute(base.normal.slice(), 3));
  geometry.setAttribute('uv', new THREE.BufferAttribute(arrays.uvs(), 2));
  geometry.setIndex(new THREE.BufferAttribute(arrays.indices(), 1));
  const names = arrays.targetNames();
  const normals = arrays.targetNormals();
  const targets = { position: arrays.targetPositions(), normal: names.length > 0 && normals.length > 0 ? normals : null };
  // The attributes change with the pose: the bounds (for frustum culling
  // and the box helper) hold every frame, the sphere is GLTFLoader's
  // (around the box).
  const bounds = arrays.bounds();
  const box = new THREE.Box3().setFromArray(bounds);
  const sphere = new THREE.Sphere();
  box.getCenter(sphere.center);
  sphere.radius = box.min.distanceTo(box.max) / 2;
  geometry.boundingBox = box;
  geometry.boundingSphere = sphere;
  const material = gltfMaterial(JSON.parse(arrays.material()));
  if (map) material.map = map;
  const mesh = new BlendedMesh(geometry, material, base, targets, names);
  mesh.name = THREE.PropertyBinding.sanitizeNodeName(arrays.name) || 'mesh_0';
  if (names.length > 0) {
    mesh.morphTargetInfluences.splice(0, names.length, ...arrays.weights());
    mesh.blend();
  }
  const clips = [];
  for (let i = 0; i < arrays.clipCount; i++) {
    const interpolation = arrays.clipInterpolation(i) === 'STEP' ? THREE.InterpolateDiscrete : THREE.InterpolateLinear;
    const track = new THREE.NumberKeyframeTrack(`${mesh.name}.morphTargetInfluences`, arrays.clipTimes(i), arrays.clipValues(i), interpolation);
    clips.push(new THREE.AnimationClip(arrays.clipName(i) || `animation_${i}`, undefined, [track]));
  }
  const group = new THREE.Group();
  group.add(mesh);
  return { scene: group, animations: clips };
}

export class Viewer {
  constructor(canvas) {
    this.canvas = canvas;
    // preserveDrawingBuffer: the tests and the benchmark read the pixels back.
    this.renderer = new THREE.WebGLRenderer({ canvas, antialias: true, preserveDrawingBuffer: true });
    this.renderer.setPixelRatio(Math.min(window.devicePixelRatio, 2));
    this.renderer.outputColorSpace = THREE.SRGBColorSpace;
    this.scene = new THREE.Scene();
    this.scene.background = new THREE.Color(BACKGROUND);
    this.camera = new THREE.PerspectiveCamera(45, 1, 0.01, 1000);
    this.camera.position.set(2, 1.5, 3);
    this.controls = new OrbitControls(this.camera, canvas);
    this.scene.add(new THREE.HemisphereLight(0xffffff, 0x404050, 2.2));
    const sun = new THREE.DirectionalLight(0xffffff, 1.6);
    sun.position.set(3, 5, 4);
    this.scene.add(sun);
    this.grid = new THREE.GridHelper(10, 20, 0x555c6c, 0x2c313c);
    this.scene.add(this.grid);
    this.loader = new GLTFLoader();
    this.clock = new THREE.Clock();
    this.mixer = null;
    this.action = null;
    this.clips = [];
    // A player's upper-body clip (`playTorso`), -1 for none.
    this.torso = -1;
    this.torsoAction = null;
    this.current = -1;
    this.halves = new Map();
    this.model = null;
    this.helpers = [];
    this.flags = { wireframe: false, normals: false, bbox: false, grid: true, interpolate: true, loop: true };
    this.playing = true;
    this.frameListeners = [];
    this.onTime = () => {};
    new ResizeObserver(() => this.resize()).observe(canvas.parentElement);
    this.resize();
    this.renderer.setAnimationLoop(() => this.tick());
  }

  /**
   * Has the shader program an MD2 is drawn with compiled now, and built
   * by the GPU (SwiftShader compiles its pipeline at the first draw), so
   * that the first model dropped does not wait for it: an MD2 is one
   * `BlendedMesh` (no morph targets on the GPU, so the program does not
   * depend on the model) with GLTFLoader's material for an MD2's (white,
   * rough, not metallic, opaque, one-sided) and a skin set up as
   * `imageTexture` sets it up. Draws one triangle of no area (no pixel
   * changes) and keeps the material, which keeps the program cached.
   * The page calls it while its WebAssembly module loads.
   */
  warmUp() {
    const started = performance.now();
    const geometry = new THREE.BufferGeometry();
    geometry.setAttribute('position', new THREE.BufferAttribute(new Float32Array(9), 3));
    geometry.setAttribute('normal', new THREE.BufferAttribute(new Float32Array([0, 1, 0, 0, 1, 0, 0, 1, 0]), 3));
    geometry.setAttribute('uv', new THREE.BufferAttribute(new Float32Array(6), 2));
    geometry.setIndex(new THREE.BufferAttribute(new Uint32Array([0, 1, 2]), 1));
    const material = gltfMaterial({ baseColor: [1, 1, 1, 1], metallic: 0, roughness: 1, emissive: [0, 0, 0], alphaMode: 'OPAQUE', doubleSided: false });
    const map = imageTexture({ width: 2, height: 2, pixels: new Uint8Array(16) });
    material.map = map;
    const mesh = new THREE.Mesh(geometry, material);
    mesh.frustumCulled = false;
    this.scene.add(mesh);
    this.renderer.render(this.scene, this.camera);
    this.finish();
    this.scene.remove(mesh);
    geometry.dispose();
    map.dispose();
    material.map = null;
    this.warmMaterial = material;
    /** How long the warm-up took (ms), for the benchmark. */
    this.warmUpMs = performance.now() - started;
  }

  resize() {
    const { clientWidth: w, clientHeight: h } = this.canvas.parentElement;
    if (w === 0 || h === 0) return;
    this.renderer.setSize(w, h, false);
    this.camera.aspect = w / h;
    this.camera.updateProjectionMatrix();
  }

  tick() {
    const dt = this.clock.getDelta();
    if (this.mixer && this.playing) {
      this.mixer.update(dt);
      this.onTime(this.action);
    }
    if (this.flags.bbox) for (const h of this.helpers) if (h.isBoxHelper) h.update();
    this.controls.update();
    this.model?.traverse((o) => o instanceof BlendedMesh && o.blend());
    this.renderer.render(this.scene, this.camera);
    const listeners = this.frameListeners;
    this.frameListeners = [];
    for (const f of listeners) f(performance.now());
  }

  /** Resolves after the next frame drawn. */
  nextFrame() {
    return new Promise((resolve) => this.frameListeners.push(resolve));
  }

  /** Waits until the GPU has drawn what was asked for (reads a pixel back). */
  finish() {
    const gl = this.renderer.getContext();
    gl.readPixels(0, 0, 1, 1, gl.RGBA, gl.UNSIGNED_BYTE, new Uint8Array(4));
  }

  /** Removes the model (after an error, before the next). */
  clear() {
    if (this.model) {
      this.scene.remove(this.model);
      this.model.traverse((o) => {
        o.geometry?.dispose();
        for (const m of [o.material].flat()) {
          if (!m) continue;
          m.map?.dispose();
          m.dispose();
        }
      });
    }
    for (const h of this.helpers) this.scene.remove(h);
    this.helpers = [];
    this.model = null;
    this.mixer?.stopAllAction();
    this.mixer = null;
    this.action = null;
    this.clips = [];
    this.torso = -1;
    this.torsoAction = null;
    this.current = -1;
    this.halves = new Map();
  }

  /**
   * Shows a GLB (bytes); returns its animation clips. `images` are
   * decoded base colour images the GLB leaves out ({width, height,
   * pixels: RGBA}, or null), `materialImages[i]` the one of its material
   * `i` (-1: none): each becomes that material's map, made as GLTFLoader
   * makes a texture of an embedded PNG without a sampler (the same
   * pixels, filters, wrapping, orientation and colour space), so the
   * model looks as the GLB with the images embedded would.
   */
  async show(glb, images = [], materialImages = [], emissiveImages = []) {
    const buffer = glb.buffer.slice(glb.byteOffset, glb.byteOffset + glb.byteLength);
    const gltf = await this.loader.parseAsync(buffer, '');
    this.addTextures(gltf, images, materialImages, emissiveImages);
    this.showModel(gltf.scene, gltf.animations);
    return this.clips;
  }

  /**
   * Shows a scene of one morphing mesh given as arrays (`ShownArrays`,
   * an MD2's), as `show` shows the GLB of that scene; `image` is the
   * decoded base colour image of its material (or null). Returns the
   * animation clips.
   */
  showArrays(arrays, image = null) {
    const model = morphModel(arrays, image && imageTexture(image));
    this.showModel(model.scene, model.animations);
    return this.clips;
  }

  /**
   * Gives the GLB's materials the decoded images it leaves out (see
   * `show`): base colour images as maps, `emissiveImages[i]` (a Quake
   * MDL skin's fullbright texels) as material `i`'s emissive map.
   */
  addTextures(gltf, images, materialImages, emissiveImages = []) {
    if (images.some(Boolean)) {
      const textures = images.map((image) => image && imageTexture(image));
      gltf.scene.traverse((o) => {
        if (!o.isMesh) return;
        for (const m of [o.material].flat()) {
          const index = gltf.parser.associations.get(m)?.materials;
          const texture = textures[materialImages[index] ?? -1];
          if (texture && !m.map) {
            m.map = texture;
            m.needsUpdate = true;
          }
          const emissive = textures[emissiveImages[index] ?? -1];
          if (emissive && !m.emissiveMap) {
            m.emissiveMap = emissive;
            m.needsUpdate = true;
          }
        }
      });
    }
  }

  /** Replaces the model shown by `model` (an Object3D) with its clips. */
  showModel(model, clips) {
    this.clear();
    this.model = model;
    this.scene.add(this.model);
    this.clips = clips;
    this.originalInterpolation = this.clips.map((c) => c.tracks.map((t) => t.getInterpolation()));
    this.mixer = new THREE.AnimationMixer(this.model);
    this.applyFlags();
  }

  meshes() {
    const out = [];
    this.model?.traverse((o) => o.isMesh && out.push(o));
    return out;
  }

  /** Points the camera at the model and sizes the grid to it. */
  frame() {
    if (!this.model) return;
    this.model.updateMatrixWorld(true);
    this.model.traverse((o) => o.isSkinnedMesh && o.skeleton.update());
    const box = new THREE.Box3().setFromObject(this.model, true);
    if (box.isEmpty()) return;
    const size = box.getSize(new THREE.Vector3());
    const center = box.getCenter(new THREE.Vector3());
    const radius = Math.max(size.length() / 2, 1e-3);
    const distance = radius / Math.sin((this.camera.fov * Math.PI) / 360);
    this.camera.near = distance / 100;
    this.camera.far = distance * 100;
    this.camera.position.copy(center).add(new THREE.Vector3(0.55, 0.35, 1).normalize().multiplyScalar(distance * 1.05));
    this.camera.updateProjectionMatrix();
    this.controls.target.copy(center);
    this.scene.remove(this.grid);
    // The new grid keeps the old one's material: disposing it would
    // release its shader program, compiled again for the next frame.
    this.grid.geometry.dispose();
    const material = this.grid.material;
    const step = 10 ** Math.floor(Math.log10(radius));
    const divisions = 20;
    this.grid = new THREE.GridHelper(step * divisions, divisions, 0x555c6c, 0x2c313c);
    this.grid.material.dispose();
    this.grid.material = material;
    this.grid.position.set(center.x, box.min.y, center.z);
    this.grid.visible = this.flags.grid;
    this.scene.add(this.grid);
  }

  /**
   * The node of a Quake III player's upper body (the GLB node whose
   * extras say `md3_part: "upper"`: upper.md3 with head.md3 under it),
   * or null for any other model.
   */
  upperBody() {
    let upper = null;
    this.model?.traverse((o) => {
      if (!upper && o.userData?.md3_part === 'upper') upper = o;
    });
    return upper;
  }

  /** Whether a track animates something under `node`. */
  tracksUnder(node, track) {
    const { nodeName } = THREE.PropertyBinding.parseTrackName(track.name);
    for (let o = THREE.PropertyBinding.findNode(this.model, nodeName); o; o = o.parent) {
      if (o === node) return true;
    }
    return false;
  }

  /**
   * Half of clip `index` of a player: its tracks of the upper body
   * (`torso`), or all the others (the legs, which carry tag_torso and so
   * the upper body); cached. The tracks are the clip's own.
   */
  half(index, torso) {
    this.halves ??= new Map();
    const key = `${index}:${torso}`;
    if (!this.halves.has(key)) {
      const clip = this.clips[index];
      const upper = this.upperBody();
      const tracks = clip.tracks.filter((t) => this.tracksUnder(upper, t) === torso);
      this.halves.set(key, new THREE.AnimationClip(clip.name, clip.duration, tracks));
    }
    return this.halves.get(key);
  }

  /** The clips that animate a player's upper body (empty for other models). */
  torsoClips() {
    const upper = this.upperBody();
    if (!upper) return [];
    return this.clips.map((c, i) => i).filter((i) => this.clips[i].tracks.some((t) => this.tracksUnder(upper, t)));
  }

  /** Gives the clip's tracks the interpolation the flags ask for. */
  interpolate(clip) {
    const original = this.originalInterpolation[this.clips.indexOf(clip)];
    clip.tracks.forEach((t, i) => {
      t.setInterpolation(this.flags.interpolate ? original[i] : THREE.InterpolateDiscrete);
    });
  }

  /**
   * Plays clip `index` from its start (or shows the rest pose for -1).
   * With a torso clip chosen (`playTorso`), a player's upper body plays
   * that clip's upper-body tracks and clip `index` moves only the legs.
   */
  play(index) {
    if (!this.mixer) return;
    this.mixer.stopAllAction();
    this.action = null;
    this.torsoAction = null;
    this.current = index;
    const clip = this.clips[index];
    if (!clip) return;
    this.interpolate(clip);
    const split = this.torso >= 0 && this.clips[this.torso] && this.upperBody();
    const played = split ? this.half(index, false) : clip;
    this.mixer.uncacheClip(played);
    this.action = this.mixer.clipAction(played);
    this.action.setLoop(this.flags.loop ? THREE.LoopRepeat : THREE.LoopOnce, Infinity);
    this.action.clampWhenFinished = true;
    this.action.play();
    if (split) {
      this.interpolate(this.clips[this.torso]);
      const torso = this.half(this.torso, true);
      this.mixer.uncacheClip(torso);
      this.torsoAction = this.mixer.clipAction(torso);
      this.torsoAction.setLoop(this.flags.loop ? THREE.LoopRepeat : THREE.LoopOnce, Infinity);
      this.torsoAction.clampWhenFinished = true;
      this.torsoAction.play();
    }
    this.mixer.update(0);
  }

  /**
   * Chooses the clip a player's upper body plays (its upper-body tracks)
   * whatever the legs play; -1: the upper body follows the legs' clip.
   * Starts the current clip again.
   */
  playTorso(index) {
    this.torso = index;
    this.play(this.current);
  }

  /** Sets the current clip's time (the scrubber), a player's torso clip's too. */
  seek(seconds) {
    if (!this.action) return;
    for (const action of [this.action, this.torsoAction]) {
      if (!action) continue;
      action.paused = false;
      action.enabled = true;
      action.time = seconds;
    }
    this.mixer.update(0);
  }

  setSpeed(speed) {
    if (this.mixer) this.mixer.timeScale = speed;
  }

  setFlag(name, value) {
    this.flags[name] = value;
    if (name === 'loop') {
      for (const action of [this.action, this.torsoAction]) {
        if (!action) continue;
        action.setLoop(value ? THREE.LoopRepeat : THREE.LoopOnce, Infinity);
        if (value) action.paused = false;
      }
    }
    this.applyFlags();
  }

  applyFlags() {
    this.grid.visible = this.flags.grid;
    for (const mesh of this.meshes()) {
      for (const m of [mesh.material].flat()) m.wireframe = this.flags.wireframe;
    }
    for (const h of this.helpers) {
      this.scene.remove(h);
      h.dispose?.();
    }
    this.helpers = [];
    if (!this.model) return;
    if (this.flags.bbox) {
      this.helpers.push(new THREE.BoxHelper(this.model, 0xe0a040));
    }
    if (this.flags.normals) {
      const box = new THREE.Box3().setFromObject(this.model, true);
      const size = box.getSize(new THREE.Vector3()).length() * 0.02;
      for (const mesh of this.meshes()) this.helpers.push(new VertexNormalsHelper(mesh, size, 0x40c0ff));
    }
    for (const h of this.helpers) this.scene.add(h);
  }

  /**
   * Puts a PNG (bytes) on every mesh as its colour texture. An emissive
   * map (a Quake MDL skin's fullbright texels) belonged to the skin
   * replaced: it goes, and the material no longer glows.
   */
  async setSkin(png) {
    const bitmap = await createImageBitmap(new Blob([png], { type: 'image/png' }));
    const texture = new THREE.Texture(bitmap);
    texture.flipY = false;
    texture.colorSpace = THREE.SRGBColorSpace;
    texture.needsUpdate = true;
    for (const mesh of this.meshes()) {
      for (const m of [mesh.material].flat()) {
        m.map?.dispose();
        m.map = texture;
        m.color?.set(0xffffff);
        if (m.emissiveMap) {
          m.emissiveMap = null;
          m.emissive?.set(0x000000);
        }
        m.needsUpdate = true;
      }
    }
  }

  /**
   * Colours each vertex by its MD2 vertex's error (`_md2_vertex`, the
   * attribute `_MD2_VERTEX` as GLTFLoader names it): 0 blue .. 0.5 grid
   * step red.
   */
  colourByError(stepError) {
    const ramp = [new THREE.Color(0x2080ff), new THREE.Color(0x20d080), new THREE.Color(0xf0e040), new THREE.Color(0xff3030)];
    const c = new THREE.Color();
    for (const mesh of this.meshes()) {
      const source = mesh.geometry.getAttribute('_md2_vertex');
      if (!source) continue;
      const colours = new Float32Array(source.count * 3);
      for (let i = 0; i < source.count; i++) {
        const e = Math.min(Math.max((stepError[source.getX(i)] ?? 0) / 0.5, 0), 1) * (ramp.length - 1);
        const k = Math.min(Math.floor(e), ramp.length - 2);
        c.copy(ramp[k]).lerp(ramp[k + 1], e - k);
        colours.set([c.r, c.g, c.b], i * 3);
      }
      mesh.geometry.setAttribute('color', new THREE.BufferAttribute(colours, 3));
      for (const m of [mesh.material].flat()) {
        m.vertexColors = true;
        m.map = null;
        m.needsUpdate = true;
      }
    }
  }

  textured() {
    return this.meshes().some((mesh) => [mesh.material].flat().some((m) => m.map));
  }

  /** A hash of the last frame's pixels (FNV-1a), to tell frames apart. */
  pixelHash() {
    const gl = this.renderer.getContext();
    const px = new Uint8Array(gl.drawingBufferWidth * gl.drawingBufferHeight * 4);
    gl.readPixels(0, 0, gl.drawingBufferWidth, gl.drawingBufferHeight, gl.RGBA, gl.UNSIGNED_BYTE, px);
    let h = 0x811c9dc5;
    for (let i = 0; i < px.length; i++) h = Math.imul(h ^ px[i], 0x01000193);
    return h >>> 0;
  }

  /** Pixels of the last frame: how many differ from the background, how many distinct colours. */
  pixelStats() {
    const gl = this.renderer.getContext();
    const w = gl.drawingBufferWidth;
    const h = gl.drawingBufferHeight;
    const px = new Uint8Array(w * h * 4);
    gl.readPixels(0, 0, w, h, gl.RGBA, gl.UNSIGNED_BYTE, px);
    const [br, bgc, bb] = [(BACKGROUND >> 16) & 255, (BACKGROUND >> 8) & 255, BACKGROUND & 255];
    let covered = 0;
    const colours = new Set();
    for (let i = 0; i < px.length; i += 4) {
      if (Math.abs(px[i] - br) + Math.abs(px[i + 1] - bgc) + Math.abs(px[i + 2] - bb) > 12) {
        covered++;
        colours.add(((px[i] >> 3) << 10) | ((px[i + 1] >> 3) << 5) | (px[i + 2] >> 3));
      }
    }
    return { width: w, height: h, covered, fraction: covered / (w * h), colours: colours.size };
  }
}
