#!/usr/bin/env python3
"""Writes the hand-made MD2 cases run.sh checks, each the repository's sample
(examples/models/sample.md2, GL commands last) with one piece of damage, into
the folder given:
  python3 tools/engine_loaders/make_cases.py OUT && bash tools/engine_loaders/run.sh ... OUT/*.md2
"""
import pathlib
import struct
import sys

here = pathlib.Path(__file__).resolve().parent
out = pathlib.Path(sys.argv[1])
out.mkdir(parents=True, exist_ok=True)
d = (here / "../../examples/models/sample.md2").read_bytes()


def field(b, i):
    return struct.unpack_from("<i", b, 4 * i)[0]


def setf(b, i, v):
    b = bytearray(b)
    struct.pack_into("<i", b, 4 * i, v)
    return bytes(b)


# Word indices: 2 skin width, 8 num_tris, 10 num_frames, 11 ofs_skins, 12 ofs_st,
# 13 ofs_tris, 14 ofs_frames, 15 ofs_glcmds, 16 ofs_end.
assert field(d, 15) + 4 * field(d, 9) == len(d), "GL commands end the sample"
cases = {"base": d}
cut = d[:-8]
cases["gl_past_end"] = setf(cut, 16, len(cut))  # the last 2 GL words cut off
cases["end_past"] = setf(d, 16, len(d) + 100)
cases["tail"] = d + b"tail"
cases["frames_past"] = setf(d, 10, field(d, 10) + 50)
cases["skin0"] = setf(d, 2, 0)
cases["skins_at_0"] = setf(d, 11, 0)
bad = bytearray(d)
for i in range(field(d, 8)):
    struct.pack_into("<H", bad, field(d, 13) + 12 * i, 0xFFFF)
cases["bad_tris"] = bytes(bad)
# Triangles one byte later, frames kept 4-aligned (3 more bytes after them).
names = ["skins", "st", "tris", "frames", "gl"]
ofs = {n: field(d, 11 + i) for i, n in enumerate(names)}
t, tend = ofs["tris"], ofs["tris"] + 12 * field(d, 8)
odd = d[:t] + b"\0" + d[t:tend] + b"\0\0\0" + d[tend:]
for i, n in enumerate(names):
    o = ofs[n]
    odd = setf(odd, 11 + i, o + (1 if o >= t else 0) + (3 if o >= tend else 0))
cases["odd_tris"] = setf(odd, 16, len(odd))
for name, data in cases.items():
    (out / f"{name}.md2").write_bytes(data)
print(f"{len(cases)} files in {out}")
