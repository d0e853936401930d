#!/usr/bin/env python3
# SPDX-License-Identifier: CC0-1.0
"""Facts about IQM files made by lsalzman/iqm's reference compiler, for
crates/retromodel/tests/iqe_reference.rs. A small IQM reader of its own
(struct layouts from iqm.txt / iqm.h), independent of retromodel.

    python3 tools/iqm/reference_facts.py OUT.json NAME=FILE.iqm ...

For each file: counts; the vertex arrays (type, format, size); meshes
(name, material, vertex and triangle counts); joints (name, parent,
bind transform); poses (parent, mask, offsets, scales); animations;
the raw 16-bit frame values; every frame's decoded channels; every
frame's bounds; the triangles as a sorted list of corner keys (each
corner: position, texture coordinate, normal, blend joint:weight pairs);
the adjacency over that sorted list; and every vertex with its tangent
(null for a NaN component: the reference normalises a zero vector where a
vertex's texture directions run along its normal) and its skinned
position at every frame, in the file's vertex order; the triangles and
adjacency as stored, in order; every vertex array's values as stored (as the engines skin: weights / 255, matrices
T * R * S with the rotation normalised, world = parent * local,
skin = world(frame) * inverse(world(bind))).
"""

import json
import math
import struct
import sys

TYPES = {0: "position", 1: "texcoord", 2: "normal", 3: "tangent", 4: "blendindexes",
         5: "blendweights", 6: "color"}
FORMATS = {0: ("b", 1), 1: ("B", 1), 2: ("h", 2), 3: ("H", 2), 4: ("i", 4), 5: ("I", 4),
           6: ("e", 2), 7: ("f", 4), 8: ("d", 8)}


def cstr(text, off):
    end = text.index(b"\0", off)
    return text[off:end].decode("utf-8", "replace")


def read_iqm(data):
    assert data[:16] == b"INTERQUAKEMODEL\0"
    h = struct.unpack_from("<27I", data, 16)
    (version, filesize, flags, num_text, ofs_text, num_meshes, ofs_meshes, num_va, num_vertexes,
     ofs_va, num_triangles, ofs_triangles, ofs_adjacency, num_joints, ofs_joints, num_poses,
     ofs_poses, num_anims, ofs_anims, num_frames, num_framechannels, ofs_frames, ofs_bounds,
     num_comment, ofs_comment, num_ext, ofs_ext) = h
    assert version == 2
    text = data[ofs_text:ofs_text + num_text]
    m = {"text": text, "num_vertexes": num_vertexes, "num_frames": num_frames,
         "num_framechannels": num_framechannels}
    m["meshes"] = [struct.unpack_from("<6I", data, ofs_meshes + 24 * i) for i in range(num_meshes)]
    arrays = {}
    m["arrays"] = []
    for i in range(num_va):
        t, fl, fmt, size, off = struct.unpack_from("<5I", data, ofs_va + 20 * i)
        code, nbytes = FORMATS[fmt]
        vals = struct.unpack_from("<%d%s" % (size * num_vertexes, code), data, off)
        name = TYPES.get(t, cstr(text, t - 16) if t >= 16 else "reserved")
        arrays[name] = [vals[v * size:(v + 1) * size] for v in range(num_vertexes)]
        m["arrays"].append([name, fmt, size])
    m["va"] = arrays
    m["triangles"] = [struct.unpack_from("<3I", data, ofs_triangles + 12 * i) for i in range(num_triangles)]
    m["adjacency"] = ([struct.unpack_from("<3I", data, ofs_adjacency + 12 * i) for i in range(num_triangles)]
                      if ofs_adjacency else None)
    m["joints"] = []
    for i in range(num_joints):
        v = struct.unpack_from("<Ii10f", data, ofs_joints + 48 * i)
        m["joints"].append({"name": cstr(text, v[0]), "parent": v[1], "t": list(v[2:5]),
                            "r": list(v[5:9]), "s": list(v[9:12])})
    m["poses"] = []
    for i in range(num_poses):
        v = struct.unpack_from("<iI20f", data, ofs_poses + 88 * i)
        m["poses"].append({"parent": v[0], "mask": v[1], "offset": list(v[2:12]), "scale": list(v[12:22])})
    m["anims"] = []
    for i in range(num_anims):
        n, first, count, fps, fl = struct.unpack_from("<3IfI", data, ofs_anims + 20 * i)
        m["anims"].append({"name": cstr(text, n), "first_frame": first, "num_frames": count,
                           "framerate": fps, "loop": bool(fl & 1)})
    m["frames"] = list(struct.unpack_from("<%dH" % (num_frames * num_framechannels), data, ofs_frames))
    m["bounds"] = ([list(struct.unpack_from("<8f", data, ofs_bounds + 32 * i)) for i in range(num_frames)]
                   if ofs_bounds else None)
    m["comment"] = data[ofs_comment:ofs_comment + num_comment].rstrip(b"\0").decode("utf-8", "replace")
    return m


def decode_frames(m):
    out = []
    nc = m["num_framechannels"]
    for f in range(m["num_frames"]):
        vals = iter(m["frames"][f * nc:(f + 1) * nc])
        frame = []
        for p in m["poses"]:
            ch = []
            for k in range(10):
                c = p["offset"][k]
                if p["mask"] & (1 << k):
                    c += next(vals) * p["scale"][k]
                ch.append(c)
            frame.append(ch)
        out.append(frame)
    return out


