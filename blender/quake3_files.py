"""Reading a Quake III player's files in tests, from their bytes and text
alone (no retromodel code): animation.cfg's lines by hand, an MD3's frames,
tags and surfaces at ioquake3's qfiles.h offsets. Shared by
blender/test_md3_player.py and crates/retromodel-py/tests/test_md3_player_write.py."""

import struct


def cfg_lines(text):
    """animation.cfg's animation lines: [first, count, looping, fps] each."""
    out = []
    for line in text.splitlines():
        t = line.split("//")[0].split()
        if len(t) >= 4 and t[0][0].isdigit():
            out.append([float(x) for x in t[:4]])
    return out


def md3(data):
    """An MD3's frame count, every frame's tag origins by name, and every
    surface's name and per-frame vertex positions (1/64 units)."""
    frames, tags, surfaces = struct.unpack_from("<3i", data, 76)
    ofs_tags, ofs_surfaces = struct.unpack_from("<2i", data, 96)
    tag_rows = []
    for f in range(frames):
        row = {}
        for t in range(tags):
            at = ofs_tags + (f * tags + t) * 112
            row[data[at : at + 64].split(b"\0")[0].decode()] = struct.unpack_from("<3f", data, at + 64)
        tag_rows.append(row)
    surf = []
    at = ofs_surfaces
    for _ in range(surfaces):
        nf, _nsh, nv, _nt = struct.unpack_from("<4i", data, at + 72)
        o_xyz, o_end = struct.unpack_from("<i", data, at + 100)[0], struct.unpack_from("<i", data, at + 104)[0]
        xyz = [
            [struct.unpack_from("<3h", data, at + o_xyz + (f * nv + v) * 8) for v in range(nv)]
            for f in range(nf)
        ]
        surf.append({"name": data[at + 4 : at + 68].split(b"\0")[0].decode(), "xyz": xyz})
        at += o_end
    return {"frames": frames, "tags": tag_rows, "surfaces": surf}


def lands_in_files(cfg, frames):
    """The lines of `cfg` that play outside their files, by the game's
    arithmetic (LEGS_ lines, 13..25, less first(LEGS_WALKCR) -
    first(TORSO_GESTURE)); `frames`: lower.md3's and upper.md3's counts."""
    skip = cfg[13][0] - cfg[6][0]
    bad = []
    for i, (first, count, _looping, _fps) in enumerate(cfg):
        legs = 13 <= i < 25
        start = first - skip if legs else first
        n = frames[0] if legs or i < 6 else frames[1]
        if not (0 <= start and start + count <= n):
            bad.append((i, cfg[i], n))
    return bad
