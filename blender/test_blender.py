"""Headless test of the add-on in Blender (run by blender/test.sh):

    blender -b --factory-startup --python-exit-code 1 --python blender/test_blender.py -- CORPUS OUTDIR

Imports an MD2 and an MS3D through the add-on and checks what Blender's
glTF importer made against the corpus' facts.json and the file's own
frames; exports the MD2 scene back through the add-on and reads the
result with retromodel."""

import json
import os
import sys

import bpy

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import retromodel_io  # noqa: E402

corpus, outdir = sys.argv[sys.argv.index("--") + 1 :][:2]
facts = json.load(open(os.path.join(corpus, "facts.json")))
retromodel_io.register()
rm = retromodel_io._retromodel()


def fresh():
    bpy.ops.wm.read_factory_settings(use_empty=True)


def meshes():
    return [o for o in bpy.data.objects if o.type == "MESH"]


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

# Export the imported MD2 back to MD2 through Blender's glTF exporter.
out = os.path.join(outdir, "faerie_out.md2")
assert bpy.ops.export_scene.retromodel_md2(filepath=out, fps=10.0, grid="animation") == {"FINISHED"}
back = rm.load(out)
info = back.info()
assert info["triangles"] == len(obj.data.polygons), (info["triangles"], len(obj.data.polygons))
assert back.frame_count >= 1
assert not [p for p in back.validate(engine="quake2") if p.severity == "error"]
print(f"md2 export: {info['frames']} frames, {info['vertices']} vertices, {info['triangles']} triangles")

# MS3D: an armature with the joints, and the mesh.
fresh()
ms3d = "ms3d/nehe_lesson31_Model.ms3d"
assert bpy.ops.import_scene.retromodel(filepath=os.path.join(corpus, ms3d)) == {"FINISHED"}
arms = [o for o in bpy.data.objects if o.type == "ARMATURE"]
assert len(arms) == 1 and len(arms[0].data.bones) == facts[ms3d]["joints"], [len(a.data.bones) for a in arms]
assert sum(len(o.data.polygons) for o in meshes()) == facts[ms3d]["tris"]
print(f"ms3d import: {len(arms[0].data.bones)} bones, {len(meshes())} meshes, {len(bpy.data.actions)} actions")

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
