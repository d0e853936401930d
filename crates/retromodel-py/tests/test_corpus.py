"""The binding against independent facts: facts.json (an oracle written
without retromodel), the raw file bytes, and the command line's exports."""

import json
import struct

import numpy as np
import pytest

import retromodel


def corpus_files(facts, corpus, fmt):
    files = [corpus / k for k, v in facts.items() if v.get("fmt") == fmt and (corpus / k).is_file()]
    assert files, f"no {fmt} files in the corpus"
    return files


def test_md2_counts_match_facts(facts, corpus):
    checked = 0
    for path in corpus_files(facts, corpus, "MD2"):
        fact = facts[str(path.relative_to(corpus))]
        try:
            model = retromodel.load(path)
        except retromodel.Error:
            # Only files the oracle found broken may be refused.
            assert fact.get("problems"), path
            continue
        info = model.info()
        assert info["format"] == "md2"
        assert info["frames"] == fact["frames"] == model.frame_count, path
        assert info["vertices"] == fact["verts"] == model.vertex_count, path
        assert info["triangles"] == fact["tris"], path
        assert info["texcoords"] == fact["st"], path
        assert len(info["skins"]) == fact["skins"], path
        assert (info["skin_width"], info["skin_height"]) == (fact["skin_w"], fact["skin_h"]), path
        assert info["file_size"] == fact["size"] == path.stat().st_size, path
        if fact["frames"]:
            assert model.frame_names[0] == fact["first_frame"], path
            assert model.frame_names[-1] == fact["last_frame"], path
        checked += 1
    assert checked >= 10


def test_ms3d_counts_match_facts(facts, corpus):
    checked = 0
    for path in corpus_files(facts, corpus, "MS3D"):
        fact = facts[str(path.relative_to(corpus))]
        model = retromodel.load(path)
        info = model.info()
        assert info["format"] == "ms3d"
        assert info["vertices"] == fact["verts"] == model.vertex_count, path
        assert info["triangles"] == fact["tris"], path
        assert info["groups"] == fact["groups"], path
        assert info["materials"] == fact["materials"], path
        assert info["joints"] == fact["joints"] == model.joint_count, path
        assert info["fps"] == pytest.approx(fact["fps"]), path
        checked += 1
    assert checked >= 10


def test_oracle_problems_are_found(facts, corpus):
    for path in corpus_files(facts, corpus, "MD2") + corpus_files(facts, corpus, "MS3D"):
        if not facts[str(path.relative_to(corpus))].get("problems"):
            continue
        try:
            problems = retromodel.load(path).validate()
        except retromodel.Error:
            continue
        assert problems, path
        assert all(p.severity in ("warning", "error") and p.path and p.message for p in problems)


def test_rewrites_are_byte_identical(facts, corpus):
    paths = corpus_files(facts, corpus, "MD2") + corpus_files(facts, corpus, "MS3D")
    rewritten = 0
    for path in paths:
        try:
            model = retromodel.load(path)
        except retromodel.Error:
            continue
        if any(p.severity == "error" for p in model.validate()):
            continue
        assert model.to_bytes() == path.read_bytes(), path
        rewritten += 1
    assert rewritten >= 20


def test_info_is_the_command_lines(corpus, cli):
    for rel in ["md2/assimpdeb_faerie.md2", "ms3d/assimpdeb_jeep1.ms3d", "gltf/blender_walker.glb"]:
        path = corpus / rel
        assert retromodel.load(path).info() == json.loads(cli("info", "--json", path)), rel


def obj_vertices(text: bytes) -> np.ndarray:
    rows = [line.split()[1:4] for line in text.decode().splitlines() if line.startswith("v ")]
    return np.array(rows, dtype=np.float64)


def quake_to_gltf(p: np.ndarray) -> np.ndarray:
    """Quake (X forward, Y left, Z up) to glTF (+Z forward, +X left, +Y up): (y, z, x)."""
    return p[..., [1, 2, 0]]


