"""Headless test of the add-on in Blender (run by blender/test.sh and blender/test_bpy.sh):

    blender -b --factory-startup --python-exit-code 1 --python blender/test_blender.py -- CORPUS OUTDIR

or, in PyPI's bpy 4.2+ with the add-on zip installed as an extension (run by
blender/test_bpy.sh; addon_under_test.py says how):

    RETROMODEL_EXTENSION_ZIP=ZIP BLENDER_USER_RESOURCES=TMP python blender/test_blender.py -- CORPUS OUTDIR

Imports MD2s (faerie, the sample) and MS3Ds (nehe's model, Woman4) through
the add-on and checks what Blender's glTF importer made against the
corpus' facts.json, `info` and the file's own frames; exports the MD2
scene back through the add-on, and Blender's walker (imported by
Blender's own glTF importer) as MD2 and MS3D, and reads the results with
retromodel."""

import json
import os
import sys

import bpy

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import addon_under_test  # noqa: E402

corpus, outdir = sys.argv[sys.argv.index("--") + 1 :][:2]
facts = json.load(open(os.path.join(corpus, "facts.json")))
retromodel_io = addon_under_test.load()
rm = retromodel_io._retromodel()


def fresh():
    addon_under_test.fresh()


# Blender 4.x's glTF importer puts the sphere it shows bones as (a custom
# bone shape) in this collection, which its exporter leaves out.
NOT_EXPORTED = "glTF_not_exported"


def meshes():
    """The model's meshes: what an export takes, not Blender's bone shapes."""
    return [
        o for o in bpy.data.objects if o.type == "MESH" and not any(c.name == NOT_EXPORTED for c in o.users_collection)
    ]


# MD2: one mesh whose shape keys are the frames, at the frames' positions.
fresh()
faerie = os.path.join(corpus, "md2/assimpdeb_faerie.md2")
fact = facts["md2/assimpdeb_faerie.md2"]
assert bpy.ops.import_scene.retromodel(filepath=faerie) == {"FINISHED"}
(obj,) = meshes()
keys = obj.data.shape_keys.key_blocks
assert len(keys) >= fact["frames"], (len(keys), fact["frames"])
model = rm.load(faerie)
for frame in (0, 7, fact["frames"] - 1):
    # Quake (x, y, z) -> glTF (y, z, x) -> Blender's Z up (x, -z, y): (y, -x, z).
    want = {tuple(round(c, 2) for c in (p[1], -p[0], p[2])) for p in model.frame_positions(frame).tolist()}
    block = keys[len(keys) - fact["frames"] + frame]
    got = {tuple(round(c, 2) for c in (obj.matrix_world @ v.co)) for v in block.data}
    # Rounding can split a value across a boundary: nearly all must match.
    assert len(want & got) >= 0.95 * len(want), (frame, len(want & got), len(want))
# The importer may drop degenerate triangles, and nothing else.
assert fact["tris"] - fact.get("degenerate_tris", 0) <= len(obj.data.polygons) <= fact["tris"]
print(f"md2 import: {len(obj.data.vertices)} vertices, {len(keys)} shape keys, {len(obj.data.polygons)} faces")

# Export the imported MD2 back to MD2 through Blender's glTF exporter. The
# warnings the panel shows are recorded: Blender keeps the MD2 record (a
# custom property) but not which MD2 vertex each vertex is, so the frames
# are baked afresh, which is no news to the user (nothing to warn about,
# and no attribute name such as _MD2_VERTEX).
panel_warnings = []
_compile_md2 = retromodel_io.ExportMd2.compile


def _recording_compile(self, rm_, glb, name):
    made = _compile_md2(self, rm_, glb, name)
    panel_warnings.extend(w["message"] for w in made[2])
    return made


