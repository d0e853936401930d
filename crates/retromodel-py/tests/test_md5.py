"""compile_md5: the Quake II rerelease's MD5 replacement, frame for frame
with compile_md2 on the same options. The facts come from the files'
bytes (the MD2 header, the md5 text, the glb's JSON), read here."""

import json
import re
import struct

import pytest

import retromodel


def glb_json(path):
    data = path.read_bytes()
    (length,) = struct.unpack_from("<I", data, 12)
    return json.loads(data[20 : 20 + length])


def md2_frame_count(md2: bytes) -> int:
    return struct.unpack_from("<i", md2, 40)[0]


def md5_number(text: str, key: str) -> int:
    return int(re.search(rf"\b{key}\s+(\d+)", text).group(1))


@pytest.mark.parametrize("player", [False, True])
def test_frame_k_of_the_md5anim_is_frame_k_of_the_md2(corpus, player):
    walker = corpus / "gltf" / "blender_walker.glb"
    md2 = retromodel.compile_md2(walker, player=player, fit_height=56.0)
    md5 = retromodel.compile_md5(walker, player=player, fit_height=56.0, name="tris.md5mesh")
    assert sorted(md5.files) == ["tris.md5anim"], md5.files.keys()
    anim = md5.files["tris.md5anim"].decode()
    frames = md2_frame_count(md2.md2)
    assert md5_number(anim, "numFrames") == frames
    if player:
        assert frames == 198  # the Quake II player table
    assert len(re.findall(r"^\s*frame \d+ \{", anim, re.M)) == frames
    # Joints: the glb skin's, each named as the glb names it.
    doc = glb_json(walker)
    joints = [doc["nodes"][j].get("name") for j in doc["skins"][0]["joints"]]
    mesh = md5.md5mesh.decode()
    assert md5_number(mesh, "numJoints") == len(joints)
    names = re.findall(r'^\s*"([^"]*)"\s+-?\d+\s+\(', mesh, re.M)
    assert sorted(names) == sorted(joints)


def test_the_command_line_writes_the_same_files(corpus, cli, tmp_path):
    walker = corpus / "gltf" / "blender_walker.glb"
    out = tmp_path / "tris.md2"
    cli("convert", walker, out, "--player", "--rerelease")
    md5 = retromodel.compile_md5(walker, player=True, name="tris.md5mesh")
    # The same mesh but for the shader: beside an MD2 it is named after
    # the MD2's skin (the rerelease draws the MD2's skins).
    written = (tmp_path / "md5" / "tris.md5mesh").read_text()
    assert re.findall(r'shader "([^"]*)"', written) == ["tris.png"], written[:400]
    unshaded = re.compile(r'shader "[^"]*"')
    assert unshaded.sub("", written) == unshaded.sub("", md5.md5mesh.decode())
    assert (tmp_path / "md5" / "tris.md5anim").read_bytes() == md5.files["tris.md5anim"]
    assert md2_frame_count(out.read_bytes()) == md5_number(md5.files["tris.md5anim"].decode(), "numFrames")


def test_vertex_animation_cannot_be_an_md5(corpus):
    with pytest.raises(retromodel.Error) as e:
        retromodel.compile_md5(corpus / "md2" / "assimpdeb_faerie.md2")
    message = str(e.value)
    assert "::" not in message and "--" not in message, message


def test_bad_keywords_are_named(corpus):
    walker = corpus / "gltf" / "blender_walker.glb"
    with pytest.raises(retromodel.Error, match="fps"):
        retromodel.compile_md5(walker, fps=0.0)
    with pytest.raises(retromodel.Error, match="scale and fit_height"):
        retromodel.compile_md5(walker, scale=2.0, fit_height=56.0)
