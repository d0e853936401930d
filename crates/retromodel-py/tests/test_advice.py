"""Refusals and warnings say what to do with this module's keyword
arguments (``fps``, ``engine="ufoai"``, ``palette=`` ...), never the Rust
library's API, and carry the advice as data for callers that word it
their own way. Counts come from how the test models are built, limits
from the engines' loaders (cited)."""

import json
import struct
import zlib

import pytest

import retromodel

# id's qcommon/qfiles.h: MAX_FRAMES 512.
QUAKE2_MAX_FRAMES = 512
# UFO:AI 2.5: R_ModLoadAliasMD2Model wants num_frames < MD2_MAX_FRAMES (1024).
UFOAI_MAX_FRAMES = 1023


def png(width, height):
    """A grey RGB PNG, written from the format's description."""
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    rows = b"".join(b"\0" + b"\x80" * (3 * width) for _ in range(height))
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b""))


def glb(seconds=None, texture=None):
    """A GLB of one triangle on node 0, moved over ``seconds`` when given,
    textured with the PNG ``texture`` when given."""
    doc = {
        "asset": {"version": "2.0"},
        "scene": 0,
        "scenes": [{"nodes": [0]}],
        "nodes": [{"mesh": 0}],
        "meshes": [{"primitives": [{"attributes": {"POSITION": 0}}]}],
        "accessors": [],
        "bufferViews": [],
    }
    binary = b""

    def view(data):
        nonlocal binary
        binary += b"\0" * (-len(binary) % 4)
        doc["bufferViews"].append({"buffer": 0, "byteOffset": len(binary), "byteLength": len(data)})
        binary += data
        return len(doc["bufferViews"]) - 1

    def floats(values, kind, count, **extra):
        v = view(struct.pack(f"<{len(values)}f", *values))
        doc["accessors"].append({"bufferView": v, "componentType": 5126, "type": kind, "count": count, **extra})
        return len(doc["accessors"]) - 1

    floats([0, 0, 0, 1, 0, 0, 0, 1, 0], "VEC3", 3, min=[0, 0, 0], max=[1, 1, 0])
    if texture is not None:
        uv = floats([0, 0, 1, 0, 0, 1], "VEC2", 3)
        doc["meshes"][0]["primitives"][0]["attributes"]["TEXCOORD_0"] = uv
        doc["meshes"][0]["primitives"][0]["material"] = 0
        doc["images"] = [{"bufferView": view(texture), "mimeType": "image/png"}]
        doc["textures"] = [{"source": 0}]
        doc["materials"] = [{"pbrMetallicRoughness": {"baseColorTexture": {"index": 0}}}]
    if seconds is not None:
        t = floats([0.0, float(seconds)], "SCALAR", 2, min=[0.0], max=[float(seconds)])
        v = floats([0, 0, 0, float(seconds), 0, 0], "VEC3", 2)
        doc["animations"] = [{
            "name": "long",
            "samplers": [{"input": t, "output": v}],
            "channels": [{"sampler": 0, "target": {"node": 0, "path": "translation"}}],
        }]
    binary += b"\0" * (-len(binary) % 4)
    doc["buffers"] = [{"byteLength": len(binary)}]
    text = json.dumps(doc).encode()
    text += b" " * (-len(text) % 4)
    chunks = struct.pack("<I4s", len(text), b"JSON") + text + struct.pack("<I4s", len(binary), b"BIN\0") + binary
    return struct.pack("<4sII", b"glTF", 2, 12 + len(chunks)) + chunks


def no_api(text):
    assert "::" not in text, text
    for api in ("Options", "SkinFormat", "Engine::", "Remedy"):
        assert api not in text, text