retromodel_io.ExportMd2.compile = _recording_compile
out = os.path.join(outdir, "faerie_out.md2")
assert bpy.ops.export_scene.retromodel_md2(filepath=out, fps=10.0, grid="animation") == {"FINISHED"}
retromodel_io.ExportMd2.compile = _compile_md2
# Shared grids ("animation") were asked for, so the recorded frames cannot
# be kept and the panel may say so; it must not speak of a vertex map.
assert not [w for w in panel_warnings if "MD2_VERTEX" in w or "vertex number" in w], panel_warnings
print(f"md2 export warnings: {panel_warnings}")
back = rm.load(out)
info = back.info()
assert info["triangles"] == len(obj.data.polygons), (info["triangles"], len(obj.data.polygons))
assert back.frame_count >= 1
assert not [p for p in back.validate(engine="quake2") if p.severity == "error"]
# Export -> import gives back the same animations with the same frame counts.
def animations(i):
    return sorted((a["name"], a["frame_count"]) for a in i["animations"])


assert animations(info) == animations(model.info()), (animations(info), animations(model.info()))
print(f"md2 export: {info['frames']} frames, {info['vertices']} vertices, {info['triangles']} triangles")
# The panel's options reach the compiler: two animations chosen, a height.
chosen = os.path.join(outdir, "faerie_two.md2")
assert bpy.ops.export_scene.retromodel_md2(filepath=chosen, anims="stand, run", fit_height=56.0) == {"FINISHED"}
two = rm.load(chosen).info()
assert [a["name"] for a in two["animations"]] == ["stand", "run"], two["animations"]
print(f"md2 export with anims and fit_height: {[a['name'] for a in two['animations']]}")

# MS3D: an armature with the joints, and the mesh.
fresh()
ms3d = "ms3d/nehe_lesson31_Model.ms3d"
assert bpy.ops.import_scene.retromodel(filepath=os.path.join(corpus, ms3d)) == {"FINISHED"}
arms = [o for o in bpy.data.objects if o.type == "ARMATURE"]
assert len(arms) == 1 and len(arms[0].data.bones) == facts[ms3d]["joints"], [len(a.data.bones) for a in arms]
assert sum(len(o.data.polygons) for o in meshes()) == facts[ms3d]["tris"]
print(f"ms3d import: {len(arms[0].data.bones)} bones, {len(meshes())} meshes, {len(bpy.data.actions)} actions")

# The sample: one shape key per frame, one action per animation, as info says.
fresh()
sample = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "examples", "models", "sample.md2")
sample_info = rm.load(sample).info()
assert bpy.ops.import_scene.retromodel(filepath=sample) == {"FINISHED"}
(obj,) = meshes()
keys = obj.data.shape_keys.key_blocks
assert len(keys) - 1 == sample_info["frames"], (len(keys), sample_info["frames"])
names = sorted(a["name"] for a in sample_info["animations"])
actions = sorted(a.name for a in bpy.data.actions)
assert len(actions) == len(names) and all(n in a for n, a in zip(names, actions)), (names, actions)
print(f"sample import: {len(keys) - 1} frames as shape keys, actions {actions}")

# Woman4: an armature of its 31 joints, and an action as long as its timeline.
fresh()
woman = "ms3d/glscene_Woman4.ms3d"
woman_info = rm.load(os.path.join(corpus, woman)).info()
assert bpy.ops.import_scene.retromodel(filepath=os.path.join(corpus, woman)) == {"FINISHED"}
arms = [o for o in bpy.data.objects if o.type == "ARMATURE"]
assert len(arms) == 1, arms
bones = {b.name for b in arms[0].data.bones}
assert woman_info["joints"] == facts[woman]["joints"]
assert len(bones) >= facts[woman]["joints"], (len(bones), facts[woman]["joints"])
assert all(n in bones for n in facts[woman]["joint_names"]), sorted(bones)
seconds = facts[woman]["total_frames"] / facts[woman]["fps"]
fps = bpy.context.scene.render.fps / bpy.context.scene.render.fps_base
lengths = [(a.frame_range[1] - a.frame_range[0]) / fps for a in bpy.data.actions]
assert lengths and max(abs(l - seconds) for l in lengths) < 2.0 / facts[woman]["fps"], (lengths, seconds)
print(f"ms3d import: Woman4 {len(bones)} bones, {len(lengths)} action(s) of {max(lengths):.2f} s (timeline {seconds:.2f} s)")

