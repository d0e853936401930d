"""Headless test of the add-on's Quake III MD3 import and export (run by
blender/test.sh and blender/test_bpy.sh, as test_mdl.py is):

    blender -b --factory-startup --python-exit-code 1 --python blender/test_md3.py -- CORPUS OUTDIR

Imports OpenArena's sarge upper.md3 (taken out of Debian's openarena-data
pk3 here, never committed): one mesh per surface, a shape key per frame,
the surface count and frame count read from the file's bytes with struct
(ioquake3's qfiles.h layout). Imports sarge's whole player ("Whole
player", "Skin"): objects lower/upper/head under the tag empties, the
actions' names those of the pk3's animation.cfg parsed here, the head where
the tags unpacked from lower.md3 and upper.md3 put it. Exports Blender's walker (from Blender's own
glTF importer) as an MD3 with the panel's options and reads the header back
with struct; the library validates it for ioquake3 without an error."""

import os
import struct
import sys
import zipfile

import bpy

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import addon_under_test  # noqa: E402

corpus, outdir = sys.argv[sys.argv.index("--") + 1 :][:2]
retromodel_io = addon_under_test.load()
rm = retromodel_io._retromodel()
baseoa = os.environ.get("RETROMODEL_OPENARENA", "/usr/share/games/openarena/baseoa")


def header(data):
    ident, version = struct.unpack_from("<4si", data, 0)
    frames, tags, surfaces = struct.unpack_from("<3i", data, 76)
    return {"ident": ident, "version": version, "frames": frames, "tags": tags, "surfaces": surfaces}


def meshes():
    return [o for o in bpy.data.objects if o.type == "MESH"]


pak = os.path.join(baseoa, "pak0.pk3")
if os.path.isfile(pak):
    path = os.path.join(outdir, "upper.md3")
    with open(path, "wb") as f:
        f.write(zipfile.ZipFile(pak).read("models/players/sarge/upper.md3"))
    h = header(open(path, "rb").read())
    addon_under_test.fresh()
    assert bpy.ops.import_scene.retromodel(filepath=path) == {"FINISHED"}
    got = meshes()
    assert len(got) == h["surfaces"], (len(got), h)
    for obj in got:
        keys = obj.data.shape_keys.key_blocks
        assert len(keys) - 1 == h["frames"], (obj.name, len(keys), h)
    print(f"md3 import upper.md3: {len(got)} surfaces, {h['frames']} frames as shape keys")
elif os.environ.get("CI"):
    raise AssertionError(f"OpenArena's pak0.pk3 missing under {baseoa} (apt-get install openarena-data)")
else:
    print("md3 import: no OpenArena, skipped")


def cfg_names(text):
    """animation.cfg's animation names, as ioquake3's CG_ParseAnimationFile
    reads it: the lines of four numbers, in animNumber_t's order."""
    order = (
        "BOTH_DEATH1 BOTH_DEAD1 BOTH_DEATH2 BOTH_DEAD2 BOTH_DEATH3 BOTH_DEAD3 TORSO_GESTURE TORSO_ATTACK "
        "TORSO_ATTACK2 TORSO_DROP TORSO_RAISE TORSO_STAND TORSO_STAND2 LEGS_WALKCR LEGS_WALK LEGS_RUN "
        "LEGS_BACK LEGS_SWIM LEGS_JUMP LEGS_LAND LEGS_JUMPB LEGS_LANDB LEGS_IDLE LEGS_IDLECR LEGS_TURN "
        "TORSO_GETFLAG TORSO_GUARDBASE TORSO_PATROL TORSO_FOLLOWME TORSO_AFFIRMATIVE TORSO_NEGATIVE"
    ).split()
    rows = 0
    for line in text.splitlines():
        words = line.split("//")[0].split()
        if len(words) >= 4 and all(w.lstrip("-").isdigit() for w in words[:4]):
            rows += 1
    return order[: min(rows, len(order))]


def tag(data, name, frame=0):
    """A tag's origin and axes (rows) at `frame`: qfiles.h's md3Header_t
    (numFrames, numTags at 76, ofsTags at 96) and md3Tag_t (name[64],
    origin[3], axis[3][3])."""
    _frames, tags = struct.unpack_from("<2i", data, 76)
    (ofs_tags,) = struct.unpack_from("<i", data, 96)
    for t in range(tags):
        at = ofs_tags + 112 * (frame * tags + t)
        if data[at : at + 64].split(b"\0")[0].decode("latin-1") == name:
            v = struct.unpack_from("<12f", data, at + 64)
            return v[:3], (v[3:6], v[6:9], v[9:12])
    raise KeyError(name)


