"""Headless test of the add-on's Quake III MD3 import and export (run by
blender/test.sh and blender/test_bpy.sh, as test_mdl.py is):

    blender -b --factory-startup --python-exit-code 1 --python blender/test_md3.py -- CORPUS OUTDIR

Imports OpenArena's sarge upper.md3 (taken out of Debian's openarena-data
pk3 here, never committed): one mesh per surface, a shape key per frame,
the surface count and frame count read from the file's bytes with struct
(ioquake3's qfiles.h layout). Exports Blender's walker (from Blender's own
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
