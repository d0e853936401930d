// The viewer in headless Chromium against the command line: for the
// sample and corpus models, the animation list and counts equal
// `retromodel info --json`'s; playing changes the canvas and pausing
// freezes it; the downloaded .glb, .obj (with its .mtl and textures) and
// .md2 are byte-identical to `retromodel convert`'s with the same options;
// what the page draws (an MD2 from the scene's arrays, its frames blended
// on the CPU; other models from the .glb's scene; images handed over as
// pixels) is pixel for pixel what three.js's GLTFLoader draws of the
// command line's .glb, in three poses; a picked folder (a game tree) finds the model's skin by the
// library's lookup rules, and a skin name leading out of the model's
// folders is refused although the file it points at was dropped; a
// Quake III player folder (OpenArena's sarge) is the whole player with its
// skin sets, the cfg's animations and legs and torso apart; an IQM
// (mrfixit) shows textured by the TGAs its materials name, its info,
// validate and .glb the CLI's, its idle drawn as GLTFLoader draws it; a
// truncated file shows an error and the next good file still loads; no
// request leaves localhost; the screenshots (test-output/*.png) show a
// model covering the viewport, textured where the model has a texture.
//
// Run by web/test.sh (needs dist/ built, RETROMODEL_BIN the CLI, and
// RETROMODEL_CORPUS the corpus).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { copyFileSync, cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { serve } from './serve.mjs';
import { launch, open } from './browser.mjs';

const web = fileURLToPath(new URL('..', import.meta.url));
const root = join(web, '..');
const corpus = process.env.RETROMODEL_CORPUS ?? join(root, '../shared/corpus');
const cli = process.env.RETROMODEL_BIN ?? join(root, 'target/debug/retromodel');
const shots = join(web, 'test-output');
mkdirSync(shots, { recursive: true });

// name, the files dropped (the model first), whether it has a texture.
const CASES = [
  { name: 'sample', files: [join(root, 'examples/models/sample.md2'), join(root, 'examples/models/sample.pcx')], textured: true },
  { name: 'faerie', files: [join(corpus, 'md2/assimpdeb_faerie.md2'), join(corpus, 'md2/faerie2.bmp')], textured: true },
  { name: 'sydney', files: [join(corpus, 'md2/assimpdeb_sydney.md2'), join(corpus, 'md2/sydney.bmp')], textured: true },
  { name: 'jeep1', files: [join(corpus, 'ms3d/assimpdeb_jeep1.ms3d'), join(corpus, 'ms3d/jeep1.jpg')], textured: true },
  { name: 'Woman4', files: [join(corpus, 'ms3d/glscene_Woman4.ms3d')], textured: false },
];

function retromodel(args, cwd) {
  return execFileSync(cli, args, { cwd, encoding: 'buffer', stdio: ['ignore', 'pipe', 'pipe'] });
}

/** The files alone in a fresh folder, as the page was given them. */
function folderOf(files) {
  const dir = mkdtempSync(join(tmpdir(), 'retromodel-web-'));
  for (const f of files) copyFileSync(f, join(dir, basename(f)));
  return dir;
}

let server;
let browser;
let session;
before(async () => {
  for (const c of CASES) for (const f of c.files) assert.ok(existsSync(f), `missing ${f} (corpus at ${corpus})`);
  assert.ok(existsSync(cli), `missing the CLI at ${cli}`);
  server = await serve();
  browser = await launch();
  session = await open(browser, server.url);
  await session.page.waitForFunction(() => window.retromodel?.state.ready, null, { timeout: 60_000 });
});
after(async () => {
  await browser?.close();
  await server?.close();
});

/** Gives the page files (as a pick would) and waits until it has tried them. */
async function give(page, files) {
  const loads = await page.evaluate(() => window.retromodel.state.loads);
  await page.setInputFiles('#pick-files', files);
  await page.waitForFunction((n) => window.retromodel.state.loads > n, loads, { timeout: 120_000 });
  return page.evaluate(() => {
    const s = window.retromodel.state;
    return { error: s.error, info: s.info, animations: s.animations, clips: s.clips, skinGiven: s.skinGiven, textured: window.retromodel.viewer.textured() };
  });
}

/** A hash of the canvas after `frames` more frames are drawn. */
async function canvasShot(page, frames = 2) {
  return page.evaluate(async (n) => {
    const v = window.retromodel.viewer;
    for (let i = 0; i < n; i++) await v.nextFrame();
    return v.pixelHash();
  }, frames);
}

/** Clicks a download button; the files it saved, by name, in the order the page lists them (the main one last). */
async function downloadsOf(page, button) {
  const events = [];
  const listener = (d) => events.push(d);
  page.on('download', listener);
  try {
    await page.evaluate(() => {
      window.retromodel.state.downloaded = undefined;
    });
    await page.click(button);
    await page.waitForFunction(() => window.retromodel.state.downloaded !== undefined);
    const names = await page.evaluate(() => window.retromodel.state.downloaded);
    assert.ok(names, `no download: ${await page.evaluate(() => window.retromodel.state.error)}`);
    for (let i = 0; i < 100 && events.length < names.length; i++) await page.waitForTimeout(50);
    // The browser may report downloads started together in any order: the
    // set must match, and the files are returned in the page's order.
    assert.deepEqual(events.map((d) => d.suggestedFilename()).sort(), [...names].sort());
    const dir = mkdtempSync(join(tmpdir(), 'retromodel-dl-'));
    const files = new Map();
    for (const name of names) {
      const d = events.find((e) => e.suggestedFilename() === name);
      const path = join(dir, name);
      await d.saveAs(path);
      files.set(name, readFileSync(path));
    }
    rmSync(dir, { recursive: true, force: true });
    return files;
  } finally {
    page.off('download', listener);
  }
}

