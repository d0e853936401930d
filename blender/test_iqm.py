"""Headless test of the add-on's Inter-Quake Model import and export (run
by blender/test.sh and blender/test_bpy.sh, as test_md3.py is):

    blender -b --factory-startup --python-exit-code 1 --python blender/test_iqm.py -- CORPUS OUTDIR

Imports the corpus's lsalzman_mrfixit.iqm (its textures beside it) and
raylib_guy.iqm (two animations) and checks what Blender holds against the
file's bytes, read here with struct (iqm.h's layout): an armature with a
bone per joint, an action per animation named as in the file, as many
frames as the animation. Exports each back to an IQM and reads the written
file's bytes: its meshes, every joint of the source, its animations' names,
frame counts and loop flags; and a vertex skinned here from the written
file's joints, poses and frames (as iqm.h's sample loaders do) lies where
Blender's own evaluation of the mesh (the depsgraph) puts it, within 1e-3
of the model's size, at frames of each animation. Then exports a scene made
here (an armature of two bones, a mesh weighted to them, two actions keyed
from frames other than 0) with nothing typed: both actions are in the file
by name with their frame counts, looping; with 130 more bones and "Engine"
ioquake3 (128 joints at most), the export is refused in the panel's words.
"""

import os
import struct
import sys

import bpy
from mathutils import Matrix, Quaternion, Vector
from mathutils.kdtree import KDTree

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import addon_under_test  # noqa: E402

corpus, outdir = sys.argv[sys.argv.index("--") + 1 :][:2]
retromodel_io = addon_under_test.load()


# iqm.h: the header's 27 counts and offsets after the 16-byte magic.
FIELDS = (
    "version filesize flags num_text ofs_text num_meshes ofs_meshes num_vertexarrays num_vertexes "
    "ofs_vertexarrays num_triangles ofs_triangles ofs_adjacency num_joints ofs_joints num_poses ofs_poses "
    "num_anims ofs_anims num_frames num_framechannels ofs_frames ofs_bounds num_comment ofs_comment "
    "num_extensions ofs_extensions"
).split()


def header(data):
    assert data[:16] == b"INTERQUAKEMODEL\0", data[:16]
    h = dict(zip(FIELDS, struct.unpack_from("<27I", data, 16)))
    # The brief's offsets: num_joints at 16 + 4 * 13, ofs_anims at 16 + 4 * 18.
    assert h["num_joints"] == struct.unpack_from("<I", data, 16 + 4 * 13)[0]
    assert h["ofs_anims"] == struct.unpack_from("<I", data, 16 + 4 * 18)[0]
    return h


def text(data, h, ofs):
    at = h["ofs_text"] + ofs
    return data[at : data.index(b"\0", at)].decode("utf-8", "replace")


def animations(data):
    """iqmanim: name, first_frame, num_frames, framerate, flags (IQM_LOOP 1)."""
    h = header(data)
    out = []
    for i in range(h["num_anims"]):
        name, first, frames, fps, flags = struct.unpack_from("<3IfI", data, h["ofs_anims"] + 20 * i)
        out.append({"name": text(data, h, name), "first": first, "frames": frames, "fps": fps, "loop": flags & 1})
    return out


def joints(data):
    """iqmjoint: name, parent, translate[3], rotate[4] (x, y, z, w), scale[3]."""
    h = header(data)
    out = []
    for i in range(h["num_joints"]):
        v = struct.unpack_from("<Ii10f", data, h["ofs_joints"] + 48 * i)
        out.append({"name": text(data, h, v[0]), "parent": v[1], "t": v[2:5], "r": v[5:9], "s": v[9:12]})
    return out


def trs(t, r, s):
    x, y, z, w = r
    return Matrix.LocRotScale(Vector(t), Quaternion((w, x, y, z)).normalized(), Vector(s))


