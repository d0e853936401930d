"""Headless test of the add-on's Quake III player export (run by
blender/test.sh and blender/test_bpy.sh):

    blender -b --factory-startup --python-exit-code 1 --python blender/test_md3_player.py -- CORPUS OUTDIR

Builds a player in Blender the way a modder does: three mesh objects named
lower, upper and head, empties tag_torso (child of lower), tag_head and
tag_weapon (children of upper), upper a child of tag_torso and head of
tag_head, and an action "run" raising tag_torso. Exports it with "Quake III
player" and checks the files from their bytes and text alone: the seven
files in the folder, animation.cfg's lines read by hand (LEGS_RUN 16 frames
at 15 fps, every line inside its file by the game's arithmetic), lower.md3's
tag_torso per frame where Blender's own evaluation puts the empty, and the
torso stored at tag_torso (its vertices where Blender has them relative to
the empty). A scene without a "lower" object is refused naming objects."""

import os
import sys
import zipfile

import bpy

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import addon_under_test  # noqa: E402
from quake3_files import cfg_lines, lands_in_files, md3  # noqa: E402

corpus, outdir = sys.argv[sys.argv.index("--") + 1 :][:2]
retromodel_io = addon_under_test.load()
addon_under_test.fresh()
retromodel_io._numpy_bool_alias()
scene = bpy.context.scene
scene.render.fps = 15


def triangle(name, size):
    mesh = bpy.data.meshes.new(name)
    mesh.from_pydata([(0, 0, 0), (size, 0, 0), (0, 0, size)], [], [(0, 1, 2)])
    obj = bpy.data.objects.new(name, mesh)
    scene.collection.objects.link(obj)
    return obj


def empty(name, parent, location):
    obj = bpy.data.objects.new(name, None)
    scene.collection.objects.link(obj)
    obj.parent = parent
    obj.location = location
    return obj


lower = triangle("lower", 10.0)
tag_torso = empty("tag_torso", lower, (0, 0, 20))
upper = triangle("upper", 4.0)
upper.parent = tag_torso
tag_head = empty("tag_head", upper, (0, 0, 10))
empty("tag_weapon", upper, (5, 0, 0))
head = triangle("head", 2.0)
head.parent = tag_head
# "run": tag_torso from 20 to 22 units up over one second (frames 0..15).
tag_torso.animation_data_create()
action = bpy.data.actions.new("run")
tag_torso.animation_data.action = action
for frame, z in ((0, 20.0), (15, 22.0)):
    tag_torso.location = (0, 0, z)
    tag_torso.keyframe_insert("location", frame=frame)

# Blender's own evaluation: tag_torso's world place at each frame, and the
# torso's vertices relative to it.
truth = []
for frame in range(16):
    scene.frame_set(frame)
    truth.append(tuple(tag_torso.matrix_world.translation))
scene.frame_set(0)
relative = [tuple(tag_torso.matrix_world.inverted() @ upper.matrix_world @ v.co) for v in upper.data.vertices]

folder = os.path.join(outdir, "models", "players", "hero")
os.makedirs(folder, exist_ok=True)
result = bpy.ops.export_scene.retromodel_md3(
    filepath=os.path.join(folder, "hero.md3"), player=True, fps=15.0, sex="f"
)
assert result == {"FINISHED"}, result
files = sorted(os.listdir(folder))
assert files == sorted(
    ["animation.cfg", "head.md3", "head_default.skin", "lower.md3", "lower_default.skin", "upper.md3", "upper_default.skin"]
), files


text = open(os.path.join(folder, "animation.cfg")).read()
assert "sex f" in text.splitlines(), text
cfg = cfg_lines(text)
assert len(cfg) == 25, cfg
low, up = (md3(open(os.path.join(folder, n), "rb").read()) for n in ("lower.md3", "upper.md3"))
assert lands_in_files(cfg, (low["frames"], up["frames"])) == []
skip = cfg[13][0] - cfg[6][0]
first, count, looping, fps = cfg[15]  # LEGS_RUN
assert (count, looping, fps) == (16, 16, 15), cfg[15]
start = int(first - skip)
worst = 0.0
for k in range(16):
    # Blender (x, y, z) is Quake (-y, x, z) (through glTF's Y up and the
    # MD3 lift's axes, as every import and export here); 1 unit a unit.
    origin = low["tags"][start + k]["tag_torso"]
    x, y, z = truth[k]
    worst = max(worst, max(abs(a - b) for a, b in zip(origin, (-y, x, z))))
