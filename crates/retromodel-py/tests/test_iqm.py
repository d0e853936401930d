"""Inter-Quake Models in Python (issue 38, item 8): ``load`` gives every
frame's skinned positions as NumPy arrays, checked against this test's own
NumPy evaluation of the file's bytes (the layout of lsalzman/iqm's
``iqm.txt``: poses' channels, ``T·R·S`` chained to the parents, times the
inverse bind, blended by up to four byte weights), and ``compile_iqm``
gives the command line's bytes."""

import struct

import numpy as np

import retromodel


def u32(data, at):
    return struct.unpack_from("<I", data, at)[0]


def header(data, k):
    return u32(data, 16 + 4 * k)


def quat_matrix(q):
    x, y, z, w = q / np.linalg.norm(q)
    return np.array(
        [
            [1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)],
            [2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)],
            [2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)],
        ]
    )


def trs(c):
    m = np.eye(4)
    m[:3, :3] = quat_matrix(np.array(c[3:7], dtype=np.float64)) * np.array(c[7:10])
    m[:3, 3] = c[0:3]
    return m


def world(locals_, parents):
    out = []
    for i, m in enumerate(locals_):
        out.append(out[parents[i]] @ m if 0 <= parents[i] < i else m)
    return out


def evaluate(data, frame):
    """Frame ``frame``'s skinned positions, from the bytes alone."""
    num_joints, ofs_joints = header(data, 13), header(data, 14)
    num_poses, ofs_poses = header(data, 15), header(data, 16)
    channels, ofs_frames = header(data, 20), header(data, 21)
    nv, num_arrays, ofs_arrays = header(data, 8), header(data, 7), header(data, 9)
    joints = [struct.unpack_from("<Ii10f", data, ofs_joints + 48 * j) for j in range(num_joints)]
    bind = world([trs(j[2:]) for j in joints], [j[1] for j in joints])
    at = ofs_frames + 2 * channels * frame
    locals_, parents = [], []
    for p in range(num_poses):
        parent, mask, *rest = struct.unpack_from("<iI20f", data, ofs_poses + 88 * p)
        offset, scale = rest[:10], rest[10:]
        c = list(offset)
        for k in range(10):
            if mask & (1 << k):
                c[k] += struct.unpack_from("<H", data, at)[0] * scale[k]
                at += 2
        locals_.append(trs(c))
        parents.append(parent)
    skin = [w @ np.linalg.inv(b) for w, b in zip(world(locals_, parents), bind)]
    arrays = {}
    for a in range(num_arrays):
        kind, _, fmt, size, offset = struct.unpack_from("<5I", data, ofs_arrays + 20 * a)
        dtype = {1: np.uint8, 7: np.float32}[fmt]
        arrays[kind] = np.frombuffer(data, dtype=dtype, count=nv * size, offset=offset).reshape(nv, size)
    pos = np.c_[arrays[0].astype(np.float64), np.ones(nv)]
    out = np.zeros((nv, 3))
    for k in range(4):
        w = arrays[5][:, k] / 255.0
        for j in np.unique(arrays[4][:, k]):
            sel = (arrays[4][:, k] == j) & (w > 0)
            out[sel] += (pos[sel] @ skin[j].T)[:, :3] * w[sel, None]
    return out


def test_every_frame_skins_as_an_independent_evaluation(corpus):
    path = corpus / "iqm" / "raylib_guy.iqm"
    data = path.read_bytes()
    model = retromodel.load(str(path))
    assert model.format == "iqm"
    assert model.frame_count == header(data, 19) == 122
    assert model.vertex_count == header(data, 8) == 240
    assert model.joint_count == 14
    assert [a[0] for a in model.animations()] == ["jump", "dance"]
    frames = model.all_positions()
    assert frames.shape == (122, 240, 3) and frames.dtype == np.float32
    size = np.abs(frames).max()
    for f in (0, 30, 61, 121):
        expected = evaluate(data, f)
        assert np.abs(frames[f] - expected).max() < 1e-4 * size, f
        assert np.array_equal(model.frame_positions(f), frames[f])


def test_compile_iqm_gives_the_command_lines_bytes(corpus, cli, tmp_path):
    glb = corpus / "gltf" / "blender_walker.glb"
    out = retromodel.compile_iqm(str(glb), name="walker.iqm")
    cli("convert", glb, tmp_path / "walker.iqm")
    assert out.iqm == (tmp_path / "walker.iqm").read_bytes()
    assert out.iqm.startswith(b"INTERQUAKEMODEL\0")
    report = out.report
    assert [a["name"] for a in report["animations"]] == ["idle", "walk"]
    assert report["largest_error"] <= 1e-3 * report["extent"]
    # Read back: two animations, the frames the report counts.
    back = retromodel.load(out.iqm, "walker.iqm")
    assert back.frame_count == sum(a["frames"] for a in report["animations"])


def test_vertex_animation_is_refused(corpus):
    import pytest

    with pytest.raises(retromodel.Error, match="morph targets"):
        retromodel.compile_iqm(str(corpus / "md2" / "assimpdeb_sydney.md2"))