# A whole player: sarge's folder, lower.md3 imported with "Whole player".
if os.path.isfile(pak):
    folder = os.path.join(outdir, "sarge")
    os.makedirs(folder, exist_ok=True)
    with zipfile.ZipFile(pak) as z:
        for name in ("lower.md3", "upper.md3", "head.md3", "animation.cfg") + tuple(
            f"{p}_default.skin" for p in ("lower", "upper", "head")
        ):
            with open(os.path.join(folder, name), "wb") as f:
                f.write(z.read("models/players/sarge/" + name))
    addon_under_test.fresh()
    op = bpy.ops.import_scene.retromodel
    assert op(filepath=os.path.join(folder, "lower.md3"), whole_player=True, md3_skin="default") == {"FINISHED"}
    objects = {o.name: o for o in bpy.data.objects}
    for part in ("lower", "upper", "head"):
        assert part in objects, (part, sorted(objects))
    assert objects["upper"].parent and objects["upper"].parent.name.startswith("tag_torso"), objects["upper"].parent
    assert objects["head"].parent and objects["head"].parent.name.startswith("tag_head"), objects["head"].parent
    expected = cfg_names(open(os.path.join(folder, "animation.cfg"), encoding="latin-1").read())
    actions = sorted({a.name for a in bpy.data.actions})
    # Blender's glTF importer names an animation's action per object it
    # moves (NAME or NAME_object); every cfg name is there, nothing else.
    def base(name):
        return next((n for n in sorted(expected, key=len, reverse=True) if name == n or name.startswith(n + "_")), None)

    assert all(base(a) for a in actions), [a for a in actions if not base(a)]
    assert {base(a) for a in actions} == set(expected), (sorted(set(expected) - {base(a) for a in actions}))
    # The head's place at the first key (time 0: every part's frame 0;
    # Blender 3.4's glTF importer keys it at frame 0, later ones may at 1)
    # is where the tags in the files put it: tag_torso of lower.md3, then
    # tag_head of upper.md3 along tag_torso's axes
    # (CG_PositionRotatedEntityOnTag); Quake (X forward, Y left, Z up) to
    # glTF (Y, Z, X) to Blender (X, -Z, Y).
    # (Action.frame_range: its first and last key, in Blender 3.4 as in
    # 5.x, whose slotted actions keep their F-curves elsewhere.)
    first = objects["tag_torso"].animation_data.action.frame_range[0]
    bpy.context.scene.frame_set(int(round(first)))
    lower_bytes = open(os.path.join(folder, "lower.md3"), "rb").read()
    upper_bytes = open(os.path.join(folder, "upper.md3"), "rb").read()
    torso_origin, torso_axes = tag(lower_bytes, "tag_torso")
    head_origin, _ = tag(upper_bytes, "tag_head")
    q = [torso_origin[j] + sum(head_origin[i] * torso_axes[i][j] for i in range(3)) for j in range(3)]
    want = (q[1], -q[0], q[2])
    got = tuple(objects["head"].matrix_world.translation)
    assert all(abs(a - b) < 1e-3 for a, b in zip(got, want)), (got, want, q)
    print(
        f"md3 import whole player: lower/upper/head at tags, {len(expected)} cfg animations, "
        f"head at frame {first:g}: {tuple(round(x, 3) for x in got)}"
    )
    # head.md3 (or upper.md3) of the folder brings the whole player too.
    addon_under_test.fresh()
    assert op(filepath=os.path.join(folder, "head.md3")) == {"FINISHED"}
    names = {o.name for o in bpy.data.objects}
    assert {"lower", "upper", "head", "tag_torso", "tag_head"} <= names, sorted(names)
    # "Whole player" off: upper.md3 alone.
    addon_under_test.fresh()
    assert op(filepath=os.path.join(folder, "upper.md3"), whole_player=False) == {"FINISHED"}
    names = {o.name for o in bpy.data.objects}
    assert "lower" not in names and "head" not in names, sorted(names)
    # A skin set that is not there is refused.
    addon_under_test.fresh()
    try:
        result = op(filepath=os.path.join(folder, "lower.md3"), md3_skin="nosuchset")
    except RuntimeError as e:  # the operator's error report
        result = str(e)
    assert "skin set" in str(result), result

# Export: Blender's walker as an MD3 with the panel's options.
addon_under_test.fresh()
retromodel_io._numpy_bool_alias()
assert bpy.ops.import_scene.gltf(filepath=os.path.join(corpus, "gltf/blender_walker.glb")) == {"FINISHED"}
out = os.path.join(outdir, "walker.md3")
assert bpy.ops.export_scene.retromodel_md3(filepath=out, fps=10.0, fit_height=56.0, engine="ioquake3") == {"FINISHED"}
assert retromodel_io.Progress.last_steps[-1] == (1.0, "done"), retromodel_io.Progress.last_steps
data = open(out, "rb").read()
h = header(data)
assert (h["ident"], h["version"]) == (b"IDP3", 15), h
assert h["surfaces"] >= 1 and h["frames"] >= len(bpy.data.actions), (h, len(bpy.data.actions))
# The same frames as the MD2 export of the scene at the same rate (the
# compilers share their frame plan; the MD2 header's count at offset 40).
md2_out = os.path.join(outdir, "walker_for_md3.md2")
assert bpy.ops.export_scene.retromodel_md2(filepath=md2_out, fps=10.0) == {"FINISHED"}
assert h["frames"] == struct.unpack_from("<i", open(md2_out, "rb").read(), 40)[0], h
back = rm.load(out)
assert back.format == "md3" and not [p for p in back.validate() if p.severity == "error"], back.validate()
print(f"md3 export: {h['frames']} frames, {h['surfaces']} surfaces")
print("blender md3: all checks passed")