assert worst < 1e-3, worst
# The torso at tag_torso: Blender's vertices relative to the empty, in
# 1/64 units.
want = sorted(tuple(round(c * 64) for c in (-v[1], v[0], v[2])) for v in relative)
assert sorted(up["surfaces"][0]["xyz"][0]) == want, (up["surfaces"][0]["xyz"][0], want)
print(f"blender md3 player export: 7 files, LEGS_RUN 16 frames, tag_torso within {worst:.2e} of Blender's")

# Without a "lower" object: refused, naming objects.
lower.name = "legs"
result = None
try:
    result = bpy.ops.export_scene.retromodel_md3(filepath=os.path.join(folder, "lower.md3"), player=True)
except RuntimeError as e:
    message = str(e)
    assert 'no object named "lower"' in message, message
    print("blender md3 player export: a scene without lower refused")
else:
    raise AssertionError(f"exported without a lower object: {result}")

# An imported player exported back: OpenArena's sarge (from Debian's
# pak0.pk3) through "Whole player" import and "Quake III player" export
# comes back as it was: animation.cfg's lines the same numbers, every
# frame the cfg plays the same vertices (1/64-unit positions, matched by
# texture coordinate and rest position) in each part.
baseoa = os.environ.get("RETROMODEL_OPENARENA", "/usr/share/games/openarena/baseoa")
pak = os.path.join(baseoa, "pak0.pk3")
if os.path.isfile(pak):
    src = os.path.join(outdir, "in", "models", "players", "sarge")
    os.makedirs(src, exist_ok=True)
    names = ["lower.md3", "upper.md3", "head.md3", "animation.cfg"] + [f"{p}_default.skin" for p in ("lower", "upper", "head")]
    with zipfile.ZipFile(pak) as z:
        for name in names:
            with open(os.path.join(src, name), "wb") as f:
                f.write(z.read("models/players/sarge/" + name))
    addon_under_test.fresh()
    assert bpy.ops.import_scene.retromodel(filepath=os.path.join(src, "lower.md3"), whole_player=True) == {"FINISHED"}
    dest = os.path.join(outdir, "back", "models", "players", "sarge")
    os.makedirs(dest, exist_ok=True)
    assert bpy.ops.export_scene.retromodel_md3(filepath=os.path.join(dest, "lower.md3"), player=True) == {"FINISHED"}
    was = cfg_lines(open(os.path.join(src, "animation.cfg"), encoding="latin-1").read())
    now = cfg_lines(open(os.path.join(dest, "animation.cfg"), encoding="latin-1").read())
    assert now == was, (now, was)
    skip = was[13][0] - was[6][0]

    def played(k):
        out = set()
        for i, (first, count, _l, _f) in enumerate(was):
            legs, torso = 13 <= i < 25, 6 <= i < 13 or i >= 25
            if (k == 0 and torso) or (k == 1 and legs):
                continue
            start = int(first - skip) if legs else int(first)
            out |= set(range(start, start + int(abs(count))))
        return out

    compared = 0
    for k, part in enumerate(("lower", "upper", "head")):
        a = md3(open(os.path.join(src, part + ".md3"), "rb").read())
        b = md3(open(os.path.join(dest, part + ".md3"), "rb").read())
        frames = sorted(f for f in (played(k) if k < 2 else {0}) if f < a["frames"])
        assert len(a["surfaces"]) == len(b["surfaces"]), part
        for sa, sb in zip(a["surfaces"], b["surfaces"]):
            trajectory = lambda s, v: tuple(s["xyz"][f][v] for f in frames)
            ta = sorted(set(trajectory(sa, v) for v in range(len(sa["xyz"][0]))))
            tb = sorted(set(trajectory(sb, v) for v in range(len(sb["xyz"][0]))))
            assert ta == tb, (part, sa["name"], len(ta), len(tb))
            compared += len(ta) * len(frames)
    print(f"blender md3 player round trip: sarge's cfg and {compared} vertex positions in played frames as they were")
elif os.environ.get("CI"):
    raise AssertionError(f"OpenArena's pak0.pk3 missing under {baseoa} (apt-get install openarena-data)")
else:
    print("blender md3 player round trip: no OpenArena, skipped")
