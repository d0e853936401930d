// An IQM converted to glTF, skinned by three.js (GLTFLoader +
// AnimationMixer + SkinnedMesh.getVertexPosition), against the IQM file's
// own frames evaluated here from its bytes, as the engines skin them.
//
//   node iqm_three.mjs MODEL.iqm MODEL.glb [ANIMATION] [FRAME...]
//
// ANIMATION: the IQM animation (and glTF clip) to play, `idle` by default
// (or the file's first); FRAME: frames of it to compare (default: its
// first, second, a middle one and its last). At frame k the clip is posed
// at k / fps seconds (the animation's rate, as the converter keys it).
//
// The IQM side follows iqm.txt (the format's specification, as the
// reference demo and ioquake3's tr_model_iqm.c read it): a joint's bind
// local = T·R·S of its translate, normalised rotate and scale, its bind
// world = parent's bind world · local; a pose channel's value =
// channeloffset + u16 × channelscale for the channels its mask has (else
// the offset); the frame's world = parent's world · T·R·S; a joint's skin
// matrix = world · inverse(bind world); a vertex = Σ (weight / 255) ·
// skin[index] · position over its four ubyte weights (float weights as
// they are). IQM axes (x forward, y left, z up) map to glTF's as
// glTF(x, y, z) = IQM(y, z, x); triangles may be reversed, so each glTF
// triangle is compared with its IQM triangle corner against nearest
// corner. three.js skins four influences a vertex: an IQM has four.
//
// Passes when every corner of every triangle of every mesh is within
// 1e-4 × the bind pose's extent at every frame; prints the worst distance
// per frame; exits 1 on a mismatch.
import { readFileSync } from "node:fs";

import { THREE, loadGltf, poseAt } from "./three_node.mjs";

const [iqmFile, glbFile, wanted, ...frameArgs] = process.argv.slice(2);
if (!iqmFile || !glbFile) {
  console.log("usage: node iqm_three.mjs MODEL.iqm MODEL.glb [ANIMATION] [FRAME...]");
  process.exit(2);
}

// --- The IQM, from its bytes ---------------------------------------------
const buf = readFileSync(iqmFile);
const dv = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
if (buf.toString("latin1", 0, 16) !== "INTERQUAKEMODEL\0") throw new Error(`${iqmFile}: not an IQM`);
const H = [
  "version", "filesize", "flags", "num_text", "ofs_text", "num_meshes", "ofs_meshes",
  "num_vertexarrays", "num_vertexes", "ofs_vertexarrays", "num_triangles", "ofs_triangles",
  "ofs_adjacency", "num_joints", "ofs_joints", "num_poses", "ofs_poses", "num_anims", "ofs_anims",
  "num_frames", "num_framechannels", "ofs_frames", "ofs_bounds", "num_comment", "ofs_comment",
  "num_extensions", "ofs_extensions",
];
const h = Object.fromEntries(H.map((k, i) => [k, dv.getUint32(16 + 4 * i, true)]));
if (h.version !== 2) throw new Error(`${iqmFile}: IQM version ${h.version}, not 2`);
const u32 = (o) => dv.getUint32(o, true);
const i32 = (o) => dv.getInt32(o, true);
const f32 = (o) => dv.getFloat32(o, true);
const text = (o) => {
  const at = h.ofs_text + o;
  return buf.toString("utf8", at, buf.indexOf(0, at));
};

const meshes = [];
for (let m = 0; m < h.num_meshes; m++) {
  const o = h.ofs_meshes + 24 * m;
  meshes.push({ name: text(u32(o)), material: text(u32(o + 4)), firstVertex: u32(o + 8), numVertexes: u32(o + 12), firstTriangle: u32(o + 16), numTriangles: u32(o + 20) });
}

