// The page: dropped files go to the library (WebAssembly), whose info,
// validate and convert results are shown; the scene it makes (a GLB, or
// an MD2's arrays) is drawn by three.js (viewer.js). `window.retromodel`
// exposes the state for the browser tests and the benchmark.
import init, { DroppedFiles, LoadedModel } from './pkg/retromodel_wasm.js';
import { Viewer } from './viewer.js';
import { filesOfDrop, filesOfList, readAll } from './dropped.js';
import { download } from './download.js';

const $ = (id) => document.getElementById(id);
const viewer = new Viewer($('canvas'));
const state = {
  ready: false,
  loading: false,
  files: null,
  model: null,
  path: null,
  info: null,
  problems: [],
  animations: [],
  clips: [],
  skinGiven: null,
  // A Quake III MD3's skin sets (`default`, `red`…) and the one shown.
  skinSets: [],
  skinSet: null,
  // A Quake III player's: the clips its upper body can play apart from
  // the legs (indices into `clips`), and the one it plays (-1: the legs').
  torsoClips: [],
  torso: -1,
  error: null,
  preview: false,
  timings: [],
  loads: 0,
};
window.retromodel = { state, viewer };

const wasmReady = init().then(() => {
  state.ready = true;
});
// The MD2 shader, compiled while the module downloads and compiles (off
// the main thread); `?nowarmup` leaves it to the first model (the
// benchmark measures both).
if (!new URLSearchParams(location.search).has('nowarmup')) viewer.warmUp();

function options() {
  return {
    quantize: $('opt-quantize').checked,
    compress: $('opt-compress').checked,
  };
}

function setStatus(text) {
  $('status').textContent = text;
}

function showError(message) {
  state.error = message;
  $('error').hidden = !message;
  $('error').textContent = message ?? '';
}

function escapeHtml(s) {
  return String(s).replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]);
}

function showProblems(problems) {
  $('problem-count').textContent = String(problems.length);
  if (problems.length === 0) {
    $('problems').innerHTML = '<p class="ok">No problems found.</p>';
    return;
  }
  const rows = problems
    .map(
      (p) =>
        `<tr><td class="sev-${escapeHtml(p.severity)}">${escapeHtml(p.severity)}</td>` +
        `<td><code>${escapeHtml(p.path)}</code>${p.offset == null ? '' : `<br><code>@${p.offset} (0x${p.offset.toString(16)})</code>`}</td>` +
        `<td>${escapeHtml(p.message)}</td></tr>`,
    )
    .join('');
  $('problems').innerHTML = `<table><thead><tr><th>severity</th><th>where</th><th>problem</th></tr></thead><tbody>${rows}</tbody></table>`;
}

function showWarnings(warnings) {
  $('warnings').innerHTML = warnings.length
    ? warnings.map((w) => `<li>${escapeHtml(w.kind)}: ${escapeHtml(w.message)}</li>`).join('')
    : '<li>none</li>';
}

function resetPanels() {
  $('info').textContent = 'No model.';
  $('problems').innerHTML = '';
  $('problem-count').textContent = '';
  $('warnings').innerHTML = '';
  $('anim-panel').hidden = true;
  $('skin-panel').hidden = true;
  $('export-panel').hidden = true;
  $('legend').hidden = true;
}

/**
 * Fills the animation list: the model's animations as `info` lists them,
 * each played by the GLB's clip of that name (an MS3D timeline without
 * keyframes has none); for an MD2 preview, the MD2's clips.
 */
function showAnimations(clips) {
  const select = $('animations');
  select.innerHTML = '';
  // The model's own list (`info`), else (a format whose info lists none,
  // such as an MD3 without animation.cfg) the GLB's clips.
  const own = state.animations ?? [];
  const listed = state.preview || own.length === 0 ? clips.map((c) => ({ name: c.name })) : own;
  for (const entry of listed) {
    const index = clips.findIndex((c) => c.name === entry.name);
    const frames = entry.frames != null ? ` · ${entry.frames} frames` : '';
    const length = index >= 0 ? ` · ${clips[index].duration.toFixed(2)} s` : ' · no keyframes';
    const option = new Option(`${entry.name}${frames}${length}`, String(index));
    option.disabled = index < 0;
    select.add(option);
  }
  $('anim-panel').hidden = listed.length === 0;
  showTorso(clips);
  $('interp-label').hidden = state.model?.format !== 'md2' && !state.preview;
  const first = [...select.options].find((o) => !o.disabled);
  for (const id of ['play', 'scrub', 'speed']) $(id).disabled = !first;
  if (first) {
    select.value = first.value;
    startClip(Number(first.value));
  } else {
    select.selectedIndex = 0;
    viewer.play(-1);
    $('frame-out').textContent = '–';
  }
}

