// three.js loads each `.gltf` given (with its `.bin` and PNG files beside
// it, fetched through a URL modifier, since Node's fetch cannot read
// relative paths) and the `.glb` of the same model, and checks that they
// are the same model: the same meshes, vertex attributes (values), morph
// targets, skins, materials with a texture where the GLB has one (and the
// image file was requested), and animation clips (names, durations,
// tracks). Exits 1 on any difference or load failure.
//
// The first file of a pair may also be a .glb: then it is compared with the
// second the same way. accept.sh uses that for `--compress` output
// (EXT_meshopt_compression, decoded by three.js's MeshoptDecoder) against
// the same model exported without compression.
//
//   node gltf_files.mjs A.gltf A.glb [B.gltf B.glb | B.c.glb B.glb ...]
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";

import { THREE, GLTFLoader } from "./three_node.mjs";
import { MeshoptDecoder } from "three/examples/jsm/libs/meshopt_decoder.module.js";

await MeshoptDecoder.ready;

const args = process.argv.slice(2);
if (args.length === 0 || args.length % 2) {
  console.error("usage: node gltf_files.mjs A.gltf A.glb [B.gltf B.glb ...]");
  process.exit(2);
}

/// Loads a .gltf: every URI it asks for is read from the document's folder
/// and handed over as a data: URL; returns the scene and the URIs asked for.
function loadGltf(file) {
  const requested = [];
  const manager = new THREE.LoadingManager();
  manager.setURLModifier((url) => {
    if (url.startsWith("data:")) return url;
    const name = decodeURIComponent(url.replace(/^.*\//, ""));
    requested.push(name);
    const bytes = readFileSync(join(dirname(file), name));
    const type = name.endsWith(".png") ? "image/png" : "application/octet-stream";
    return `data:${type};base64,${bytes.toString("base64")}`;
  });
  const text = readFileSync(file, "utf8");
  return new Promise((resolve, reject) =>
    new GLTFLoader(manager)
      .setMeshoptDecoder(MeshoptDecoder)
      .parse(text, "", (gltf) => resolve({ gltf, requested }), reject),
  );
}

function loadGlb(file) {
  const bytes = readFileSync(file);
  const buffer = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
  const loader = new GLTFLoader().setMeshoptDecoder(MeshoptDecoder);
  return new Promise((resolve, reject) => loader.parse(buffer, "", resolve, reject));
}

/// Triangle list indices with each triangle rotated to start at its
/// smallest index (same triangle, same winding): meshoptimizer's index
/// codec may rotate triangles, which changes no face.
function canonicalTriangles(index) {
  const out = Array.from(index);
  for (let t = 0; t + 2 < out.length; t += 3) {
    let [a, b, c] = [out[t], out[t + 1], out[t + 2]];
    while (a > b || a > c) [a, b, c] = [b, c, a];
    [out[t], out[t + 1], out[t + 2]] = [a, b, c];
  }
  return out;
}

/// Everything compared, as plain data.
function summary(gltf) {
  const meshes = [];
  gltf.scene.traverse((o) => {
    if (!o.isMesh) return;
    const g = o.geometry;
    const attributes = Object.fromEntries(
      Object.entries(g.attributes).map(([k, a]) => [k, Array.from(a.array)]),
    );
    const morphs = Object.fromEntries(
      Object.entries(g.morphAttributes).map(([k, list]) => [k, list.map((a) => Array.from(a.array))]),
    );
    meshes.push({
      name: o.name,
      skinned: !!o.isSkinnedMesh,
      bones: o.skeleton ? o.skeleton.bones.map((b) => b.name) : [],
      index: g.index ? canonicalTriangles(g.index.array) : null,
      attributes,
      morphs,
      textured: !!o.material.map,
      alphaMode: o.material.transparent,
    });
  });
  const clips = gltf.animations.map((c) => ({
    name: c.name,
    duration: c.duration,
    tracks: c.tracks.map((t) => [t.name, Array.from(t.times), Array.from(t.values)]),
  }));
  return { meshes, clips };
}

let failures = 0;
for (let i = 0; i < args.length; i += 2) {
  const [gltfFile, glbFile] = [args[i], args[i + 1]];
  try {
    const { gltf, requested } = gltfFile.endsWith(".glb")
      ? { gltf: await loadGlb(gltfFile), requested: [] }
      : await loadGltf(gltfFile);
    const a = summary(gltf);
    const b = summary(await loadGlb(glbFile));
    const same = JSON.stringify(a) === JSON.stringify(b);
    const textured = a.meshes.filter((m) => m.textured).length;
    const pngs = requested.filter((r) => r.endsWith(".png"));
    const embedded = gltfFile.endsWith(".glb");
    const ok = same && a.meshes.length > 0 && (textured === 0 || embedded || pngs.length > 0);
    console.log(
      `${ok ? "ok    " : "FAILED"} ${gltfFile}: ${a.meshes.length} meshes, ${a.clips.length} clips, ` +
        `${textured} textured, files read: ${requested.join(", ")}${same ? "" : "; differs from " + glbFile}`,
    );
    if (!ok) failures++;
  } catch (e) {
    console.log(`FAILED ${gltfFile}: ${e?.message ?? e}`);
    failures++;
  }
}
console.log(`gltf files: ${args.length / 2} checked, ${failures} failed`);
process.exit(failures ? 1 : 0);
