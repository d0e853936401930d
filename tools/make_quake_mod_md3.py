"""A Quake-mod style creature for MD3 tests, made in Blender headless.

    blender -b --factory-startup --python tools/make_quake_mod_md3.py -- OUT_DIR

Writes into OUT_DIR (nothing here is committed; the test makes it in a temp
folder):

- ``creature.glb``: one mesh (a body, a head and four legs, 8 quads each
  box), one material whose base colour is an image texture made here
  (``creature_skin``, 32 x 32, a checker), skinned to an armature with one
  action per Quake monster animation: ``stand`` (9 frames), ``walk`` (8),
  ``run`` (6), ``pain`` (4) and ``death`` (8), each keyed from frame 0 at
  10 frames per second (Quake's monster rate), so that ``--fps 10`` bakes
  ``stand1``..``stand9``, ``walk1``..``walk8`` and so on.
- ``creature_frames.json``: Blender's own evaluation of the mesh at every
  frame of every action (the armature modifier applied by the depsgraph),
  in Blender's axes, world space: the oracle the test compares the MD3's
  vertices with. Also each triangle's corners (vertex index and texture
  coordinate, Blender's winding) and the frame count per action.

Debian's Blender 3.4 runs its glTF add-on on a newer numpy without
``np.bool``: the shim below puts it back.
"""

import json
import math
import os
import sys

import numpy as np

if not hasattr(np, "bool"):
    np.bool = bool

import bmesh  # noqa: E402
import bpy  # noqa: E402
from mathutils import Euler, Vector  # noqa: E402

FPS = 10
# Quake monster frame lists (an ogre's or a knight's, shortened): name and
# frame count. Each action is keyed on frames 0 .. count-1.
ANIMATIONS = [("stand", 9), ("walk", 8), ("run", 6), ("pain", 4), ("death", 8)]

out_dir = sys.argv[sys.argv.index("--") + 1]
os.makedirs(out_dir, exist_ok=True)

bpy.ops.wm.read_factory_settings(use_empty=True)
scene = bpy.context.scene
scene.render.fps = FPS
scene.render.fps_base = 1.0

# --- the mesh: boxes in Quake units (a dog-sized creature, 36 units high),
# each bound to one bone; the neck's four vertices shared half and half.
# (centre, size, bone)
BOXES = [
    ((0.0, 0.0, 22.0), (14.0, 30.0, 12.0), "body"),
    ((0.0, -20.0, 30.0), (10.0, 10.0, 10.0), "head"),
    ((-5.0, -10.0, 8.0), (4.0, 4.0, 16.0), "leg_fl"),
    ((5.0, -10.0, 8.0), (4.0, 4.0, 16.0), "leg_fr"),
    ((-5.0, 10.0, 8.0), (4.0, 4.0, 16.0), "leg_bl"),
    ((5.0, 10.0, 8.0), (4.0, 4.0, 16.0), "leg_br"),
]

mesh = bpy.data.meshes.new("creature")
obj = bpy.data.objects.new("creature", mesh)
scene.collection.objects.link(obj)
bm = bmesh.new()
uv_layer = bm.loops.layers.uv.new("UVMap")
vert_bone = []
for centre, size, bone in BOXES:
    made = bmesh.ops.create_cube(bm, size=1.0)
    verts = made["verts"]
    bmesh.ops.scale(bm, vec=Vector(size), verts=verts)
    bmesh.ops.translate(bm, vec=Vector(centre), verts=verts)
    bm.verts.index_update()
    vert_bone.extend([(v.index, v.co.y, bone) for v in verts])