def skinned(data, frame):
    """Every vertex of the IQM at ``frame`` (the file's frame number), skinned
    as iqm.h's demo does: each joint's pose from the frame's channels (the
    poses' offsets, scales and masks), parents first, times the inverse of
    its bind matrix (the joints' base pose), weighted by the vertex's blend
    weights (ubyte / 255)."""
    h = header(data)
    arrays = {}
    for i in range(h["num_vertexarrays"]):
        kind, _flags, fmt, size, ofs = struct.unpack_from("<5I", data, h["ofs_vertexarrays"] + 20 * i)
        arrays[kind] = (fmt, size, ofs)
    n = h["num_vertexes"]
    fmt, size, ofs = arrays[0]  # IQM_POSITION, float x 3
    assert (fmt, size) == (7, 3), (fmt, size)
    positions = [Vector(struct.unpack_from("<3f", data, ofs + 12 * v)) for v in range(n)]
    js = joints(data)
    base = []
    for j in js:
        m = trs(j["t"], j["r"], j["s"])
        base.append(base[j["parent"]] @ m if j["parent"] >= 0 else m)
    if not js or not h["num_frames"]:
        return positions
    fmt, size, ofs = arrays[4]  # IQM_BLENDINDEXES, ubyte x 4
    assert (fmt, size) == (1, 4), (fmt, size)
    indexes = [struct.unpack_from("<4B", data, ofs + 4 * v) for v in range(n)]
    fmt, size, ofs = arrays[5]  # IQM_BLENDWEIGHTS, ubyte x 4
    assert (fmt, size) == (1, 4), (fmt, size)
    weights = [struct.unpack_from("<4B", data, ofs + 4 * v) for v in range(n)]
    count = h["num_framechannels"]
    channels = struct.unpack_from(f"<{count}H", data, h["ofs_frames"] + 2 * count * frame)
    k = 0
    posed = []
    for p in range(h["num_poses"]):
        v = struct.unpack_from("<iI20f", data, h["ofs_poses"] + 88 * p)
        parent, mask, offset, scale = v[0], v[1], v[2:12], v[12:22]
        value = []
        for c in range(10):
            x = offset[c]
            if mask & (1 << c):
                x += channels[k] * scale[c]
                k += 1
            value.append(x)
        m = trs(value[0:3], value[3:7], value[7:10])
        posed.append(posed[parent] @ m if parent >= 0 else m)
    skin = [posed[j] @ base[j].inverted() for j in range(len(js))]
    out = []
    for v in range(n):
        p = Vector((0.0, 0.0, 0.0))
        total = sum(weights[v])
        for b, w in zip(indexes[v], weights[v]):
            if w:
                p += (skin[b] @ positions[v]) * (w / total)
        out.append(p)
    return out


def world_vertices():
    """Every skinned mesh's vertices as Blender evaluates them now (the depsgraph: the
    armature modifier at the current frame), in IQM's axes: Blender (x, y,
    z) is IQM (-y, x, z) (glTF's y up between, as the MD3 tests say)."""
    depsgraph = bpy.context.evaluated_depsgraph_get()
    out = []
    for obj in bpy.data.objects:
        # The model's meshes (Blender 4.2+'s glTF importer adds an
        # Icosphere of its own, the bones' display shape).
        if obj.type != "MESH" or not any(m.type == "ARMATURE" for m in obj.modifiers):
            continue
        evaluated = obj.evaluated_get(depsgraph)
        mesh = evaluated.to_mesh()
        for v in mesh.vertices:
            x, y, z = evaluated.matrix_world @ v.co
            out.append(Vector((-y, x, z)))
        evaluated.to_mesh_clear()
    return out


def play(arm, action, frame):
    """The armature playing ``action`` alone at its ``frame`` (from its first
    key), NLA tracks muted."""
    data = arm.animation_data
    for track in data.nla_tracks:
        track.mute = True
    data.action = action
    if hasattr(data, "action_slot") and data.action_slot is None and len(action.slots):
        # Blender 5's slotted actions: the armature's slot.
        data.action_slot = next((s for s in action.slots if s.target_id_type == "OBJECT"), action.slots[0])
    bpy.context.scene.frame_set(int(round(action.frame_range[0])) + frame)


def farthest(points, tree):
    return max((tree.find(p)[2] for p in points), default=0.0)


def kdtree(points):
    tree = KDTree(len(points))
    for i, p in enumerate(points):
        tree.insert(p, i)
    tree.balance()
    return tree


