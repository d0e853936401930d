"""compile_md3(player=True): a Quake III player from a glTF built here by
hand (nodes lower > tag_torso > upper > tag_head > head, an animation "run"
raising tag_torso), its files read back with struct at ioquake3's qfiles.h
offsets and its animation.cfg read by hand, with the frames the game plays
worked out as CG_ParseAnimationFile does."""

import base64
import json
import pathlib
import struct
import sys

import pytest

import retromodel

# The test readers shared with the Blender tests (no retromodel code).
sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[3] / "blender"))
from quake3_files import cfg_lines, lands_in_files, md3  # noqa: E402

# glTF (Y up) to Quake (Z up): (x, y, z) -> (z, x, y).
def quake(v):
    return (v[2], v[0], v[1])


def player_gltf(path):
    tri = lambda s: [0, 0, 0, s, 0, 0, 0, s, 0]
    positions = tri(10.0) + tri(4.0) + tri(2.0)
    indices = [0, 1, 2, 0, 0, 0]  # one triangle, padded to 4 bytes
    times = [0.0, 1.0]
    raise_torso = [0.0, 20.0, 0.0, 0.0, 22.0, 0.0]
    blob = (
        struct.pack("<27f", *positions)
        + struct.pack("<6H", *indices)
        + struct.pack("<2f", *times)
        + struct.pack("<6f", *raise_torso)
    )
    views = [
        {"buffer": 0, "byteOffset": 36 * k, "byteLength": 36} for k in range(3)
    ] + [
        {"buffer": 0, "byteOffset": 108, "byteLength": 6},
        {"buffer": 0, "byteOffset": 120, "byteLength": 8},
        {"buffer": 0, "byteOffset": 128, "byteLength": 24},
    ]
    accessors = [
        {"bufferView": k, "componentType": 5126, "count": 3, "type": "VEC3",
         "min": [0, 0, 0], "max": [s, s, 0]}
        for k, s in enumerate([10.0, 4.0, 2.0])
    ] + [
        {"bufferView": 3, "componentType": 5123, "count": 3, "type": "SCALAR"},
        {"bufferView": 4, "componentType": 5126, "count": 2, "type": "SCALAR",
         "min": [0.0], "max": [1.0]},
        {"bufferView": 5, "componentType": 5126, "count": 2, "type": "VEC3"},
    ]
    doc = {
        "asset": {"version": "2.0"},
        "scene": 0,
        "scenes": [{"nodes": [0]}],
        "nodes": [
            {"name": "lower", "mesh": 0, "children": [1]},
            {"name": "tag_torso", "translation": [0, 20, 0], "children": [2]},
            {"name": "upper", "mesh": 1, "children": [3, 5]},
            {"name": "tag_head", "translation": [0, 10, 0], "children": [4]},
            {"name": "head", "mesh": 2},
            {"name": "tag_weapon", "translation": [5, 0, 0]},
        ],
        "meshes": [
            {"name": name, "primitives": [{"attributes": {"POSITION": k}, "indices": 3}]}
            for k, name in enumerate(["l_legs", "u_torso", "h_head"])
        ],
        "animations": [
            {
                "name": "run",
                "samplers": [{"input": 4, "output": 5, "interpolation": "LINEAR"}],
                "channels": [{"sampler": 0, "target": {"node": 1, "path": "translation"}}],
            }
        ],
        "buffers": [
            {
                "byteLength": len(blob),
                "uri": "data:application/octet-stream;base64," + base64.b64encode(blob).decode(),
            }
        ],
        "bufferViews": views,
        "accessors": accessors,
    }
    path.write_text(json.dumps(doc))
    return path


def test_a_player_from_a_hand_made_gltf(tmp_path):
    out = retromodel.compile_md3(player_gltf(tmp_path / "hero.gltf"), player=True, sex="f", player_name="hero")
    assert set(out.files) == {
        "lower.md3", "upper.md3", "head.md3", "animation.cfg",
        "lower_default.skin", "upper_default.skin", "head_default.skin",
    }
    assert out.md3 == out.files["lower.md3"]
    cfg_text = out.files["animation.cfg"].decode()
    assert "sex f" in cfg_text.splitlines()
    cfg = cfg_lines(cfg_text)
    assert len(cfg) == 25
    lower, upper, head = (md3(out.files[n]) for n in ("lower.md3", "upper.md3", "head.md3"))
    # The game's arithmetic: every line inside its file.
    assert lands_in_files(cfg, (lower["frames"], upper["frames"])) == []
    skip = cfg[13][0] - cfg[6][0]
    # LEGS_RUN (line 15): "run", 1 s at 15 fps is 16 frames, looping; each
    # frame's tag_torso 20 + 2 k / 15 units up.
    first, count, looping, fps = cfg[15]
    assert (count, looping, fps) == (16, 16, 15)
    start = int(first - skip)
    for k in range(16):
        origin = lower["tags"][start + k]["tag_torso"]
        assert origin == pytest.approx(quake((0, 20 + 2 * k / 15, 0)), abs=1e-4)
    # The report says where LEGS_RUN's frames came from.
    lines = {l["line"]["name"]: l for l in out.report["lines"]}
    assert lines["LEGS_RUN"]["source"] == {"common_name": "run"}
    # The torso is stored at tag_torso, the head at tag_head: the same
    # triangle at their own origins (1/64 units), whatever the frame.
    expected = lambda s: sorted(tuple(round(c * 64) for c in quake(p)) for p in [(0, 0, 0), (s, 0, 0), (0, s, 0)])
    for f in range(upper["frames"]):
        assert sorted(upper["surfaces"][0]["xyz"][f]) == expected(4.0)
    assert sorted(head["surfaces"][0]["xyz"][0]) == expected(2.0)
    assert sorted(lower["surfaces"][0]["xyz"][0]) == expected(10.0)
    assert head["frames"] == 1
    # upper's tags where its nodes are, relative to it.
    assert upper["tags"][0]["tag_head"] == pytest.approx(quake((0, 10, 0)))
    assert upper["tags"][0]["tag_weapon"] == pytest.approx(quake((5, 0, 0)))
    # The skins list the tags (no textures here).
    assert out.files["upper_default.skin"].decode().split() == ["tag_head,", "tag_weapon,"]


def test_player_keywords_are_checked(tmp_path):
    src = player_gltf(tmp_path / "hero.gltf")
    with pytest.raises(retromodel.Error, match="player=True and anims"):
        retromodel.compile_md3(src, player=True, anims=["run"])
    with pytest.raises(retromodel.Error, match="sex applies with player=True"):
        retromodel.compile_md3(src, sex="m")
    with pytest.raises(retromodel.Error, match='sex "x"'):
        retromodel.compile_md3(src, player=True, sex="x")


def test_a_scene_without_the_parts_is_refused_naming_them(corpus):
    with pytest.raises(retromodel.Error, match='no node called "lower"'):
        retromodel.compile_md3(corpus / "gltf" / "blender_walker.glb", player=True)