/** Asserts that every file downloaded is byte-identical to the CLI's, in `dir`. */
function sameAsCli(files, dir) {
  for (const [name, bytes] of files) {
    const cli = readFileSync(join(dir, name));
    assert.ok(bytes.equals(cli), `${name} (${bytes.length} bytes) differs from the CLI's (${cli.length} bytes)`);
  }
}

/**
 * Clicks the download `button` and compares what it saves with what
 * `retromodel convert MODEL SUBDIR/STEM.EXT` (with the `--skin` the page
 * used) writes in `dir`: byte for byte, or, where the CLI cannot make one,
 * the page shows the CLI's error. Returns the files saved (null for an
 * error).
 */
async function sameDownloadAsCli(page, button, dir, model, ext) {
  const stem = model.replace(/\.[^.]+$/, '');
  mkdirSync(join(dir, ext), { recursive: true });
  await page.evaluate(() => {
    window.retromodel.state.downloaded = undefined;
    window.retromodel.state.error = null;
  });
  await page.click(button);
  await page.waitForFunction(() => window.retromodel.state.downloaded !== undefined || window.retromodel.state.error);
  const skin = await page.evaluate(() => window.retromodel.state.downloadedSkin);
  let cliError = null;
  try {
    retromodel(['convert', model, `${ext}/${stem}.${ext}`, ...(skin ? ['--skin', skin] : [])], dir);
  } catch (e) {
    cliError = e.stderr.toString();
  }
  if (cliError) {
    const pageError = await page.evaluate(() => window.retromodel.state.error);
    assert.ok(pageError, `the CLI failed (${cliError}) but the page did not`);
    // The same problem; its advice is worded by each front end (the CLI
    // names its flags, the page the library's neutral words): compare up to
    // the advice, which follows the first "; ".
    const message = pageError.slice(pageError.indexOf(': ') + 2).split('; ')[0];
    assert.ok(cliError.includes(message), `page: ${pageError}\nCLI: ${cliError}`);
    return null;
  }
  const files = await downloadsOf(page, button);
  assert.equal([...files.keys()].at(-1), `${stem}.${ext}`);
  // Every file the CLI wrote was downloaded, and nothing else.
  assert.deepEqual([...files.keys()].sort(), readdirSync(join(dir, ext)).sort());
  sameAsCli(files, join(dir, ext));
  return files;
}

/**
 * The canvas hash of clip 0 paused at `seconds`, the camera framed on its
 * first pose as the page frames a model, grid hidden.
 */
async function poseHash(page, seconds) {
  return page.evaluate(async (t) => {
    const v = window.retromodel.viewer;
    v.playing = false;
    v.play(0);
    v.frame();
    v.seek(t);
    await v.nextFrame();
    await v.nextFrame();
    return v.pixelHash();
  }, seconds);
}