def roundtrip(name, textures=()):
    path = os.path.join(corpus, "iqm", name)
    if not os.path.isfile(path):
        if os.environ.get("CI"):
            raise AssertionError(f"{path} missing")
        print(f"iqm import {name}: not in the corpus, skipped")
        return
    source = open(path, "rb").read()
    h = header(source)
    anims = animations(source)
    addon_under_test.fresh()
    assert bpy.ops.import_scene.retromodel(filepath=path) == {"FINISHED"}
    (arm,) = [o for o in bpy.data.objects if o.type == "ARMATURE"]
    assert len(arm.data.bones) == h["num_joints"], (len(arm.data.bones), h["num_joints"])
    assert {b.name for b in arm.data.bones} == {j["name"] for j in joints(source)}
    actions = {a.name: a for a in bpy.data.actions}
    assert sorted(actions) == sorted(a["name"] for a in anims), (sorted(actions), anims)
    for a in anims:
        first, last = actions[a["name"]].frame_range
        assert round(last - first) + 1 == a["frames"], (a, first, last)
    scene = bpy.context.scene
    assert abs(scene.render.fps / scene.render.fps_base - anims[0]["fps"]) < 1e-3, scene.render.fps
    images = {i.name: i for i in bpy.data.images}
    for t in textures:
        assert t in images and images[t].size[0] > 0, (t, sorted(images))
    print(
        f"iqm import {name}: {len(arm.data.bones)} bones, actions "
        + ", ".join(f"{a['name']} ({a['frames']} frames)" for a in anims)
        + (f", images {', '.join(textures)}" if textures else "")
    )

    # Export back, the file's loop flags (none loops) kept by "Loop".
    loops = {a["loop"] for a in anims}
    assert len(loops) == 1, anims
    out = os.path.join(outdir, name)
    assert bpy.ops.export_scene.retromodel_iqm(filepath=out, loop=bool(loops.pop())) == {"FINISHED"}
    data = open(out, "rb").read()
    back = header(data)
    assert back["version"] == 2 and back["num_meshes"] == h["num_meshes"], (back, h)
    assert back["num_anims"] == h["num_anims"] and back["num_frames"] == h["num_frames"], (back, h)
    assert [(a["name"], a["frames"], a["loop"]) for a in animations(data)] == [
        (a["name"], a["frames"], a["loop"]) for a in anims
    ], (animations(data), anims)
    # Every joint of the source, parents before children; the library also
    # makes a joint of an ancestor that moves or stands off the origin (an
    # armature object Blender exports with a transform), never more than
    # Blender's objects.
    names = [j["name"] for j in joints(data)]
    wanted = {j["name"] for j in joints(source)}
    assert set(names) >= wanted, sorted(wanted - set(names))
    extra = sorted(set(names) - wanted)
    assert set(extra) <= {o.name for o in bpy.data.objects}, extra

    # The written file's vertices, skinned here, where Blender's evaluated
    # meshes put them, at frames of each animation.
    rest = world_vertices()
    size = max((max(p[i] for p in rest) - min(p[i] for p in rest)) for i in range(3))
    worst, moved = 0.0, 0.0
    for a in animations(data):
        action = actions[a["name"]]
        for k in sorted({0, a["frames"] // 3, a["frames"] - 1}):
            play(arm, action, k)
            blender = world_vertices()
            tree = kdtree(blender)
            ours = skinned(data, a["first"] + k)
            worst = max(worst, farthest(ours, tree), farthest(blender, kdtree(ours)))
            moved = max(moved, farthest(blender, kdtree(rest)))
    assert worst < 1e-3 * size, (worst, size)
    assert moved > 20 * worst and moved > 1e-2 * size, (moved, worst, size)
    print(
        f"iqm export {name}: {back['num_meshes']} meshes, {len(names)} joints ({len(extra)} of Blender's objects: "
        f"{', '.join(extra)}), animations as the file's; vertices within {worst:.2e} of Blender's "
        f"(size {size:.3g}, moving up to {moved:.3g})"
    )


roundtrip("lsalzman_mrfixit.iqm", textures=("Body.tga", "Head.tga"))
roundtrip("raylib_guy.iqm")


# A scene made here: two bones, a mesh weighted to them, two actions.
addon_under_test.fresh()
scene = bpy.context.scene
# 30 fps: the export's "Frames per second" is the scene's, not its own default (24).
scene.render.fps, scene.render.fps_base = 30, 1.0
armature = bpy.data.armatures.new("rig")
arm = bpy.data.objects.new("rig", armature)
scene.collection.objects.link(arm)
bpy.context.view_layer.objects.active = arm
bpy.ops.object.mode_set(mode="EDIT")
root = armature.edit_bones.new("root")
root.head, root.tail = (0, 0, 0), (0, 0, 1)
tip = armature.edit_bones.new("tip")
tip.head, tip.tail = (0, 0, 1), (0, 0, 2)
tip.parent = root
bpy.ops.object.mode_set(mode="OBJECT")
mesh = bpy.data.meshes.new("column")
coords = [(x, y, z) for z in (0.0, 1.0, 2.0) for x, y in ((-0.2, -0.2), (0.2, -0.2), (0.2, 0.2), (-0.2, 0.2))]
faces = [(4 * r + i, 4 * r + (i + 1) % 4, 4 * r + 4 + (i + 1) % 4, 4 * r + 4 + i) for r in range(2) for i in range(4)]
mesh.from_pydata(coords, [], faces)
column = bpy.data.objects.new("column", mesh)
scene.collection.objects.link(column)
column.parent = arm
for bone, rows in (("root", (0, 1)), ("tip", (2,))):
    group = column.vertex_groups.new(name=bone)
    group.add([4 * r + i for r in rows for i in range(4)], 1.0, "REPLACE")
column.modifiers.new("Armature", "ARMATURE").object = arm
arm.animation_data_create()
made = {}
for name, first, last, bone in (("wave", 1, 20, "tip"), ("nod", 5, 16, "root")):
    action = bpy.data.actions.new(name)
    action.use_fake_user = True
    arm.animation_data.action = action
    pose = arm.pose.bones[bone]
    pose.rotation_mode = "XYZ"
    for frame, angle in ((first, 0.0), ((first + last) // 2, 0.6), (last, 0.0)):
        pose.rotation_euler = (angle, 0.0, 0.0)
        pose.keyframe_insert("rotation_euler", frame=frame)
    pose.rotation_euler = (0.0, 0.0, 0.0)
    made[name] = last - first + 1
arm.animation_data.action = bpy.data.actions["wave"]
out = os.path.join(outdir, "column.iqm")
assert bpy.ops.export_scene.retromodel_iqm(filepath=out) == {"FINISHED"}
data = open(out, "rb").read()
got = {a["name"]: a for a in animations(data)}
assert sorted(got) == sorted(made), (sorted(got), made)
for name, frames in made.items():
    assert got[name]["frames"] == frames and got[name]["loop"] == 1, (name, got[name], frames)
    assert got[name]["fps"] == 30.0, got[name]
assert {"root", "tip"} <= {j["name"] for j in joints(data)}, joints(data)
print(
    "iqm export of a scene made in Blender: "
    + ", ".join(f"{n} ({got[n]['frames']} frames, looping)" for n in sorted(got))
    + " at the scene's 30 fps"
)

# ioquake3 loads no IQM of more than 128 joints: "Engine" set to it, the
# export is refused in the panel's words and writes nothing.
bpy.context.view_layer.objects.active = arm
bpy.ops.object.mode_set(mode="EDIT")
parent = armature.edit_bones["tip"]
for i in range(130):
    bone = armature.edit_bones.new(f"chain{i}")
    bone.head, bone.tail = (0, 0, 2 + 0.1 * i), (0, 0, 2.1 + 0.1 * i)
    bone.parent = parent
    parent = bone
bpy.ops.object.mode_set(mode="OBJECT")
refused = os.path.join(outdir, "chain.iqm")
try:
    result = bpy.ops.export_scene.retromodel_iqm(filepath=refused, engine="ioquake3")
except RuntimeError as e:  # the operator's error report
    result = str(e)
assert 'set "Engine" to one that loads it: ' in str(result) and "ioquake3" in str(result), result
assert not os.path.exists(refused)
print(f"iqm export refused for ioquake3: {str(result).splitlines()[0][:160]}")
print("blender iqm: all checks passed")
