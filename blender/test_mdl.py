"""Headless test of the add-on's Quake MDL import and export (run by
blender/test.sh and blender/test_bpy.sh, as test_blender.py is):

    blender -b --factory-startup --python-exit-code 1 --python blender/test_mdl.py -- CORPUS OUTDIR

Imports corpus MDLs (a monster of 143 frames and 19 skins, a flame whose
frames are groups) and checks what Blender's glTF importer made against
mdl/facts.json and the file's own bytes, read here with struct (id's
modelgen.h layout): one shape key per frame at the frame's positions, the
skin as an image of the palette's colours. Exports Blender's walker as an
MDL with the panel's options and reads the header back with struct; the
exported MDL imports again with a shape key per frame."""

import json
import os
import struct
import sys

import bpy

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import addon_under_test  # noqa: E402

corpus, outdir = sys.argv[sys.argv.index("--") + 1 :][:2]
facts = json.load(open(os.path.join(corpus, "mdl", "facts.json")))
palette_path = os.path.join(corpus, "quake", "palette.lmp")
palette = open(palette_path, "rb").read()
retromodel_io = addon_under_test.load()
rm = retromodel_io._retromodel()
HEADER = struct.Struct("<4si3f3ff3f8if")


def header(data):
    h = HEADER.unpack_from(data, 0)
    return {
        "ident": h[0],
        "version": h[1],
        "scale": h[2:5],
        "origin": h[5:8],
        "eye": h[9:12],
        "skins": h[12],
        "size": (h[13], h[14]),
        "vertices": h[15],
        "triangles": h[16],
        "frames": h[17],
        "synctype": h[18],
        "flags": h[19],
    }


def first_skin(data):
    """The first skin image's palette indices (a single skin or a group's
    first image), from the bytes."""
    h = header(data)
    at = HEADER.size
    (kind,) = struct.unpack_from("<i", data, at)
    at += 4
    if kind:
        (count,) = struct.unpack_from("<i", data, at)
        at += 4 + 4 * count
    w, ht = h["size"]
    return data[at : at + w * ht]


def meshes():
    return [o for o in bpy.data.objects if o.type == "MESH"]


