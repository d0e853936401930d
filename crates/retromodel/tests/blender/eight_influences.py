"""Writes blender_eight_influences.glb: a 7 x 7 grid skinned to eight bones of
an armature, every vertex with eight non-zero weights, one action ("wave",
1 s at 24 fps) turning every bone differently; exported by Blender's own glTF
exporter with export_all_influences=True (JOINTS_0/1, WEIGHTS_0/1).

Our own content (CC0), made only by this script. Run headless with Blender
3.4 (Debian's `blender`):

    blender -b --factory-startup --python eight_influences.py -- OUTDIR

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

BONES = 8
SIDE = 7
FPS = 24


def weight(v, k):
    """Before normalising: a different permutation of 1..8 per vertex."""
    return float((k + 3 * v) % BONES + 1)


def main(out_dir):
    scene = empty_scene(FPS)

    # The armature: a root bone and eight bones around it.
    arm, rig = armature_in_edit_mode(scene, "rig")
    root = arm.edit_bones.new("root")
    root.head, root.tail = (0, 0, 0), (0, 0, 0.2)
    for k in range(BONES):
        a = 2 * math.pi * k / BONES
        b = arm.edit_bones.new("b%d" % k)
        b.head = (0.6 * math.cos(a), 0.6 * math.sin(a), 0.1 * k)
        b.tail = (0.6 * math.cos(a), 0.6 * math.sin(a), 0.1 * k + 0.3)
        b.parent = root
    bpy.ops.object.mode_set(mode="OBJECT")
    for pb in rig.pose.bones:
        pb.rotation_mode = "QUATERNION"

    # The grid, 2 units wide in the ground plane, smooth (no split vertices).
    mesh = bpy.data.meshes.new("grid_mesh")
    bm = bmesh.new()
    verts = []
    for i in range(SIDE):
        for j in range(SIDE):
            x = (i / (SIDE - 1) - 0.5) * 2.0
            y = (j / (SIDE - 1) - 0.5) * 2.0
            verts.append(bm.verts.new((x, y, 0.05 * ((i + j) % 2))))
    for i in range(SIDE - 1):
        for j in range(SIDE - 1):
            v = lambda a, b: verts[a * SIDE + b]
            bm.faces.new((v(i, j), v(i + 1, j), v(i + 1, j + 1), v(i, j + 1)))
    bm.to_mesh(mesh)
    bm.free()
    mesh.polygons.foreach_set("use_smooth", [True] * len(mesh.polygons))
    grid = bpy.data.objects.new("grid", mesh)
    scene.collection.objects.link(grid)
    groups = [grid.vertex_groups.new(name="b%d" % k) for k in range(BONES)]
    for v in range(len(mesh.vertices)):
        total = sum(weight(v, k) for k in range(BONES))
        for k in range(BONES):
            groups[k].add([v], weight(v, k) / total, "REPLACE")
    grid.parent = rig
    modifier = grid.modifiers.new("rig", "ARMATURE")
    modifier.object = rig

    # The action: every bone turns about its own axis, there and part of
    # the way back; the root turns about +Z.
    rig.animation_data_create()
    action = bpy.data.actions.new("wave")
    rig.animation_data.action = action
    for k in range(BONES):
        pb = rig.pose.bones["b%d" % k]
        axis = Vector((math.cos(1.3 * k), math.sin(0.7 * k), 1.0)).normalized()
        angle = 0.25 + 0.05 * k
        for frame, a in ((0, 0.0), (FPS // 2, angle), (FPS, 0.4 * angle)):
            pb.rotation_quaternion = Quaternion(axis, a)
            pb.keyframe_insert("rotation_quaternion", frame=frame, group=pb.name)
    pb = rig.pose.bones["root"]
    for frame, a in ((0, 0.0), (FPS, 0.3)):
        pb.rotation_quaternion = Quaternion((0, 0, 1), a)
        pb.keyframe_insert("rotation_quaternion", frame=frame, group=pb.name)
    for fc in action.fcurves:
        for kp in fc.keyframe_points:
            kp.interpolation = "LINEAR"
    track = rig.animation_data.nla_tracks.new()
    track.name = "wave"
    track.strips.new("wave", 0, action)
    rig.animation_data.action = None
    for pb in rig.pose.bones:
        pb.rotation_quaternion = (1, 0, 0, 0)

    path = os.path.join(out_dir, "blender_eight_influences.glb")
    bpy.ops.export_scene.gltf(
        filepath=path, export_format="GLB", use_selection=False,
        export_yup=True, export_apply=False, export_animations=True,
        export_frame_range=False, export_force_sampling=True,
        export_nla_strips=True, export_skins=True, export_all_influences=True,
        export_morph=False, export_cameras=False, export_lights=False,
        export_texcoords=False, export_materials="NONE")
    print("wrote", path)


main(sys.argv[sys.argv.index("--") + 1])
