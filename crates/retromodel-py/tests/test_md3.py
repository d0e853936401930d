"""compile_md3: the MD3's header and surfaces read here with struct
(ioquake3's qfiles.h layout), and the same bytes as the command line's."""

import struct

import pytest

import retromodel


def md3_header(data):
    ident, version = struct.unpack_from("<4si", data, 0)
    flags, frames, tags, surfaces, skins = struct.unpack_from("<5i", data, 72)
    ofs_frames, ofs_tags, ofs_surfaces, ofs_end = struct.unpack_from("<4i", data, 92)
    return {
        "ident": ident,
        "version": version,
        "frames": frames,
        "tags": tags,
        "surfaces": surfaces,
        "ofs_surfaces": ofs_surfaces,
        "ofs_end": ofs_end,
    }


def test_compile_md3_writes_an_md3_with_the_reported_counts(corpus):
    glb = corpus / "gltf" / "blender_walker.glb"
    out = retromodel.compile_md3(glb, fps=10.0, name="walker.md3")
    h = md3_header(out.md3)
    assert (h["ident"], h["version"]) == (b"IDP3", 15)
    assert h["ofs_end"] == len(out.md3)
    assert h["frames"] == out.report["frames"]
    assert h["surfaces"] == len(out.report["surfaces"])
    # The first surface's vertex count, as its header stores it.
    at = h["ofs_surfaces"]
    assert out.md3[at : at + 4] == b"IDP3"
    (num_verts,) = struct.unpack_from("<i", out.md3, at + 68 + 12)
    assert num_verts == out.report["surfaces"][0]["vertices"]
    assert out.report["max_error"] <= 1.0 / 128.0
    anims = {a["name"]: a for a in out.report["animations"]}
    assert set(anims) == {"idle", "walk"}
    assert all(a["fps"] == 10.0 for a in anims.values())
    back = retromodel.load(out.md3)
    assert back.format == "md3"
    assert not [p for p in back.validate() if p.severity == "error"]


def test_compile_md3_names_its_keywords(corpus):
    glb = corpus / "gltf" / "blender_walker.glb"
    with pytest.raises(retromodel.Error, match="scale and fit_height"):
        retromodel.compile_md3(glb, scale=2.0, fit_height=56.0)
    with pytest.raises(retromodel.Error, match="MD3"):
        retromodel.compile_md3(glb, engine="quake2")
    with pytest.raises(retromodel.Error, match="it has idle, walk"):
        retromodel.compile_md3(glb, anims=["run"])


def test_compile_md3_is_the_command_lines(corpus, cli, tmp_path):
    glb = corpus / "gltf" / "blender_walker.glb"
    out = retromodel.compile_md3(glb, fps=20.0, fit_height=56.0, name="walker.md3")
    cli("convert", glb, tmp_path / "walker.md3", "--fps", "20", "--fit-height", "56")
    assert out.md3 == (tmp_path / "walker.md3").read_bytes()