bm.faces.ensure_lookup_table()
# Texture coordinates: each box projected along its faces' axes into its
# own cell of a 3 x 2 grid of the image (seams at every box edge).
for face in bm.faces:
    box = face.verts[0].index // 8
    cell_u, cell_v = (box % 3) / 3.0, (box // 3) / 2.0
    axis = max(range(3), key=lambda k: abs(face.normal[k]))
    a, b = [k for k in range(3) if k != axis]
    for loop in face.loops:
        co = loop.vert.co
        u = (co[a] / 40.0 + 0.5) % 1.0
        v = (co[b] / 40.0 + 0.5) % 1.0
        loop[uv_layer].uv = (cell_u + u / 3.0, cell_v + v / 2.0)
bm.to_mesh(mesh)
bm.free()

# --- the one material, an image texture made here.
SIZE = 32
image = bpy.data.images.new("creature_skin", SIZE, SIZE, alpha=False)
pixels = []
for y in range(SIZE):
    for x in range(SIZE):
        dark = ((x // 4) + (y // 4)) % 2 == 0
        pixels += [0.45, 0.3, 0.15, 1.0] if dark else [0.8, 0.65, 0.4, 1.0]
image.pixels = pixels
image.filepath_raw = os.path.join(out_dir, "creature_skin.png")
image.file_format = "PNG"
image.save()
material = bpy.data.materials.new("creature_skin")
material.use_nodes = True
nodes = material.node_tree.nodes
bsdf = nodes["Principled BSDF"]
tex = nodes.new("ShaderNodeTexImage")
tex.image = image
material.node_tree.links.new(tex.outputs["Color"], bsdf.inputs["Base Color"])
mesh.materials.append(material)

# --- the armature: a body bone, and head and legs as its children.
arm_data = bpy.data.armatures.new("rig")
arm = bpy.data.objects.new("rig", arm_data)
scene.collection.objects.link(arm)
bpy.context.view_layer.objects.active = arm
bpy.ops.object.mode_set(mode="EDIT")
bones = {}
body = arm_data.edit_bones.new("body")
body.head, body.tail = (0.0, 10.0, 22.0), (0.0, -10.0, 22.0)
bones["body"] = body
head = arm_data.edit_bones.new("head")
head.head, head.tail = (0.0, -15.0, 26.0), (0.0, -25.0, 30.0)
head.parent = body
for name, (x, y) in {
    "leg_fl": (-5.0, -10.0),
    "leg_fr": (5.0, -10.0),
    "leg_bl": (-5.0, 10.0),
    "leg_br": (5.0, 10.0),
}.items():
    leg = arm_data.edit_bones.new(name)
    leg.head, leg.tail = (x, y, 16.0), (x, y, 0.0)
    leg.parent = body
bpy.ops.object.mode_set(mode="OBJECT")

for bone in ["body", "head", "leg_fl", "leg_fr", "leg_bl", "leg_br"]:
    obj.vertex_groups.new(name=bone)
for index, y, bone in vert_bone:
    # The body box's front four vertices (y < -10) follow the head half way.
    if bone == "body" and y < -10.0:
        obj.vertex_groups["body"].add([index], 0.5, "REPLACE")
        obj.vertex_groups["head"].add([index], 0.5, "REPLACE")
    else:
        obj.vertex_groups[bone].add([index], 1.0, "REPLACE")
obj.parent = arm
modifier = obj.modifiers.new("rig", "ARMATURE")
modifier.object = arm


def key(action_pose, frame):
    """Keys every bone's rotation (and the body's location) at `frame`."""
    for name, (loc, rot) in action_pose.items():
        pb = arm.pose.bones[name]
        pb.rotation_mode = "XYZ"
        pb.location = loc
        pb.rotation_euler = Euler([math.radians(a) for a in rot])
        pb.keyframe_insert("location", frame=frame)
        pb.keyframe_insert("rotation_euler", frame=frame)


def pose(t, anim):
    """The pose of `anim` at phase t (0..1): bone -> (location, degrees)."""
    s = math.sin(2 * math.pi * t)
    p = {b: ((0, 0, 0), (0, 0, 0)) for b in arm.pose.bones.keys()}
    if anim == "stand":
        p["body"] = ((0, 0.6 * s, 0), (0, 0, 0))
        p["head"] = ((0, 0, 0), (0, 8 * s, 0))
    elif anim in ("walk", "run"):
        swing = 25 if anim == "walk" else 45
        for leg, sign in [("leg_fl", 1), ("leg_br", 1), ("leg_fr", -1), ("leg_bl", -1)]:
            p[leg] = ((0, 0, 0), (sign * swing * s, 0, 0))
        lift = 1.5 if anim == "walk" else 3.0
        p["body"] = ((0, abs(s) * lift, 0), (0, 0, 0))
        p["head"] = ((0, 0, 0), (10 * s if anim == "run" else 0, 0, 0))
    elif anim == "pain":
        p["head"] = ((0, 0, 0), (-30 * math.sin(math.pi * t), 15 * t, 0))
        p["body"] = ((0, 0, 0), (0, 0, 10 * math.sin(math.pi * t)))
    elif anim == "death":
        # Rolls over onto its side, legs folding.
        p["body"] = ((0, -6 * t, -10 * t), (0, 90 * t, 0))
        for leg in ["leg_fl", "leg_fr", "leg_bl", "leg_br"]:
            p[leg] = ((0, 0, 0), (40 * t, 0, 0))
        p["head"] = ((0, 0, 0), (-35 * t, 0, 0))
    return p


arm.animation_data_create()
actions = []
for name, count in ANIMATIONS:
    action = bpy.data.actions.new(name)
    action.use_fake_user = True
    arm.animation_data.action = action
    for frame in range(count):
        key(pose(frame / (count - 1), name), frame)
    track = arm.animation_data.nla_tracks.new()
    track.name = name
    track.strips.new(name, 0, action)
    actions.append((action, count))
arm.animation_data.action = None

bpy.ops.export_scene.gltf(
    filepath=os.path.join(out_dir, "creature.glb"),
    export_format="GLB",
    export_animations=True,
    export_nla_strips=True,
    export_skins=True,
    export_morph=False,
)

# --- Blender's own evaluation: every frame of every action, alone.
for track in arm.animation_data.nla_tracks:
    track.mute = True
arm.animation_data.use_nla = False
frames = {}
for action, count in actions:
    arm.animation_data.action = action
    posed = []
    for frame in range(count):
        scene.frame_set(frame)
        depsgraph = bpy.context.evaluated_depsgraph_get()
        evaluated = obj.evaluated_get(depsgraph)
        m = evaluated.to_mesh()
        world = evaluated.matrix_world
        posed.append([list(world @ v.co) for v in m.vertices])
        evaluated.to_mesh_clear()
    frames[action.name] = posed
mesh.calc_loop_triangles()
uv = mesh.uv_layers.active.data
# Each triangle's corners as Blender wound them (counter-clockwise seen
# from the front): vertex index and the corner's texture coordinate (v up).
triangles = [
    [[mesh.loops[k].vertex_index, uv[k].uv[0], uv[k].uv[1]] for k in t.loops]
    for t in mesh.loop_triangles
]
with open(os.path.join(out_dir, "creature_frames.json"), "w") as f:
    json.dump(
        {
            "fps": FPS,
            "animations": [[name, count] for name, count in ANIMATIONS],
            "triangles": triangles,
            "vertices": len(mesh.vertices),
            "material": material.name,
            "image": image.name,
            "frames": frames,
        },
        f,
    )
print("made", out_dir)