// Vertex arrays: position (float × 3), blend indices and weights.
const SIZES = [1, 1, 2, 2, 4, 4, 2, 4, 8];
function readArray(type) {
  for (let a = 0; a < h.num_vertexarrays; a++) {
    const o = h.ofs_vertexarrays + 20 * a;
    if (u32(o) !== type) continue;
    const [format, size, offset] = [u32(o + 8), u32(o + 12), u32(o + 16)];
    const get = [
      (p) => dv.getInt8(p), (p) => dv.getUint8(p), (p) => dv.getInt16(p, true), (p) => dv.getUint16(p, true),
      (p) => dv.getInt32(p, true), (p) => dv.getUint32(p, true), null, (p) => dv.getFloat32(p, true), (p) => dv.getFloat64(p, true),
    ][format];
    if (!get) throw new Error(`vertex array ${type}: format ${format} not read here`);
    return { format, size, at: (v, c) => get(offset + (v * size + c) * SIZES[format]) };
  }
  return null;
}
const position = readArray(0);
const blendIndexes = readArray(4);
const blendWeights = readArray(5);
if (!position || position.format !== 7 || position.size !== 3) throw new Error("no float × 3 position array");

const triangles = (t) => [0, 1, 2].map((c) => u32(h.ofs_triangles + 12 * t + 4 * c));

// Matrices (three.js's Matrix4, column-major, in IQM's axes).
const trs = (t, r, s) => {
  const q = new THREE.Quaternion(r[0], r[1], r[2], r[3]);
  if (q.lengthSq() > 0) q.normalize();
  else q.identity();
  return new THREE.Matrix4().compose(new THREE.Vector3(...t), q, new THREE.Vector3(...s));
};
const joints = [];
for (let j = 0; j < h.num_joints; j++) {
  const o = h.ofs_joints + 48 * j;
  const fl = (k) => f32(o + 8 + 4 * k);
  joints.push({ name: text(u32(o)), parent: i32(o + 4), t: [fl(0), fl(1), fl(2)], r: [fl(3), fl(4), fl(5), fl(6)], s: [fl(7), fl(8), fl(9)] });
}
const bindWorld = [];
joints.forEach((j, i) => {
  const local = trs(j.t, j.r, j.s);
  bindWorld.push(j.parent >= 0 ? bindWorld[j.parent].clone().multiply(local) : local);
});
const inverseBind = bindWorld.map((m) => m.clone().invert());

const poses = [];
for (let p = 0; p < h.num_poses; p++) {
  const o = h.ofs_poses + 88 * p;
  poses.push({
    parent: i32(o),
    mask: u32(o + 4),
    offset: [...Array(10).keys()].map((k) => f32(o + 8 + 4 * k)),
    scale: [...Array(10).keys()].map((k) => f32(o + 48 + 4 * k)),
  });
}
const anims = [];
for (let a = 0; a < h.num_anims; a++) {
  const o = h.ofs_anims + 20 * a;
  anims.push({ name: text(u32(o)), first: u32(o + 4), frames: u32(o + 8), fps: f32(o + 12), flags: u32(o + 16) });
}

/** Every joint's skin matrix (world · inverse bind world) at file frame `frame`. */
function skinMatrices(frame) {
  let at = h.ofs_frames + 2 * h.num_framechannels * frame;
  const world = [];
  poses.forEach((p, i) => {
    const v = p.offset.map((off, c) => {
      if (!(p.mask & (1 << c))) return off;
      const x = off + dv.getUint16(at, true) * p.scale[c];
      at += 2;
      return x;
    });
    const local = trs(v.slice(0, 3), v.slice(3, 7), v.slice(7, 10));
    world.push(p.parent >= 0 ? world[p.parent].clone().multiply(local) : local);
  });
  return world.map((w, i) => w.clone().multiply(inverseBind[i]));
}

/** Vertex `v` skinned by `skin` (or as stored without), in glTF's axes. */
function skinned(v, skin) {
  const p = new THREE.Vector3(position.at(v, 0), position.at(v, 1), position.at(v, 2));
  if (skin && blendIndexes && blendWeights) {
    const out = new THREE.Vector3();
    const norm = blendWeights.format === 1 ? 255 : 1;
    for (let k = 0; k < Math.min(4, blendWeights.size); k++) {
      const w = blendWeights.at(v, k) / norm;
      if (w === 0) continue;
      out.addScaledVector(p.clone().applyMatrix4(skin[blendIndexes.at(v, k)]), w);
    }
    p.copy(out);
  }
  return new THREE.Vector3(p.y, p.z, p.x);
}

