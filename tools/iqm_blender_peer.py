"""Our Blender IQM export against Lee Salzman's own Blender exporter
(lsalzman/iqm's blender-4.1/iqm_export.py), both run in PyPI's ``bpy`` on
the same scene, each file checked against Blender's evaluated mesh.

By hand (a cross-check, not a test; nothing of lsalzman's exporter is kept
here: it is read from a git directory of lsalzman/iqm at run time):

    IQM_GIT_DIR=/path/to/lsalzman/iqm/.git RETROMODEL_PYTHONPATH=SITE \\
      target/bpy/venv-4.2/bin/python tools/iqm_blender_peer.py [OUTDIR]

SITE is a folder holding the ``retromodel`` package (an installed wheel's
site-packages); IQM_EXPORTER (default ``HEAD:blender-4.1/iqm_export.py``)
picks the exporter's revision and path. Without IQM_GIT_DIR it says so and
exits 0.

The scene, made here: an armature of four bones (root, spine, and two arms
off the spine's tail), a mesh of square rings along them weighted to one,
two or three bones, and two actions keyed from frames other than 0 ("walk"
1-20: root moves, spine turns, an arm scales; "wave" 5-16). lsalzman's
operator gets the mesh and armature selected and the ranges typed as its
panel takes them ("walk:1:20,wave:5:16"); ours (the source add-on in
blender/, registered here) exports with its defaults.

Both files are read here with struct (iqm.h's layout): joint names and
parents' names, animation names, frame counts and rates, and every vertex
skinned at every frame of every animation from the file's own bytes (pose
channels -> T.R.S -> parent chain -> x inverse bind -> weights / 255). The
files' vertices are compared with each other and with Blender's own
evaluation of the mesh (the depsgraph at the action's frame), matched by
nearest position both ways, in Blender's axes (ours writes IQM's x as
Blender's -y: Blender (x, y, z) is IQM (-y, x, z); lsalzman's writes
Blender's axes unchanged). Differences are printed relative to the model's
size (its rest mesh's largest extent).
"""

import os
import struct
import subprocess
import sys
import tempfile
import importlib.util

git_dir = os.environ.get("IQM_GIT_DIR")
if not git_dir or not os.path.isdir(git_dir):
    print("iqm_blender_peer: IQM_GIT_DIR (a git directory of lsalzman/iqm) not set or missing: skipped")
    sys.exit(0)

# Blender's user folders: a temporary one, never the real user's.
os.environ.setdefault("BLENDER_USER_RESOURCES", tempfile.mkdtemp(prefix="iqm_peer_user_"))

import bpy  # noqa: E402
from mathutils import Matrix, Quaternion, Vector  # noqa: E402
from mathutils.kdtree import KDTree  # noqa: E402

repo = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
args = sys.argv[sys.argv.index("--") + 1 :] if "--" in sys.argv else sys.argv[1:]
outdir = args[0] if args else tempfile.mkdtemp(prefix="iqm_peer_")
os.makedirs(outdir, exist_ok=True)


def finish(code):
    # bpy 4.2 crashes in the interpreter's teardown once a glTF export ran
    # (see blender/test_bpy.sh): leave without it.
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(code)


# --- the two exporters --------------------------------------------------

spec = os.environ.get("IQM_EXPORTER", "HEAD:blender-4.1/iqm_export.py")
source = subprocess.run(["git", "--git-dir", git_dir, "show", spec], check=True, capture_output=True).stdout
commit = subprocess.run(
    ["git", "--git-dir", git_dir, "rev-parse", "--short", spec.split(":")[0]], check=True, capture_output=True, text=True
).stdout.strip()
extracted = os.path.join(tempfile.mkdtemp(prefix="iqm_peer_exporter_"), "lsalzman_iqm_export.py")
with open(extracted, "wb") as f:
    f.write(source)
loader = importlib.util.spec_from_file_location("lsalzman_iqm_export", extracted)
lsalzman = importlib.util.module_from_spec(loader)
loader.loader.exec_module(lsalzman)
lsalzman.register()