def test_md2_frames_equal_the_command_lines_obj(corpus, cli, tmp_path):
    for rel in ["md2/assimpdeb_faerie.md2", "md2/assimpdeb_sydney.md2"]:
        path = corpus / rel
        model = retromodel.load(path)
        everything = model.all_positions()
        assert everything.shape == (model.frame_count, model.vertex_count, 3)
        assert everything.dtype == np.float32
        for frame in [0, 1, model.frame_count // 2, model.frame_count - 1]:
            out = tmp_path / f"f{frame}.obj"
            cli("convert", path, out, "--frame", frame, "--force")
            obj = obj_vertices(out.read_bytes())
            ours = quake_to_gltf(model.frame_positions(frame).astype(np.float64))
            np.testing.assert_array_equal(model.frame_positions(frame), everything[frame])
            # The OBJ repeats a vertex for each texture coordinate it has:
            # every OBJ vertex is one of the frame's, and every one of the
            # frame's vertices appears.
            d = np.abs(obj[:, None, :] - ours[None, :, :]).max(axis=2)
            assert d.min(axis=1).max() < 1e-3, (rel, frame)
            assert d.min(axis=0).max() < 1e-3, (rel, frame)


def test_md2_normals_are_unit_length(corpus):
    model = retromodel.load(corpus / "md2/assimpdeb_faerie.md2")
    normals = model.all_normals()
    assert normals.shape == (model.frame_count, model.vertex_count, 3)
    np.testing.assert_allclose(np.linalg.norm(normals, axis=2), 1.0, atol=1e-5)
    np.testing.assert_array_equal(normals[5], model.frame_normals(5))


def ms3d_file_vertices(data: bytes) -> np.ndarray:
    """The vertex positions as the MS3D file stores them: 14-byte header,
    u16 count, 15-byte records (flags, 3 x f32, bone, reference count)."""
    (count,) = struct.unpack_from("<H", data, 14)
    return np.array([struct.unpack_from("<3f", data, 16 + 15 * i + 1) for i in range(count)], dtype=np.float32)


def test_ms3d_bind_pose_is_the_files_vertices(facts, corpus):
    for path in corpus_files(facts, corpus, "MS3D"):
        model = retromodel.load(path)
        stored = ms3d_file_vertices(path.read_bytes())
        bind = model.skinned_positions(-1.0)
        off = np.abs(bind - stored).max(axis=1) > 1e-4
        # At the bind pose every skinning matrix is the identity, so a
        # vertex is its stored position times the sum of its weights: 1,
        # except where MilkShape's viewer drops a weight (stored weights
        # [99, 0, 0] leave 99 %); those stay on the line to the origin.
        assert off.mean() < 0.01, path
        for a, b in zip(bind[off], stored[off]):
            k = float(np.dot(a, b) / np.dot(b, b))
            assert 0.0 < k < 1.0, path
            np.testing.assert_allclose(a, k * b, atol=1e-4, err_msg=str(path))


def test_ms3d_skinning_equals_the_command_lines_obj(facts, corpus, cli, tmp_path):
    animated = [p for p in corpus_files(facts, corpus, "MS3D") if facts[str(p.relative_to(corpus))]["joints"] > 0]
    assert animated
    for path in animated[:3]:
        model = retromodel.load(path)
        # The poses compared are not the bind pose.
        assert np.abs(model.skinned_positions(0.5) - model.skinned_positions(-1.0)).max() > 1.0, path
        for time in [0.0, 0.5, 1.25]:
            out = tmp_path / "pose.obj"
            cli("convert", path, out, "--time", time, "--force")
            obj = obj_vertices(out.read_bytes())
            ours = model.skinned_positions(time).astype(np.float64)
            d = np.abs(obj[:, None, :] - ours[None, :, :]).max(axis=2)
            scale = max(1.0, float(np.abs(ours).max()))
            assert d.min(axis=1).max() < 1e-3 * scale, (path, time)


def test_glb_is_the_command_lines(corpus, cli, tmp_path):
    path = corpus / "md2/assimpdeb_faerie.md2"
    model = retromodel.load(path)
    for flags in [[], ["--quantize"], ["--quantize", "--compress"]]:
        out = tmp_path / "x.glb"
        cli("convert", path, out, *flags, "--force")
        glb = model.to_glb(quantize="--quantize" in flags, compress="--compress" in flags)
        assert glb[:4] == b"glTF" and struct.unpack_from("<II", glb, 4) == (2, len(glb))
        assert glb == out.read_bytes(), flags


def test_obj_files_are_the_command_lines(corpus, cli, tmp_path):
    path = corpus / "md2/assimpdeb_faerie.md2"
    files = retromodel.load(path).to_obj(frame=3, name="faerie.obj")
    assert list(files)[-1] == "faerie.obj"
    cli("convert", path, tmp_path / "faerie.obj", "--frame", 3)
    for name, data in files.items():
        assert (tmp_path / name).read_bytes() == data, name


def test_compile_md2_is_the_command_lines(corpus, cli, tmp_path):
    glb = corpus / "gltf/blender_walker.glb"
    out = retromodel.compile_md2(glb.read_bytes(), fps=10, grid="animation", name="walker.md2")
    cli("convert", glb, tmp_path / "walker.md2", "--fps", 10, "--grid", "animation")
    assert out.md2 == (tmp_path / "walker.md2").read_bytes()
    for name, data in out.skins.items():
        assert (tmp_path / name).read_bytes() == data, name
    md2 = retromodel.load(out.md2)
    assert md2.format == "md2"
    assert not [p for p in md2.validate(engine="quake2") if p.severity == "error"]
    report = out.report
    assert sum(a["frames"] for a in report["animations"]) == md2.frame_count
    # A Model, a path and bytes give the same MD2.
    assert retromodel.compile_md2(retromodel.load(glb), name="walker.md2").md2 == out.md2
    assert retromodel.compile_md2(str(glb), name="walker.md2").md2 == out.md2


def test_compile_ms3d_is_the_command_lines(corpus, cli, tmp_path):
    glb = corpus / "gltf/blender_walker.glb"
    out = retromodel.compile_ms3d(glb.read_bytes(), name="walker.ms3d")
    cli("convert", glb, tmp_path / "walker.ms3d")
    assert out.ms3d == (tmp_path / "walker.ms3d").read_bytes()
    assert list(out.textures) == ["walker.png"]
    for name, data in out.textures.items():
        assert (tmp_path / name).read_bytes() == data, name
    # The header's counts, read from the bytes: 10-byte magic, version,
    # then the vertex count.
    assert out.ms3d[:10] == b"MS3D000000"
    ms3d = retromodel.load(out.ms3d)
    info = ms3d.info()
    assert info["format"] == "ms3d"
    assert info["joints"] == 11
    assert int.from_bytes(out.ms3d[14:16], "little") == info["vertices"]
    assert not [p for p in ms3d.validate() if p.severity == "error"]
    assert [a["name"] for a in out.report["animations"]] == ["idle", "walk"]
    # --anim's choice and order.
    only = retromodel.compile_ms3d(str(glb), anims=["walk"], name="walker.ms3d")
    assert [a["name"] for a in only.report["animations"]] == ["walk"]
    with pytest.raises(retromodel.Error, match="no-such"):
        retromodel.compile_ms3d(glb, anims=["no-such"])
    # MD2 vertex animation has no place in an MS3D: the mesh is compiled
    # (as the command line does it, byte for byte), its animations left
    # out with a warning.
    faerie = corpus / "md2/assimpdeb_faerie.md2"
    md2 = retromodel.compile_ms3d(faerie, name="faerie.ms3d")
    cli("convert", faerie, tmp_path / "faerie.ms3d")
    assert md2.ms3d == (tmp_path / "faerie.ms3d").read_bytes()
    assert md2.ms3d[:10] == b"MS3D000000"
    assert any("morph" in w for w in md2.warnings), md2.warnings