# MilkShape ASCII: the walker's text export, an armature of its bones.
fresh()
text = os.path.join(corpus, "ms3d_ascii/blender_walker.txt")
text_info = rm.load(text).info()
assert bpy.ops.import_scene.retromodel(filepath=text) == {"FINISHED"}
arms = [o for o in bpy.data.objects if o.type == "ARMATURE"]
assert len(arms) == 1 and len(arms[0].data.bones) >= text_info["joints"] > 0, (arms, text_info["joints"])
assert sum(len(o.data.polygons) for o in meshes()) == text_info["triangles"]
print(f"ascii import: {len(arms[0].data.bones)} bones, {text_info['triangles']} triangles")

# Blender's walker, imported by Blender's own glTF importer, exported by
# the add-on as MD2 and as MS3D: both pass strict validation (no problem
# at all) and keep the animations.
fresh()
_ = retromodel_io._numpy_bool_alias()
assert bpy.ops.import_scene.gltf(filepath=os.path.join(corpus, "gltf/blender_walker.glb")) == {"FINISHED"}
walker_md2 = os.path.join(outdir, "walker.md2")
assert bpy.ops.export_scene.retromodel_md2(filepath=walker_md2, fps=10.0, engine="quake2") == {"FINISHED"}
md2 = rm.load(walker_md2)
assert md2.validate(engine="quake2") == [], md2.validate(engine="quake2")
md2_anims = sorted(a["name"] for a in md2.info()["animations"])
walker_ms3d = os.path.join(outdir, "walker.ms3d")
assert bpy.ops.export_scene.retromodel_ms3d(filepath=walker_ms3d) == {"FINISHED"}
ms3d_model = rm.load(walker_ms3d)
assert ms3d_model.validate() == [], ms3d_model.validate()
ms3d_info = ms3d_model.info()
clips = sorted(c["name"] for c in ms3d_info["clips"][1:])
assert ms3d_info["joints"] >= 1 and clips == md2_anims and len(clips) >= 2, (clips, md2_anims)
assert os.path.isfile(os.path.join(outdir, "walker.png"))
print(f"walker export: MD2 {md2.frame_count} frames {md2_anims}; MS3D {ms3d_info['joints']} joints, clips {clips}")
# "Rerelease MD5": md5/walker_rr.md5mesh and .md5anim beside the MD2,
# the anim frame for frame the MD2 (frame count from the MD2 header's
# bytes, numFrames from the md5anim's text), a joint for each of the
# armature's bones; the MD5 passes validation.
rr_md2 = os.path.join(outdir, "walker_rr.md2")
assert bpy.ops.export_scene.retromodel_md2(filepath=rr_md2, player=True, rerelease_md5=True) == {"FINISHED"}
md2_frames = int.from_bytes(open(rr_md2, "rb").read()[40:44], "little")
anim_text = open(os.path.join(outdir, "md5", "walker_rr.md5anim")).read()
mesh_text = open(os.path.join(outdir, "md5", "walker_rr.md5mesh")).read()
assert md2_frames == 198 and f"numFrames {md2_frames}" in anim_text, (md2_frames, anim_text[:200])
bones = sum(len(o.data.bones) for o in bpy.context.scene.objects if o.type == "ARMATURE")
assert f"numJoints {bones}" in mesh_text, (bones, mesh_text[:200])
md5_model = rm.load(os.path.join(outdir, "md5", "walker_rr.md5mesh"))
assert md5_model.validate() == [], md5_model.validate()
# The skin also in md5/, where Q2PRO's MD5_LoadSkins looks for it.
assert open(os.path.join(outdir, "md5", "walker_rr.png"), "rb").read() == open(os.path.join(outdir, "walker_rr.png"), "rb").read()
print(f"rerelease MD5: {bones} joints, {md2_frames} frames as the MD2")

# An MS3D with GBK joint names (Chinese tools write them) and a root whose
# parent field says `none`, imported and exported through the add-on, keeps
# its 32-byte joint and parent fields as they were (read here from the
# bytes, offsets from shared/formats/MS3D.md).
def joint_offsets(data):
    def u16(o):
        return int.from_bytes(data[o : o + 2], "little")

    o = 14
    o += 2 + 15 * u16(o)
    o += 2 + 70 * u16(o)
    groups, o = u16(o), o + 2
    for _ in range(groups):
        o += 36 + 2 * u16(o + 33)
    o += 2 + 361 * u16(o) + 12
    joints, o, out = u16(o), o + 2, []
    for _ in range(joints):
        out.append(o)
        o += 93 + 16 * (u16(o + 89) + u16(o + 91))
    return out


