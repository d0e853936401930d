"""Quake III MD3 in the Python package: a model from Debian's OpenArena
packages (never committed; taken out of its pk3 here) loads, and its
frames as NumPy arrays are the file's int16 / 64 positions and frame names,
read here with ``struct`` (the MD3 layout of ioquake3's qfiles.h)."""

import os
import pathlib
import struct
import zipfile

import numpy as np
import pytest

import retromodel

BASEOA = pathlib.Path(os.environ.get("RETROMODEL_OPENARENA", "/usr/share/games/openarena/baseoa"))


@pytest.fixture(scope="module")
def upper(tmp_path_factory):
    pak = BASEOA / "pak0.pk3"
    if not pak.is_file():
        if os.environ.get("CI"):
            pytest.fail(f"OpenArena's pak0.pk3 missing under {BASEOA} (apt-get install openarena-data)")
        pytest.skip("no OpenArena")
    path = tmp_path_factory.mktemp("md3") / "upper.md3"
    path.write_bytes(zipfile.ZipFile(pak).read("models/players/sarge/upper.md3"))
    return path


def parse_md3(data: bytes):
    """Frame names and each frame's positions (surfaces one after another),
    straight from the bytes."""
    ident, version = struct.unpack_from("<4si", data, 0)
    assert (ident, version) == (b"IDP3", 15)
    frames, _tags, surfaces, _skins, ofs_frames, _ofs_tags, ofs_surfaces, _end = struct.unpack_from("<8i", data, 76)
    names = [data[ofs_frames + 56 * k + 40 : ofs_frames + 56 * k + 56].split(b"\0")[0].decode("latin-1") for k in range(frames)]
    per_frame = [[] for _ in range(frames)]
    at = ofs_surfaces
    for _ in range(surfaces):
        (s_frames, _shaders, verts, _tris, _ot, _os, _ost, ofs_xyz, ofs_end) = struct.unpack_from("<9i", data, at + 72)
        assert s_frames == frames
        xyz = np.frombuffer(data, "<i2", 4 * verts * frames, at + ofs_xyz).reshape(frames, verts, 4)[:, :, :3]
        for k in range(frames):
            per_frame[k].append(xyz[k].astype(np.float32) / 64.0)
        at += ofs_end
    return names, [np.concatenate(p) for p in per_frame]


def normal_words(data: bytes):
    """Each frame's normal words (surfaces one after another)."""
    frames, _tags, surfaces = struct.unpack_from("<3i", data, 76)
    (ofs_surfaces,) = struct.unpack_from("<i", data, 100)
    per_frame = [[] for _ in range(frames)]
    at = ofs_surfaces
    for _ in range(surfaces):
        (_f, _shaders, verts, _tris, _ot, _os, _ost, ofs_xyz, ofs_end) = struct.unpack_from("<9i", data, at + 72)
        words = np.frombuffer(data, "<u2", 4 * verts * frames, at + ofs_xyz).reshape(frames, verts, 4)[:, :, 3]
        for k in range(frames):
            per_frame[k].append(words[k].astype(np.int64))
        at += ofs_end
    return np.stack([np.concatenate(p) for p in per_frame])


def test_md3_frames_are_the_files_int16_over_64(upper):
    data = upper.read_bytes()
    names, positions = parse_md3(data)
    model = retromodel.load(upper)
    assert model.format == "md3"
    assert model.frame_count == len(names) > 1
    assert model.frame_names == names
    assert model.vertex_count == positions[0].shape[0]
    for k in (0, len(names) // 2, len(names) - 1):
        np.testing.assert_array_equal(model.frame_positions(k), positions[k])
    every = model.all_positions()
    assert every.shape == (len(names), positions[0].shape[0], 3)
    np.testing.assert_array_equal(every[-1], positions[-1])
    # Normals as ioquake3 decodes them (tr_surface.c, LerpMeshVertexes):
    # the high byte the latitude, the low the longitude, each times 4 an
    # entry of its 1024-entry table of sin(i * 360 / 1023 degrees), the
    # entry 256 further on standing for the cosine.
    table = np.sin(np.arange(1024) * 2.0 * np.pi / 1023.0)
    words = normal_words(data)
    lat, lng = (words >> 8) * 4, (words & 0xFF) * 4
    want = np.stack(
        [table[(lat + 256) & 1023] * table[lng], table[lat] * table[lng], table[(lng + 256) & 1023]], axis=-1
    )
    np.testing.assert_allclose(model.all_normals(), want, atol=1e-6)
    with pytest.raises(IndexError):
        model.frame_positions(len(names))
    # The glb has one morph target per frame.
    assert model.to_glb()[:4] == b"glTF"
