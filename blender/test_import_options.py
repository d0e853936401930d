"""Headless test of the import panel's options and the export's progress
(run by blender/test.sh):

    blender -b --factory-startup --python-exit-code 1 --python blender/test_import_options.py -- CORPUS OUTDIR

Each option is checked on what Blender holds after the import (actions,
their frame ranges, object dimensions, materials and images) against
independent facts: the corpus' facts.json, and the MD2 and MS3D bytes
read here (offsets from shared/formats/MD2.md and MS3D.md)."""

import json
import os
import struct
import sys

import bpy

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import retromodel_io  # noqa: E402

corpus, outdir = sys.argv[sys.argv.index("--") + 1 :][:2]
facts = json.load(open(os.path.join(corpus, "facts.json")))
retromodel_io.register()
rm = retromodel_io._retromodel()
FAERIE = "md2/assimpdeb_faerie.md2"


def fresh():
    bpy.ops.wm.read_factory_settings(use_empty=True)


def imported(path, **options):
    fresh()
    assert bpy.ops.import_scene.retromodel(filepath=path, **options) == {"FINISHED"}, options
    return [o for o in bpy.data.objects if o.type == "MESH"]


def fps():
    scene = bpy.context.scene
    return scene.render.fps / scene.render.fps_base


def anim_list(fact):
    """facts.json's ``anim_list`` (``name:frames ...``) as ``[(name, first, count)]``."""
    out, first = [], 0
    for item in fact["anim_list"].split():
        name, count = item.rsplit(":", 1)
        out.append((name, first, int(count)))
        first += int(count)
    return out


def md2_header(data):
    keys = "ident version skin_w skin_h framesize skins xyz st tris glcmds frames ofs_skins ofs_st ofs_tris ofs_frames"
    return dict(zip(keys.split(), struct.unpack_from("<4s14i", data, 0)))


def md2_frame0(data):
    """Frame 0's positions in Quake's axes, decoded from the bytes."""
    h = md2_header(data)
    o = h["ofs_frames"]
    scale, translate = struct.unpack_from("<3f", data, o), struct.unpack_from("<3f", data, o + 12)
    verts = [data[o + 40 + 4 * i : o + 43 + 4 * i] for i in range(h["xyz"])]
    return [[v[k] * scale[k] + translate[k] for k in range(3)] for v in verts]


def md2_skin_names(data):
    h = md2_header(data)
    raw = [data[h["ofs_skins"] + 64 * i : h["ofs_skins"] + 64 * (i + 1)] for i in range(h["skins"])]
    return [r.split(b"\0")[0].decode("latin-1") for r in raw]


def dimensions(obj):
    """The extents of ``obj``'s mesh at rest (its vertices, the basis), in the world."""
    points = [obj.matrix_world @ v.co for v in obj.data.vertices]
    return [max(p[k] for p in points) - min(p[k] for p in points) for k in range(3)]


def action_seconds(action):
    return (action.frame_range[1] - action.frame_range[0]) / fps()


faerie_path = os.path.join(corpus, FAERIE)
faerie_bytes = open(faerie_path, "rb").read()
faerie_anims = anim_list(facts[FAERIE])
assert sum(c for _, _, c in faerie_anims) == facts[FAERIE]["frames"]

# Animations: all by default, or the ones named (and they alone export).
imported(faerie_path)
every = [a.name for a in bpy.data.actions]
assert len(every) >= facts[FAERIE]["anim_groups"], every
assert all(any(a.startswith(n) for a in every) for n, _, _ in faerie_anims), (every, faerie_anims)
imported(faerie_path, animations="stand, run")
names = sorted(a.name for a in bpy.data.actions)
assert len(names) == 2 and names[0].startswith("run") and names[1].startswith("stand"), names
two = os.path.join(outdir, "options_two.md2")
assert bpy.ops.export_scene.retromodel_md2(filepath=two) == {"FINISHED"}
assert sorted((a["name"], a["frame_count"]) for a in rm.load(two).info()["animations"]) == [("run", 6), ("stand", 40)]
try:
    bpy.ops.import_scene.retromodel(filepath=faerie_path, animations="nosuch")
except RuntimeError as e:
    assert "nosuch" in str(e) and "stand" in str(e), str(e)
else:
    raise AssertionError("an unknown animation name was not reported")
print(f"animations: all {len(every)} by default; 'stand, run' gives {names}")

