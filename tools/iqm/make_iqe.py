#!/usr/bin/env python3
# SPDX-License-Identifier: CC0-1.0
# Written for retromodel; dedicated to the public domain (CC0 1.0).
"""Makes small rigged, animated Inter-Quake Export (.iqe) test models,
procedurally, for retromodel's IQE tests (crates/retromodel/tests/
iqe_reference.rs compares our compiler with lsalzman/iqm's on them).

    python3 tools/iqm/make_iqe.py OUT_DIR

writes:

* rig.iqe: 2 meshes ("body" with material "skin.png", "arms" with
  "cloth.png"), 5 joints (root, spine, head, arm_l, arm_r), bind poses
  given as pq (with and without w), pm and pa; vertices unwelded per face
  (the compiler welds equal ones), quads given to fm, a corner given by a
  negative index, blends with 1 to 3 joints (one weight under 0.001,
  weights not summing to 1); animations "walk" (8 frames, 24 fps,
  looping) and "wave" (5 frames, 12 fps, poses as pm and pa).
* scaled.iqe: 6 joints (one kept still in every frame: all its channels
  constant), one mesh, an animation "pulse" (6 frames, 10 fps, looping)
  whose scale channels change, and "hold" (1 frame), plus a comment.
* extras.iqe: vertexarray declarations (half texture coordinates, short
  normals, a named custom array "wind" from v0, colours), vx tangents,
  a pa bind pose, and mesh "a" with material "m1" written twice around
  another mesh.

Everything is computed here from sines and cosines: no data comes from
anywhere else.
"""

import math
import os
import sys


def fmt(x):
    s = "%.6f" % x
    s = s.rstrip("0").rstrip(".")
    return "0" if s in ("-0", "") else s


def line(cmd, *vals):
    return cmd + "".join(" " + fmt(v) for v in vals)


def quat_axis(axis, angle):
    s = math.sin(angle / 2)
    q = [axis[0] * s, axis[1] * s, axis[2] * s, math.cos(angle / 2)]
    return q


def quat_matrix(q):
    x, y, z, w = q
    return [
        [1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)],
        [2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)],
        [2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)],
    ]


def pq(t, q, s=None, with_w=True):
    if not with_w:
        if q[3] > 0:
            q = [-c for c in q]
        vals = list(t) + list(q[:3])
        # without w, no scale may follow: the fourth value would be w
        return line("pq", *vals)
    vals = list(t) + list(q)
    if s is not None:
        vals += list(s)
    return line("pq", *vals)


def pm(t, q, s=None):
    m = quat_matrix(q)
    vals = list(t) + m[0] + m[1] + m[2]
    if s is not None:
        vals += list(s)
    return line("pm", *vals)


def pa(t, angles, s=None):
    vals = list(t) + list(angles)
    if s is not None:
        vals += list(s)
    return line("pa", *vals)


def box(out, center, size, uv0, blend, faces_as_quads=True):
    """Writes a box as 6 faces with 4 unwelded corners each (24 vp), and
    returns the fm lines (indices local to the mesh, given by the caller's
    running base)."""
    cx, cy, cz = center
    sx, sy, sz = size
    faces = [
        ((1, 0, 0), [(1, -1, -1), (1, 1, -1), (1, 1, 1), (1, -1, 1)]),
        ((-1, 0, 0), [(-1, 1, -1), (-1, -1, -1), (-1, -1, 1), (-1, 1, 1)]),
        ((0, 1, 0), [(1, 1, -1), (-1, 1, -1), (-1, 1, 1), (1, 1, 1)]),
        ((0, -1, 0), [(-1, -1, -1), (1, -1, -1), (1, -1, 1), (-1, -1, 1)]),
        ((0, 0, 1), [(-1, -1, 1), (1, -1, 1), (1, 1, 1), (-1, 1, 1)]),
        ((0, 0, -1), [(-1, 1, -1), (1, 1, -1), (1, -1, -1), (-1, -1, -1)]),
    ]
    uvs = [(0, 0), (1, 0), (1, 1), (0, 1)]
    for n, corners in faces:
        for (px, py, pz), (u, v) in zip(corners, uvs):
            out.append(line("vp", cx + px * sx / 2, cy + py * sy / 2, cz + pz * sz / 2))
            out.append(line("vt", uv0[0] + u * 0.25, uv0[1] + v * 0.25))
            out.append(line("vn", *n))
            out.append(blend(pz))
    return faces


