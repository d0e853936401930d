"""An unchanged MD2 through Blender gives its frames back byte for byte; an
edited one is baked afresh (run by blender/test.sh and blender/test_bpy.sh):

    blender -b --factory-startup --python-exit-code 1 --python blender/test_vertex_map.py -- CORPUS OUTDIR

Every corpus MD2 that Quake II loads is imported through the add-on and
exported back with the defaults (an imported MD2's "Grid" is per frame) (the fast shape-key export) and with
Blender's exporter doing it all; the frames section (``num_frames`` frames
of ``framesize`` bytes at ``ofs_frames``, read from the header with
``struct``, not by retromodel) must be the source's, byte for byte. Then one
vertex of the basis and every shape key is moved: the exported frames
differ, and the moved vertex decodes (scale * byte + translate, the format's
description) to where Blender put it, within the frame's grid step.
"""

import glob
import os
import struct
import sys

import bpy

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import addon_under_test  # noqa: E402

corpus, outdir = sys.argv[sys.argv.index("--") + 1 :][:2]
retromodel_io = addon_under_test.load()
rm = retromodel_io._retromodel()


def header(data):
    """The MD2 header's 17 int32 fields by name (ident as bytes)."""
    fields = struct.unpack_from("<4s16i", data, 0)
    names = ("ident version skinwidth skinheight framesize num_skins num_xyz num_st num_tris "
             "num_glcmds num_frames ofs_skins ofs_st ofs_tris ofs_frames ofs_glcmds ofs_end").split()
    return dict(zip(names, fields))


def frames(data):
    """The frames section's bytes and the header."""
    h = header(data)
    assert h["ident"] == b"IDP2", h["ident"]
    return data[h["ofs_frames"] : h["ofs_frames"] + h["num_frames"] * h["framesize"]], h


def decoded(data, frame, vertex):
    """Vertex ``vertex`` of frame ``frame``, decoded as the format says."""
    h = header(data)
    at = h["ofs_frames"] + frame * h["framesize"]
    scale, translate = struct.unpack_from("<3f", data, at), struct.unpack_from("<3f", data, at + 12)
    packed = struct.unpack_from("<3B", data, at + 40 + 4 * vertex)
    return [s * b + t for s, b, t in zip(scale, packed, translate)], scale


def without_normals(section, h):
    """The frames section with each vertex's normal index byte zeroed."""
    out = bytearray(section)
    for f in range(h["num_frames"]):
        at = f * h["framesize"] + 40
        out[at + 3 : at + 4 * h["num_xyz"] : 4] = bytes(h["num_xyz"])
    return bytes(out)


def export(out, **options):
    if os.path.exists(out):
        os.unlink(out)
    assert bpy.ops.export_scene.retromodel_md2(filepath=out, **options) == {"FINISHED"}, out
    with open(out, "rb") as f:
        return f.read()


failures, kept, whole, fast_paths = [], 0, 0, 0
paths = sorted(glob.glob(os.path.join(corpus, "md2", "*.md2")))
assert len(paths) >= 20, len(paths)
for path in paths:
    name = os.path.basename(path)
    if any(p.severity == "error" for p in rm.load(path).validate(engine="quake2")):
        continue
    with open(path, "rb") as f:
        source = f.read()
    want, h = frames(source)
    addon_under_test.fresh()
    assert bpy.ops.import_scene.retromodel(filepath=path) == {"FINISHED"}, name
    [obj] = [o for o in bpy.context.scene.objects if o.type == "MESH"]
    has_map = obj.data.attributes.get("_MD2_VERTEX") is not None
    out = os.path.join(outdir, "vm_" + name)
    results, written, paths_taken = [], [], []
    for fast in (True, False):
        retromodel_io.FAST_EXPORT = fast
        written.append(export(out))
        paths_taken.append("shape keys" in [s for _, s in retromodel_io.Progress.last_steps])
        got, _ = frames(written[-1])
        results.append((without_normals(got, h) == without_normals(want, h), got[: h["framesize"]] == want[: h["framesize"]], got == want))
    retromodel_io.FAST_EXPORT = True
    if not has_map or not all(r[0] and r[1] for r in results) or results[0] != results[1]:
        failures.append(f"{name}: map on the mesh {has_map}, frames kept (positions, frame 0, all; fast, gltf) {results}")
        continue
    # Every animated MD2 takes the fast path in every Blender (4.4+'s
    # slotted actions too; a one-frame MD2 may, with its one-frame
    # animation), and the glTF exporter path when it is forced off; both
    # write the same file, byte for byte.
    if paths_taken[1] or not (paths_taken[0] or h["num_frames"] == 1):
        failures.append(f"{name}: paths taken (fast, forced glTF) {paths_taken} for {h['num_frames']} frames")
        continue
    if written[0] != written[1]:
        failures.append(f"{name}: the fast path's MD2 differs from the glTF exporter path's")
        continue
    fast_paths += paths_taken[0]
    kept += 1
    # "Grid" chosen (shared grids): the compiler bakes afresh, frames differ.
    if h["num_frames"] > 1 and frames(export(out, grid="model"))[0] == want:
        failures.append(f"{name}: a whole-model grid still gave the source's frames")
        continue
    whole += results[0][2]
    # An edit: vertex 0 of the mesh (and of every shape key) moves 3 units
    # along x.
    obj.data.vertices[0].co.x += 3.0
    for block in obj.data.shape_keys.key_blocks:
        block.data[0].co.x += 3.0
    edited = export(out)
    got, _ = frames(edited)
    if got == want:
        failures.append(f"{name}: an edited mesh still gave the source's frames")
        continue
    # Frame 0 is the first shape key after the basis (the import's order);
    # the fresh bake may number vertices anew: some vertex of frame 0 must
    # decode to where the moved one is, within the frame's grid step.
    blocks = obj.data.shape_keys.key_blocks
    x, y, z = obj.matrix_world @ blocks[1].data[0].co
    # The import turns the model a quarter turn (Quake faces +X, Blender's
    # glTF import -Y): MD2 (x, y, z) is Blender (y, -x, z).
    where = (-y, x, z)
    near = []
    for v in range(header(edited)["num_xyz"]):
        position, scale = decoded(edited, 0, v)
        near.append(max(abs(a - b) - abs(s) for a, b, s in zip(position, where, scale)))
    if min(near) > 1e-4:
        failures.append(f"{name}: no vertex of frame 0 decodes near {where} ({min(near)})")
        continue
    print(f"{name}: frames kept ({h['num_frames']} frames; normal indices too: {results[0][2]}); an edit baked afresh")

for f in failures:
    print("FAILED", f)
assert not failures, f"{len(failures)} MD2 round trips lost their frames"
assert kept >= 14, kept
assert fast_paths >= 10, fast_paths
print(f"blender vertex map: {kept} corpus MD2s kept their frame headers, positions and frame 0 byte for byte; "
      f"{whole} their whole frames (normal indices of later frames are Blender's shape-key normals); "
      f"{fast_paths} animated ones took the fast path, each byte-identical to the glTF exporter path "
      f"(Blender {bpy.app.version_string})")
