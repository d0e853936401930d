// Loads every GLB of an acceptance folder with three.js's GLTFLoader in Node
// and checks that three.js shows the positions the Rust library computes on
// its own (expectations.json, written with the GLBs by
// `cargo run -p retromodel-acceptance --bin gltf_accept -- DIR CORPUS...`):
//
// - MD2 (morph targets): for each sample (a frame, or halfway between two
//   frames of an animation), an AnimationMixer plays the sample's clip once
//   and is set to the sample's time; three.js's own morphing
//   (Mesh.getVertexPosition: base + Σ influence · target) and the node's
//   world matrix give each vertex, compared with the decoded frame.
// - MS3D with joints: the one clip set to each sample time; three.js's
//   skinning (SkinnedMesh.getVertexPosition → applyBoneTransform) and world
//   matrix, compared with retromodel's CPU skinning. Without joints: the
//   static positions.
//
// Each glTF vertex is compared with the model vertex it comes from
// (meshes[j].source_vertices). Tolerance: 1e-4 × the model's extent, per
// component. Prints a table of max errors; exits 1 on any mismatch or
// loading failure.
//
//   node three.mjs DIR
import { readFileSync } from "node:fs";
import { join } from "node:path";

import { THREE, GLTFLoader } from "./three_node.mjs";

const RELATIVE_TOLERANCE = 1e-4;
const dir = process.argv[2];
if (!dir) {
  console.error("usage: node three.mjs DIR  (DIR holds expectations.json and the GLBs)");
  process.exit(2);
}
const { models } = JSON.parse(readFileSync(join(dir, "expectations.json"), "utf8"));

function parse(file) {
  const bytes = readFileSync(file);
  const buffer = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
  return new Promise((resolve, reject) => new GLTFLoader().parse(buffer, "", resolve, reject));
}

/// Sets every animated property to `clip` at `time` (played once, held at
/// its end), with a fresh mixer so that no earlier state carries over.
function pose(gltf, clip, time) {
  const mixer = new THREE.AnimationMixer(gltf.scene);
  const action = mixer.clipAction(clip);
  action.setLoop(THREE.LoopOnce, 1);
  action.clampWhenFinished = true;
  action.play();
  mixer.setTime(time);
  gltf.scene.updateMatrixWorld(true);
  // Not uncached: that would restore the values from before the action.
}

/// The three.js objects drawing each glTF mesh index.
function meshObjects(gltf) {
  const byMesh = new Map();
  for (const [object, ref] of gltf.parser.associations) {
    if (!object.isMesh || ref.meshes === undefined) continue;
    if (!byMesh.has(ref.meshes)) byMesh.set(ref.meshes, []);
    byMesh.get(ref.meshes).push(object);
  }
  return byMesh;
}