def rig():
    out = ["# Inter-Quake Export", "# rig.iqe: made by tools/iqm/make_iqe.py (CC0)", ""]
    joints = [("root", -1), ("spine", 0), ("head", 1), ("arm_l", 1), ("arm_r", 1)]
    for name, parent in joints:
        out.append('joint "%s" %d' % (name, parent))
    out.append(pq((0, 0, 0), [0, 0, 0, 1]))
    out.append(pq((0, 0, 1), quat_axis((1, 0, 0), 0.1), with_w=False))
    out.append(pm((0, 0, 1.2), quat_axis((0, 0, 1), 0.3)))
    out.append(pa((0.6, 0, 0.8), (0, 0.2, 0)))
    out.append(pq((-0.6, 0, 0.8), quat_axis((0, 1, 0), -0.2), (1, 1, 1)))
    out.append("")

    # body: a column of three boxes over root, spine, head, with blended
    # seams; written with fa for the first box (file-absolute indices)
    out.append('mesh "body"')
    out.append('material "skin.png"')
    base = 0
    body_faces = []
    for level, (z, joint_a, joint_b) in enumerate([(0.5, 0, 1), (1.5, 1, 2), (2.5, 2, 2)]):
        def blend(pz, a=joint_a, b=joint_b, level=level):
            if pz < 0:
                return "vb %d 1" % a
            if level == 0:
                # three joints, one weight too small to keep, not summing to 1
                return "vb %d 0.5 %d 0.3 3 0.0005" % (a, b)
            return "vb %d 0.6 %d 0.4" % (a, b)

        faces = box(out, (0, 0, z), (0.8, 0.5, 1.0), (0.25 * level, 0), blend)
        for f in range(len(faces)):
            i = base + 4 * f
            if level == 0:
                out.append("fa %d %d %d %d" % (i, i + 1, i + 2, i + 3))
            elif f == 5:
                # the last face by negative indices (relative to the last vertex)
                out.append("fm -4 -3 -2 -1")
            else:
                out.append("fm %d %d %d" % (i, i + 1, i + 2))
                out.append("fm %d %d %d" % (i, i + 2, i + 3))
        base += 24
    out.append("")

    # arms: one box per arm, fm relative to the mesh
    out.append('mesh "arms"')
    out.append('material "cloth.png"')
    local = 0
    for joint, x in [(3, 1.0), (4, -1.0)]:
        def blend(pz, j=joint):
            return "vb %d 1" % j

        faces = box(out, (x, 0, 1.8), (0.8, 0.3, 0.3), (0.5, 0.5), blend)
        for f in range(len(faces)):
            i = local + 4 * f
            out.append("fm %d %d %d %d" % (i, i + 1, i + 2, i + 3))
        local += 24
    # copies of the arms' first face's corners, written again: the
    # compiler welds them into the first ones; the face over them is the
    # first face seen from behind
    out.extend(out[out.index('material "cloth.png"') + 1:][:16])
    out.append("fm 48 50 49")
    # a degenerate triangle: the compiler drops it
    out.append("fm 0 0 1")
    out.append("")

    out.append('animation "walk"')
    out.append("framerate 24")
    out.append("loop")
    for f in range(8):
        a = 2 * math.pi * f / 8
        out.append("frame")
        out.append(pq((0.1 * math.sin(a), 0, 0.05 * math.cos(2 * a)), quat_axis((0, 0, 1), 0.2 * math.sin(a))))
        out.append(pq((0, 0, 1), quat_axis((1, 0, 0), 0.1 + 0.15 * math.sin(a))))
        out.append(pq((0, 0, 1.2), quat_axis((0, 0, 1), 0.3 + 0.1 * math.cos(a))))
        out.append(pq((0.6, 0, 0.8), quat_axis((0, 1, 0), 0.2 + 0.6 * math.sin(a))))
        out.append(pq((-0.6, 0, 0.8), quat_axis((0, 1, 0), -0.2 - 0.6 * math.sin(a))))
    out.append("")
    out.append('animation "wave"')
    out.append("framerate 12")
    for f in range(5):
        a = math.pi * f / 4
        out.append("frame")
        out.append(pq((0, 0, 0), [0, 0, 0, 1]))
        out.append(pm((0, 0, 1), quat_axis((1, 0, 0), 0.1)))
        out.append(pa((0, 0, 1.2), (0, 0, 0.3 - 0.3 * math.sin(a))))
        out.append(pa((0.6, 0, 0.8), (1.2 * math.sin(a), 0.2, 0)))
        out.append(pm((-0.6, 0, 0.8), quat_axis((0, 1, 0), -0.2)))
    out.append("")
    return "\n".join(out) + "\n"


