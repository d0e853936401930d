#!/usr/bin/env python3
"""Writes the hand-made IQM cases iqm_run.sh checks into the folder given, each
made byte by byte from iqm.txt (version 2): one mesh, position, texcoord and
normal float arrays, ubyte blend arrays, a chain of joints, one pose a joint
(one frame channel each), frames, an animation and bounds; each case one
ioquake3 limit met or passed:
  python3 tools/engine_loaders/make_iqm_cases.py OUT && bash tools/engine_loaders/iqm_run.sh IOQ3_GIT OUT/*.iqm
"""
import pathlib
import struct
import sys

BYTE, UBYTE, HALF, INT, FLOAT = 0, 1, 6, 4, 7
POS, TEX, NRM, TAN, BIDX, BWGT, COLOR, CUSTOM = 0, 1, 2, 3, 4, 5, 6, 0x10
PACK = {BYTE: "b", UBYTE: "B", INT: "i", FLOAT: "f", HALF: "e"}


def array_data(kind, fmt, size, verts):
    def value(v, c):
        if kind in (BIDX, BWGT):  # joint 0, weight 1
            return (255 if fmt == UBYTE else 1) if kind == BWGT and c == 0 else 0
        return {POS: [v, v % 7, v % 3, 1], NRM: [0, 0, 1, 0]}.get(kind, [0, 0, 0, 1, 0])[c]

    return b"".join(struct.pack("<" + PACK[fmt], value(v, c)) for v in range(verts) for c in range(size))


def build(verts=3, tris=1, joints=2, poses=None, arrays=None, drop=(), tri=None,
          filesize=None, pad=0, frames_at=None):
    poses = joints if poses is None else poses
    frames = 2 if poses else 0
    if arrays is None:
        arrays = [(POS, FLOAT, 3), (TEX, FLOAT, 2), (NRM, FLOAT, 3)]
        arrays += [(BIDX, UBYTE, 4), (BWGT, UBYTE, 4)] if joints else []
    arrays = [a for a in arrays if a[0] not in drop]
    text = b"\0mesh\0mat.tga\0bone\0idle\0\0\0\0"
    body = bytearray()
    h = {}

    def put(name, data):
        h[name] = 124 + len(body)
        body.extend(data + b"\0" * (-len(data) % 4))

    put("text", text)
    put("meshes", struct.pack("<6I", 1, 6, 0, verts, 0, tris))
    starts = [124 + len(body) + 20 * len(arrays)]
    datas = [array_data(k, f, s, verts) for k, f, s in arrays]
    for d in datas:
        starts.append(starts[-1] + len(d) + (-len(d) % 4))
    put("vertexarrays", b"".join(struct.pack("<5I", k, 0, f, s, o) for (k, f, s), o in zip(arrays, starts)))
    for d in datas:
        put("_", d)
    t = [(3 * i % verts, (3 * i + 1) % verts, (3 * i + 2) % verts) for i in range(tris)]
    if tri is not None:
        t[0] = (0, 1, tri)
    put("triangles", b"".join(struct.pack("<3I", *x) for x in t))
    if joints:
        put("joints", b"".join(struct.pack("<Ii10f", 14, j - 1, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1)
                               for j in range(joints)))
    if poses:
        put("poses", b"".join(struct.pack("<iI20f", j - 1, 1, *([0] * 6 + [1] * 4), *([1] + [0] * 9))
                              for j in range(poses)))
        put("anims", struct.pack("<3IfI", 19, 0, frames, 24.0, 1))
        put("frames", struct.pack(f"<{frames * poses}H", *range(frames * poses)))
        put("bounds", b"".join(struct.pack("<8f", 0, 0, 0, verts, 6, 2, verts, verts) for _ in range(frames)))
    body.extend(b"\0" * pad)
    size = 124 + len(body)
    g = h.get
    ofs_frames = g("frames", 0) if frames_at is None else frames_at
    head = struct.pack("<16s27I", b"INTERQUAKEMODEL\0", 2, size if filesize is None else filesize, 0,
                       len(text), g("text"), 1, g("meshes"), len(arrays), verts, g("vertexarrays"),
                       tris, g("triangles"), 0, joints, g("joints", 0), poses, g("poses", 0),
                       1 if poses else 0, g("anims", 0), frames, poses, ofs_frames, g("bounds", 0),
                       0, 0, 0, 0)
    return head + bytes(body)


