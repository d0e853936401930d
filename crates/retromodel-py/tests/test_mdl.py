"""Quake MDL through the package: frames as NumPy arrays, skins, the
compile. The facts come from mdl/facts.json (an independent reader) and
from the files' bytes, parsed here with struct (the layout of id's
modelgen.h: an 84-byte header, skins, texture coordinates, triangles,
frames)."""

import json
import struct

import numpy as np
import pytest

import retromodel

HEADER = struct.Struct("<4si3f3ff3f8if")


def mdl_facts(corpus):
    return json.loads((corpus / "mdl" / "facts.json").read_text())


def parse_mdl(data: bytes):
    """The header, each skin image's bytes and each simple frame's packed
    vertices (groups flattened), read straight from a Quake MDL's bytes."""
    h = HEADER.unpack_from(data, 0)
    ident, version = h[0], h[1]
    scale, origin = np.array(h[2:5], np.float32), np.array(h[5:8], np.float32)
    eye = h[9:12]
    skins, width, height, verts, tris, frames, synctype, flags = h[12:20]
    assert (ident, version) == (b"IDPO", 6)
    at = HEADER.size
    images = []
    for _ in range(skins):
        (kind,) = struct.unpack_from("<i", data, at)
        at += 4
        count = 1
        if kind:
            (count,) = struct.unpack_from("<i", data, at)
            at += 4 + 4 * count
        for _ in range(count):
            images.append(data[at : at + width * height])
            at += width * height
    at += 12 * verts + 16 * tris
    packed = []
    for _ in range(frames):
        (kind,) = struct.unpack_from("<i", data, at)
        at += 4
        count = 1
        if kind:
            (count,) = struct.unpack_from("<i", data, at)
            at += 4 + 8 + 4 * count
        for _ in range(count):
            at += 8
            name = data[at : at + 16].split(b"\0")[0].decode("latin-1")
            at += 16
            v = np.frombuffer(data, np.uint8, 4 * verts, at).reshape(verts, 4)
            packed.append((name, v))
            at += 4 * verts
    return {
        "scale": scale,
        "origin": origin,
        "eye": eye,
        "size": (width, height),
        "vertices": verts,
        "triangles": tris,
        "frames": frames,
        "synctype": synctype,
        "flags": flags,
        "images": images,
        "packed": packed,
    }


def test_every_corpus_mdl_has_its_facts(corpus):
    facts = mdl_facts(corpus)
    assert len(facts) >= 90
    for name, fact in facts.items():
        model = retromodel.load(corpus / "mdl" / name)
        assert model.format == "mdl", name
        assert model.vertex_count == fact["vertices"], name
        assert model.frame_count == fact["simple_frames"], name
        assert model.frame_names == fact["frame_names"], name
        assert len(model.frame_list()) == fact["frames"], name
        assert model.skin_count == fact["skin_frames"], name
        # Animations cover the frame list, run by run, in order.
        runs = model.animations()
        assert sum(n for _, _, n in runs) == fact["frames"], name
        assert [first for _, first, _ in runs] == [sum(n for _, _, n in runs[:i]) for i in range(len(runs))], name
        info = model.info()
        assert info["format"] == "mdl", name


