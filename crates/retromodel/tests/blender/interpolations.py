"""Writes blender_interpolations.glb: a cylinder skinned to a chain of three
bones, with three actions whose keys Blender's glTF exporter writes as they
are (export_force_sampling=False): "stepped" (CONSTANT keys: STEP),
"linear" (LINEAR) and "cubic" (BEZIER keys: CUBICSPLINE), 1 s each at 24 fps,
rotations and a translation of the root.

Our own content (CC0), made only by this script. Run headless with Blender
3.4 (Debian's `blender`):

    blender -b --factory-startup --python interpolations.py -- OUTDIR

The fixture in crates/retromodel/tests/fixtures was written this way.
"""
import math
import os
import sys

import bmesh
import bpy
from mathutils import Quaternion, Vector

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from rig_scene import armature_in_edit_mode, empty_scene  # noqa: E402

FPS = 24
BONES = 3
SEGMENTS = 12
RINGS = 9  # rings along the 3-unit cylinder


def main(out_dir):
    scene = empty_scene(FPS)

    arm, rig = armature_in_edit_mode(scene, "chain")
    parent = None
    for k in range(BONES):
        b = arm.edit_bones.new("bone%d" % k)
        b.head, b.tail = (0, 0, k), (0, 0, k + 1)
        if parent is not None:
            b.parent = parent
            b.use_connect = True
        parent = b
    bpy.ops.object.mode_set(mode="OBJECT")
    for pb in rig.pose.bones:
        pb.rotation_mode = "QUATERNION"

    # The cylinder: each ring weighted between the two nearest bones' middles.
    mesh = bpy.data.meshes.new("tube_mesh")
    bm = bmesh.new()
    rings = []
    for r in range(RINGS + 1):
        z = BONES * r / RINGS
        rings.append([bm.verts.new((0.3 * math.cos(2 * math.pi * s / SEGMENTS),
                                    0.3 * math.sin(2 * math.pi * s / SEGMENTS), z))
                      for s in range(SEGMENTS)])
    for r in range(RINGS):
        for s in range(SEGMENTS):
            t = (s + 1) % SEGMENTS
            bm.faces.new((rings[r][s], rings[r][t], rings[r + 1][t], rings[r + 1][s]))
    bm.to_mesh(mesh)
    bm.free()
    mesh.polygons.foreach_set("use_smooth", [True] * len(mesh.polygons))
    tube = bpy.data.objects.new("tube", mesh)
    scene.collection.objects.link(tube)
    groups = [tube.vertex_groups.new(name="bone%d" % k) for k in range(BONES)]
    for v in mesh.vertices:
        # Distance along the chain in bone lengths, from the first bone's middle.
        x = min(max(v.co.z - 0.5, 0.0), BONES - 1.0)
        k = min(int(x), BONES - 2)
        f = x - k
        # Whole percents: MilkShape stores weights in percent.
        w = round(f * 100) / 100
        if w < 1.0:
            groups[k].add([v.index], 1.0 - w, "REPLACE")
        if w > 0.0:
            groups[k + 1].add([v.index], w, "REPLACE")
    tube.parent = rig
    modifier = tube.modifiers.new("chain", "ARMATURE")
    modifier.object = rig

    rig.animation_data_create()
    for name, interpolation in (("stepped", "CONSTANT"), ("linear", "LINEAR"), ("cubic", "BEZIER")):
        action = bpy.data.actions.new(name)
        rig.animation_data.action = action
        for k in range(BONES):
            pb = rig.pose.bones["bone%d" % k]
            axis = Vector((math.cos(1.1 * k + 0.3), math.sin(1.1 * k + 0.3), 0.2)).normalized()
            for frame, a in ((0, 0.0), (6, 0.5), (12, -0.3), (18, 0.7), (FPS, 0.1)):
                pb.rotation_quaternion = Quaternion(axis, a * (1.0 - 0.2 * k))
                pb.keyframe_insert("rotation_quaternion", frame=frame, group=pb.name)
        pb = rig.pose.bones["bone0"]
        for frame, x in ((0, 0.0), (8, 0.4), (16, -0.2), (FPS, 0.3)):
            pb.location = Vector((x, 0.5 * x, 0.0))
            pb.keyframe_insert("location", frame=frame, group=pb.name)
        for fc in action.fcurves:
            for kp in fc.keyframe_points:
                kp.interpolation = interpolation
        track = rig.animation_data.nla_tracks.new()
        track.name = name
        track.strips.new(name, 0, action)
        rig.animation_data.action = None
    for pb in rig.pose.bones:
        pb.rotation_quaternion = (1, 0, 0, 0)
        pb.location = (0, 0, 0)

    path = os.path.join(out_dir, "blender_interpolations.glb")
    bpy.ops.export_scene.gltf(
        filepath=path, export_format="GLB", use_selection=False,
        export_yup=True, export_apply=False, export_animations=True,
        export_frame_range=False, export_force_sampling=False,
        export_nla_strips=True, export_def_bones=False, export_skins=True,
        export_morph=False, export_materials="NONE",
    )
    print("wrote", path)


main(sys.argv[sys.argv.index("--") + 1])
