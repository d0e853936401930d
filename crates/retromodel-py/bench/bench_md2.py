"""retromodel.load + every MD2 frame as one NumPy array, against vgio (a
pure-Python MD2 reader on PyPI) reading the same file, in one run.

    python bench/bench_md2.py [FILE.md2] [--repeat N]

vgio is timed twice: reading the file (Md2.open), and reading it and
decoding every frame to one float32 array as a vgio user would
(byte * scale + translate per vertex). Best of N runs each.
"""

import argparse
import os
import pathlib
import time

import numpy as np
import retromodel
from vgio.quake2 import md2 as vgio_md2

REPO = pathlib.Path(__file__).resolve().parents[3]
DEFAULT = pathlib.Path(os.environ.get("RETROMODEL_CORPUS", REPO.parent / "shared" / "corpus")) / "md2/assimpdeb_faerie.md2"


def ours(path):
    return retromodel.load(path).all_positions()


def vgio_read(path):
    with vgio_md2.Md2.open(path) as m:
        return m


def vgio_frames(path):
    with vgio_md2.Md2.open(path) as m:
        out = np.empty((len(m.frames), len(m.frames[0].vertexes), 3), dtype=np.float32)
        for k, f in enumerate(m.frames):
            packed = np.array([(v.x, v.y, v.z) for v in f.vertexes], dtype=np.float32)
            out[k] = packed * np.array(f.scale, dtype=np.float32) + np.array(f.translate, dtype=np.float32)
        return out


def best(fn, path, repeat):
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn(path)
        times.append(time.perf_counter() - t)
    return min(times)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("file", nargs="?", default=str(DEFAULT))
    ap.add_argument("--repeat", type=int, default=20)
    args = ap.parse_args()
    a, b = ours(args.file), vgio_frames(args.file)
    # The same frames, so the comparison is fair.
    np.testing.assert_allclose(a, b, rtol=0, atol=1e-4)
    t_ours = best(ours, args.file, args.repeat)
    t_read = best(vgio_read, args.file, args.repeat)
    t_frames = best(vgio_frames, args.file, args.repeat)
    print(f"file: {args.file} ({os.path.getsize(args.file)} bytes, {a.shape[0]} frames x {a.shape[1]} vertices)")
    print(f"retromodel.load + all_positions: {t_ours * 1e3:9.3f} ms")
    print(f"vgio Md2.open:                   {t_read * 1e3:9.3f} ms  ({t_read / t_ours:6.1f}x slower)")
    print(f"vgio Md2.open + frames to numpy: {t_frames * 1e3:9.3f} ms  ({t_frames / t_ours:6.1f}x slower)")


if __name__ == "__main__":
    main()