sys.path.insert(0, os.path.join(repo, "blender"))
import retromodel_io  # noqa: E402

retromodel_io.register()
print(f"bpy {bpy.app.version_string}; lsalzman/iqm {commit} {spec.split(':', 1)[1]} (bl_info version {lsalzman.bl_info['version']})")


# --- the scene ------------------------------------------------------------

bpy.ops.wm.read_homefile(use_empty=True, use_factory_startup=True)
scene = bpy.context.scene
scene.render.fps, scene.render.fps_base = 30, 1.0
armature = bpy.data.armatures.new("rig")
arm = bpy.data.objects.new("rig", armature)
scene.collection.objects.link(arm)
bpy.context.view_layer.objects.active = arm
bpy.ops.object.mode_set(mode="EDIT")
BONES = (  # name, head, tail, parent
    ("root", (0, 0, 0), (0, 0, 1), None),
    ("spine", (0, 0, 1), (0, 0, 2), "root"),
    ("arm.L", (0, 0, 2), (1.2, 0, 2), "spine"),
    ("arm.R", (0, 0, 2), (-1.2, 0, 2), "spine"),
)
for name, head, tail, parent in BONES:
    b = armature.edit_bones.new(name)
    b.head, b.tail = head, tail
    if parent:
        b.parent = armature.edit_bones[parent]
bpy.ops.object.mode_set(mode="OBJECT")

# Square rings: up the column (z 0..2), out along each arm (x 0.3..1.2).
coords, faces, weights = [], [], []


def tube(centres, ring, weigh):
    first = len(coords)
    for c in centres:
        for d in ring:
            coords.append(tuple(c[i] + d[i] for i in range(3)))
            weights.append(weigh(c))
    for r in range(len(centres) - 1):
        a = first + 4 * r
        faces.extend((a + i, a + (i + 1) % 4, a + 4 + (i + 1) % 4, a + 4 + i) for i in range(4))


def column_weights(c):
    z = c[2]
    if z >= 1.999:
        return {"spine": 0.6, "arm.L": 0.2, "arm.R": 0.2}
    t = min(1.0, max(0.0, (z - 0.75) / 0.5))
    return {k: w for k, w in (("root", 1 - t), ("spine", t)) if w > 0}


def arm_weights(side):
    def weigh(c):
        return {"spine": 0.5, side: 0.5} if abs(c[0]) < 0.31 else {side: 1.0}

    return weigh


tube([(0, 0, 0.25 * i) for i in range(9)], [(-0.2, -0.2, 0), (0.2, -0.2, 0), (0.2, 0.2, 0), (-0.2, 0.2, 0)], column_weights)
for sign, side in ((1, "arm.L"), (-1, "arm.R")):
    tube([(sign * (0.3 + 0.15 * i), 0, 2) for i in range(7)], [(0, -0.1, -0.1), (0, 0.1, -0.1), (0, 0.1, 0.1), (0, -0.1, 0.1)], arm_weights(side))
mesh = bpy.data.meshes.new("body")
mesh.from_pydata(coords, [], faces)
# A material: lsalzman's exporter writes only faces of a material slot
# (collectMeshes keeps a mesh per slot, "in the order of their assigned
# index"); a mesh without one is left out silently, its joints with it.
mesh.materials.append(bpy.data.materials.new("skin"))
body = bpy.data.objects.new("body", mesh)
scene.collection.objects.link(body)
body.parent = arm
groups = {name: body.vertex_groups.new(name=name) for name, *_ in BONES}
for v, ws in enumerate(weights):
    for name, w in ws.items():
        groups[name].add([v], w, "REPLACE")
body.modifiers.new("Armature", "ARMATURE").object = arm

