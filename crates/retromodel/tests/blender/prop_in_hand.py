"""Makes tests/fixtures/blender_prop_in_hand.glb: a two-bone arm whose
skinned forearm holds a prop (a box) parented to the hand bone the way a
modder does it in Blender (Object > Parent > Bone: not skinned, it follows
the bone rigidly), on an armature object that is moved, turned and scaled
(as an imported rig often is), with a "swing" action that starts on frame 1 and moves
every bone, exported by Blender's own glTF exporter.

    blender --background --factory-startup --python prop_in_hand.py -- OUT.glb

The MS3D compiler must keep the prop on the hand (one joint, weight 100,
which MilkShape evaluates exactly) at every frame, the first included.
"""
import math
import os
import sys

import bpy
from mathutils import Matrix

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from rig_scene import armature_in_edit_mode, empty_scene  # noqa: E402

out = sys.argv[sys.argv.index("--") + 1]
scene = empty_scene(24)
scene.frame_start = 1
scene.frame_end = 25

arm, rig = armature_in_edit_mode(scene, "arm_rig")
rig.location = (0.3, -0.2, 0.1)
rig.rotation_euler = (math.radians(90.0), 0.0, math.radians(30.0))
rig.scale = (0.5, 0.5, 0.5)
upper = arm.edit_bones.new("upper")
upper.head = (0.0, 0.0, 0.0)
upper.tail = (0.0, 0.0, 0.5)
hand = arm.edit_bones.new("hand")
hand.head = (0.0, 0.0, 0.5)
hand.tail = (0.0, 0.0, 0.8)
hand.parent = upper
hand.use_connect = True
bpy.ops.object.mode_set(mode="OBJECT")

# The skinned arm: a thin box along the two bones, each half on its bone.
bpy.ops.mesh.primitive_cube_add(size=1.0, location=(0.0, 0.0, 0.4))
body = bpy.context.active_object
body.name = "arm"
body.scale = (0.1, 0.1, 0.8)
bpy.ops.object.transform_apply(location=True, rotation=True, scale=True)
for name in ("upper", "hand"):
    body.vertex_groups.new(name=name)
for v in body.data.vertices:
    group = "upper" if v.co.z < 0.4 else "hand"
    body.vertex_groups[group].add([v.index], 1.0, "REPLACE")
mod = body.modifiers.new("Armature", "ARMATURE")
mod.object = rig
body.parent = rig

# The prop: a box a little off the hand, parented to the hand bone.
bpy.ops.mesh.primitive_cube_add(size=0.2, location=(0.15, 0.05, 0.9))
prop = bpy.context.active_object
prop.name = "prop"
bpy.ops.object.transform_apply(location=True, rotation=True, scale=True)
prop.parent = rig
prop.parent_type = "BONE"
prop.parent_bone = "hand"
# Parenting to a bone places the child at the bone's tail: keep the box where
# it was, as Blender's Ctrl+P > Bone does, by the inverse of that placement.
bpy.context.view_layer.update()
prop.matrix_parent_inverse = (
    rig.matrix_world @ rig.pose.bones["hand"].matrix
    @ Matrix.Translation((0.0, rig.data.bones["hand"].length, 0.0))
).inverted()

# "swing": frames 1 to 25, every bone turning, the hand twisting too.
rig.animation_data_create()
action = bpy.data.actions.new("swing")
rig.animation_data.action = action
bpy.context.view_layer.objects.active = rig
bpy.ops.object.mode_set(mode="POSE")
for frame, (a, b, c) in ((1, (0.0, 0.0, 0.0)), (9, (40.0, -30.0, 20.0)),
                         (17, (-25.0, 50.0, -35.0)), (25, (10.0, 5.0, 60.0))):
    scene.frame_set(frame)
    pb_upper = rig.pose.bones["upper"]
    pb_hand = rig.pose.bones["hand"]
    pb_upper.rotation_mode = "XYZ"
    pb_hand.rotation_mode = "XYZ"
    pb_upper.rotation_euler = (math.radians(a), 0.0, math.radians(c))
    pb_hand.rotation_euler = (math.radians(b), math.radians(c), 0.0)
    pb_upper.keyframe_insert("rotation_euler", frame=frame)
    pb_hand.keyframe_insert("rotation_euler", frame=frame)
bpy.ops.object.mode_set(mode="OBJECT")
scene.frame_set(1)

bpy.ops.export_scene.gltf(filepath=out, export_format="GLB", export_animations=True)
print("wrote", out)