for (const c of CASES) {
  test(`${c.name}: info, animations, playback, downloads and pixels match the CLI`, async () => {
    const { page } = session;
    const dir = folderOf(c.files);
    const model = basename(c.files[0]);
    try {
      const got = await give(page, c.files);
      assert.equal(got.error, null, `the page failed: ${got.error}`);
      // info: the same JSON object as the CLI's.
      const cliInfo = JSON.parse(retromodel(['info', '--json', model], dir).toString());
      assert.deepEqual(got.info, cliInfo);
      // The animation list: names and counts as the CLI lists them, and
      // one three.js clip for each, in order.
      const cliAnims = cliInfo.animations ?? cliInfo.clips ?? [];
      assert.equal(got.animations.length, cliAnims.length);
      got.animations.forEach((a, i) => {
        assert.equal(a.name, cliAnims[i].name);
        const frames = cliAnims[i].frame_count ?? (cliAnims[i].last_frame != null ? cliAnims[i].last_frame - cliAnims[i].first_frame : undefined);
        if (frames !== undefined) assert.equal(a.frames, frames, `frames of ${a.name}`);
      });
      // Every clip of the GLB is one of them (an MS3D timeline without
      // keyframes has none), in the same order.
      const names = got.animations.map((a) => a.name);
      assert.deepEqual(got.clips.map((k) => k.name), names.filter((n) => got.clips.some((k) => k.name === n)));
      const listed = await page.locator('#animations option').allTextContents();
      assert.deepEqual(listed.map((t) => t.split(' · ')[0]), cliAnims.map((a) => a.name));

      // Playing changes the canvas; paused, it stays.
      await page.uncheck('#grid');
      if (got.clips.length > 0) {
        const a = await canvasShot(page);
        await page.waitForTimeout(400);
        const b = await canvasShot(page);
        assert.notEqual(a, b, 'the canvas did not change while playing');
        await page.click('#play');
        await page.waitForTimeout(100);
        const p = await canvasShot(page);
        await page.waitForTimeout(400);
        const q = await canvasShot(page);
        assert.equal(p, q, 'the canvas changed while paused');
        await page.click('#play');
      }

      // Pixels: a model covering part of the viewport, textured when it has a texture.
      const stats = await page.evaluate(() => window.retromodel.viewer.pixelStats());
      await page.screenshot({ path: join(shots, `${c.name}.png`) });
      assert.ok(stats.fraction > 0.02, `the model covers ${(stats.fraction * 100).toFixed(2)}% of the canvas`);
      assert.equal(got.textured, c.textured, 'textured');
      if (c.textured) assert.ok(stats.colours > 150, `only ${stats.colours} colours: untextured?`);
      await page.check('#grid');

      // The .glb downloaded: byte-identical to `retromodel convert` with the same options.
      const stem = model.replace(/\.[^.]+$/, '');
      const skin = got.skinGiven ? ['--skin', got.skinGiven] : [];
      const glb = await downloadsOf(page, '#dl-glb');
      assert.deepEqual([...glb.keys()], [`${stem}.glb`]);
      mkdirSync(join(dir, 'glb'));
      retromodel(['convert', model, `glb/${stem}.glb`, ...skin], dir);
      sameAsCli(glb, join(dir, 'glb'));

      // What the page draws (an MD2 from its scene's arrays, blended on
      // the CPU; others from the .glb's scene; images handed over as
      // pixels) is what three.js's GLTFLoader draws of the CLI's .glb.
      if (got.clips.length > 0) {
        // Poses between keys (an MD2's frames blended) and past the
        // first clip's end.
        const times = [0.35, 0.83, 2.04];
        const drawn = [];
        for (const t of times) drawn.push(await poseHash(page, t));
        const cliGlb = readFileSync(join(dir, 'glb', `${stem}.glb`)).toString('base64');
        await page.evaluate(async (b64) => {
          const bytes = Uint8Array.from(atob(b64), (ch) => ch.charCodeAt(0));
          await window.retromodel.viewer.show(bytes);
        }, cliGlb);
        assert.equal(await page.evaluate(() => window.retromodel.viewer.textured()), c.textured);
        for (const [i, t] of times.entries()) {
          assert.equal(await poseHash(page, t), drawn[i], `at ${t} s the page draws otherwise than GLTFLoader draws the CLI's .glb`);
        }
        // Back to the page's own drawing of the model.
        await give(page, c.files);
      }

      // The .obj with its .mtl and textures, and the .md2 with its skin (a
      // rewrite for an MD2, compiled for an MS3D).
      const obj = await sameDownloadAsCli(page, '#dl-obj', dir, model, 'obj');
      if (obj && c.textured) assert.ok([...obj.keys()].some((n) => n.endsWith('.png')), `no texture among ${[...obj.keys()]}`);
      await sameDownloadAsCli(page, '#dl-md2', dir, model, 'md2');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
}

/** The JSON chunk of a GLB. */
function glbJson(glb) {
  assert.equal(glb.toString('latin1', 0, 4), 'glTF');
  const length = glb.readUInt32LE(12);
  return JSON.parse(glb.toString('utf8', 20, 20 + length));
}

/** A copy of `md2` whose first skin name is `name`. */
function withSkinName(md2, name) {
  const copy = Buffer.from(md2);
  const ofsSkins = copy.readInt32LE(44);
  assert.ok(copy.readInt32LE(20) >= 1, 'the model names no skin');
  copy.fill(0, ofsSkins, ofsSkins + 64);
  copy.write(name, ofsSkins, 'latin1');
  return copy;
}

test('a picked folder: the skin is found in another folder of the game tree by the lookup rules; a name leading out of the model\'s folders is refused', async () => {
  const { page } = session;
  const tree = join(corpus, 'gametrees/blobandconquer');
  // The folder picked (webkitdirectory: paths relative to its parent,
  // `blobandconquer/gfx/md2/spiderBlob.md2`), with a second model naming
  // the same skin file by a `..` path.
  const top = mkdtempSync(join(tmpdir(), 'retromodel-tree-'));
  const picked = join(top, 'blobandconquer');
  cpSync(tree, picked, { recursive: true });
  const model = 'blobandconquer/gfx/md2/spiderBlob.md2';
  const escaping = 'blobandconquer/gfx/md2/escape.md2';
  const skinFile = 'blobandconquer/textures/game/shotgunSpiderBlob.png';
  writeFileSync(join(top, escaping), withSkinName(readFileSync(join(top, model)), '../../textures/game/shotgunSpiderBlob.png'));
  try {
    await page.check('#opt-autoskin');
    const loads = await page.evaluate(() => window.retromodel.state.loads);
    await page.setInputFiles('#pick-folder', picked);
    await page.waitForFunction((n) => window.retromodel.state.loads > n, loads, { timeout: 120_000 });
    const paths = await page.locator('#models option').allTextContents();
    assert.deepEqual(paths.sort(), [escaping, model].sort());
    await page.selectOption('#models', model);
    await page.waitForFunction((n) => window.retromodel.state.loads > n + 1 && window.retromodel.state.path === 'blobandconquer/gfx/md2/spiderBlob.md2', loads);
    let state = await page.evaluate(() => ({ ...window.retromodel.state, textured: window.retromodel.viewer.textured() }));
    assert.equal(state.error, null);
    // The CLI, run where the folder was picked from with that folder's
    // parent as a texture root, as the page's set of files is.
    const cliInfo = JSON.parse(retromodel(['info', '--json', model], top).toString());
    assert.deepEqual(state.info, cliInfo);
    assert.deepEqual(cliInfo.skins, ['shotgunSpiderBlob.png']);
    // Found by the model's own name, in another folder: not a --skin.
    assert.equal(state.skinGiven, null);
    assert.equal(state.textured, true);
    const skins = await page.locator('#skins option').allTextContents();
    assert.deepEqual(skins, [`shotgunSpiderBlob.png → ${skinFile}`]);
    assert.ok(!(await page.locator('#warnings').textContent()).includes('not found'));
    await page.uncheck('#grid');
    const stats = await page.evaluate(() => window.retromodel.viewer.pixelStats());
    await page.screenshot({ path: join(shots, 'gametree-spiderBlob.png') });
    assert.ok(stats.fraction > 0.02, `the model covers ${(stats.fraction * 100).toFixed(2)}% of the canvas`);
    // The GLB is the CLI's, which finds the skin under the same root.
    const glb = await downloadsOf(page, '#dl-glb');
    mkdirSync(join(top, 'cli'));
    retromodel(['convert', model, 'cli/spiderBlob.glb', '--texture-dir', '.'], top);
    sameAsCli(glb, join(top, 'cli'));
    assert.deepEqual(glbJson(glb.get('spiderBlob.glb')).images?.map((i) => i.name), ['shotgunSpiderBlob.png']);
    // And the page draws what GLTFLoader draws of it. (The skin is a
    // small, nearly black image: textured shows in the pixels as the
    // difference from the same model untextured, below.)
    const textured = await poseHash(page, 0.35);
    await page.evaluate(async (b64) => {
      await window.retromodel.viewer.show(Uint8Array.from(atob(b64), (ch) => ch.charCodeAt(0)));
    }, glb.get('spiderBlob.glb').toString('base64'));
    assert.equal(await poseHash(page, 0.35), textured, 'the page draws otherwise than GLTFLoader draws the CLI\'s .glb');

    // A skin name with `..`: refused by the lookup rules although the file
    // it leads to was dropped; without --skin the model is untextured.
    await page.uncheck('#opt-autoskin');
    await page.selectOption('#models', escaping);
    await page.waitForFunction(() => window.retromodel.state.path === 'blobandconquer/gfx/md2/escape.md2' && !window.retromodel.state.loading);
    state = await page.evaluate(() => ({ ...window.retromodel.state, textured: window.retromodel.viewer.textured() }));
    assert.equal(state.error, null);
    assert.equal(state.textured, false);
    const refused = await page.locator('#skins option').allTextContents();
    assert.equal(refused.length, 1);
    assert.match(refused[0], /^\.\.\/\.\.\/textures\/game\/shotgunSpiderBlob\.png \(.*refused/);
    assert.match(await page.locator('#warnings').textContent(), /refused/);
    assert.notEqual(await poseHash(page, 0.35), textured, 'the same pixels without the skin');
    const escaped = await downloadsOf(page, '#dl-glb');
    retromodel(['convert', escaping, 'cli/escape.glb', '--texture-dir', '.'], top);
    sameAsCli(escaped, join(top, 'cli'));
    assert.equal(glbJson(escaped.get('escape.glb')).images, undefined, 'the refused file was used');
  } finally {
    await page.check('#opt-autoskin');
    await page.check('#grid');
    rmSync(top, { recursive: true, force: true });
  }
});

test('a Quake MDL with gfx/palette.lmp: info, animations, every skin image, a frame group playing, the .glb as the CLI\'s with --palette', async () => {
  const { page } = session;
  const palette = join(corpus, 'quake/palette.lmp');
  const facts = JSON.parse(readFileSync(join(corpus, 'mdl/facts.json'), 'utf8'));
  for (const name of ['HackTechDev_mods_20_multiskins_player.mdl', 'c0burn_progs_flame2.mdl']) {
    const files = [join(corpus, 'mdl', name), palette];
    const dir = folderOf(files);
    try {
      const got = await give(page, files);
      assert.equal(got.error, null, `the page failed: ${got.error}`);
      const cliInfo = JSON.parse(retromodel(['info', '--json', name], dir).toString());
      assert.deepEqual(got.info, cliInfo);
      assert.equal(cliInfo.simple_frames, facts[name].simple_frames);
      assert.deepEqual(got.animations.map((a) => a.name), cliInfo.animations.map((a) => a.name));
      // One entry per skin image (facts.json counts them), none disabled.
      const skins = await page.locator('#skins option').evaluateAll((os) => os.map((o) => ({ text: o.textContent, disabled: o.disabled })));
      assert.equal(skins.length, facts[name].skin_frames);
      assert.ok(skins.every((s) => !s.disabled), JSON.stringify(skins));
      assert.equal(got.textured, true);
      assert.ok(got.clips.length > 0, 'no animation');
      await page.uncheck('#grid');
      // Playing changes the canvas: the longest animation (a frame
      // group's, for the flame, whose first entry is a single frame).
      const longest = got.clips.reduce((best, c, i) => (c.duration > got.clips[best].duration ? i : best), 0);
      await page.selectOption('#animations', String(longest));
      const a = await canvasShot(page);
      await page.waitForTimeout(400);
      const b = await canvasShot(page);
      assert.notEqual(a, b, 'the canvas did not change while playing');
      await page.screenshot({ path: join(shots, `mdl-${name.replace('.mdl', '')}.png`) });
      // Drawn with the skin's colours (a skin with fullbright texels drew
      // white when its emissive map was left out).
      const stats = await page.evaluate(() => window.retromodel.viewer.pixelStats());
      assert.ok(stats.fraction > 0.02, `the model covers ${(stats.fraction * 100).toFixed(2)}% of the canvas`);
      assert.ok(stats.colours > 150, `only ${stats.colours} colours: drawn without its skin?`);
      if (skins.length > 1) {
        // Another skin image: other pixels at the same pose.
        const before = await poseHash(page, 0.35);
        await page.selectOption('#skins', String(skins.length - 1));
        await page.waitForTimeout(300);
        assert.equal(await page.evaluate(() => window.retromodel.state.error), null);
        assert.notEqual(await poseHash(page, 0.35), before, 'the skin did not change');
      }
      await page.check('#grid');
      // The .glb: byte for byte the CLI's with --palette.
      const stem = name.replace(/\.mdl$/, '');
      const glb = await downloadsOf(page, '#dl-glb');
      mkdirSync(join(dir, 'glb'));
      retromodel(['convert', name, `glb/${stem}.glb`, '--palette', 'palette.lmp'], dir);
      sameAsCli(glb, join(dir, 'glb'));
      const doc = glbJson(glb.get(`${stem}.glb`));
      const targets = doc.meshes.flatMap((m) => m.primitives.map((p) => p.targets?.length ?? 0));
      assert.deepEqual([...new Set(targets)], [facts[name].simple_frames]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  // Without the palette: the model shows, untextured, and picking a skin
  // says what to drop.
  const got = await give(page, [join(corpus, 'mdl/HackTechDev_mods_20_multiskins_player.mdl')]);
  assert.equal(got.error, null);
  assert.equal(got.textured, false);
  await page.selectOption('#skins', '1');
  await page.waitForFunction(() => window.retromodel.state.error);
  assert.match(await page.evaluate(() => window.retromodel.state.error), /gfx\/palette\.lmp/);
});

test('a Quake III MD3 from OpenArena: info and animations as the CLI\'s, playing, the .glb as the CLI\'s', async (t) => {
  const baseoa = process.env.RETROMODEL_OPENARENA ?? '/usr/share/games/openarena/baseoa';
  if (!existsSync(join(baseoa, 'pak0.pk3'))) {
    assert.ok(!process.env.CI, `OpenArena's pak0.pk3 missing under ${baseoa} (apt-get install openarena-data)`);
    t.skip('no OpenArena');
    return;
  }
  const { page } = session;
  const dir = mkdtempSync(join(tmpdir(), 'retromodel-web-md3-'));
  try {
    // Sarge's upper body, taken out of the pk3 (a zip) by Python.
    const member = 'models/players/sarge/upper.md3';
    execFileSync('python3', ['-c', 'import sys, zipfile; open(sys.argv[3], "wb").write(zipfile.ZipFile(sys.argv[1]).read(sys.argv[2]))', join(baseoa, 'pak0.pk3'), member, join(dir, 'upper.md3')]);
    const got = await give(page, [join(dir, 'upper.md3')]);
    assert.equal(got.error, null, `the page failed: ${got.error}`);
    const cliInfo = JSON.parse(retromodel(['info', '--json', 'upper.md3'], dir).toString());
    assert.deepEqual(got.info, cliInfo);
    assert.ok(got.clips.length > 0, 'no animation');
    await page.uncheck('#grid');
    // Playing changes the canvas: the longest animation.
    const longest = got.clips.reduce((best, c, i) => (c.duration > got.clips[best].duration ? i : best), 0);
    await page.selectOption('#animations', String(longest));
    const a = await canvasShot(page);
    await page.waitForTimeout(400);
    const b = await canvasShot(page);
    assert.notEqual(a, b, `the canvas did not change while playing ${JSON.stringify(got.clips[longest])}`);
    const stats = await page.evaluate(() => window.retromodel.viewer.pixelStats());
    assert.ok(stats.fraction > 0.02, `the model covers ${(stats.fraction * 100).toFixed(2)}% of the canvas`);
    await page.screenshot({ path: join(shots, 'md3-sarge-upper.png') });
    await page.check('#grid');
    const glb = await downloadsOf(page, '#dl-glb');
    mkdirSync(join(dir, 'glb'));
    retromodel(['convert', 'upper.md3', 'glb/upper.glb'], dir);
    sameAsCli(glb, join(dir, 'glb'));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

/** OpenArena's baseoa (its pak0.pk3), or null to skip (a failure under CI). */
function openArena(t) {
  const baseoa = process.env.RETROMODEL_OPENARENA ?? '/usr/share/games/openarena/baseoa';
  if (existsSync(join(baseoa, 'pak0.pk3'))) return baseoa;
  assert.ok(!process.env.CI, `OpenArena's pak0.pk3 missing under ${baseoa} (apt-get install openarena-data)`);
  t.skip('no OpenArena');
  return null;
}

/** Takes the files under each of `prefixes` out of a pk3 (a zip) into `dir`, by Python. */
function extractPk3(pk3, prefixes, dir) {
  const script = [
    'import sys, os, zipfile',
    'z = zipfile.ZipFile(sys.argv[1])',
    'for n in z.namelist():',
    '    if n.endswith("/") or not n.startswith(tuple(sys.argv[3:])): continue',
    '    out = os.path.join(sys.argv[2], n)',
    '    os.makedirs(os.path.dirname(out), exist_ok=True)',
    '    open(out, "wb").write(z.read(n))',
  ].join('\n');
  execFileSync('python3', ['-c', script, pk3, dir, ...prefixes]);
}

/** The animation names of an animation.cfg, read here: the `// NAME` after each line of four numbers. */
function cfgNames(text) {
  const names = [];
  for (const line of text.split(/\r?\n/)) {
    const m = /^\s*-?\d+\s+-?\d+\s+-?\d+\s+\d+\s*\/\/\s*([A-Z0-9_]+)/.exec(line);
    if (m) names.push(m[1]);
  }
  return names;
}

/** Per surface of an MD3 (its bytes): the triangle count, read from the surface headers. */
function md3Triangles(bytes) {
  const count = bytes.readInt32LE(84);
  let offset = bytes.readInt32LE(100);
  const triangles = [];
  for (let i = 0; i < count; i++) {
    assert.equal(bytes.toString('latin1', offset, offset + 4), 'IDP3');
    // The surface header: ident, name[64], flags, frames, shaders, vertices, triangles…
    triangles.push(bytes.readInt32LE(offset + 84));
    offset += bytes.readInt32LE(offset + 104);
  }
  return triangles;
}

/** The meshes drawn, by the Quake III player part (GLB node extras `md3_part`) they hang under: triangle counts. */
async function trianglesByPart(page) {
  return page.evaluate(() => {
    const out = {};
    for (const mesh of window.retromodel.viewer.meshes()) {
      let part = null;
      for (let o = mesh; o && !part; o = o.parent) part = o.userData?.md3_part ?? null;
      const g = mesh.geometry;
      (out[part] ??= []).push((g.index ? g.index.count : g.getAttribute('position').count) / 3);
    }
    return out;
  });
}

/** The animation names an option list shows (`NAME · 30 frames · 1.20 s`), and whether each is playable. */
async function listed(page, select) {
  return page.$$eval(`${select} option`, (options) => options.map((o) => ({ name: o.textContent.split(' · ')[0], enabled: !o.disabled })));
}

test('a Quake III player folder from OpenArena: three parts at their tags, the skin sets, the cfg\'s animations, legs and torso apart', async (t) => {
  const baseoa = openArena(t);
  if (!baseoa) return;
  const { page } = session;
  const top = mkdtempSync(join(tmpdir(), 'retromodel-web-player-'));
  try {
    // Sarge's folder and the textures its .skin files name (in grism's).
    extractPk3(join(baseoa, 'pak0.pk3'), ['models/players/sarge/', 'models/players/grism/'], top);
    const sarge = join(top, 'models/players/sarge');
    const names = cfgNames(readFileSync(join(sarge, 'animation.cfg'), 'latin1'));
    assert.equal(names.length, 25, `the cfg read here: ${names}`);
    const sets = readdirSync(sarge)
      .map((f) => /^lower_(.+)\.skin$/i.exec(f)?.[1].toLowerCase())
      .filter(Boolean)
      .sort((a, b) => (a === 'default' ? -1 : b === 'default' ? 1 : a < b ? -1 : 1));
    assert.ok(sets.includes('red') && sets.includes('blue'), `skin sets ${sets}`);

    const loads = await page.evaluate(() => window.retromodel.state.loads);
    await page.setInputFiles('#pick-folder', join(top, 'models'));
    await page.waitForFunction((n) => window.retromodel.state.loads > n, loads, { timeout: 120_000 });
    let state = await page.evaluate(() => ({ ...window.retromodel.state, textured: window.retromodel.viewer.textured() }));
    assert.equal(state.error, null, `the page failed: ${state.error}`);
    // The player's lower.md3 is what is shown first, as the whole player.
    assert.equal(state.path, 'models/players/sarge/lower.md3');
    // The animation list: the cfg's names, in its order, each playable.
    const anims = await listed(page, '#animations');
    assert.deepEqual(anims.map((a) => a.name), names);
    assert.ok(anims.every((a) => a.enabled), `not playable: ${anims.filter((a) => !a.enabled).map((a) => a.name)}`);
    // Three parts drawn, each with its file's triangles.
    const parts = await trianglesByPart(page);
    for (const part of ['lower', 'upper', 'head']) {
      const expected = md3Triangles(readFileSync(join(sarge, `${part}.md3`)));
      assert.deepEqual([...(parts[part] ?? [])].sort(), [...expected].sort(), `${part}: ${JSON.stringify(parts)}`);
    }
    // Textured by the default skin set's .skin files; the sets offered.
    assert.equal(state.textured, true);
    assert.equal(state.skinSet, 'default');
    assert.deepEqual(await page.$$eval('#skins option', (o) => o.map((x) => x.textContent)), sets);
    // A frame drawn is not blank.
    await page.uncheck('#grid');
    await canvasShot(page);
    const stats = await page.evaluate(() => window.retromodel.viewer.pixelStats());
    assert.ok(stats.fraction > 0.02 && stats.colours > 50, `the player covers ${(stats.fraction * 100).toFixed(2)}% in ${stats.colours} colours`);
    await page.screenshot({ path: join(shots, 'md3-sarge-player.png') });
    const defaultPose = await poseHash(page, 0.3);
    // The .glb is the CLI's of the same lower.md3 (which takes the whole
    // player from its folder too), textures found under the same root.
    const glb = await downloadsOf(page, '#dl-glb');
    mkdirSync(join(top, 'cli'));
    retromodel(['convert', 'models/players/sarge/lower.md3', 'cli/lower.glb', '--texture-dir', '.'], top);
    sameAsCli(glb, join(top, 'cli'));

    // Legs and torso apart: the torso list offers the cfg's TORSO_ and
    // BOTH_ animations (those moving the upper body); LEGS_RUN with
    // TORSO_GESTURE plays both.
    const torso = await listed(page, '#torso');
    assert.deepEqual(torso.slice(1).map((a) => a.name), names.filter((n) => /^(TORSO|BOTH)_/.test(n)));
    const clipIndex = (name) => state.clips.findIndex((c) => c.name === name);
    await page.evaluate(() => window.retromodel.viewer.frame());
    await page.selectOption('#animations', String(clipIndex('LEGS_RUN')));
    await page.selectOption('#torso', String(clipIndex('TORSO_GESTURE')));
    if (!(await page.evaluate(() => window.retromodel.state.playing))) await page.click('#play');
    const playing = await page.evaluate(() => {
      const v = window.retromodel.viewer;
      return [v.action?.getClip().name, v.torsoAction?.getClip().name, v.action?.getClip().tracks.length, v.torsoAction?.getClip().tracks.length];
    });
    assert.equal(playing[0], 'LEGS_RUN');
    assert.equal(playing[1], 'TORSO_GESTURE');
    assert.ok(playing[2] > 0 && playing[3] > 0, `tracks: ${playing}`);
    const a = await canvasShot(page);
    await page.waitForTimeout(400);
    assert.notEqual(await canvasShot(page), a, 'the canvas did not change while running and gesturing');
    // Paused at a time, each part shows its own animation's frame: the
    // morph target (one a frame of its file, in order) weighing most is
    // the frame the cfg (read here) gives that animation at that time.
    const cfg = Object.fromEntries(
      readFileSync(join(sarge, 'animation.cfg'), 'latin1')
        .split(/\r?\n/)
        .map((l) => /^\s*(\d+)\s+(\d+)\s+(-?\d+)\s+(\d+)\s*\/\/\s*([A-Z0-9_]+)/.exec(l))
        .filter(Boolean)
        .map((m) => [m[5], { first: Number(m[1]), frames: Number(m[2]), fps: Number(m[4]) }]),
    );
    const heaviest = (seconds) =>
      page.evaluate((t) => {
        const v = window.retromodel.viewer;
        v.playing = false;
        v.seek(t);
        const out = {};
        for (const mesh of v.meshes()) {
          let part = null;
          for (let o = mesh; o && !part; o = o.parent) part = o.userData?.md3_part ?? null;
          const w = mesh.morphTargetInfluences ?? [];
          out[part] = w.indexOf(Math.max(...w));
        }
        return out;
      }, seconds);
    // lower.md3 holds no TORSO_ frames: a LEGS_ animation's frames in it
    // come that many earlier than the cfg counts (Quake III's
    // CG_ParseAnimationFile: skip = LEGS_WALKCR's first - TORSO_GESTURE's).
    const legsRun = cfg.LEGS_RUN.first - (cfg.LEGS_WALKCR.first - cfg.TORSO_GESTURE.first);
    let frames = await heaviest(0);
    assert.equal(frames.lower, legsRun, `at 0 s: ${JSON.stringify(frames)}`);
    assert.equal(frames.upper, cfg.TORSO_GESTURE.first, `at 0 s: ${JSON.stringify(frames)}`);
    frames = await heaviest(1);
    assert.equal(frames.upper, cfg.TORSO_GESTURE.first + cfg.TORSO_GESTURE.fps, `at 1 s: ${JSON.stringify(frames)}`);
    assert.ok(frames.lower >= legsRun && frames.lower < legsRun + cfg.LEGS_RUN.frames, `at 1 s: ${JSON.stringify(frames)}`);
    await page.click('#play');

    // Another skin set: the red .skin files' texture.
    const before = await page.evaluate(() => window.retromodel.state.loads);
    await page.selectOption('#skins', 'set:red');
    await page.waitForFunction((n) => window.retromodel.state.loads > n, before, { timeout: 120_000 });
    state = await page.evaluate(() => ({ ...window.retromodel.state, textured: window.retromodel.viewer.textured() }));
    assert.equal(state.error, null);
    assert.equal(state.skinSet, 'red');
    assert.equal(state.textured, true);
    assert.notEqual(await poseHash(page, 0.3), defaultPose, 'the red skin set draws as the default one');
    await page.check('#grid');

    // upper.md3 of the same folder, alone: its surface names a shader,
    // no file; textured through upper_default.skin, with its skin sets.
    await page.selectOption('#models', 'models/players/sarge/upper.md3');
    await page.waitForFunction(() => window.retromodel.state.path === 'models/players/sarge/upper.md3' && !window.retromodel.state.loading);
    state = await page.evaluate(() => ({ ...window.retromodel.state, textured: window.retromodel.viewer.textured() }));
    assert.equal(state.error, null);
    assert.equal(state.textured, true);
    assert.equal(state.skinSet, 'default');
    assert.ok(state.skinSets.includes('red'), `upper's skin sets ${state.skinSets}`);
    assert.deepEqual(Object.keys(await trianglesByPart(page)), ['null']);
    assert.equal(await page.locator('#torso-label').isHidden(), true);

    // One part alone, with the cfg and its .skin beside it (files picked,
    // not a folder): the cfg's names listed, those of its part playable.
    const got = await give(page, ['upper.md3', 'animation.cfg', 'upper_default.skin'].map((f) => join(sarge, f)));
    assert.equal(got.error, null, `the page failed: ${got.error}`);
    const upper = await listed(page, '#animations');
    assert.deepEqual(upper.map((x) => x.name), names);
    assert.deepEqual(upper.filter((x) => x.enabled).map((x) => x.name), names.filter((n) => /^(TORSO|BOTH)_/.test(n)));
    assert.equal(await page.locator('#torso-label').isHidden(), true);
  } finally {
    await page.check('#grid');
    rmSync(top, { recursive: true, force: true });
  }
});

/** The lines `retromodel validate FILE` prints (it exits 1 on an error), each without `FILE: `. */
function validateLines(file, dir) {
  let out;
  try {
    out = retromodel(['validate', file], dir).toString();
  } catch (e) {
    out = e.stdout.toString();
  }
  return out.split('\n').filter((l) => l.startsWith(`${file}: `)).map((l) => l.slice(file.length + 2)).filter((l) => l !== 'ok');
}

test('an Inter-Quake Model with its TGA textures (mrfixit): info, validate, idle playing textured, the .glb as the CLI\'s and drawn as GLTFLoader draws it; raylib\'s guy with its texture suggested; an animation-only file\'s error', async () => {
  const { page } = session;
  const iqm = join(corpus, 'iqm');
  const files = ['lsalzman_mrfixit.iqm', 'Body.tga', 'Head.tga'].map((f) => join(iqm, f));
  const dir = folderOf(files);
  const model = 'lsalzman_mrfixit.iqm';
  try {
    const got = await give(page, files);
    assert.equal(got.error, null, `the page failed: ${got.error}`);
    // info and validate: the CLI's.
    const cliInfo = JSON.parse(retromodel(['info', '--json', model], dir).toString());
    assert.deepEqual(got.info, cliInfo);
    const problems = await page.evaluate(() => window.retromodel.state.problems);
    assert.deepEqual(problems.map((p) => p.text), validateLines(model, dir));
    // The animations: the file's (`idle`, 101 frames), one clip each.
    assert.deepEqual(got.animations.map((a) => [a.name, a.first_frame, a.frames]), cliInfo.anims.map((a) => [a.name, a.first_frame, a.frames]));
    assert.deepEqual(got.animations.map((a) => a.name), ['idle']);
    assert.deepEqual(got.clips.map((c) => c.name), ['idle']);
    const listed = await page.locator('#animations option').allTextContents();
    assert.deepEqual(listed.map((t) => t.split(' · ')[0]), ['idle']);
    assert.match(listed[0], / · 101 frames · /);
    // Textured by the two TGAs its materials name, and playing.
    assert.equal(got.textured, true);
    assert.equal(got.skinGiven, null, 'no skin suggested: the materials find their images');
    await page.uncheck('#grid');
    // (An earlier test may have left the page paused.)
    if (!(await page.evaluate(() => window.retromodel.state.playing))) await page.click('#play');
    const a = await canvasShot(page);
    await page.waitForTimeout(400);
    const b = await canvasShot(page);
    assert.notEqual(a, b, 'the canvas did not change while playing');
    const stats = await page.evaluate(() => window.retromodel.viewer.pixelStats());
    await page.screenshot({ path: join(shots, 'iqm-mrfixit.png') });
    assert.ok(stats.fraction > 0.02, `the model covers ${(stats.fraction * 100).toFixed(2)}% of the canvas`);
    assert.ok(stats.colours > 150, `only ${stats.colours} colours: untextured?`);
    await page.check('#grid');
    // The .glb: byte for byte the CLI's, with both images.
    const glb = await downloadsOf(page, '#dl-glb');
    mkdirSync(join(dir, 'glb'));
    retromodel(['convert', model, 'glb/lsalzman_mrfixit.glb'], dir);
    sameAsCli(glb, join(dir, 'glb'));
    assert.deepEqual(glbJson(glb.get('lsalzman_mrfixit.glb')).images.map((i) => i.name), ['Body.tga', 'Head.tga']);
    // Drawn (joints posed by the page's scene, images handed over as
    // pixels) as GLTFLoader draws the CLI's .glb, between frames of idle.
    const times = [0.35, 0.83, 2.04];
    const drawn = [];
    for (const t of times) drawn.push(await poseHash(page, t));
    const cliGlb = readFileSync(join(dir, 'glb', 'lsalzman_mrfixit.glb')).toString('base64');
    await page.evaluate(async (b64) => {
      const bytes = Uint8Array.from(atob(b64), (ch) => ch.charCodeAt(0));
      await window.retromodel.viewer.show(bytes);
    }, cliGlb);
    assert.equal(await page.evaluate(() => window.retromodel.viewer.textured()), true);
    for (const [i, t] of times.entries()) {
      assert.equal(await poseHash(page, t), drawn[i], `at ${t} s the page draws otherwise than GLTFLoader draws the CLI's .glb`);
    }
    assert.notEqual(drawn[0], drawn[2], 'idle does not move');

    // A problem: validate's line, as the CLI prints it (an animation
    // reaching past the file's frames; the model still shows).
    const bytes = readFileSync(join(iqm, model));
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    const ofsAnims = view.getUint32(16 + 4 * 18, true);
    const bad = Buffer.from(bytes);
    bad.writeUInt32LE(200, ofsAnims + 8);
    writeFileSync(join(dir, 'long.iqm'), bad);
    const long = await give(page, [join(dir, 'long.iqm'), ...files.slice(1)]);
    assert.equal(long.error, null, `the page failed: ${long.error}`);
    const cliProblems = validateLines('long.iqm', dir);
    assert.ok(cliProblems.some((l) => l.includes('anims[0].num_frames')), cliProblems.join('\n'));
    assert.deepEqual((await page.evaluate(() => window.retromodel.state.problems)).map((p) => p.text), cliProblems);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }

  // raylib's guy names `Materialcube`: the dropped raylib_guytex.png is
  // given as its skin (the CLI's --skin), and guy is picked before the
  // animation-only guyanim dropped with it.
  const guy = ['raylib_guy.iqm', 'raylib_guyanim.iqm', 'raylib_guytex.png'].map((f) => join(iqm, f));
  const got = await give(page, guy);
  assert.equal(got.error, null, `the page failed: ${got.error}`);
  assert.equal(await page.evaluate(() => window.retromodel.state.path), 'raylib_guy.iqm');
  assert.equal(got.skinGiven, 'raylib_guytex.png');
  assert.equal(got.textured, true);
  assert.deepEqual(got.clips.map((c) => c.name), ['jump', 'dance']);
  await page.screenshot({ path: join(shots, 'iqm-guy.png') });
  // guyanim alone: the library's error, which says what the file is.
  const alone = await give(page, [join(iqm, 'raylib_guyanim.iqm')]);
  assert.match(alone.error ?? '', /animations only.*same joints/);
});

test('a truncated file shows its error; the next good file loads', async () => {
  const { page } = session;
  const faerie = readFileSync(join(corpus, 'md2/assimpdeb_faerie.md2'));
  const loads = await page.evaluate(() => window.retromodel.state.loads);
  await page.setInputFiles('#pick-files', [{ name: 'broken.md2', mimeType: 'application/octet-stream', buffer: faerie.subarray(0, 3000) }]);
  await page.waitForFunction((n) => window.retromodel.state.loads > n, loads);
  const error = await page.evaluate(() => window.retromodel.state.error);
  assert.ok(error && error.startsWith('broken.md2'), `no error shown: ${error}`);
  assert.ok(await page.locator('#error').isVisible());
  assert.equal(await page.evaluate(() => window.retromodel.viewer.model), null);
  const got = await give(page, CASES[0].files);
  assert.equal(got.error, null);
  assert.ok(!(await page.locator('#error').isVisible()));
  assert.ok(got.clips.length > 0);
});

test('a dropped .glb previews as the MD2 it would become, coloured by quantisation error', async () => {
  const { page } = session;
  const dir = folderOf(CASES[3].files);
  try {
    retromodel(['convert', 'assimpdeb_jeep1.ms3d', 'jeep1.glb'], dir);
    const got = await give(page, [join(dir, 'jeep1.glb')]);
    assert.equal(got.error, null);
    await page.click('#preview-md2');
    await page.waitForFunction(() => window.retromodel.state.previewMaxStepError !== undefined);
    const max = await page.evaluate(() => window.retromodel.state.previewMaxStepError);
    // Rounding to the grid: at most half a step (and a little float slack).
    assert.ok(max > 0 && max <= 0.5 + 1e-3, `largest error ${max} grid steps`);
    assert.ok(await page.locator('#legend').isVisible());
    await page.screenshot({ path: join(shots, 'jeep1-md2-error.png') });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('no request left localhost', () => {
  assert.deepEqual(session.outside, []);
  assert.deepEqual(session.consoleErrors, []);
});