@pytest.mark.parametrize(
    "name",
    [
        "HackTechDev_mods_20_multiskins_player.mdl",  # 143 frames, 19 skins
        "c0burn_progs_flame2.mdl",  # 2 entries, 17 frames (a group)
        "c0burn_progs_missile.mdl",  # one group of 8, flag rocket
    ],
)
def test_frames_are_the_files_bytes_times_scale_plus_origin(corpus, name):
    data = (corpus / "mdl" / name).read_bytes()
    mdl = parse_mdl(data)
    model = retromodel.load(corpus / "mdl" / name)
    everything = model.all_positions()
    frames = len(mdl["packed"])
    assert everything.shape == (frames, mdl["vertices"], 3)
    assert everything.dtype == np.float32
    for k in sorted({0, frames // 2, frames - 1}):
        packed = mdl["packed"][k][1][:, :3].astype(np.float32)
        expected = packed * mdl["scale"] + mdl["origin"]
        np.testing.assert_allclose(model.frame_positions(k), expected, rtol=0, atol=1e-5, err_msg=f"{name} {k}")
        np.testing.assert_array_equal(everything[k], model.frame_positions(k))
    assert model.frame_names == [n for n, _ in mdl["packed"]]
    normals = model.all_normals()
    assert normals.shape == everything.shape
    np.testing.assert_allclose(np.linalg.norm(normals, axis=2), 1.0, atol=1e-5)
    with pytest.raises(IndexError):
        model.frame_positions(frames)


def test_frame_list_gives_the_groups_and_their_intervals(corpus):
    data = (corpus / "mdl" / "c0burn_progs_flame2.mdl").read_bytes()
    model = retromodel.load(data)
    entries = model.frame_list()
    # Walk the file: each entry's type word, count and intervals.
    mdl = parse_mdl(data)
    assert sum(e["frame_count"] for e in entries) == len(mdl["packed"])
    first = 0
    for e in entries:
        assert e["first_frame"] == first
        first += e["frame_count"]
        if e["intervals"] is not None:
            assert len(e["intervals"]) == e["frame_count"]
            assert all(b > a for a, b in zip(e["intervals"], e["intervals"][1:]))
    assert any(e["intervals"] is not None for e in entries)


def test_skins_are_the_files_indices_and_the_palettes_colours(corpus):
    path = corpus / "mdl" / "HackTechDev_mods_20_multiskins_player.mdl"
    mdl = parse_mdl(path.read_bytes())
    palette = (corpus / "quake" / "palette.lmp").read_bytes()
    assert len(palette) == 768
    model = retromodel.load(path)
    width, height = mdl["size"]
    assert model.skin_count == len(mdl["images"]) == 19
    for k in [0, 18]:
        indices = model.skin_indices(k)
        assert indices.shape == (height, width) and indices.dtype == np.uint8
        assert indices.tobytes() == mdl["images"][k]
        rgba = model.skin_rgba(k, palette=palette)
        assert rgba.shape == (height, width, 4) and rgba.dtype == np.uint8
        table = np.frombuffer(palette, np.uint8).reshape(256, 3)
        np.testing.assert_array_equal(rgba[..., :3], table[indices])
        assert (rgba[..., 3] == 255).all()
    # The palette by path gives the same pixels.
    np.testing.assert_array_equal(model.skin_rgba(0, palette=corpus / "quake" / "palette.lmp"), model.skin_rgba(0, palette=palette))
    with pytest.raises(IndexError):
        model.skin_indices(19)
    with pytest.raises(retromodel.Error, match="palette"):
        model.skin_rgba(0, palette=b"\0" * 5)


def test_header_attributes_are_the_files(corpus):
    for name in ["c0burn_progs_missile.mdl", "HackTechDev_mods_07_hook_pak0_progs_hook.mdl"]:
        data = (corpus / "mdl" / name).read_bytes()
        mdl = parse_mdl(data)
        model = retromodel.load(data)
        assert model.flags == mdl["flags"], name
        assert model.sync_type == ("random" if mdl["synctype"] else "sync"), name
        assert model.eye_position == pytest.approx(mdl["eye"]), name
    assert "rocket" in retromodel.load(corpus / "mdl" / "c0burn_progs_missile.mdl").flag_names


def test_rewrite_is_byte_identical(corpus):
    for name in list(mdl_facts(corpus))[:20]:
        data = (corpus / "mdl" / name).read_bytes()
        assert retromodel.load(data).to_bytes() == data, name


def glb_json(glb: bytes):
    (length,) = struct.unpack_from("<I", glb, 12)
    return json.loads(glb[20 : 20 + length])


def test_glb_has_a_morph_target_per_frame(corpus):
    path = corpus / "mdl" / "c0burn_progs_flame2.mdl"
    mdl = parse_mdl(path.read_bytes())
    glb = retromodel.load(path).to_glb(palette=corpus / "quake" / "palette.lmp")
    doc = glb_json(glb)
    targets = {len(p.get("targets", [])) for m in doc["meshes"] for p in m["primitives"]}
    assert targets == {len(mdl["packed"])}
    assert doc.get("images"), "the skin is embedded"


def compiled_header(data: bytes):
    h = HEADER.unpack_from(data, 0)
    return {
        "ident": h[0],
        "version": h[1],
        "eye": h[9:12],
        "skins": h[12],
        "size": (h[13], h[14]),
        "vertices": h[15],
        "triangles": h[16],
        "frames": h[17],
        "synctype": h[18],
        "flags": h[19],
    }


def test_compile_mdl_writes_the_keywords_into_the_header(corpus):
    glb = corpus / "gltf" / "blender_walker.glb"
    palette = (corpus / "quake" / "palette.lmp").read_bytes()
    out = retromodel.compile_mdl(
        glb,
        palette=palette,
        flags=["rotate", "rocket"],
        sync_type="random",
        eye_position=(0.0, 0.0, 22.0),
        fit_height=56.0,
        name="walker.mdl",
    )
    h = compiled_header(out.mdl)
    assert (h["ident"], h["version"]) == (b"IDPO", 6)
    assert h["flags"] == 8 | 1
    assert h["synctype"] == 1
    assert h["eye"] == pytest.approx((0.0, 0.0, 22.0))
    assert h["skins"] >= 1 and h["vertices"] > 0 and h["triangles"] > 0 and h["frames"] > 0
    # The file reads back, as retromodel and as struct see it.
    back = retromodel.load(out.mdl)
    assert back.format == "mdl"
    assert back.vertex_count == h["vertices"]
    assert len(back.frame_list()) == h["frames"]
    assert not [p for p in back.validate() if p.severity == "error"]
    # A skin quantised to the palette keeps off the fullbright indices
    # (224..255) of a source that glows nowhere.
    skin = parse_mdl(out.mdl)["images"][0]
    assert max(skin) < 224
    assert all("::" not in w for w in out.warnings)


def test_compile_mdl_names_its_keywords(corpus):
    glb = corpus / "gltf" / "blender_walker.glb"
    palette = (corpus / "quake" / "palette.lmp").read_bytes()
    with pytest.raises(retromodel.Error, match="flags"):
        retromodel.compile_mdl(glb, palette=palette, flags=["sparkle"])
    with pytest.raises(retromodel.Error, match="sync_type"):
        retromodel.compile_mdl(glb, palette=palette, sync_type="sometimes")
    with pytest.raises(retromodel.Error, match="scale and fit_height"):
        retromodel.compile_mdl(glb, palette=palette, scale=2.0, fit_height=56.0)


def test_compile_mdl_is_the_command_lines(corpus, cli, tmp_path):
    glb = corpus / "gltf" / "blender_walker.glb"
    palette = corpus / "quake" / "palette.lmp"
    out = retromodel.compile_mdl(glb, palette=palette.read_bytes(), name="walker.mdl")
    cli("convert", glb, tmp_path / "walker.mdl", "--palette", palette)
    assert out.mdl == (tmp_path / "walker.mdl").read_bytes()


def test_compile_mdl_player_puts_the_frames_where_quakec_expects_them(corpus, tmp_path):
    """id's player lifted to glTF and compiled back with ``player=True``:
    the 143 frame names, read from the bytes here, are the independent
    reader's, in QuakeC's order; ``groups`` with it is refused by its
    keyword."""
    name = "c0burn_progs_player.mdl"
    facts = mdl_facts(corpus)[name]
    palette = (corpus / "quake" / "palette.lmp").read_bytes()
    glb = tmp_path / "player.glb"
    glb.write_bytes(retromodel.load(corpus / "mdl" / name).to_glb())
    out = retromodel.compile_mdl(glb, palette=palette, player=True, name="player.mdl")
    names = [n for n, _ in parse_mdl(out.mdl)["packed"]]
    assert names == facts["frame_names"]
    assert all("::" not in w for w in out.warnings)
    with pytest.raises(retromodel.Error, match="groups"):
        retromodel.compile_mdl(glb, palette=palette, player=True, groups=["light"])


def test_compile_mdl_rerelease_gives_the_command_lines_md5_files(corpus, cli, tmp_path):
    """``rerelease=True``: the MD5 files and skins beside the MDL are the
    command line's ``--rerelease`` files byte for byte, and the anim has
    one frame per MDL frame (its ``numFrames`` and the MDL header read
    here)."""
    glb = corpus / "gltf" / "blender_walker.glb"
    palette = corpus / "quake" / "palette.lmp"
    out = retromodel.compile_mdl(glb, palette=palette.read_bytes(), name="walker.mdl", rerelease=True)
    progs = tmp_path / "progs"
    progs.mkdir()
    cli("convert", glb, progs / "walker.mdl", "--palette", palette, "--rerelease")
    assert out.mdl == (progs / "walker.mdl").read_bytes()
    written = sorted(p.name for p in progs.iterdir() if p.name != "walker.mdl")
    assert sorted(out.files) == written
    assert {"walker.md5mesh", "walker.md5anim", "walker_00_00.png"} <= set(written)
    for name, data in out.files.items():
        assert data == (progs / name).read_bytes(), name
    anim = out.files["walker.md5anim"].decode()
    frames = int(anim.split("numFrames")[1].split()[0])
    assert frames == compiled_header(out.mdl)["frames"]
    assert retromodel.compile_mdl(glb, palette=palette.read_bytes()).files == {}


def test_compile_mdl_frames_like_keeps_the_replaced_models_frames(corpus, tmp_path):
    """``frames_like``: id's ogre lifted to glTF and compiled back laid out
    like the ogre (given as a path and as bytes): its 147 frame names, read
    from the bytes here, are the independent reader's; with ``player`` it
    is refused by its keyword."""
    name = "c0burn_progs_ogre.mdl"
    facts = mdl_facts(corpus)[name]
    ogre = corpus / "mdl" / name
    palette = (corpus / "quake" / "palette.lmp").read_bytes()
    glb = tmp_path / "ogre.glb"
    glb.write_bytes(retromodel.load(ogre).to_glb())
    for like in (ogre, ogre.read_bytes()):
        out = retromodel.compile_mdl(glb, palette=palette, frames_like=like, name="ogre.mdl")
        names = [n for n, _ in parse_mdl(out.mdl)["packed"]]
        assert names == facts["frame_names"]
    with pytest.raises(retromodel.Error, match="frames_like"):
        retromodel.compile_mdl(glb, palette=palette, frames_like=ogre, player=True)