arm.animation_data_create()
ACTIONS = {  # name: (first, last, {bone: [(frame, location, euler, scale)]})
    "walk": (
        1,
        20,
        {
            "root": [(1, (0, 0, 0), (0, 0, 0), 1), (10, (0.3, 0.2, 0), (0, 0.3, 0), 1), (20, (0, 0, 0), (0, 0, 0), 1)],
            "spine": [(1, (0, 0, 0), (0, 0, 0), 1), (8, (0, 0, 0), (0.5, 0, 0.4), 1), (20, (0, 0, 0), (0, 0, 0), 1)],
            "arm.R": [(1, (0, 0, 0), (0, 0, 0), 1), (12, (0, 0, 0), (0, 0, 0.7), 1.3), (20, (0, 0, 0), (0, 0, 0), 1)],
        },
    ),
    "wave": (
        5,
        16,
        {
            "arm.L": [(5, (0, 0, 0), (0, 0, 0), 1), (10, (0, 0, 0), (0.9, 0, 0.6), 1), (16, (0, 0, 0), (0, 0, 0), 1)],
            "spine": [(5, (0, 0, 0), (0, 0, 0), 1), (16, (0, 0, 0), (0, -0.4, 0), 1)],
        },
    ),
}


def reset_pose():
    for pb in arm.pose.bones:
        pb.rotation_mode = "XYZ"
        pb.location = (0, 0, 0)
        pb.rotation_euler = (0, 0, 0)
        pb.scale = (1, 1, 1)


for name, (first, last, keys) in ACTIONS.items():
    action = bpy.data.actions.new(name)
    action.use_fake_user = True
    arm.animation_data.action = action
    for bone, frames in keys.items():
        pb = arm.pose.bones[bone]
        pb.rotation_mode = "XYZ"
        for frame, loc, rot, s in frames:
            pb.location, pb.rotation_euler, pb.scale = loc, rot, (s, s, s)
            for path in ("location", "rotation_euler", "scale"):
                pb.keyframe_insert(path, frame=frame)
    reset_pose()
arm.animation_data.action = bpy.data.actions["walk"]
scene.frame_set(1)


# --- the exports ----------------------------------------------------------

theirs_path = os.path.join(outdir, "lsalzman.iqm")
ours_path = os.path.join(outdir, "retromodel.iqm")
animspec = ",".join(f"{name}:{first}:{last}" for name, (first, last, _) in ACTIONS.items())
for o in bpy.context.view_layer.objects:
    o.select_set(o in (arm, body))
bpy.context.view_layer.objects.active = arm
broke = None
try:
    result = bpy.ops.export.iqm(filepath=theirs_path, animspec=animspec)
    print(f"lsalzman's export.iqm(animspec={animspec!r}): {result}")
except Exception as e:  # noqa: BLE001 (what breaks is the result)
    broke = f"{type(e).__name__}: {e}"
    print(f"lsalzman's exporter FAILED in bpy {bpy.app.version_string}: {broke}")
arm.animation_data.action = bpy.data.actions["walk"]
reset_pose()
scene.frame_set(1)
result = bpy.ops.export_scene.retromodel_iqm(filepath=ours_path)
print(f"our export_scene.retromodel_iqm: {result}")


# --- an independent reader -------------------------------------------------

FIELDS = (
    "version filesize flags num_text ofs_text num_meshes ofs_meshes num_vertexarrays num_vertexes "
    "ofs_vertexarrays num_triangles ofs_triangles ofs_adjacency num_joints ofs_joints num_poses ofs_poses "
    "num_anims ofs_anims num_frames num_framechannels ofs_frames ofs_bounds num_comment ofs_comment "
    "num_extensions ofs_extensions"
).split()