/**
 * A Quake III player's upper body can play an animation of its own (the
 * TORSO_ and BOTH_ ones: those with upper-body tracks) while the legs play
 * the one chosen above, as in the game; -1: it follows that one.
 */
function showTorso(clips) {
  const select = $('torso');
  select.innerHTML = '';
  state.torsoClips = state.model?.isMd3Player && !state.preview ? viewer.torsoClips() : [];
  state.torso = -1;
  select.add(new Option('as the animation above', '-1'));
  for (const i of state.torsoClips) select.add(new Option(clips[i].name, String(i)));
  select.value = '-1';
  $('torso-label').hidden = state.torsoClips.length === 0;
}

function startClip(index) {
  viewer.play(index);
  const clip = viewer.clips[index];
  $('scrub').max = String(Math.round((clip?.duration ?? 0) * 1000));
  setPlaying(state.playing ?? true);
}

function setPlaying(playing) {
  state.playing = playing;
  viewer.playing = playing;
  $('play').textContent = playing ? 'Pause' : 'Play';
}

function frameLabel(seconds) {
  const clip = viewer.action?.getClip();
  const entry = clip && state.animations.find((a) => a.name === clip.name);
  if (clip && clip.duration === 0) return '0';
  if (entry?.frames && clip.duration > 0) {
    // Keys are one per frame (plus the loop's closing key).
    const keys = clip.tracks[0]?.times.length ?? entry.frames;
    return `${Math.min(Math.floor((seconds / clip.duration) * (keys - 1) + 1e-6), keys - 1) % entry.frames}`;
  }
  return Number.isFinite(seconds) ? `${seconds.toFixed(2)} s` : '–';
}

viewer.onTime = (action) => {
  if (!action) return;
  $('scrub').value = String(Math.round(action.time * 1000));
  $('frame-out').textContent = frameLabel(action.time);
};

/** The GLB of the current model as `retromodel convert MODEL STEM.glb` makes it. */
function convert(format) {
  return state.model.convert(format, JSON.stringify(options()), $('opt-autoskin').checked);
}

async function showGlb(glb, images, materialImages, emissiveImages = []) {
  return showClips(await viewer.show(glb, images, materialImages, emissiveImages));
}

/** Fills the animation list with the clips of the model just shown, and frames it. */
function showClips(clips) {
  state.clips = clips.map((c) => ({ name: c.name, duration: c.duration }));
  showAnimations(clips);
  // Framed in the first clip's first pose (a skinned model's rest pose
  // can be far from it).
  viewer.frame();
  return clips;
}