// --- The glTF in three.js --------------------------------------------------
const gltf = await loadGltf(glbFile);
const anim = anims.find((a) => a.name === (wanted ?? "idle")) ?? (wanted ? null : anims[0]);
if (!anim) {
  console.log(`${iqmFile}: no animation ${wanted}; it has ${anims.map((a) => a.name).join(", ") || "none"}`);
  process.exit(1);
}
const clip = gltf.animations.find((c) => c.name === anim.name);
if (!clip) {
  console.log(`${glbFile}: no clip ${anim.name} in three.js (clips: ${gltf.animations.map((c) => c.name).join(", ")})`);
  process.exit(1);
}
const fps = Number.isFinite(anim.fps) && anim.fps > 0 ? anim.fps : 24;
const frames = frameArgs.length
  ? frameArgs.map(Number)
  : [...new Set([0, 1, Math.floor(anim.frames / 2), anim.frames - 1])].filter((k) => k >= 0 && k < anim.frames);

// The glTF meshes, in the IQM's order: one glTF mesh per IQM mesh.
const objects = [];
gltf.scene.traverse((o) => {
  if (o.isMesh) objects.push(o);
});
const json = gltf.parser.json;
const byMesh = meshes.map((m, i) => {
  const o = objects.find((x) => gltf.parser.associations.get(x)?.meshes === i);
  if (!o) throw new Error(`no three.js object for glTF mesh ${i} (IQM mesh ${m.name})`);
  return o;
});
let failed = 0;
if (json.meshes.length !== meshes.length) {
  console.log(`${json.meshes.length} glTF meshes, the IQM has ${meshes.length}`);
  failed++;
}
meshes.forEach((m, i) => {
  const tris = byMesh[i].geometry.index.count / 3;
  if (tris !== m.numTriangles) {
    console.log(`mesh ${m.name}: ${tris} triangles in three.js, ${m.numTriangles} in the IQM`);
    failed++;
  }
  if (!byMesh[i].isSkinnedMesh && h.num_joints > 0) {
    console.log(`mesh ${m.name}: not a SkinnedMesh in three.js`);
    failed++;
  }
});
if (failed) process.exit(1);

// The bind pose's extent sets the tolerance.
const box = new THREE.Box3();
for (let v = 0; v < h.num_vertexes; v++) box.expandByPoint(skinned(v, null));
const extent = box.getSize(new THREE.Vector3()).length();
const tolerance = 1e-4 * extent;

const got = new THREE.Vector3();
for (const k of frames) {
  poseAt(gltf, clip, k / fps);
  const skin = skinMatrices(anim.first + k);
  let worst = 0;
  let where = "";
  meshes.forEach((m, i) => {
    const o = byMesh[i];
    const index = o.geometry.index;
    for (let t = 0; t < m.numTriangles; t++) {
      const expected = triangles(m.firstTriangle + t).map((v) => skinned(v, skin));
      for (let c = 0; c < 3; c++) {
        o.getVertexPosition(index.getX(3 * t + c), got);
        got.applyMatrix4(o.matrixWorld);
        const d = Math.min(...expected.map((e) => e.distanceTo(got)));
        if (d > worst) {
          worst = d;
          where = `${m.name} triangle ${t} corner ${c}: three.js ${got.toArray().map((x) => x.toFixed(4))}`;
        }
      }
    }
  });
  const ok = worst <= tolerance;
  if (!ok) failed++;
  console.log(`${ok ? "ok    " : "FAILED"} ${anim.name} frame ${k} (${(k / fps).toFixed(4)} s): worst ${worst.toExponential(2)} (tolerance ${tolerance.toExponential(2)})${ok ? "" : ` at ${where}`}`);
}
// A frame compared must move the model: the comparison is not of bind poses.
{
  let moved = 0;
  for (const k of frames) {
    const skin = skinMatrices(anim.first + k);
    for (let v = 0; v < h.num_vertexes; v++) moved = Math.max(moved, skinned(v, skin).distanceTo(skinned(v, null)));
  }
  console.log(`${anim.name}: vertices move up to ${moved.toFixed(4)} from the bind pose at the frames compared (extent ${extent.toFixed(4)})`);
  if (!(moved > 10 * tolerance)) {
    console.log("FAILED: the animation does not move the model at the frames compared");
    failed++;
  }
}
process.exit(failed ? 1 : 0);
