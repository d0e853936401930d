// Times three.js's MD2Loader.parse on MD2 files, for bench/compare.sh,
// measured the same way as assimp_harness.cpp and bench_parse.rs.
//
// Usage: node three_harness.mjs LOADER_JS ITERATIONS FILE...
// LOADER_JS is the path of three/examples/jsm/loaders/MD2Loader.js inside an
// installed `three` package (it imports 'three', found from its own place).
// MD2Loader.parse decodes every frame into morph-target position and normal
// arrays, so it compares with our parse + decode of all frames.
// Output lines: "RESULT threejs_md2loader <file> <median µs per op> <fastest µs per op>".
import { readFileSync } from 'node:fs';
import { basename, extname, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const [loaderPath, iterationsArg, ...files] = process.argv.slice(2);
const iterations = Number.parseInt(iterationsArg, 10);
if (!loaderPath || !(iterations > 0) || files.length === 0) {
  console.error('usage: node three_harness.mjs LOADER_JS ITERATIONS FILE...');
  process.exit(2);
}
const { MD2Loader } = await import(pathToFileURL(resolve(loaderPath)).href);
const loader = new MD2Loader();
const BATCH = 10;

function timePerOp(n, op) {
  // A longer warm-up than the native harnesses: the JIT needs it.
  for (let i = 0; i < Math.max(n / 4, 50); i++) op();
  const samples = [];
  for (let b = 0; b < Math.max(Math.floor(n / BATCH), 1); b++) {
    const t0 = process.hrtime.bigint();
    for (let i = 0; i < BATCH; i++) op();
    samples.push(Number(process.hrtime.bigint() - t0) / 1000 / BATCH);
  }
  samples.sort((x, y) => x - y);
  return [samples[Math.floor(samples.length / 2)], samples[0]];
}

for (const file of files) {
  const bytes = readFileSync(file);
  const buffer = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
  let vertices = 0;
  const [med, min] = timePerOp(iterations, () => {
    const geometry = loader.parse(buffer);
    vertices += geometry.morphAttributes.position.length;
  });
  if (vertices === 0) {
    console.error(`three.js decoded no frames from ${file}`);
    process.exit(1);
  }
  const name = basename(file, extname(file));
  console.log(`RESULT threejs_md2loader ${name} ${med.toFixed(3)} ${min.toFixed(3)}`);
}