/** Loads the dropped model at `path`. */
async function loadModel(path, started = performance.now(), skinSet = null) {
  await wasmReady;
  state.loading = true;
  state.preview = false;
  showError(null);
  resetPanels();
  $('hint').hidden = true;
  setStatus(`reading ${path}…`);
  try {
    state.model?.free();
    state.model = null;
    const phases = { start: started, files: performance.now() };
    const model = skinSet ? LoadedModel.loadWithSkinSet(state.files, path, skinSet) : LoadedModel.load(state.files, path);
    phases.read = performance.now();
    state.model = model;
    state.path = path;
    // The animation list needs info's animations; the rest of the panels
    // are filled once the model is on screen.
    state.animations = JSON.parse(model.animations());
    // What is drawn: the scene of the .glb download (made only when
    // asked for) with its decoded images as pixels, not PNG.
    const drawn = model.display(JSON.stringify(options()), $('opt-autoskin').checked);
    state.skinGiven = drawn.skin ?? null;
    const materialImages = [...drawn.materialImages()];
    const emissiveImages = [...drawn.materialEmissiveImages()];
    const images = [];
    for (const i of [...materialImages, ...emissiveImages]) {
      if (i >= 0 && !images[i]) images[i] = { width: drawn.imageWidth(i), height: drawn.imageHeight(i), pixels: drawn.imagePixels(i) };
    }
    const warnings = JSON.parse(drawn.warnings());
    // An MD2 comes as arrays (no GLB written nor parsed), anything else
    // as a GLB.
    const arrays = drawn.arrays();
    const glb = arrays ? null : drawn.glb();
    drawn.free();
    phases.convert = performance.now();
    if (arrays) {
      showClips(viewer.showArrays(arrays, images[materialImages[arrays.materialIndex] ?? -1] ?? null));
      arrays.free();
    } else {
      await showGlb(glb, images, materialImages, emissiveImages);
    }
    phases.three = performance.now();
    await viewer.nextFrame();
    // A second frame: the mixer has advanced, the model is animated.
    phases.frames = await viewer.nextFrame();
    // Drawn: the GPU has done the frames' work (with SwiftShader, the
    // shaders' compilation ends here).
    viewer.finish();
    const shown = performance.now();
    const ms = shown - started;
    phases.gpu = shown;
    const steps = {};
    let last = started;
    for (const [k, t] of Object.entries(phases).slice(1)) {
      steps[k] = Number((t - last).toFixed(1));
      last = t;
    }
    state.info = JSON.parse(model.info());
    state.problems = JSON.parse(model.validate());
    $('info').textContent = model.infoText();
    showProblems(state.problems);
    showWarnings(warnings);
    showSkins(model);
    $('export-panel').hidden = false;
    $('preview-md2').hidden = model.format === 'md2';
    $('export-note').textContent = state.skinGiven ? `Skin given as --skin: ${state.skinGiven}` : '';
    // ms: until drawn; frames_ms: until the second frame was handed to
    // WebGL (the benchmark's measure before the GPU wait was counted).
    state.timings.push({ path, ms, frames_ms: phases.frames - started, steps });
    const whole = model.isMd3Player ? ' (the whole player: upper.md3 at tag_torso, head.md3 at tag_head)' : '';
    setStatus(`${path}: ${model.format}${whole} · on screen in ${ms.toFixed(0)} ms`);
  } catch (e) {
    viewer.clear();
    resetPanels();
    showError(`${path}: ${e?.message ?? e}`);
    setStatus('');
  } finally {
    state.loading = false;
    state.loads++;
  }
}

function showSkins(model) {
  const select = $('skins');
  select.innerHTML = '';
  // A Quake III MD3: its skin sets (lower_red.skin…), each a reload.
  state.skinSets = JSON.parse(model.skinSets());
  state.skinSet = state.skinSets.length ? model.skinSet ?? 'default' : null;
  if (state.skinSets.length) {
    for (const set of state.skinSets) select.add(new Option(set, `set:${set}`));
    select.value = `set:${state.skinSet}`;
    $('skin-panel').hidden = false;
    return;
  }
  const skins = JSON.parse(model.skins());
  skins.forEach((s, i) => {
    // An MDL's skins are in the model (palette indices, coloured by a
    // dropped gfx/palette.lmp); an MD2's are files found among the dropped.
    const text = s.embedded ? s.name : s.file ? `${s.name} → ${s.file}` : `${s.name} (${s.error ?? 'not found'})`;
    const option = new Option(text, String(i));
    option.title = option.text;
    option.disabled = !s.embedded && !s.file;
    select.add(option);
  });
  $('skin-panel').hidden = skins.length === 0;
}

async function takeFiles(list, started) {
  await wasmReady;
  try {
    const read = await readAll(list);
    state.files?.free();
    state.files = new DroppedFiles();
    for (const { path, bytes } of read) state.files.add(path, bytes);
    const models = state.files.models();
    const select = $('models');
    select.innerHTML = '';
    for (const m of models) {
      const option = new Option(m, m);
      option.title = m;
      select.add(option);
    }
    $('models-panel').hidden = models.length < 2;
    if (models.length === 0) {
      viewer.clear();
      resetPanels();
      showError(`no model among the ${read.length} file(s) dropped (.mdl, .md2, .md3, .ms3d, .iqm, .glb, .gltf, .obj)`);
      state.loads++;
      return;
    }
    select.value = models[0];
    await loadModel(models[0], started);
  } catch (e) {
    showError(e?.message ?? String(e));
    state.loads++;
  }
}

