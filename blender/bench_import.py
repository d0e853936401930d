"""Wall time of importing faerie into Blender through the add-on, against
Blender's own glTF importer on the .glb retromodel makes of it (what the
add-on adds on top: reading the MD2 and converting it in memory).

    RETROMODEL_PYTHONPATH=target/retromodel-blender/site \\
      blender -b --factory-startup --python blender/bench_import.py -- CORPUS [RUNS]
"""

import os
import statistics
import sys
import tempfile
import time

import bpy

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import retromodel_io  # noqa: E402

args = sys.argv[sys.argv.index("--") + 1 :]
corpus, runs = args[0], int(args[1]) if len(args) > 1 else 5
retromodel_io.register()
rm = retromodel_io._retromodel()
retromodel_io._numpy_bool_alias()
faerie = os.path.join(corpus, "md2/assimpdeb_faerie.md2")
glb = os.path.join(tempfile.mkdtemp(), "faerie.glb")
with open(glb, "wb") as f:
    f.write(rm.load(faerie).to_glb())


def timed(action):
    bpy.ops.wm.read_factory_settings(use_empty=True)
    start = time.perf_counter()
    action()
    return time.perf_counter() - start


addon, gltf, convert = [], [], []
for _ in range(runs):
    addon.append(timed(lambda: bpy.ops.import_scene.retromodel(filepath=faerie)))
    gltf.append(timed(lambda: bpy.ops.import_scene.gltf(filepath=glb)))
    start = time.perf_counter()
    rm.load(faerie).to_glb()
    convert.append(time.perf_counter() - start)
med = statistics.median
print(f"RESULT add-on import {med(addon) * 1e3:.1f} ms, Blender glTF import of our .glb {med(gltf) * 1e3:.1f} ms, "
      f"retromodel load+to_glb {med(convert) * 1e3:.2f} ms, add-on / glTF {med(addon) / med(gltf):.3f} (median of {runs})")
