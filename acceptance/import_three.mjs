// Checks retromodel's glTF importer against three.js: loads every file of
// import_expectations.json (written by `import_accept DIR FILE...`, see
// src/bin/import_accept.rs) with three.js's GLTFLoader and compares, for
// each scene mesh (a glTF mesh's primitive):
//
// - the triangles: three.js's index (after toTrianglesDrawMode for strips
//   and fans) against the importer's, each triangle rotated to start at
//   its smallest index (same triangle, same winding);
// - the vertices in the rest pose and at each sampled time of each
//   animation: an AnimationMixer plays the clip once, set to the time;
//   three.js's morphing and skinning (Mesh.getVertexPosition, which for a
//   SkinnedMesh applies the bones) and the world matrix give each vertex,
//   within 1e-4 × the file's extent of the importer's Pose.
//
// Prints a table; exits 1 on any mismatch or loading failure.
//
//   node import_three.mjs DIR
import { readFileSync } from "node:fs";
import { join } from "node:path";

import { THREE, loadGltf as load, poseAt as pose, primitiveObjects } from "./three_node.mjs";

const RELATIVE_TOLERANCE = 1e-4;
const dir = process.argv[2];
if (!dir) {
  console.error("usage: node import_three.mjs DIR  (DIR holds import_expectations.json)");
  process.exit(2);
}
const { files } = JSON.parse(readFileSync(join(dir, "import_expectations.json"), "utf8"));

function canonical(indices) {
  const out = [];
  for (let i = 0; i + 2 < indices.length; i += 3) {
    const r = [
      [indices[i], indices[i + 1], indices[i + 2]],
      [indices[i + 1], indices[i + 2], indices[i]],
      [indices[i + 2], indices[i], indices[i + 1]],
    ];
    r.sort((a, b) => a[0] - b[0] || a[1] - b[1] || a[2] - b[2]);
    out.push(r[0].join(","));
  }
  return out;
}

const rows = [];
const failures = [];
for (const entry of files) {
  const fail = (why) => failures.push(`${entry.file}: ${why}`);
  let gltf;
  try {
    gltf = await load(entry.file);
  } catch (e) {
    fail(`GLTFLoader failed: ${e?.message ?? e}`);
    rows.push([entry.file, "-", "-", "-", "LOAD FAILED"]);
    continue;
  }
  gltf.scene.updateMatrixWorld(true);
  const objects = primitiveObjects(gltf);
  const tolerance = RELATIVE_TOLERANCE * Math.max(entry.extent, 1e-6);
  const found = entry.meshes.map((m) => objects.get(`${m.node}/${m.primitive}`));
  entry.meshes.forEach((m, j) => {
    const o = found[j];
    if (!o) return fail(`node ${m.node} primitive ${m.primitive} (${m.name}): no three.js object`);
    const count = o.geometry.attributes.position.count;
    if (count !== m.vertices) fail(`mesh ${j}: ${count} vertices in three.js, ${m.vertices} imported`);
    const index = o.geometry.index ? Array.from(o.geometry.index.array) : [...Array(count).keys()];
    const a = canonical(index);
    const b = canonical(m.indices);
    if (a.length !== b.length || a.some((t, i) => t !== b[i])) {
      const i = a.findIndex((t, k) => t !== b[k]);
      fail(`mesh ${j} (${m.name}): triangles differ (${a.length} vs ${b.length}; first at ${i}: ${a[i]} vs ${b[i]})`);
    }
  });
  let maxError = 0;
  let worst = "";
  let checks = 0;
  const v = new THREE.Vector3();
  for (const sample of entry.samples) {
    if (sample.animation !== null) {
      const clip = gltf.animations[sample.animation];
      // three.js names unnamed animations animation_N.
      if (!clip || (sample.animation_name && clip.name !== sample.animation_name)) {
        fail(`animation ${sample.animation}: three.js has ${clip?.name}, expected ${sample.animation_name}`);
        continue;
      }
      pose(gltf, clip, sample.time);
    }
    entry.meshes.forEach((m, j) => {
      const o = found[j];
      if (!o) return;
      const expected = sample.positions[j];
      for (let i = 0; i < m.vertices; i++) {
        o.getVertexPosition(i, v);
        v.applyMatrix4(o.matrixWorld);
        const e = Math.max(
          Math.abs(v.x - expected[3 * i]),
          Math.abs(v.y - expected[3 * i + 1]),
          Math.abs(v.z - expected[3 * i + 2]),
        );
        checks++;
        if (!(e <= maxError)) {
          maxError = Number.isNaN(e) ? Infinity : e;
          worst = `${sample.animation_name ?? "rest"} at ${sample.time ?? "-"}, mesh ${j} vertex ${i}: three (${v.x.toFixed(5)}, ${v.y.toFixed(5)}, ${v.z.toFixed(5)}) vs (${expected[3 * i].toFixed(5)}, ${expected[3 * i + 1].toFixed(5)}, ${expected[3 * i + 2].toFixed(5)})`;
        }
      }
    });
  }
  const ok = maxError <= tolerance;
  if (!ok) fail(`max error ${maxError.toExponential(3)} > ${tolerance.toExponential(3)} at ${worst}`);
  rows.push([entry.file.replace(/^.*\//, ""), entry.samples.length, checks, (maxError / Math.max(entry.extent, 1e-6)).toExponential(2), ok ? "ok" : "MISMATCH"]);
}

const header = ["file", "samples", "vertex checks", "max error / extent", "result"];
const width = header.map((h, c) => Math.max(h.length, ...rows.map((r) => String(r[c]).length)));
const line = (r) => r.map((x, c) => (c === 0 ? String(x).padEnd(width[c]) : String(x).padStart(width[c]))).join("  ");
console.log(line(header));
for (const r of rows) console.log(line(r));
if (failures.length) {
  console.log("\nfailures:");
  for (const f of failures) console.log("  " + f);
}
console.log(`\nthree.js ${THREE.REVISION}: ${rows.length} files, ${failures.length} failures (tolerance ${RELATIVE_TOLERANCE} × extent)`);
process.exit(failures.length > 0 || rows.length === 0 ? 1 : 0);