// Drop anywhere on the page.
document.addEventListener('dragover', (e) => {
  e.preventDefault();
  document.body.classList.add('over');
});
document.addEventListener('dragleave', (e) => {
  if (e.relatedTarget == null) document.body.classList.remove('over');
});
document.addEventListener('drop', async (e) => {
  e.preventDefault();
  document.body.classList.remove('over');
  const started = performance.now();
  takeFiles(await filesOfDrop(e.dataTransfer), started);
});
for (const id of ['pick-files', 'pick-folder']) {
  $(id).addEventListener('change', (e) => {
    const started = performance.now();
    takeFiles(filesOfList(e.target.files), started);
    e.target.value = '';
  });
}
$('models').addEventListener('change', (e) => loadModel(e.target.value));

// Animation controls.
$('animations').addEventListener('change', (e) => startClip(Number(e.target.value)));
$('torso').addEventListener('change', (e) => {
  state.torso = Number(e.target.value);
  viewer.playTorso(state.torso);
  setPlaying(state.playing ?? true);
});
$('play').addEventListener('click', () => setPlaying(!state.playing));
$('speed').addEventListener('input', (e) => {
  viewer.setSpeed(Number(e.target.value));
  $('speed-out').textContent = `${Number(e.target.value).toFixed(1)}×`;
});
$('scrub').addEventListener('input', (e) => {
  setPlaying(false);
  viewer.seek(Number(e.target.value) / 1000);
  $('frame-out').textContent = frameLabel(Number(e.target.value) / 1000);
});
$('loop').addEventListener('change', (e) => viewer.setFlag('loop', e.target.checked));
$('interp').addEventListener('change', (e) => {
  viewer.setFlag('interpolate', e.target.checked);
  startClip(Number($('animations').value || 0));
});
for (const [id, flag] of [['wireframe', 'wireframe'], ['normals', 'normals'], ['bbox', 'bbox'], ['grid', 'grid']]) {
  $(id).addEventListener('change', (e) => viewer.setFlag(flag, e.target.checked));
}
$('skins').addEventListener('change', async (e) => {
  if (e.target.value.startsWith('set:')) {
    await loadModel(state.path, performance.now(), e.target.value.slice(4));
    return;
  }
  try {
    await viewer.setSkin(state.model.skinPng(Number(e.target.value)));
  } catch (err) {
    showError(err?.message ?? String(err));
  }
});

// Downloads: the files `retromodel convert` writes, made here.
function downloadConverted(format) {
  state.downloaded = null;
  state.downloadedSkin = null;
  try {
    showError(null);
    const converted = convert(format);
    const names = [];
    for (let i = 0; i < converted.fileCount; i++) {
      names.push(converted.fileName(i));
      download(converted.fileName(i), converted.fileBytes(i));
    }
    state.downloadedSkin = converted.skin ?? null;
    state.downloaded = names;
    showWarnings(JSON.parse(converted.warnings()));
    converted.free();
  } catch (e) {
    showError(e?.message ?? String(e));
  }
}
$('dl-glb').addEventListener('click', () => downloadConverted('glb'));
$('dl-obj').addEventListener('click', () => downloadConverted('obj'));
$('dl-md2').addEventListener('click', () => downloadConverted('md2'));

$('preview-md2').addEventListener('click', async () => {
  try {
    showError(null);
    const preview = state.model.md2Preview(JSON.stringify(options()));
    const errors = preview.stepError();
    const report = JSON.parse(preview.report());
    showWarnings(JSON.parse(preview.warnings()));
    state.preview = true;
    await showGlb(preview.glb());
    viewer.colourByError(errors);
    preview.free();
    let max = 0;
    for (const e of errors) max = Math.max(max, e);
    state.previewMaxStepError = max;
    $('legend').hidden = false;
    $('export-note').textContent = `As MD2: ${errors.length} vertices, largest error ${max.toFixed(3)} grid step` +
      (report.frames != null ? `, ${report.frames} frames` : '');
  } catch (e) {
    showError(e?.message ?? String(e));
  }
});
