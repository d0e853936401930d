"""Headless test of the export panel's text files (run by blender/test.sh
and blender/test_bpy.sh, as test_mdl.py is):

    blender -b --factory-startup --python-exit-code 1 --python blender/test_textfiles.py -- CORPUS OUTDIR

Exports Blender's walker (from Blender's own glTF importer, one action
renamed so that its frame names start with a digit) as an MD2 with "QuakeC
frame list (.qc)" and "GZDoom MODELDEF", as an MDL with the .qc and as an
MD3 with the MODELDEF, and checks the files written beside each: the
``$frame`` lines numbered as QuakeC compilers number them (each name the
next number from 0 over every ``$frame`` line) against the frame names
read from the exported file's bytes with struct (MD2: ``num_frames`` at
40, ``ofs_frames`` at 56, ``framesize`` at 16, a name at +24; MD3:
``numFrames`` at 76, ``ofsFrames`` at 92, a name at +40 of 56 bytes), and
the MODELDEF's ``FrameIndex`` lines as GZDoom reads them (4-character
sprites, frame characters A-Z [ \\ ], plain decimal frame numbers below the
model's frame count, each frame once); renamed frames are reported as
warnings; a bad actor name is refused in the panel's words."""

import os
import re
import struct
import sys

import bpy

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import addon_under_test  # noqa: E402

corpus, outdir = sys.argv[sys.argv.index("--") + 1 :][:2]
palette_path = os.path.join(corpus, "quake", "palette.lmp")
retromodel_io = addon_under_test.load()


def le(b, at):
    return struct.unpack_from("<i", b, at)[0]


def cstr(b):
    return b.split(b"\0", 1)[0].decode("latin-1")


def md2_names(b):
    size, n, ofs = le(b, 16), le(b, 40), le(b, 56)
    return [cstr(b[ofs + k * size + 24 : ofs + k * size + 40]) for k in range(n)]


def mdl_frame_names(b):
    """Each MDL frame entry's name (id's modelgen.h layout; a group's
    first picture's)."""
    skins, w, h, verts, tris, frames = (le(b, at) for at in (48, 52, 56, 60, 64, 68))
    at = 84
    for _ in range(skins):
        n = 1 if le(b, at) == 0 else le(b, at + 4)
        at += 4 + w * h if le(b, at) == 0 else 8 + 4 * n + n * w * h
    at += verts * 12 + tris * 16
    names = []
    for _ in range(frames):
        if le(b, at) == 0:
            names.append(cstr(b[at + 12 : at + 28]))
            at += 28 + 4 * verts
        else:
            n = le(b, at + 4)
            first = at + 16 + 4 * n
            names.append(cstr(b[first + 8 : first + 24]))
            at = first + n * (24 + 4 * verts)
    return names


def md3_names(b):
    n, ofs = le(b, 76), le(b, 92)
    return [cstr(b[ofs + 56 * k + 40 : ofs + 56 * k + 56]) for k in range(n)]


def qc_numbers(text):
    """``{name: number}`` as qcc's PR_ParseFrame numbers ``$frame`` lines."""
    numbers = {}
    for line in text.splitlines():
        tokens = line.split()
        if tokens and tokens[0] == "$frame":
            for name in tokens[1:]:
                assert re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]{0,14}", name), name
                assert name.lower() not in {n.lower() for n in numbers}, name
                numbers[name] = len(numbers)
    return numbers


def check_qc(path, names):
    """Frame k is ``$name`` = k, under its own name when that is an
    identifier; returns the frames declared under another name."""
    numbers = qc_numbers(open(path).read())
    assert len(numbers) == len(names), (len(numbers), len(names))
    by_number = {v: k for k, v in numbers.items()}
    renamed = []
    for k, raw in enumerate(names):
        if re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]{0,14}", raw):
            assert numbers.get(raw) == k, (raw, k)
        else:
            renamed.append((k, raw, by_number[k]))
    return renamed


def check_modeldef(path, frames, model_file, actor):
    text = open(path).read()
    assert re.search(rf"^Model {actor}\n{{$", text, re.M), text[:400]
    assert f'Model 0 "{model_file}"' in text, text[:600]
    entries = []
    for line in text.splitlines():
        tokens = line.split()
        if tokens and tokens[0].lower() == "frameindex":
            sprite, char, index, frame = tokens[1:5]
            assert len(sprite) == 4 and sprite.upper() != "TNT1", line
            assert len(char) == 1 and 0 <= ord(char.upper()) - ord("A") < 29, line
            assert index == "0" and (frame == "0" or not frame.startswith("0")), line
            entries.append((sprite, char, int(frame)))
    assert sorted(e[2] for e in entries) == list(range(frames)), entries[:5]
    assert len({e[:2] for e in entries}) == frames
    assert not [t for t in re.findall(r'"([^"]*)"', text) if t.lower() == "model"]
    return text