base_len = len(build())
cases = {
    "base": build(),
    "verts_999": build(verts=999, tris=333),
    "verts_1000": build(verts=1000, tris=334),
    "tris_1999": build(tris=1999),
    "tris_2000": build(tris=2000),
    "joints_128": build(joints=128),
    "joints_129": build(joints=129),
    "joints_0": build(joints=0),
    "poses_0": build(poses=0),
    "poses_1_of_2": build(poses=1),
    "poses_3_of_2": build(poses=3),
    "no_position": build(drop=(POS,)),
    "no_normal": build(drop=(NRM,)),
    "no_texcoord": build(drop=(TEX,)),
    "no_blendindexes": build(drop=(BIDX,)),
    "no_blendweights": build(drop=(BWGT,)),
    "no_blend_no_joints": build(joints=0, drop=(BIDX, BWGT)),
    "filesize_eq_file": build(filesize=base_len),
    "filesize_past_file": build(filesize=base_len + 4),
    "filesize_short_of_bounds": build(filesize=base_len - 4),
    "tail_past_filesize": build(pad=4, filesize=base_len),
    "filesize_16mib": build(pad=(16 << 20) - base_len),
    "filesize_16mib_plus4": build(pad=(16 << 20) - base_len + 4),
    "tri_index_eq_verts": build(tri=3),
    "tri_index_verts_plus1": build(tri=4),
    "frames_past_file": build(frames_at=base_len - 4),
    "blend_int_float": build(arrays=[(POS, FLOAT, 3), (TEX, FLOAT, 2), (NRM, FLOAT, 3), (BIDX, INT, 4), (BWGT, FLOAT, 4)]),
    "color_ubyte4_tangent4_custom": build(arrays=[(POS, FLOAT, 3), (TEX, FLOAT, 2), (NRM, FLOAT, 3), (BIDX, UBYTE, 4),
                                                  (BWGT, UBYTE, 4), (COLOR, UBYTE, 4), (TAN, FLOAT, 4), (CUSTOM, FLOAT, 1)]),
    "position_size4": build(arrays=[(POS, FLOAT, 4), (TEX, FLOAT, 2), (NRM, FLOAT, 3), (BIDX, UBYTE, 4), (BWGT, UBYTE, 4)]),
    "normal_ubyte": build(arrays=[(POS, FLOAT, 3), (TEX, FLOAT, 2), (NRM, UBYTE, 3), (BIDX, UBYTE, 4), (BWGT, UBYTE, 4)]),
    "texcoord_half": build(arrays=[(POS, FLOAT, 3), (TEX, HALF, 2), (NRM, FLOAT, 3), (BIDX, UBYTE, 4), (BWGT, UBYTE, 4)]),
    "blendindexes_float": build(arrays=[(POS, FLOAT, 3), (TEX, FLOAT, 2), (NRM, FLOAT, 3), (BIDX, FLOAT, 4), (BWGT, UBYTE, 4)]),
    "color_float": build(arrays=[(POS, FLOAT, 3), (TEX, FLOAT, 2), (NRM, FLOAT, 3), (BIDX, UBYTE, 4), (BWGT, UBYTE, 4), (COLOR, FLOAT, 4)]),
    "custom_size5": build(arrays=[(POS, FLOAT, 3), (TEX, FLOAT, 2), (NRM, FLOAT, 3), (BIDX, UBYTE, 4), (BWGT, UBYTE, 4), (CUSTOM, FLOAT, 5)]),
}
out = pathlib.Path(sys.argv[1])
out.mkdir(parents=True, exist_ok=True)
for name, data in cases.items():
    (out / f"{name}.iqm").write_bytes(data)
print(f"{len(cases)} files in {out}")