# 4x4 matrices as row lists
def mat(t, r, s):
    x, y, z, w = r
    n = math.sqrt(x * x + y * y + z * z + w * w)
    if n > 0:
        x, y, z, w = x / n, y / n, z / n, w / n
    rot = [[1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)],
           [2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)],
           [2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)]]
    return [[rot[i][0] * s[0], rot[i][1] * s[1], rot[i][2] * s[2], t[i]] for i in range(3)] + [[0, 0, 0, 1]]


def mul(a, b):
    return [[sum(a[i][k] * b[k][j] for k in range(4)) for j in range(4)] for i in range(4)]


def inverse(a):
    # Gauss-Jordan
    n = 4
    m = [row[:] + [1.0 if i == j else 0.0 for j in range(n)] for i, row in enumerate(a)]
    for c in range(n):
        p = max(range(c, n), key=lambda r: abs(m[r][c]))
        m[c], m[p] = m[p], m[c]
        d = m[c][c]
        m[c] = [x / d for x in m[c]]
        for r in range(n):
            if r != c:
                f = m[r][c]
                m[r] = [x - f * y for x, y in zip(m[r], m[c])]
    return [row[n:] for row in m]


def worlds(locals_, parents):
    out = []
    for i, l in enumerate(locals_):
        p = parents[i]
        out.append(mul(out[p], l) if 0 <= p < i else l)
    return out


def r4(x):
    return "%.4f" % (x + 0.0)


def corner_key(m, v):
    va = m["va"]
    parts = []
    for name in ("position", "texcoord", "normal"):
        if name in va:
            parts.append(",".join(r4(c) for c in va[name][v]))
    if "blendindexes" in va and "blendweights" in va:
        pairs = sorted((j, w) for j, w in zip(va["blendindexes"][v], va["blendweights"][v]) if w > 0)
        parts.append(",".join("%d:%d" % p for p in pairs))
    return "|".join(parts)


def canonical(keys):
    """The rotation of a triangle's corner keys starting at the least one."""
    r = min(range(3), key=lambda k: keys[k])
    return r, [keys[(r + k) % 3] for k in range(3)]


def facts(m):
    frames = decode_frames(m)
    bind = worlds([mat(j["t"], j["r"], j["s"]) for j in m["joints"]], [j["parent"] for j in m["joints"]])
    inv_bind = [inverse(b) for b in bind]
    va = m["va"]
    skinned = []  # per vertex, per frame
    if "position" in va and "blendindexes" in va and m["joints"]:
        per_frame = []
        for fr in frames:
            w = worlds([mat(c[0:3], c[3:7], c[7:10]) for c in fr], [p["parent"] for p in m["poses"]])
            per_frame.append([mul(w[j], inv_bind[j]) for j in range(len(m["joints"]))])
        for v in range(m["num_vertexes"]):
            p = list(va["position"][v][:3]) + [1.0]
            ix, wt = va["blendindexes"][v], va["blendweights"][v]
            row = []
            for sk in per_frame:
                out = [0.0, 0.0, 0.0]
                for j, wb in zip(ix, wt):
                    if wb > 0:
                        for i in range(3):
                            out[i] += wb / 255.0 * sum(sk[j][i][k] * p[k] for k in range(4))
                row.append([round(c, 6) for c in out])
            skinned.append(row)
    tris = []
    for t in m["triangles"]:
        r, keys = canonical([corner_key(m, v) for v in t])
        tris.append((keys, r))
    order = sorted(range(len(tris)), key=lambda i: tris[i][0])
    rank = {i: n for n, i in enumerate(order)}
    adjacency = None
    if m["adjacency"] is not None:
        adjacency = []
        for i in order:
            r = tris[i][1]
            adj = m["adjacency"][i]
            adjacency.append([rank[adj[(r + k) % 3]] if adj[(r + k) % 3] != 0xFFFFFFFF else -1 for k in range(3)])
    text = m["text"]
    return {
        "vertexes": m["num_vertexes"],
        "framechannels": m["num_framechannels"],
        "arrays": m["arrays"],
        "meshes": [{"name": cstr(text, a), "material": cstr(text, b), "vertexes": nv, "triangles": nt}
                   for (a, b, fv, nv, ft, nt) in m["meshes"]],
        "joints": m["joints"],
        "poses": m["poses"],
        "anims": m["anims"],
        "frame_values": m["frames"],
        "frames": frames,
        "bounds": m["bounds"],
        "triangles": [tris[i][0] for i in order],
        "adjacency": adjacency,
        "vertices": [{"key": corner_key(m, v), "skinned": skinned[v] if skinned else [],
                      "tangent": [None if math.isnan(c) else round(c, 6) for c in va["tangent"][v]]
                      if "tangent" in va else []}
                     for v in range(m["num_vertexes"])],
        "comment": m["comment"],
        "triangle_order": [list(t) for t in m["triangles"]],
        "array_values": {name: [None if isinstance(c, float) and math.isnan(c) else c for v in vals for c in v]
                         for name, vals in va.items()},
        "adjacency_as_stored": [[-1 if n == 0xFFFFFFFF else n for n in a] for a in m["adjacency"]]
        if m["adjacency"] is not None else None,
    }


def main():
    out = {}
    for arg in sys.argv[2:]:
        name, path = arg.split("=", 1)
        with open(path, "rb") as f:
            out[name] = facts(read_iqm(f.read()))
    with open(sys.argv[1], "w") as f:
        json.dump(out, f, separators=(",", ":"))
        f.write("\n")


if __name__ == "__main__":
    main()