# Operator reports, recorded (background Blender prints them only).
reports = []
_add = retromodel_io.text_files.add


def _recording_add(operator, rm, name, model, beside, warnings):
    out = _add(operator, rm, name, model, beside, warnings)
    reports.extend(w["message"] for w in out[2])
    return out


retromodel_io.text_files.add = _recording_add

addon_under_test.fresh()
retromodel_io._numpy_bool_alias()
assert bpy.ops.import_scene.gltf(filepath=os.path.join(corpus, "gltf/blender_walker.glb")) == {"FINISHED"}
# The walk's animation made 2walk: its NLA track (walk, which the exporter
# names the animation after) and its action (Blender 3.4 and 4.x's importer
# name it walk_walker_rig, 5.x's walk).
tracks = [t for o in bpy.data.objects if o.animation_data for t in o.animation_data.nla_tracks if t.name == "walk"]
assert tracks, [a.name for a in bpy.data.actions]
for t in tracks:
    t.name = "2walk"
walk = [a for a in bpy.data.actions if a.name in ("walk_walker_rig", "walk")]
assert len(walk) == 1, [a.name for a in bpy.data.actions]
walk[0].name = "2walk"

# MD2: .qc and MODELDEF.
md2 = os.path.join(outdir, "walker.md2")
assert bpy.ops.export_scene.retromodel_md2(
    filepath=md2, fps=10.0, qc_file=True, modeldef_file=True, modeldef_actor="Walker", modeldef_height=64.0
) == {"FINISHED"}
names = md2_names(open(md2, "rb").read())
renamed = check_qc(os.path.join(outdir, "walker.qc"), names)
assert renamed and all(raw.startswith("2walk") for _, raw, _ in renamed), renamed
# Each renamed frame is one warning in the report, naming its file.
for k, raw, declared in renamed:
    assert any(r.startswith("walker.qc: ") and f"frame {k} " in r and f"${declared}" in r for r in reports), (k, reports)
text = check_modeldef(os.path.join(outdir, "MODELDEF.walker.txt"), len(names), "walker.md2", "Walker")
assert "frame 0 stands 64 map units tall" in text
print(f"blender textfiles md2: {len(names)} frames, {len(renamed)} renamed in walker.qc, MODELDEF.walker.txt")

# MDL: .qc (no MODELDEF option: GZDoom does not load MDL).
assert not hasattr(retromodel_io.ExportMdl, "modeldef_file")
mdl = os.path.join(outdir, "walker_q1.mdl")
assert bpy.ops.export_scene.retromodel_mdl(filepath=mdl, fps=10.0, palette=palette_path, qc_file=True) == {"FINISHED"}
mdl_names = mdl_frame_names(open(mdl, "rb").read())
renamed = check_qc(os.path.join(outdir, "walker_q1.qc"), mdl_names)
assert renamed, mdl_names[:5]
assert not os.path.exists(os.path.join(outdir, "MODELDEF.walker_q1.txt"))
print(f"blender textfiles mdl: {len(mdl_names)} frames in walker_q1.qc")

# MD3: MODELDEF, actor from the file's name.
md3 = os.path.join(outdir, "walker3.md3")
assert bpy.ops.export_scene.retromodel_md3(filepath=md3, fps=10.0, modeldef_file=True) == {"FINISHED"}
md3_frames = md3_names(open(md3, "rb").read())
check_modeldef(os.path.join(outdir, "MODELDEF.walker3.txt"), len(md3_frames), "walker3.md3", "walker3")
assert not os.path.exists(os.path.join(outdir, "walker3.qc"))
print(f"blender textfiles md3: {len(md3_frames)} frames in MODELDEF.walker3.txt")

# A bad actor name is refused before anything is written, in the panel's words.
bad = os.path.join(outdir, "bad_actor.md2")
try:
    result = bpy.ops.export_scene.retromodel_md2(filepath=bad, modeldef_file=True, modeldef_actor="2fort")
except RuntimeError as e:
    message = str(e)
else:
    raise AssertionError(f"not refused: {result}")
assert '"Actor" 2fort' in message and "actor=" not in message, message
assert not os.path.exists(bad) and not os.path.exists(os.path.join(outdir, "MODELDEF.bad_actor.txt"))
print("blender textfiles: all checks passed")
