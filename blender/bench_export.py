"""Wall time of exporting faerie (198 frames, 366 vertices) to MD2 through
the add-on, and where it goes: faerie is imported through the add-on, then
exported RUNS times; the median is printed, and one export is profiled with
cProfile (the top functions by cumulative time).

    RETROMODEL_PYTHONPATH=target/retromodel-blender/site \\
      blender -b --factory-startup --python blender/bench_export.py -- CORPUS OUTDIR [RUNS]
"""

import cProfile
import os
import pstats
import statistics
import sys
import time

import bpy

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import retromodel_io  # noqa: E402

args = sys.argv[sys.argv.index("--") + 1 :]
corpus, outdir = args[0], args[1]
runs = int(args[2]) if len(args) > 2 else 5
retromodel_io.register()
rm = retromodel_io._retromodel()
faerie = os.path.join(corpus, "md2/assimpdeb_faerie.md2")
out = os.path.join(outdir, "bench_faerie.md2")
bpy.ops.wm.read_factory_settings(use_empty=True)
assert bpy.ops.import_scene.retromodel(filepath=faerie) == {"FINISHED"}


def export():
    start = time.perf_counter()
    assert bpy.ops.export_scene.retromodel_md2(filepath=out) == {"FINISHED"}
    return time.perf_counter() - start


times = [export() for _ in range(runs)]
profile = cProfile.Profile()
profile.enable()
export()
profile.disable()
stats = pstats.Stats(profile)
stats.sort_stats("cumulative").print_stats(25)
stats.sort_stats("tottime").print_stats(12)
info = rm.load(out).info()
print(f"RESULT add-on MD2 export of faerie ({info['frames']} frames, {info['vertices']} vertices): "
      f"median {statistics.median(times) * 1e3:.0f} ms of {runs} (min {min(times) * 1e3:.0f} ms)")