def joint_fields(data):
    return [(bytes(data[o + 1 : o + 33]), bytes(data[o + 33 : o + 65])) for o in joint_offsets(data)]


fresh()
data = bytearray(open(os.path.join(corpus, "ms3d/nehe_lesson31_Model.ms3d"), "rb").read())
gbk = {b"joint1": bytes([0xD6, 0xD0, 0xCE, 0xC4]), b"joint2": bytes([0xCA, 0xD6, 0xB1, 0xDB])}
for k, o in enumerate(joint_offsets(data)):
    for at in (o + 1, o + 33):
        name = bytes(data[at : at + 32]).split(b"\0")[0]
        if name in gbk:
            data[at : at + 32] = gbk[name].ljust(32, b"\0")
    if k == 0:
        data[o + 33 : o + 65] = b"none".ljust(32, b"\0")
gbk_in = os.path.join(outdir, "gbk.ms3d")
open(gbk_in, "wb").write(data)
want = joint_fields(data)
assert want[0] == (gbk[b"joint1"].ljust(32, b"\0"), b"none".ljust(32, b"\0")), want[0]
assert bpy.ops.import_scene.retromodel(filepath=gbk_in) == {"FINISHED"}
gbk_out = os.path.join(outdir, "gbk_out.ms3d")
assert bpy.ops.export_scene.retromodel_ms3d(filepath=gbk_out) == {"FINISHED"}
got = joint_fields(open(gbk_out, "rb").read())
assert sorted(got) == sorted(want), (got, want)
# Only the model's triangles go out (not the bone shapes Blender 4.x adds).
assert rm.load(gbk_out).info()["triangles"] == facts[ms3d]["tris"], rm.load(gbk_out).info()["triangles"]
# Renamed in Blender: the new name wins, as UTF-8, in its children's
# parent fields too; the other joints keep their stored bytes.
(arm,) = [o for o in bpy.data.objects if o.type == "ARMATURE"]
(root,) = [b for b in arm.data.bones if b.parent is None]
root.name = "\u8170"
renamed_out = os.path.join(outdir, "gbk_renamed.ms3d")
assert bpy.ops.export_scene.retromodel_ms3d(filepath=renamed_out) == {"FINISHED"}
yao = "\u8170".encode("utf-8").ljust(32, b"\0")
want_renamed = [(yao if n == want[0][0] else n, yao if p == want[0][0] else p) for n, p in want]
got = joint_fields(open(renamed_out, "rb").read())
assert sorted(got) == sorted(want_renamed), (got, want_renamed)
print(f"ms3d GBK names through Blender: {len(got)} joint and parent fields as stored; a renamed one as UTF-8")

# Refusals and warnings name the panel's settings by their labels, not
# Python keywords or Rust API. A cube moved over 60 frames: a few
# seconds, which at 240 frames per second make some 600 frames, over
# Quake II's 512 (MAX_FRAMES, qfiles.h) and within UFO:AI's 1023 (its
# loader wants fewer than MD2_MAX_FRAMES, 1024). The count is the
# exported animation's length in the GLB (its last key time) at 240 per
# second, both ends included.
fresh()
bpy.context.scene.render.fps = 24
bpy.ops.mesh.primitive_cube_add()
cube = bpy.context.object
cube.keyframe_insert("location", frame=1)
cube.location.x += 1
cube.keyframe_insert("location", frame=61)
cube_glb = os.path.join(outdir, "cube.glb")
assert bpy.ops.export_scene.gltf(filepath=cube_glb, export_format="GLB") == {"FINISHED"}
glb = open(cube_glb, "rb").read()
doc = json.loads(glb[20 : 20 + int.from_bytes(glb[12:16], "little")])
seconds = max(doc["accessors"][s["input"]]["max"][0] for a in doc["animations"] for s in a["samplers"])
frames = round(seconds * 240) + 1
assert 512 < frames <= 1023, frames
long_md2 = os.path.join(outdir, "long.md2")
try:
    result = bpy.ops.export_scene.retromodel_md2(filepath=long_md2, fps=240.0)
