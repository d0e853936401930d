// Benchmark: time from the drop (the files handed to the page's file
// input) to the first animated frame drawn (the second frame rendered
// with the mixer running, and the GPU done with it: a pixel read back;
// `frames_ms` stops when the second frame was handed to WebGL, without
// waiting for the GPU), in headless Chromium
// (SwiftShader WebGL), for the viewer (our WebAssembly library + three.js
// GLTFLoader; an MD2 drawn from the scene's arrays) on faerie and Woman4,
// and faerie on a page loaded with `?nowarmup` (no MD2 shader compiled
// while the page loads), beside three.js's own MD2Loader on
// faerie in the same browser run, drawing the same view (bench/md2loader.js);
// and the sizes of what the page
// downloads. Run after `npm run build`:
//   node bench/bench.mjs [runs]
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { serve } from '../tests/serve.mjs';
import { launch, open } from '../tests/browser.mjs';

const web = fileURLToPath(new URL('..', import.meta.url));
const corpus = process.env.RETROMODEL_CORPUS ?? join(web, '../../shared/corpus');
const runs = Number(process.argv[2] ?? 5);
const faerie = [join(corpus, 'md2/assimpdeb_faerie.md2'), join(corpus, 'md2/faerie2.bmp')];
const woman = [join(corpus, 'ms3d/glscene_Woman4.ms3d')];

function sizes() {
  const dist = join(web, 'dist');
  const files = [];
  const walk = (d) => {
    for (const f of readdirSync(d)) {
      const p = join(d, f);
      if (statSync(p).isDirectory()) walk(p);
      else files.push(p);
    }
  };
  walk(dist);
  const viewer = files.filter((f) => !f.includes('/bench') && !/bench-[^/]*\.js$/.test(f));
  const wasm = viewer.find((f) => f.endsWith('.wasm'));
  const raw = (f) => statSync(f).size;
  const gz = (f) => gzipSync(readFileSync(f), { level: 9 }).length;
  return {
    wasm_raw: raw(wasm),
    wasm_gzip: gz(wasm),
    page_raw: viewer.reduce((n, f) => n + raw(f), 0),
    page_gzip: viewer.reduce((n, f) => n + gz(f), 0),
  };
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const server = await serve();
const browser = await launch();
const steps = {};
const results = { ours_faerie: [], ours_faerie_nowarmup: [], ours_woman4: [], md2loader_faerie: [] };
const handedOver = { ours_faerie: [], ours_faerie_nowarmup: [], ours_woman4: [], md2loader_faerie: [] };
const ready = { ours: [], ours_nowarmup: [] };

/** Drops `files` on the viewer page; its timing entry. */
async function dropOn(page, files) {
  const n = await page.evaluate(() => window.retromodel.state.timings.length);
  await page.setInputFiles('#pick-files', files);
  await page.waitForFunction((k) => window.retromodel.state.timings.length > k, n);
  return page.evaluate(() => window.retromodel.state.timings.at(-1));
}
try {
  for (let i = 0; i < runs; i++) {
    // A fresh page each run: nothing cached but the browser's HTTP cache.
    // The page without the shader warm-up (`?nowarmup`) and with it, in
    // turn first; faerie, and on the second page Woman4 after it.
    const pages = [['?nowarmup', 'ours_nowarmup', [['ours_faerie_nowarmup', faerie]]], ['', 'ours', [['ours_faerie', faerie], ['ours_woman4', woman]]]];
    if (i % 2 === 1) pages.reverse();
    let canvas;
    for (const [query, readyKey, drops] of pages) {
      const viewer = await open(browser, `${server.url}${query}`, { width: 1280, height: 800 });
      await viewer.page.waitForFunction(() => window.retromodel?.state.ready);
      ready[readyKey].push(await viewer.page.evaluate(() => performance.now()));
      for (const [key, files] of drops) {
        const t = await dropOn(viewer.page, files);
        results[key].push(t.ms);
        handedOver[key].push(t.frames_ms);
        (steps[key] ??= []).push(t.steps);
      }
      // The reference draws into a canvas of the viewer's canvas's size.
      canvas = await viewer.page.evaluate(() => {
        const c = document.getElementById('canvas');
        return { width: c.clientWidth, height: c.clientHeight };
      });
      await viewer.context.close();
    }
    const ref = await open(browser, `${server.url}bench/`, canvas);
    await ref.page.waitForFunction(() => window.benchReady);
    const handle = await ref.page.evaluateHandle(() => {
      const input = document.createElement('input');
      input.type = 'file';
      input.multiple = true;
      document.body.append(input);
      return input;
    });
    await handle.setInputFiles(faerie);
    const t = await ref.page.evaluate(async (input) => {
      const [model, skin] = input.files;
      return window.benchMd2Loader(model, skin);
    }, handle);
    results.md2loader_faerie.push(t.ms);
    handedOver.md2loader_faerie.push(t.frames_ms);
    (steps.md2loader_faerie ??= []).push(t.steps);
    await ref.context.close();
  }
} finally {
  await browser.close();
  await server.close();
}
const out = { runs, sizes: sizes() };
for (const [k, v] of Object.entries(results)) {
  out[k] = {
    median_ms: Number(median(v).toFixed(1)),
    all_ms: v.map((x) => Number(x.toFixed(1))),
    frames_median_ms: Number(median(handedOver[k]).toFixed(1)),
  };
}
// When the page was ready (its module loaded; with the warm-up, the MD2
// shader compiled), from the navigation's start.
out.page_ready_median_ms = Object.fromEntries(Object.entries(ready).map(([k, v]) => [k, Number(median(v).toFixed(1))]));
out.ratio_faerie_nowarmup = Number((out.ours_faerie_nowarmup.median_ms / out.md2loader_faerie.median_ms).toFixed(2));
out.ratio_faerie_ours_to_md2loader = Number((out.ours_faerie.median_ms / out.md2loader_faerie.median_ms).toFixed(2));
out.ratio_faerie_frames = Number((out.ours_faerie.frames_median_ms / out.md2loader_faerie.frames_median_ms).toFixed(2));
out.steps_ms = Object.fromEntries(Object.entries(steps).map(([k, v]) => [k, Object.fromEntries(Object.keys(v[0]).map((s) => [s, Number(median(v.map((x) => x[s])).toFixed(1))]))]));
console.log(JSON.stringify(out, null, 2));
