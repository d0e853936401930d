"""A Quake III player in the Python package: ``retromodel.load`` of a
player's folder (or of its lower/upper/head.md3) reads the files beside it,
as ``retromodel convert players/NAME/`` does. OpenArena's sarge is taken
out of Debian's openarena-data pk3 here (never committed). The facts are
checked against independent sources read here: the pk3's animation.cfg
parsed in this file, the skin files' names in the pk3, the glb's JSON, and
the tags' origins and axes unpacked with ``struct`` at the offsets of
ioquake3's qfiles.h (md3Header_t, md3Tag_t)."""

import json
import os
import pathlib
import struct
import zipfile

import numpy as np
import pytest

import retromodel

BASEOA = pathlib.Path(os.environ.get("RETROMODEL_OPENARENA", "/usr/share/games/openarena/baseoa"))
SARGE = "models/players/sarge/"


@pytest.fixture(scope="module")
def sarge(tmp_path_factory):
    """sarge's folder: the three parts, animation.cfg and the default and
    red skins (names as the pk3 spells them)."""
    pak = BASEOA / "pak0.pk3"
    if not pak.is_file():
        if os.environ.get("CI"):
            pytest.fail(f"OpenArena's pak0.pk3 missing under {BASEOA} (apt-get install openarena-data)")
        pytest.skip("no OpenArena")
    folder = tmp_path_factory.mktemp("players") / "sarge"
    folder.mkdir()
    with zipfile.ZipFile(pak) as z:
        for name in z.namelist():
            rest = name[len(SARGE) :]
            if not name.startswith(SARGE) or "/" in rest or not rest:
                continue
            if rest.endswith((".md3", ".cfg")) and "_" not in rest or rest.endswith(("_default.skin", "_red.skin")):
                (folder / rest).write_bytes(z.read(name))
    return folder


def cfg_animations(text: str):
    """animation.cfg's animations, as ioquake3's CG_ParseAnimationFile
    reads them: after the keywords, lines of four numbers (first frame,
    frame count, looping frames, fps), in the order of animNumber_t."""
    order = [
        "BOTH_DEATH1", "BOTH_DEAD1", "BOTH_DEATH2", "BOTH_DEAD2", "BOTH_DEATH3", "BOTH_DEAD3",
        "TORSO_GESTURE", "TORSO_ATTACK", "TORSO_ATTACK2", "TORSO_DROP", "TORSO_RAISE",
        "TORSO_STAND", "TORSO_STAND2",
        "LEGS_WALKCR", "LEGS_WALK", "LEGS_RUN", "LEGS_BACK", "LEGS_SWIM", "LEGS_JUMP", "LEGS_LAND",
        "LEGS_JUMPB", "LEGS_LANDB", "LEGS_IDLE", "LEGS_IDLECR", "LEGS_TURN",
        "TORSO_GETFLAG", "TORSO_GUARDBASE", "TORSO_PATROL", "TORSO_FOLLOWME", "TORSO_AFFIRMATIVE",
        "TORSO_NEGATIVE",
    ]  # fmt: skip
    rows = []
    for line in text.splitlines():
        words = line.split("//")[0].split()
        if len(words) >= 4 and all(w.lstrip("-").isdigit() for w in words[:4]):
            rows.append([int(w) for w in words[:4]])
    return [(order[k], *row) for k, row in enumerate(rows[: len(order)])]


def glb_document(glb: bytes):
    assert glb[:4] == b"glTF"
    (length,) = struct.unpack_from("<I", glb, 12)
    assert glb[16:20] == b"JSON"
    return json.loads(glb[20 : 20 + length])


def tag(data: bytes, name: str, frame: int = 0):
    """A tag's origin and axes (rows) at `frame`, from qfiles.h's layout:
    numFrames, numTags at 76, 80; ofsTags at 96; md3Tag_t is name[64],
    origin[3], axis[3][3]."""
    frames, tags = struct.unpack_from("<2i", data, 76)
    (ofs_tags,) = struct.unpack_from("<i", data, 96)
    for t in range(tags):
        at = ofs_tags + 112 * (frame * tags + t)
        if data[at : at + 64].split(b"\0")[0].decode("latin-1") == name:
            values = struct.unpack_from("<12f", data, at + 64)
            return np.array(values[:3]), np.array(values[3:]).reshape(3, 3)
    raise KeyError(name)


def quake_to_gltf(v):
    """Quake III's axes (X forward, Y left, Z up) to glTF's (Z forward, X
    left, Y up)."""
    return np.array([v[1], v[2], v[0]])


def node_matrix(node):
    """A glTF node's local matrix from its TRS (or matrix)."""
    if "matrix" in node:
        return np.array(node["matrix"], dtype=float).reshape(4, 4).T
    x, y, z, w = node.get("rotation", [0, 0, 0, 1])
    r = np.array(
        [
            [1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)],
            [2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)],
            [2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)],
        ]
    )
    m = np.eye(4)
    m[:3, :3] = r * np.array(node.get("scale", [1, 1, 1]))
    m[:3, 3] = node.get("translation", [0, 0, 0])
    return m


def world_of(document, name):
    nodes = document["nodes"]
    parent = {c: k for k, n in enumerate(nodes) for c in n.get("children", [])}
    index = next(k for k, n in enumerate(nodes) if n.get("name") == name)
    m = np.eye(4)
    while index is not None:
        m = node_matrix(nodes[index]) @ m
        index = parent.get(index)
    return m