# An MDL: one mesh, a shape key per frame (and Blender's basis), each at
# the frame's positions; the skin an image of the palette's colours.
for name in ["HackTechDev_mods_20_multiskins_player.mdl", "c0burn_progs_flame2.mdl"]:
    addon_under_test.fresh()
    path = os.path.join(corpus, "mdl", name)
    data = open(path, "rb").read()
    fact = facts[name]
    started = __import__("time").perf_counter()
    assert bpy.ops.import_scene.retromodel(filepath=path, quake_palette=palette_path) == {"FINISHED"}
    seconds = __import__("time").perf_counter() - started
    (obj,) = meshes()
    keys = obj.data.shape_keys.key_blocks
    assert len(keys) - 1 == fact["simple_frames"], (name, len(keys), fact["simple_frames"])
    model = rm.load(path)
    frames = fact["simple_frames"]
    for frame in sorted({0, frames // 2, frames - 1}):
        # Quake (x, y, z) -> glTF (y, z, x) -> Blender's Z up: (y, -x, z).
        want = {tuple(round(c, 2) for c in (p[1], -p[0], p[2])) for p in model.frame_positions(frame).tolist()}
        block = keys[1 + frame]
        got = {tuple(round(c, 2) for c in (obj.matrix_world @ v.co)) for v in block.data}
        assert len(want & got) >= 0.95 * len(want), (name, frame, len(want & got), len(want))
    assert len(obj.data.polygons) <= fact["triangles"]
    # The skin: the first image of the palette's colours (Blender's rows
    # go bottom up).
    w, h = fact["skin_width"], fact["skin_height"]
    images = [i for i in bpy.data.images if tuple(i.size) == (w, h)]
    assert images, (name, [(i.name, tuple(i.size)) for i in bpy.data.images])
    pixels = images[0].pixels[:]
    indices = first_skin(data)
    for x, y in [(0, 0), (w // 2, h // 2), (w - 1, h - 1), (w // 3, h // 5)]:
        i = indices[y * w + x]
        want = palette[3 * i : 3 * i + 3]
        at = 4 * ((h - 1 - y) * w + x)
        got = tuple(round(c * 255) for c in pixels[at : at + 3])
        assert max(abs(a - b) for a, b in zip(got, want)) <= 1, (name, x, y, i, got, tuple(want))
    print(f"mdl import {name}: {len(keys) - 1} frames as shape keys, skin {w}x{h}, {seconds:.2f} s")

# An imported MDL exported back to MDL: every frame, each vertex of frame
# 0 within a grid step of one of the file's (the exported grid is chosen
# afresh; the file's own positions decoded here as byte × scale + origin).
addon_under_test.fresh()
player = os.path.join(corpus, "mdl", "HackTechDev_mods_20_multiskins_player.mdl")
assert bpy.ops.import_scene.retromodel(filepath=player, quake_palette=palette_path) == {"FINISHED"}
again = os.path.join(outdir, "player_again.mdl")
assert bpy.ops.export_scene.retromodel_mdl(filepath=again, palette=palette_path) == {"FINISHED"}
data = open(again, "rb").read()
h = header(data)
assert h["frames"] == facts["HackTechDev_mods_20_multiskins_player.mdl"]["simple_frames"], h["frames"]
source = open(player, "rb").read()
sh = header(source)
at = HEADER.size
(kind,) = struct.unpack_from("<i", source, at)
assert kind == 0
at += 4 + sh["size"][0] * sh["size"][1]
# The player's 19 skins are single images.
at += (sh["skins"] - 1) * (4 + sh["size"][0] * sh["size"][1])
at += 12 * sh["vertices"] + 16 * sh["triangles"] + 4 + 24
want = [
    tuple(source[at + 4 * v + i] * sh["scale"][i] + sh["origin"][i] for i in range(3)) for v in range(sh["vertices"])
]
got = rm.load(again).frame_positions(0).tolist()
step = max(h["scale"])
far = [p for p in want if min(max(abs(a - b) for a, b in zip(p, q)) for q in got) > step]
assert not far, (len(far), far[:3], step)
print(f"mdl round trip through Blender: {h['frames']} frames, frame 0 within {step:.3f} units of the file's")

# The same scene with the panel's "Player table", and with "Frames like"
# the player itself: the 143 frames in QuakeC's order, their names (read
# from the bytes here) the independent reader's.
for label, options in [("player table", {"player": True}), ("frames like", {"frames_like": player})]:
    table = os.path.join(outdir, "player_table.mdl")
    assert bpy.ops.export_scene.retromodel_mdl(filepath=table, palette=palette_path, **options) == {"FINISHED"}
    data = open(table, "rb").read()
    h = header(data)
    at = HEADER.size + h["skins"] * (4 + h["size"][0] * h["size"][1]) + 12 * h["vertices"] + 16 * h["triangles"]
    names = []
    for _ in range(h["frames"]):
        (kind,) = struct.unpack_from("<i", data, at)
        assert kind == 0, "a frame group in the player's frames"
        names.append(data[at + 12 : at + 28].split(b"\0")[0].decode("latin-1"))
        at += 4 + 24 + 4 * h["vertices"]
    assert names == facts["HackTechDev_mods_20_multiskins_player.mdl"]["frame_names"], (label, names[:12])
    print(f"mdl {label} through Blender: {len(names)} frames in QuakeC's order")
# "Frames like" a file that is no MDL: refused naming the panel's label.
try:
    result = bpy.ops.export_scene.retromodel_mdl(filepath=table, palette=palette_path, frames_like=palette_path)
except RuntimeError as e:
    text = str(e)
else:
    raise AssertionError(f"not refused: {result}")
assert '"Frames like"' in text and "frames_like" not in text and "::" not in text, text

# Export: Blender's walker (from Blender's own glTF importer) as an MDL
# with the panel's options; the header read back with struct.
addon_under_test.fresh()
retromodel_io._numpy_bool_alias()
walker_glb = os.path.join(corpus, "gltf/blender_walker.glb")
assert bpy.ops.import_scene.gltf(filepath=walker_glb) == {"FINISHED"}
out = os.path.join(outdir, "walker.mdl")
assert bpy.ops.export_scene.retromodel_mdl(
    filepath=out,
    fps=10.0,
    fit_height=56.0,
    palette=palette_path,
    flags={"rotate", "rocket"},
    sync_type="random",
    eye_position=(0.0, 0.0, 22.0),
    rerelease_md5=True,
) == {"FINISHED"}
assert retromodel_io.Progress.last_steps[-1] == (1.0, "done"), retromodel_io.Progress.last_steps
data = open(out, "rb").read()
h = header(data)
# "Rerelease MD5": the MD5 and its skin beside the MDL, one anim frame per
# MDL frame (numFrames read from the text here).
anim = open(os.path.join(outdir, "walker.md5anim")).read()
assert int(anim.split("numFrames")[1].split()[0]) == h["frames"], anim[:200]
assert os.path.isfile(os.path.join(outdir, "walker.md5mesh"))
assert os.path.isfile(os.path.join(outdir, "walker_00_00.png"))
assert (h["ident"], h["version"]) == (b"IDPO", 6), h
assert h["flags"] == 8 | 1 and h["synctype"] == 1, h
assert [round(c, 3) for c in h["eye"]] == [0.0, 0.0, 22.0], h
# The frames: what the MD2 export of the same scene at the same rate has
# (the two compilers share their frame plan; the MD2 header's frame count
# read from its bytes at offset 40), and at least one per action.
md2_out = os.path.join(outdir, "walker.md2")
assert bpy.ops.export_scene.retromodel_md2(filepath=md2_out, fps=10.0) == {"FINISHED"}
md2_frames = struct.unpack_from("<i", open(md2_out, "rb").read(), 40)[0]
assert h["frames"] == md2_frames >= len(bpy.data.actions), (h["frames"], md2_frames, len(bpy.data.actions))
# The skin keeps off the fullbright colours (224..255): the walker glows nowhere.
assert max(first_skin(data)) < 224
back = rm.load(out)
assert back.format == "mdl" and not [p for p in back.validate() if p.severity == "error"], back.validate()
print(f"mdl export: {h['frames']} frames, {h['vertices']} vertices, {h['triangles']} triangles, skin {h['size']}")

# The exported MDL imports back: a shape key per frame.
addon_under_test.fresh()
assert bpy.ops.import_scene.retromodel(filepath=out, quake_palette=palette_path) == {"FINISHED"}
(obj,) = meshes()
assert len(obj.data.shape_keys.key_blocks) - 1 == back.frame_count == h["frames"]

# A file that is no palette is refused, naming the panel's "Quake palette".
bad = os.path.join(outdir, "bad_palette.lmp")
open(bad, "wb").write(b"\1" * 100)
try:
    result = bpy.ops.export_scene.retromodel_mdl(filepath=os.path.join(outdir, "bad.mdl"), palette=bad)
except RuntimeError as e:
    text = str(e)
else:
    raise AssertionError(f"not refused: {result}")
assert '"Quake palette"' in text and "palette=" not in text and "::" not in text, text
print("blender mdl: all checks passed")