def test_too_many_frames_names_keywords_and_carries_the_limit():
    seconds = 60
    frames = seconds * 10 + 1  # Quake II's 10 frames per second, both ends
    with pytest.raises(retromodel.Error) as e:
        retromodel.compile_md2(glb(seconds))
    err = e.value
    text = str(err)
    no_api(text)
    assert f"{frames} frames exceed Quake II's limit of {QUAKE2_MAX_FRAMES}" in text
    assert "lower fps" in text
    assert "anims=[...]" in text
    assert f'engine="ufoai" (allows {UFOAI_MAX_FRAMES})' in text
    assert err.limit == {"quantity": "frames", "max": QUAKE2_MAX_FRAMES, "actual": frames,
                         "over": frames - QUAKE2_MAX_FRAMES}
    assert [r["remedy"] for r in err.remedies] == [
        "lower_fps", "fewer_animations", "engine", "engine", "engine"]
    # yquake2 bounds no frame count (src/client/refresh/files/models.c,
    # Mod_LoadMD2), Q2PRO takes 1024 (inc/format/md2.h), UFO:AI 1023.
    assert [(r["engine"], r["allows"]) for r in err.remedies[2:]] == [
        ("yquake2", 65536), ("q2pro", 1024), ("ufoai", UFOAI_MAX_FRAMES)]
    assert err.reason.startswith("cannot write header.num_frames")
    assert "fps" not in err.reason
    # The advice holds: UFO:AI loads the 601 frames.
    out = retromodel.compile_md2(glb(seconds), engine="ufoai", skin_name="m.png")
    assert struct.unpack_from("<i", out.md2, 40)[0] == frames


def test_a_pcx_skin_without_palette_names_palette_and_skin_format():
    with pytest.raises(retromodel.Error) as e:
        retromodel.compile_md2(glb(texture=png(8, 8)), skin_format="pcx")
    text = str(e.value)
    no_api(text)
    assert "a PCX skin needs a 256-colour palette" in text
    assert "palette=" in text and 'skin_format="png"' in text
    assert [r["remedy"] for r in e.value.remedies] == ["palette", "skin_png_or_tga"]
    # PNG is the default without a palette, and Quake II loads only PCX:
    # the warning names palette.
    out = retromodel.compile_md2(glb(texture=png(8, 8)))
    warning = [w for w in out.warnings if "loads only PCX" in w]
    assert len(warning) == 1 and "palette=" in warning[0], out.warnings
    assert len(out.skins) == 1


def test_no_skin_size_warns_naming_skin_size_which_sets_it():
    out = retromodel.compile_md2(glb())
    warnings = [w for w in out.warnings if "no skin size" in w]
    assert len(warnings) == 1, out.warnings
    assert "skin_size=(width, height)" in warnings[0]
    no_api(" ".join(out.warnings))
    details = [d for d in out.warning_details if "no skin size" in d["message"]]
    assert [r["remedy"] for r in details[0]["remedies"]] == ["skin_size"]
    assert "skin_size" not in details[0]["message"]
    out = retromodel.compile_md2(glb(), skin_size=(128, 64))
    assert not [w for w in out.warnings if "no skin size" in w]
    assert struct.unpack_from("<ii", out.md2, 8) == (128, 64)


def test_errors_without_advice_have_empty_remedies():
    with pytest.raises(retromodel.Error) as e:
        retromodel.load(b"IDP2")
    assert e.value.remedies == [] and e.value.limit is None
    assert e.value.reason == str(e.value)


def test_a_player_far_from_a_players_size_names_fit_height(corpus):
    # Blender's walker is in metres: under 2 units as a Quake II player
    # (whose box is 56 tall, -24..32: the game's p_client.c).
    walker = corpus / "gltf" / "blender_walker.glb"
    out = retromodel.compile_md2(walker, player=True)
    warning = [w for w in out.warnings if "units tall" in w]
    assert len(warning) == 1, out.warnings
    assert warning[0].endswith("; fit_height=56"), warning[0]
    no_api(warning[0])
    details = [d for d in out.warning_details if "units tall" in d["message"]]
    assert details[0]["remedies"][0]["remedy"] == "fit_height"
    assert details[0]["remedies"][0]["units"] == 56
    out = retromodel.compile_md2(walker, player=True, fit_height=56.0)
    assert not [w for w in out.warnings if "units tall" in w]