def test_a_player_folder_loads_the_whole_player(sarge):
    model = retromodel.load(sarge)
    assert model.format == "md3"
    assert model.name.lower() == "lower.md3"
    files = model.info()["md3_files"]
    assert files["player"] is True
    assert [p.lower() for p in files["parts"]] == ["lower.md3", "upper.md3", "head.md3"]
    assert files["animation_cfg"].lower() == "animation.cfg"
    assert files["skin"] == "default"
    on_disk = sorted(p.name.lower() for p in sarge.iterdir() if p.name.lower().endswith("_default.skin"))
    assert sorted(f.lower() for f in files["skin_files"]) == on_disk
    cfg = cfg_animations((sarge / "animation.cfg").read_text("latin-1"))
    assert [(a["name"], a["first_frame"], a["frame_count"], a["looping_frames"]) for a in files["animations"]] == [
        row[:4] for row in cfg
    ]


@pytest.mark.parametrize("part", ["lower.md3", "upper.md3", "head.md3"])
def test_each_part_loads_the_player_and_its_glb_joins_the_parts_at_tags(sarge, part):
    model = retromodel.load(sarge / part)
    assert model.info()["md3_files"]["player"] is True
    # The model's own frames stay the file's: numFrames at 76 in md3Header_t.
    assert model.name == part
    assert model.frame_count == struct.unpack_from("<i", (sarge / part).read_bytes(), 76)[0]
    document = glb_document(model.to_glb())
    names = [n.get("name") for n in document["nodes"]]
    for needed in ("lower", "upper", "head", "tag_torso", "tag_head"):
        assert needed in names, (needed, names)
    nodes = document["nodes"]
    parent = {c: k for k, n in enumerate(nodes) for c in n.get("children", [])}
    assert nodes[parent[names.index("upper")]]["name"] == "tag_torso"
    assert nodes[parent[names.index("head")]]["name"] == "tag_head"
    # Every animation of the cfg, by the cfg's name, in its order.
    cfg = cfg_animations((sarge / "animation.cfg").read_text("latin-1"))
    assert [a.get("name") for a in document.get("animations", [])] == [row[0] for row in cfg]


def test_the_heads_place_is_the_tags_in_the_files(sarge):
    document = glb_document(retromodel.load(sarge).to_glb())
    lower = (sarge / "lower.md3").read_bytes()
    upper = (sarge / "upper.md3").read_bytes()
    torso_origin, torso_axes = tag(lower, "tag_torso")
    head_origin, _ = tag(upper, "tag_head")
    # CG_PositionRotatedEntityOnTag: the child's origin is the parent's
    # origin plus the tag's origin along the parent's axes.
    expected = torso_origin + head_origin @ torso_axes
    got = world_of(document, "head")[:3, 3]
    assert np.allclose(got, quake_to_gltf(expected), atol=1e-3), (got, expected)


def test_one_part_alone_with_player_false(sarge):
    model = retromodel.load(sarge / "upper.md3", player=False)
    files = model.info()["md3_files"]
    assert files["player"] is False
    assert [p.lower() for p in files["parts"]] == ["upper.md3"]
    document = glb_document(model.to_glb())
    names = [n.get("name") for n in document["nodes"]]
    assert "lower" not in names and "head" not in names
    cfg = cfg_animations((sarge / "animation.cfg").read_text("latin-1"))
    got = {a.get("name") for a in document.get("animations", [])}
    torso_or_both = {row[0] for row in cfg if not row[0].startswith("LEGS_")}
    assert got and got <= torso_or_both


def test_the_red_skin_set_and_a_missing_one(sarge):
    model = retromodel.load(sarge, skin="red")
    files = model.info()["md3_files"]
    assert files["skin"] == "red"
    on_disk = sorted(p.name.lower() for p in sarge.iterdir() if p.name.lower().endswith("_red.skin"))
    assert sorted(f.lower() for f in files["skin_files"]) == on_disk
    with pytest.raises(retromodel.Error, match="skin set"):
        retromodel.load(sarge, skin="nosuchset")


def test_weapon_needs_a_whole_player(sarge):
    with pytest.raises(retromodel.Error, match="weapon"):
        retromodel.load(sarge / "upper.md3", player=False, weapon=sarge / "head.md3")


def test_skin_on_bytes_is_refused(sarge):
    with pytest.raises(retromodel.Error, match="skin="):
        retromodel.load((sarge / "upper.md3").read_bytes(), skin="red")


def test_a_folder_without_a_player_is_refused(tmp_path):
    with pytest.raises(retromodel.Error, match="lower.md3"):
        retromodel.load(tmp_path)


def test_a_weapon_hangs_at_tag_weapon(sarge, tmp_path):
    weapon = tmp_path / "machinegun.md3"
    with zipfile.ZipFile(BASEOA / "pak0.pk3") as z:
        weapon.write_bytes(z.read("models/weapons2/machinegun/machinegun.md3"))
    model = retromodel.load(sarge, weapon=weapon)
    assert model.info()["md3_files"]["weapon"] == str(weapon)
    document = glb_document(model.to_glb())
    nodes = document["nodes"]
    names = [n.get("name") for n in nodes]
    parent = {c: k for k, n in enumerate(nodes) for c in n.get("children", [])}
    assert nodes[parent[names.index("weapon")]]["name"] == "tag_weapon"
    # The weapon's surfaces (numSurfaces at 84 in md3Header_t) are meshes
    # below its node.
    (surfaces,) = struct.unpack_from("<i", weapon.read_bytes(), 84)
    below = [c for c in nodes[names.index("weapon")].get("children", []) if "mesh" in nodes[c]]
    own = 1 if "mesh" in nodes[names.index("weapon")] else 0
    primitives = sum(len(document["meshes"][nodes[c]["mesh"]]["primitives"]) for c in below)
    if own:
        primitives += len(document["meshes"][nodes[names.index("weapon")]["mesh"]]["primitives"])
    assert primitives == surfaces, (primitives, surfaces)
