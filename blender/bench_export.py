"""Wall time of exporting an imported MD2 back to MD2 through the add-on,
with Blender's glTF exporter doing it all, with the add-on's fast
shape-key path, and with two variants of it that drop normals (measured to
show what normals cost and lose), and where the time goes (cProfile of one
export with each of the first two).

    RETROMODEL_PYTHONPATH=target/retromodel-blender/site \\
      blender -b --factory-startup --python blender/bench_export.py -- CORPUS OUTDIR [RUNS] [MODEL.md2 ...]

In PyPI's bpy with the add-on zip installed as an extension, as a user
installs it (addon_under_test.py), for each Blender: blender/bench_bpy.sh.
RETROMODEL_BENCH_WAYS=0,1 measures only those of the four ways (0:
Blender's exporter, 1: the add-on's own choice) and skips the profiles.

MODEL defaults to md2/assimpdeb_faerie.md2 (198 frames, 366 vertices) of
the corpus. Each export is the operator call (what pressing Export runs),
timed after one warm-up export (Blender compiles its glTF exporter's
modules on first use). Each output is compared with the first (byte for
byte) and its normals with the source MD2's.
"""

import cProfile
import io
import os
import pstats
import statistics
import sys
import time

import bpy

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import addon_under_test  # noqa: E402

args = sys.argv[sys.argv.index("--") + 1 :]
corpus, outdir = args[0], args[1]
runs = int(args[2]) if len(args) > 2 else 5
models = args[3:] or ["md2/assimpdeb_faerie.md2"]
# The source add-on (registered here), or the installed extension when
# RETROMODEL_EXTENSION_ZIP names its zip.
retromodel_io = addon_under_test.load()
rm = retromodel_io._retromodel()
ways = os.environ.get("RETROMODEL_BENCH_WAYS")
ways = [int(w) for w in ways.split(",")] if ways else None


def export(out):
    start = time.perf_counter()
    assert bpy.ops.export_scene.retromodel_md2(filepath=out) == {"FINISHED"}
    return time.perf_counter() - start


def profiled(out, top=14):
    profile = cProfile.Profile()
    profile.enable()
    export(out)
    profile.disable()
    text = io.StringIO()
    pstats.Stats(profile, stream=text).sort_stats("cumulative").print_stats(top)
    return text.getvalue()


def normal_error(source, out):
    """Mean and 95th percentile angle (degrees) between ``out``'s frame
    normals and the source's, at the nearest source vertex of each frame:
    ``(frame 0, frames 1+)``."""
    import numpy as np  # noqa: PLC0415

    errors = [[], []]
    for f in range(source.frame_count):
        sp, sn = source.frame_positions(f), source.frame_normals(f)
        op, on = out.frame_positions(f), out.frame_normals(f)
        j = ((op[:, None, :] - sp[None, :, :]) ** 2).sum(-1).argmin(1)
        cos = (on * sn[j]).sum(-1) / (np.linalg.norm(on, axis=1) * np.linalg.norm(sn[j], axis=1))
        errors[f > 0].append(np.degrees(np.arccos(np.clip(cos, -1, 1))))
    return [(float(np.mean(np.concatenate(e))), float(np.percentile(np.concatenate(e), 95))) for e in errors]


# (name, fast path on, what the fast path asks Blender's glTF exporter)
CONFIGS = [
    ("Blender's glTF exporter", False, {}),
    ("fast shape-key path (the add-on's)", True, {}),
    ("fast path without morph normals (not used)", True, {"export_morph_normal": False}),
    ("fast path without normals (not used)", True, {"export_normals": False}),
]
for model in models:
    path = os.path.join(corpus, model)
    source = rm.load(path)
    addon_under_test.fresh()
    assert bpy.ops.import_scene.retromodel(filepath=path) == {"FINISHED"}
    first = None
    for k, (name, fast, gltf) in enumerate(CONFIGS):
        if ways is not None and k not in ways:
            continue
        retromodel_io.FAST_EXPORT, retromodel_io.FAST_GLTF = fast, gltf
        out = os.path.join(outdir, f"bench_{k}_{os.path.basename(model)}")
        export(out)  # warm-up
        # Which path the export took: the fast one reports its "shape keys" step.
        path_taken = "fast" if "shape keys" in [s for _, s in retromodel_io.Progress.last_steps] else "glTF exporter"
        times = [export(out) for _ in range(runs)]
        if k < 2 and ways is None:
            print(profiled(out))
        data = open(out, "rb").read()
        first = first or data
        (e0, e1) = normal_error(source, rm.load(out))
        print(
            f"RESULT Blender {bpy.app.version_string} {model} ({source.frame_count} frames, "
            f"{source.vertex_count} vertices) {name} [path taken: {path_taken}]: median "
            f"{statistics.median(times) * 1e3:.0f} ms, min {min(times) * 1e3:.0f} ms of {runs}; MD2 identical to "
            f"Blender's exporter's: {data == first}; normals vs the source: frame 0 mean {e0[0]:.1f} deg "
            f"(p95 {e0[1]:.1f}), frames 1+ mean {e1[0]:.1f} deg (p95 {e1[1]:.1f})"
        )
    retromodel_io.FAST_EXPORT, retromodel_io.FAST_GLTF = True, {}