class Iqm:
    def __init__(self, data):
        assert data[:16] == b"INTERQUAKEMODEL\0", data[:16]
        self.data = data
        h = self.h = dict(zip(FIELDS, struct.unpack_from("<27I", data, 16)))
        assert h["version"] == 2 and h["filesize"] == len(data), (h["version"], h["filesize"], len(data))
        self.joints = []
        for i in range(h["num_joints"]):
            v = struct.unpack_from("<Ii10f", data, h["ofs_joints"] + 48 * i)
            self.joints.append({"name": self.text(v[0]), "parent": v[1], "trs": (v[2:5], v[5:9], v[9:12])})
        self.anims = []
        for i in range(h["num_anims"]):
            name, first, frames, fps, flags = struct.unpack_from("<3IfI", data, h["ofs_anims"] + 20 * i)
            self.anims.append({"name": self.text(name), "first": first, "frames": frames, "fps": fps, "flags": flags})
        self.poses = [struct.unpack_from("<iI20f", data, h["ofs_poses"] + 88 * p) for p in range(h["num_poses"])]
        arrays = {}
        for i in range(h["num_vertexarrays"]):
            kind, _flags, fmt, size, ofs = struct.unpack_from("<5I", data, h["ofs_vertexarrays"] + 20 * i)
            arrays[kind] = (fmt, size, ofs)
        n = h["num_vertexes"]
        fmt, size, ofs = arrays[0]
        assert (fmt, size) == (7, 3), (fmt, size)
        self.positions = [Vector(struct.unpack_from("<3f", data, ofs + 12 * v)) for v in range(n)]
        self.blend = []
        if self.joints:
            (fi, si, oi), (fw, sw, ow) = arrays[4], arrays[5]
            assert (fi, si, fw, sw) == (1, 4, 1, 4), arrays
            self.blend = [
                (struct.unpack_from("<4B", data, oi + 4 * v), struct.unpack_from("<4B", data, ow + 4 * v)) for v in range(n)
            ]
        self.bind = []
        for j in self.joints:
            m = trs(*j["trs"])
            self.bind.append(self.bind[j["parent"]] @ m if j["parent"] >= 0 else m)
        self.inverse_bind = [m.inverted() for m in self.bind]

    def text(self, ofs):
        at = self.h["ofs_text"] + ofs
        return self.data[at : self.data.index(b"\0", at)].decode("utf-8", "replace")

    def parent_names(self):
        return {j["name"]: (self.joints[j["parent"]]["name"] if j["parent"] >= 0 else None) for j in self.joints}

    def skinned(self, frame):
        """Every vertex at the file's ``frame``: each pose's 10 channels
        (offset + stored ushort x scale where the mask says), T.R.S, times
        its parent's, times the joint's inverse bind, weighted / 255."""
        count = self.h["num_framechannels"]
        channels = struct.unpack_from(f"<{count}H", self.data, self.h["ofs_frames"] + 2 * count * frame)
        k = 0
        posed = []
        for v in self.poses:
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
        assert k == count, (k, count)
        skin = [posed[j] @ self.inverse_bind[j] for j in range(len(posed))]
        out = []
        for p, (indexes, weights) in zip(self.positions, self.blend):
            q = Vector((0.0, 0.0, 0.0))
            for b, w in zip(indexes, weights):
                if w:
                    q += (skin[b] @ p) * (w / 255.0)
            out.append(q)
        return out


def trs(t, r, s):
    x, y, z, w = r
    return Matrix.LocRotScale(Vector(t), Quaternion((w, x, y, z)).normalized(), Vector(s))


def kdtree(points):
    tree = KDTree(len(points))
    for i, p in enumerate(points):
        tree.insert(p, i)
    tree.balance()
    return tree


def apart(a, b):
    """The farthest any point of either set lies from the other's nearest."""
    ta, tb = kdtree(a), kdtree(b)
    return max(max(tb.find(p)[2] for p in a), max(ta.find(p)[2] for p in b))


def blender_vertices():
    depsgraph = bpy.context.evaluated_depsgraph_get()
    evaluated = body.evaluated_get(depsgraph)
    m = evaluated.to_mesh()
    out = [evaluated.matrix_world @ v.co for v in m.vertices]
    evaluated.to_mesh_clear()
    return out


def play(name, k):
    reset_pose()
    arm.animation_data.action = bpy.data.actions[name]
    scene.frame_set(ACTIONS[name][0] + k)


# --- the comparison --------------------------------------------------------