# Frame range (MD2 frame numbers from 0): frames 38..41 are the last two
# of stand and the first two of run, as facts.json's anim_list has them.
imported(faerie_path, frames="RANGE", frame_first=38, frame_last=41)
want = {n: min(f + c - 1, 41) - max(f, 38) for n, f, c in faerie_anims if f <= 41 and f + c - 1 >= 38}
assert want == {"stand": 1, "run": 1}, want
got = {next(n for n in want if a.name.startswith(n)): action_seconds(a) * 10 for a in bpy.data.actions}
assert got.keys() == want.keys() and all(abs(got[n] - want[n]) < 1e-3 for n in want), (got, want)
imported(faerie_path, frames="RANGE", frame_first=46, frame_last=53)  # attack, whole
(attack,) = bpy.data.actions
assert attack.name.startswith("attack") and abs(action_seconds(attack) * 10 - 7) < 1e-3, (attack.name, action_seconds(attack))
print(f"frame range: 38-41 gives {got} frame spans; 46-53 gives {attack.name} of 8 frames")

# Scale and fit height: the mesh (its basis, frame 0) against frame 0
# decoded from the bytes. Quake (x, y, z) is Blender (y, -x, z).
used = sorted({i for t in range(facts[FAERIE]["tris"]) for i in struct.unpack_from(
    "<3H", faerie_bytes, md2_header(faerie_bytes)["ofs_tris"] + 12 * t)})
frame0 = [md2_frame0(faerie_bytes)[i] for i in used]
extent = [max(p[k] for p in frame0) - min(p[k] for p in frame0) for k in range(3)]
want = (extent[1], extent[0], extent[2])
(obj,) = imported(faerie_path)
assert all(abs(d - w) < 1e-3 * max(want) for d, w in zip(dimensions(obj), want)), (dimensions(obj), want)
(obj,) = imported(faerie_path, scale=0.5)
assert all(abs(d - 0.5 * w) < 1e-3 * max(want) for d, w in zip(dimensions(obj), want)), (dimensions(obj), want)
(obj,) = imported(faerie_path, fit_height=2.0)
factor = 2.0 / want[2]
assert all(abs(d - factor * w) < 1e-3 for d, w in zip(dimensions(obj), want)), (dimensions(obj), want)
print(f"scale: {tuple(round(w, 3) for w in want)} from the bytes; 0.5 and fit height 2.0 give what they should")

# MD2 skins: every skin the header lists (read from the bytes) as a
# material or an image named after it, the first applied by default.
ortnok = os.path.join(corpus, "md2/ufoai_aliens_ortnok_body01.md2")
skins = md2_skin_names(open(ortnok, "rb").read())
assert len(skins) == facts["md2/ufoai_aliens_ortnok_body01.md2"]["skins"] >= 3, skins
assert skins == facts["md2/ufoai_aliens_ortnok_body01.md2"]["skin_names"], skins
for chosen in (None, 2):
    options = {} if chosen is None else {"skin": chosen}
    (obj,) = imported(ortnok, **options)
    assert set(skins) <= {m.name for m in bpy.data.materials}, ([m.name for m in bpy.data.materials], skins)
    assert [s.material.name for s in obj.material_slots] == [skins[chosen or 0]], obj.material_slots[:]
(obj,) = imported(ortnok, skins="IMAGES", skin=1)
assert set(skins) <= {i.name for i in bpy.data.images}, ([i.name for i in bpy.data.images], skins)
textures = [n for s in obj.material_slots for n in s.material.node_tree.nodes if n.type == "TEX_IMAGE"]
assert [t.image.name for t in textures] == [skins[1]], [t.image.name for t in textures]
size = md2_header(open(ortnok, "rb").read())
assert tuple(bpy.data.images[skins[0]].size) == (size["skin_w"], size["skin_h"])
print(f"skins: {skins} as materials (first or chosen applied) and as images")


# MS3D: the timeline's frame count and rate, and the clip line (a model
# comment line `retromodel clips: name first-last; ...`), from the bytes.
def ms3d_timeline(data):
    def u16(o):
        return int.from_bytes(data[o : o + 2], "little")

    o = 14
    o += 2 + 15 * u16(o)
    o += 2 + 70 * u16(o)
    groups, o = u16(o), o + 2
    for _ in range(groups):
        o += 36 + 2 * u16(o + 33)
    o += 2 + 361 * u16(o)
    rate, _, frames = struct.unpack_from("<ffi", data, o)
    return rate, frames


def clip_line(data):
    at = data.find(b"retromodel clips:")
    line = data[at:].split(b"\0")[0].splitlines()[0].decode()
    return [c.split()[0] for c in line.split(":", 1)[1].split(";") if c.strip()]