def scaled():
    out = ["# Inter-Quake Export", "# scaled.iqe: made by tools/iqm/make_iqe.py (CC0)", ""]
    joints = [("base", -1), ("still", 0), ("grow", 0), ("grow_tip", 2), ("squash", 0), ("squash_tip", 4)]
    for name, parent in joints:
        out.append("joint %s %d" % (name, parent))
    binds = [((0, 0, 0), 0.0), ((0, 0, 0.5), 0.0), ((0.5, 0, 0.5), 0.4), ((0, 0, 0.6), 0.0), ((-0.5, 0, 0.5), -0.4), ((0, 0, 0.6), 0.0)]
    for t, ang in binds:
        out.append(pq(t, quat_axis((0, 1, 0), ang), (1, 1, 1)))
    out.append("")
    out.append("mesh petals")
    out.append("material petal.png")
    # a fan of quads up each branch
    base = 0
    for j, (t, ang) in enumerate(binds):
        # world position of joint j (ignoring rotation: a shape, not a match)
        x, y, z = t
        p = j
        while joints[p][1] >= 0:
            p = joints[p][1]
            x += binds[p][0][0]
            z += binds[p][0][2]
        for k in range(4):
            a = 2 * math.pi * k / 4
            out.append(line("vp", x + 0.2 * math.cos(a), y + 0.2 * math.sin(a), z))
            out.append(line("vt", 0.5 + 0.5 * math.cos(a), 0.5 + 0.5 * math.sin(a)))
            out.append(line("vn", math.cos(a), math.sin(a), 0))
            parent = joints[j][1]
            if parent >= 0:
                out.append("vb %d 0.75 %d 0.25" % (j, parent))
            else:
                out.append("vb %d 1" % j)
        out.append("fm %d %d %d %d" % (base, base + 1, base + 2, base + 3))
        if j > 0:
            pb = 4 * joints[j][1]
            out.append("fm %d %d %d" % (pb, pb + 1, base))
        base += 4
    out.append("")
    out.append("animation pulse")
    out.append("framerate 10")
    out.append("loop")
    for f in range(6):
        a = 2 * math.pi * f / 6
        out.append("frame")
        for j, (t, ang) in enumerate(binds):
            s = (1, 1, 1)
            q = quat_axis((0, 1, 0), ang)
            tt = t
            if joints[j][0] == "grow":
                s = (1 + 0.5 * math.sin(a), 1 + 0.5 * math.sin(a), 1 + 0.5 * math.sin(a))
            elif joints[j][0] == "squash":
                s = (1.3 + 0.3 * math.cos(a), 1, 0.7 - 0.2 * math.cos(a))
                q = quat_axis((0, 1, 0), ang + 0.2 * math.sin(a))
            elif joints[j][0] == "base":
                tt = (0, 0, 0.1 * math.sin(a))
            out.append(pq(tt, q, s))
    out.append("")
    out.append("animation hold")
    out.append("framerate 1")
    out.append("frame")
    for t, ang in binds:
        out.append(pq(t, quat_axis((0, 1, 0), ang), (1, 1, 1)))
    out.append("")
    out.append("comment")
    out.append("scaled.iqe: a test model for retromodel (CC0).")
    return "\n".join(out) + "\n"


def extras():
    out = ["# Inter-Quake Export", "# extras.iqe: made by tools/iqm/make_iqe.py (CC0)", ""]
    out.append("vertexarray texcoord half 2")
    out.append("vertexarray normal short 3")
    out.append("vertexarray custom0 float 2 wind")
    out.append("vertexarray color ubyte 4")
    out.append("joint root -1")
    out.append("joint arm 0")
    out.append(pq((0, 0, 0), [0, 0, 0, 1]))
    out.append(pa((1, 0, 0), (0.1, 0.2, 0.3)))
    out.append("")

    def grid(x0, mesh, material, joint):
        out.append('mesh "%s"' % mesh)
        out.append('material "%s"' % material)
        for j in range(3):
            for i in range(3):
                x, y = x0 + 0.5 * i, 0.5 * j
                out.append(line("vp", x, y, 0.1 * i * j))
                out.append(line("vt", i / 2.0 + 0.001, j / 2.0 + 0.3333))
                out.append(line("vn", 0.1 * (i - 1), 0.1 * (j - 1), 1))
                out.append(line("vx", 1, 0, 0, -1 if (i + j) % 2 else 1))
                out.append("vb %d 0.6 %d 0.4" % (joint, 1 - joint))
                out.append(line("vc", i / 2.0, j / 2.0, 0.25))
                out.append(line("v0", math.sin(x), math.cos(y)))
        for j in range(2):
            for i in range(2):
                a = 3 * j + i
                out.append("fm %d %d %d %d" % (a, a + 1, a + 4, a + 3))

    grid(0, "a", "m1", 0)
    grid(2, "b", "m2", 1)
    # "a" with "m1" again, after another mesh: the reference gathers it
    # with the first "a" and keeps only the first run's triangles
    grid(4, "a", "m1", 0)
    out.append("")
    out.append("animation bend")
    out.append("framerate 30")
    for f in range(3):
        out.append("frame")
        out.append(pq((0, 0, 0), [0, 0, 0, 1]))
        out.append(pa((1, 0, 0), (0.1, 0.2 + 0.3 * f, 0.3)))
    out.append("")
    return "\n".join(out) + "\n"


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: make_iqe.py OUT_DIR")
    os.makedirs(sys.argv[1], exist_ok=True)
    for name, text in [("rig.iqe", rig()), ("scaled.iqe", scaled()), ("extras.iqe", extras())]:
        with open(os.path.join(sys.argv[1], name), "w", newline="\n") as f:
            f.write(text)


if __name__ == "__main__":
    main()