ours = Iqm(open(ours_path, "rb").read())
# Ours in Blender's axes: IQM (x, y, z) is Blender (y, -x, z).
to_blender = {"ours": lambda p: Vector((p.y, -p.x, p.z)), "lsalzman": lambda p: p}
files = {"ours": ours}
if broke is None and os.path.isfile(theirs_path):
    files["lsalzman"] = Iqm(open(theirs_path, "rb").read())

for who, f in files.items():
    h = f.h
    print(
        f"{who}: {os.path.getsize(theirs_path if who == 'lsalzman' else ours_path)} bytes, {h['num_meshes']} meshes, "
        f"{h['num_vertexes']} vertices, {h['num_triangles']} triangles, {h['num_joints']} joints, "
        f"{h['num_framechannels']} channels a frame, bounds {'yes' if h['ofs_bounds'] else 'no'}; joints "
        + ", ".join(f"{n}<-{p}" for n, p in f.parent_names().items())
        + "; animations "
        + ", ".join(f"{a['name']} ({a['frames']} frames at {a['fps']:g} fps, flags {a['flags']})" for a in f.anims)
    )

reset_pose()
arm.animation_data.action = None
scene.frame_set(1)
rest = blender_vertices()
size = max(max(p[i] for p in rest) - min(p[i] for p in rest) for i in range(3))
if "lsalzman" in files:
    theirs = files["lsalzman"]
    tp, op = theirs.parent_names(), ours.parent_names()
    same_joints = tp == op
    if not same_joints:
        common = sorted(set(tp) & set(op))
        print(
            f"joints only in ours: {sorted(set(op) - set(tp))}; only in lsalzman's: {sorted(set(tp) - set(op))}; "
            "parents differing among the common ones: "
            + (", ".join(f"{n} ({op[n]} in ours, {tp[n]} in lsalzman's)" for n in common if op[n] != tp[n]) or "none")
        )
    same_anims = [(a["name"], a["frames"], a["fps"]) for a in theirs.anims] == [
        (a["name"], a["frames"], a["fps"]) for a in ours.anims
    ]
    print(f"joint names and parents alike: {same_joints}; animation names, frame counts and rates alike: {same_anims}")
    # Bind pose: each joint's origin in Blender's axes.
    bind = max(
        (
            to_blender["ours"](ours.bind[i].translation) - theirs.bind[[j["name"] for j in theirs.joints].index(j["name"])].translation
        ).length
        for i, j in enumerate(ours.joints)
        if j["name"] in {t["name"] for t in theirs.joints}
    )
    print(f"bind-pose joint origins apart by at most {bind / size:.2e} of the size")
    rest_apart = apart([to_blender["ours"](p) for p in ours.positions], theirs.positions)
    print(f"rest-pose vertices apart by at most {rest_apart / size:.2e} of the size")

worst = {}
moved = 0.0
for a in ours.anims:
    name = a["name"]
    theirs_anim = next((t for t in files["lsalzman"].anims if t["name"] == name), None) if "lsalzman" in files else None
    for k in range(a["frames"]):
        play(name, k)
        blender = blender_vertices()
        moved = max(moved, apart(blender, rest))
        skinned = {"ours": [to_blender["ours"](p) for p in ours.skinned(a["first"] + k)]}
        if theirs_anim and k < theirs_anim["frames"]:
            skinned["lsalzman"] = files["lsalzman"].skinned(theirs_anim["first"] + k)
        for who, points in skinned.items():
            key = (name, f"{who} vs Blender")
            worst[key] = max(worst.get(key, 0.0), apart(points, blender))
        if "lsalzman" in skinned:
            key = (name, "ours vs lsalzman")
            worst[key] = max(worst.get(key, 0.0), apart(skinned["ours"], skinned["lsalzman"]))

print(f"model size {size:.3g} (rest mesh's largest extent); Blender's mesh moves up to {moved / size:.3g} of it")
for (name, what), d in sorted(worst.items()):
    print(f"  {name}: {what}: largest difference {d / size:.2e} of the size ({d:.2e})")
finish(0)