# A model with stored clips: Blender's walker exported by the add-on.
fresh()
retromodel_io._numpy_bool_alias()
assert bpy.ops.import_scene.gltf(filepath=os.path.join(corpus, "gltf/blender_walker.glb")) == {"FINISHED"}
# An armature-animated scene is not the fast MD2 path's: it goes through
# Blender's exporter as before.
assert retromodel_io.fast_export.eligible([o for o in bpy.context.scene.objects if o.type != "CAMERA"]) is None
walker = os.path.join(outdir, "options_walker.ms3d")
assert bpy.ops.export_scene.retromodel_ms3d(filepath=walker) == {"FINISHED"}
walker_bytes = open(walker, "rb").read()
clips = clip_line(walker_bytes)
rate, total = ms3d_timeline(walker_bytes)
assert len(clips) >= 2, clips
imported(walker)
assert sorted(a.name for a in bpy.data.actions if a.name in clips or any(a.name.startswith(c) for c in clips))
assert len(bpy.data.actions) == len(clips), ([a.name for a in bpy.data.actions], clips)
imported(walker, clip_actions=False)
(one,) = bpy.data.actions
assert abs(action_seconds(one) - total / rate) <= 1.0 / rate, (action_seconds(one), total, rate)
imported(walker, animations=clips[1])
assert len(bpy.data.actions) == 1 and bpy.data.actions[0].name.startswith(clips[1]), [a.name for a in bpy.data.actions]
print(f"ms3d clips: {clips} as {len(clips)} actions, or one of {total} frames at {rate:g} fps")

# Woman4 (no stored clips): clips named in the panel, and a frame range.
woman = os.path.join(corpus, "ms3d/glscene_Woman4.ms3d")
rate, total = ms3d_timeline(open(woman, "rb").read())
assert (rate, total) == (facts["ms3d/glscene_Woman4.ms3d"]["fps"], facts["ms3d/glscene_Woman4.ms3d"]["total_frames"])
imported(woman, clips="a:1-100, b:100-400")
lengths = sorted(round(action_seconds(a) * rate) for a in bpy.data.actions)
assert lengths == [99, 300], lengths
imported(woman, frames="RANGE", frame_first=200, frame_last=500)
(cut,) = bpy.data.actions
assert abs(action_seconds(cut) * rate - 300) < 0.5, action_seconds(cut) * rate
fresh()
try:
    bpy.ops.import_scene.retromodel(filepath=woman, clips="walk 1 to 9")
except RuntimeError as e:  # the operator's ERROR report
    assert '"Clips"' in str(e) and "Traceback" not in str(e), str(e)
else:
    raise AssertionError("a malformed clip was not reported")
late = f"late:{total}-{total + 50}"
try:
    bpy.ops.import_scene.retromodel(filepath=woman, clips=late)
except RuntimeError as e:
    assert "late" in str(e) and "Traceback" not in str(e), str(e)
else:
    raise AssertionError("a clip past the timeline was not reported")
print(f"woman4: clips a, b of {lengths} frames; frames 200-500 give one action of 300 frames")

# A long export moves Blender's progress indicator from start to end.
imported(faerie_path)
retromodel_io.Progress.last_steps = []
assert bpy.ops.export_scene.retromodel_md2(filepath=os.path.join(outdir, "options_progress.md2")) == {"FINISHED"}
fractions = [f for f, _ in retromodel_io.Progress.last_steps]
assert fractions == sorted(fractions) and fractions[-1] == 1.0 and len(fractions) >= 3, fractions
print(f"progress: {retromodel_io.Progress.last_steps}")
# The fast path was taken, in every Blender (4.4+'s slotted actions too:
# fast_export.py reads their channel bags).
assert "shape keys" in [s for _, s in retromodel_io.Progress.last_steps], retromodel_io.Progress.last_steps

# The fast shape-key export writes the very MD2 Blender's glTF exporter
# path writes (the add-on's record and the compiler are the same; only
# who samples the shape keys differs), for every frame of faerie.
fast = open(os.path.join(outdir, "options_progress.md2"), "rb").read()
retromodel_io.FAST_EXPORT = False
slow_path = os.path.join(outdir, "options_gltf_path.md2")
assert bpy.ops.export_scene.retromodel_md2(filepath=slow_path) == {"FINISHED"}
retromodel_io.FAST_EXPORT = True
assert "shape keys" not in [s for _, s in retromodel_io.Progress.last_steps]
slow = open(slow_path, "rb").read()
assert fast == slow, (len(fast), len(slow))
assert md2_header(fast)["frames"] == facts[FAERIE]["frames"], md2_header(fast)
print(f"fast export: faerie's MD2 ({len(fast)} bytes) identical to the glTF exporter path's")
print("import options: all checks passed")
