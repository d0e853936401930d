"""Headless round trips of every corpus model through Blender (run by blender/test.sh and blender/test_bpy.sh):

    blender -b --factory-startup --python-exit-code 1 --python blender/test_roundtrip.py -- CORPUS OUTDIR

or, in PyPI's bpy 4.2+ with the add-on zip installed as an extension (run by
blender/test_bpy.sh; addon_under_test.py says how):

    RETROMODEL_EXTENSION_ZIP=ZIP BLENDER_USER_RESOURCES=TMP python blender/test_roundtrip.py -- CORPUS OUTDIR

Every MD2 and MS3D of the corpus is imported through the add-on and exported
back to its own format through the add-on, as a modder editing an old model
does, and the result is compared with the source file (read by retromodel's
reader, whose facts the corpus' facts.json confirms):

- MD2: the frame count, the animations (names and frame counts) in the
  source's order, the skin names (all, in order) and the skin size.
- MS3D: the joints (count and names), the timeline (frames and rate) and its
  clips (names and frame ranges).

A source that is itself unusable (`validate` reports an error, as for the
crafted MD2 with no vertices, which Quake II
draws as nothing) must be refused with a report, not a
traceback. An MD2 over Quake II's limits must be refused with a message
naming the engines that take it, and exported with the first of them that does.
"""

import glob
import json
import os
import re
import sys
import time

import bpy

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import addon_under_test  # noqa: E402

corpus, outdir = sys.argv[sys.argv.index("--") + 1 :][:2]
facts = json.load(open(os.path.join(corpus, "facts.json")))
retromodel_io = addon_under_test.load()
rm = retromodel_io._retromodel()
# The export panel's engines.
ENGINES = ("quake2", "yquake2", "q2pro", "kmquake2", "ufoai")


def export(path, out, **options):
    """Runs the add-on's exporter for ``out``'s format: ``(ok, message)``."""
    op = bpy.ops.export_scene.retromodel_md2 if out.endswith(".md2") else bpy.ops.export_scene.retromodel_ms3d
    try:
        return op(filepath=out, **options) == {"FINISHED"}, ""
    except RuntimeError as e:  # an operator's ERROR report, in background mode
        return False, str(e)


def md2_facts(info):
    animations = [(a["name"], a["frame_count"]) for a in info["animations"]]
    return info["frames"], animations, info["skins"], (info["skin_width"], info["skin_height"])


def ms3d_facts(info):
    clips = [(c["name"], round(c["first_frame"], 3), round(c["last_frame"], 3)) for c in info["clips"]]
    return info["joints"], sorted(info["joint_names"]), info["total_frames"], info["fps"], clips


failures = []
models = sorted(glob.glob(os.path.join(corpus, "md2", "*.md2")) + glob.glob(os.path.join(corpus, "ms3d", "*.ms3d")))
assert len(models) >= 40, len(models)
for path in models:
    name = os.path.relpath(path, corpus)
    started = time.time()
    addon_under_test.fresh()
    source = rm.load(path)
    # An MD2 is judged by what Quake II loads, as the exporter's default is.
    checks = source.validate(engine="quake2") if path.endswith(".md2") else source.validate()
    unusable = [p for p in checks if p.severity == "error"]
    out = os.path.join(outdir, os.path.basename(path))
    if os.path.exists(out):
        os.unlink(out)
    try:
        imported = bpy.ops.import_scene.retromodel(filepath=path)
    except RuntimeError as e:
        imported = str(e)
    if imported != {"FINISHED"}:
        failures.append(f"{name}: import failed: {imported}")
        continue
    ok, message = export(path, out)
    # Over Quake II's limits, the refusal names the engines that take the
    # model: the first of them that does must give the model back.
    engine, tried = "", set()
    while not ok and out.endswith(".md2"):
        named = [e for e in ENGINES if re.search(rf"\b{e}\b", message.lower()) and e not in tried]
        if not named:
            break
        engine = named[0]
        tried.add(engine)
        ok, message = export(path, out, engine=engine)
    if not ok and unusable and message:
        # The crafted files: the source has no usable geometry, and the
        # exporter says so instead of writing a model that cannot load.
        print(f"{name}: refused as it should be ({message.strip().splitlines()[-1]})")
        continue
    if not ok:
        failures.append(f"{name}: export failed: {message}")
        continue
    back = rm.load(out)
    if path.endswith(".md2"):
        want, got = md2_facts(source.info()), md2_facts(back.info())
        assert source.frame_count == facts[name]["frames"], (name, source.frame_count, facts[name]["frames"])
    else:
        want, got = ms3d_facts(source.info()), ms3d_facts(back.info())
        assert source.joint_count == facts[name]["joints"], (name, source.joint_count, facts[name]["joints"])
    if want != got:
        failures.append(f"{name}: source {want}\n    came back as {got}")
        continue
    print(f"{name}: kept{' with engine ' + engine if engine else ''} ({time.time() - started:.1f} s)")

for f in failures:
    print("FAILED", f)
assert not failures, f"{len(failures)} of {len(models)} round trips failed"
print(f"blender round trips: all {len(models)} corpus models came back")