except RuntimeError as e:  # the operator's ERROR report
    text = str(e)
else:
    raise AssertionError(f"not refused: {result}")
assert f"{frames} frames exceed Quake II's limit of 512 (by {frames - 512})" in text, text
for label in ('lower "Frames per second"', 'fewer actions in "Animations"', 'set "Engine" to ufoai (allows 1023)'):
    assert label in text, (label, text)
assert "::" not in text and "fps=" not in text and "anims=" not in text and "engine=" not in text, text
assert not os.path.exists(long_md2)
# The untextured cube: the skin-size warning names "Skin size", which sets it.
details = rm.compile_md2(cube_glb).warning_details
(size,) = [d for d in details if "no skin size" in d["message"]]
text = retromodel_io.advice_text(retromodel_io.ExportMd2, size["message"], size["remedies"])
assert 'set "Skin size"' in text and "skin_size" not in text and "::" not in text, text
# A skin wider than Quake II's 640 pixels is scaled down with a warning;
# no export setting makes it smaller, so its remedy names Blender's own
# menu instead of retromodel's words.
wide = bpy.data.images.new("wide", 1024, 64)
wide.filepath_raw = os.path.join(outdir, "wide.png")
wide.file_format = "PNG"
wide.save()
material = bpy.data.materials.new("wide")
material.use_nodes = True
texture = material.node_tree.nodes.new("ShaderNodeTexImage")
texture.image = wide
material.node_tree.links.new(texture.outputs["Color"], material.node_tree.nodes["Principled BSDF"].inputs["Base Color"])
cube.data.materials.append(material)
wide_glb = os.path.join(outdir, "wide.glb")
assert bpy.ops.export_scene.gltf(filepath=wide_glb, export_format="GLB") == {"FINISHED"}
details = rm.compile_md2(wide_glb).warning_details
(scaled,) = [d for d in details if "scaled down" in d["message"]]
assert "1024x64" in scaled["message"], scaled
text = retromodel_io.advice_text(retromodel_io.ExportMd2, scaled["message"], scaled["remedies"])
assert "Image > Resize" in text and "smaller textures" not in text and "::" not in text, text
cube.data.materials.clear()
cube_md2 = os.path.join(outdir, "cube.md2")
assert bpy.ops.export_scene.retromodel_md2(filepath=cube_md2, skin_size=(128, 64)) == {"FINISHED"}
header = open(cube_md2, "rb").read(16)
assert (int.from_bytes(header[8:12], "little"), int.from_bytes(header[12:16], "little")) == (128, 64)
# A PCX skin without a palette (the walker is textured): "Palette" and
# "Skin format" by their labels.
try:
    rm.compile_md2(os.path.join(corpus, "gltf/blender_walker.glb"), skin_format="pcx")
except rm.Error as e:
    text = retromodel_io.error_text(retromodel_io.ExportMd2, e)
else:
    raise AssertionError("a PCX skin without a palette was not refused")
assert 'choose a "Palette"' in text and 'set "Skin format" to PNG or TGA' in text, text
assert "::" not in text and "palette=" not in text, text
print(f"advice in the panel's words: {text}")
# The walker is in metres: as a player it would be under 2 Quake units
# tall; the warning names the panel's "Fit height".
details = rm.compile_md2(os.path.join(corpus, "gltf/blender_walker.glb"), player=True).warning_details
(size,) = [d for d in details if "units tall" in d["message"]]
text = retromodel_io.advice_text(retromodel_io.ExportMd2, size["message"], size["remedies"])
assert text.endswith('; set "Fit height" to 56'), text
assert "fit_height" not in text and "--fit-height" not in text and "::" not in text, text

# Bad input is reported, not raised.
bad = os.path.join(outdir, "bad.md2")
open(bad, "wb").write(b"IDP2" + bytes(60))
try:
    result = bpy.ops.import_scene.retromodel(filepath=bad)
except RuntimeError as e:  # an operator's ERROR report surfaces as RuntimeError in background mode
    assert "offset" in str(e) or "section" in str(e) or "bytes" in str(e), str(e)
else:
    assert result == {"CANCELLED"}, result
print("blender add-on: all checks passed")