const rows = [];
const failures = [];
let checkedModels = 0;
for (const model of models) {
  if (model.error) {
    rows.push([model.name, "-", "-", "-", "-", `not exported (${model.error})`]);
    continue;
  }
  checkedModels++;
  for (const { file } of model.glbs) {
    const fail = (why) => failures.push(`${file}: ${why}`);
    let gltf;
    try {
      gltf = await parse(join(dir, file));
    } catch (e) {
      fail(`GLTFLoader failed: ${e?.message ?? e}`);
      rows.push([file, "-", "-", "-", "-", "LOAD FAILED"]);
      continue;
    }
    // A model with nothing to draw may have no scene.
    gltf.scene ??= new THREE.Group();
    gltf.scene.updateMatrixWorld(true);
    const extent = model.extent;
    const tolerance = extent > 0 ? RELATIVE_TOLERANCE * extent : 1e-6;
    const byMesh = meshObjects(gltf);
    const gltfMeshes = gltf.parser.json.meshes?.length ?? 0;
    if (gltfMeshes !== model.meshes.length) {
      fail(`${gltfMeshes} glTF meshes, expected ${model.meshes.length}`);
    }
    let maxError = 0;
    let worst = "";
    let vertices = 0;
    let samples = 0;
    const perSample = [];
    const v = new THREE.Vector3();
    for (const sample of model.samples) {
      if (sample.time !== null && sample.time !== undefined && sample.animation !== null) {
        const index = sample.animation ?? 0;
        const clip = gltf.animations[index];
        if (!clip) {
          fail(`${sample.label}: no animation ${index}`);
          continue;
        }
        if (sample.animation_name !== undefined && clip.name !== sample.animation_name) {
          fail(`${sample.label}: animation ${index} is "${clip.name}", expected "${sample.animation_name}"`);
        }
        pose(gltf, clip, sample.time);
      } else if (model.format === "md2" && sample.frame !== undefined) {
        // A frame outside every animation: its morph target at weight 1.
        for (const objects of byMesh.values()) {
          for (const o of objects) {
            o.morphTargetInfluences?.fill(0);
            if (o.morphTargetInfluences) o.morphTargetInfluences[sample.frame] = 1;
          }
        }
        gltf.scene.updateMatrixWorld(true);
      }
      samples++;
      let sampleError = 0;
      const expected = sample.positions;
      model.meshes.forEach(({ source_vertices: source }, j) => {
        const objects = byMesh.get(j) ?? [];
        if (objects.length !== 1) {
          fail(`mesh ${j}: ${objects.length} three.js objects, expected 1`);
          return;
        }
        const o = objects[0];
        const count = o.geometry.attributes.position.count;
        if (count !== source.length) {
          fail(`mesh ${j}: ${count} vertices, expected ${source.length}`);
          return;
        }
        for (let i = 0; i < count; i++) {
          o.getVertexPosition(i, v);
          v.applyMatrix4(o.matrixWorld);
          const s = 3 * source[i];
          const e = Math.max(
            Math.abs(v.x - expected[s]),
            Math.abs(v.y - expected[s + 1]),
            Math.abs(v.z - expected[s + 2]),
          );
          if (!(e <= sampleError)) sampleError = Number.isNaN(e) ? Infinity : e;
          if (!(e <= maxError)) {
            maxError = Number.isNaN(e) ? Infinity : e;
            worst = `${sample.label}, mesh ${j} vertex ${i} (model vertex ${source[i]}): three (${v.x.toFixed(4)}, ${v.y.toFixed(4)}, ${v.z.toFixed(4)}) vs (${expected[s].toFixed(4)}, ${expected[s + 1].toFixed(4)}, ${expected[s + 2].toFixed(4)})`;
          }
        }
        vertices += count;
      });
      perSample.push(`${sample.label}: ${sampleError.toExponential(2)}`);
    }
    const ok = maxError <= tolerance;
    if (!ok) fail(`max error ${maxError.toExponential(3)} > ${tolerance.toExponential(3)} at ${worst}; per sample: ${perSample.join(", ")}`);
    rows.push([
      file,
      samples,
      vertices,
      maxError.toExponential(2),
      (extent > 0 ? maxError / extent : maxError).toExponential(2),
      ok ? "ok" : "MISMATCH",
    ]);
  }
}

const notes = [
  ...models
    .filter((m) => m.short_weight_vertices > 0)
    .map((m) => `${m.name}: ${m.short_weight_vertices} vertices whose stored weights sum to less than 1, compared with MilkShape's viewer as they are (the exporter gives the rest to a zero-scale joint)`),
  ...models
    .filter((m) => m.unnormalised_vertices > 0)
    .map((m) => `${m.name}: ${m.unnormalised_vertices} vertices whose stored weights sum to more than 1; compared after normalising (as the exporter does); MilkShape's viewer differs by up to ${Math.max(...m.samples.map((s) => s.viewer_difference ?? 0)).toExponential(2)}`),
];
const header = ["glb", "samples", "vertex checks", "max error", "/ extent", "result"];
const width = header.map((h, c) => Math.max(h.length, ...rows.map((r) => String(r[c]).length)));
const line = (r) => r.map((x, c) => (c === 0 ? String(x).padEnd(width[c]) : String(x).padStart(width[c]))).join("  ");
console.log(line(header));
for (const r of rows) console.log(line(r));
if (notes.length) {
  console.log("\nnotes:");
  for (const n of notes) console.log("  " + n);
}
if (failures.length) {
  console.log("\nfailures:");
  for (const f of failures) console.log("  " + f);
}
console.log(`\nthree.js ${THREE.REVISION}: ${rows.length} GLBs of ${checkedModels} models, ${failures.length} failures (tolerance ${RELATIVE_TOLERANCE} × extent)`);
process.exit(failures.length > 0 ? 1 : 0);
