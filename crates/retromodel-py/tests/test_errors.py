"""Bad input raises Python exceptions carrying the library's message,
and never takes the interpreter down."""

import random

import numpy as np
import pytest

import retromodel


def sample_md2(corpus):
    return (corpus / "md2/assimpdeb_faerie.md2").read_bytes()


def test_error_is_a_value_error():
    assert issubclass(retromodel.Error, ValueError)
    with pytest.raises(ValueError):
        retromodel.load(b"")


def test_unknown_bytes_say_what_they_are():
    with pytest.raises(retromodel.Error, match="MD3"):
        retromodel.load(b"IDP3" + bytes(200))
    with pytest.raises(retromodel.Error):
        retromodel.load(b"this is no model at all")


def test_truncated_md2_names_section_and_offset(corpus):
    data = sample_md2(corpus)
    with pytest.raises(retromodel.Error) as e:
        retromodel.load(data[:100])
    assert "offset" in str(e.value) or "0x" in str(e.value), str(e.value)


def test_errors_carry_offset_path_and_line(corpus):
    import struct

    data = sample_md2(corpus)
    with pytest.raises(retromodel.Error) as e:
        retromodel.load(data[:100])
    # The offset is where a section the header names starts (read here
    # from the header's own bytes: ofs_skins .. ofs_glcmds).
    section_offsets = struct.unpack("<5i", data[44:64])
    assert e.value.offset in section_offsets, (e.value.offset, section_offsets)
    assert isinstance(e.value.path, str) and e.value.path in str(e.value)
    assert e.value.line is None
    # Text formats name the line.
    text = b"// MilkShape 3D ASCII\n\nFrames: 30\nFrame: 1\n\nMeshes: 1\n\"m\" 0 -1\n1\n0 1 2\n"
    with pytest.raises(retromodel.Error) as e:
        retromodel.load(text)
    assert e.value.line == 9, (e.value.line, str(e.value))
    assert e.value.offset is None


def test_missing_file_is_file_not_found(tmp_path):
    with pytest.raises(FileNotFoundError) as e:
        retromodel.load(tmp_path / "nope.md2")
    assert e.value.filename == str(tmp_path / "nope.md2")


def test_wrong_kind_of_source_is_a_type_error():
    with pytest.raises(TypeError):
        retromodel.load(42)


def test_frame_out_of_range_is_index_error(corpus):
    model = retromodel.load(sample_md2(corpus))
    with pytest.raises(IndexError):
        model.frame_positions(model.frame_count)
    with pytest.raises(OverflowError):
        model.frame_positions(-1)


def test_format_specific_calls_raise(corpus):
    md2 = retromodel.load(sample_md2(corpus))
    with pytest.raises(retromodel.Error, match="not MS3D"):
        md2.skinned_positions(0.0)
    ms3d = retromodel.load(corpus / "ms3d/assimpdeb_jeep1.ms3d")
    with pytest.raises(retromodel.Error, match="not MD2"):
        ms3d.all_positions()
    with pytest.raises(retromodel.Error):
        ms3d.skinned_positions(float("nan"))


def test_options_that_do_not_apply_raise(corpus):
    md2 = retromodel.load(sample_md2(corpus))
    # Conversion options are named by this module's keyword arguments,
    # never by the command line's flags.
    with pytest.raises(retromodel.Error) as e:
        md2.to_obj(time=1.0)
    assert str(e.value) == "time= applies to MS3D models; use frame= (and anim=) for MD2"
    stand = next(a["frame_count"] for a in md2.info()["animations"] if a["name"] == "stand")
    with pytest.raises(retromodel.Error) as e:
        md2.to_obj(anim="stand", frame=stand)
    assert str(e.value) == f'frame= {stand}: animation "stand" has {stand} frames'
    with pytest.raises(retromodel.Error, match="engine"):
        md2.validate(engine="doom")
    with pytest.raises(retromodel.Error, match="grid"):
        retromodel.compile_md2(sample_md2(corpus), grid="sometimes")
    with pytest.raises(retromodel.Error, match="fps"):
        retromodel.compile_md2(sample_md2(corpus), fps=0)
    with pytest.raises(retromodel.Error, match="clip"):
        md2.info(clips=["walk:9-2"])
    with pytest.raises(retromodel.Error):
        retromodel.compile_md2(sample_md2(corpus), anims=["no such animation"])


def exercise(data: bytes):
    """Everything a script may call on a model; errors must be retromodel's."""
    try:
        model = retromodel.load(data)
    except retromodel.Error:
        return
    model.info()
    model.validate()
    model.to_bytes()
    if model.format == "md2":
        model.all_positions()
        model.all_normals()
    elif model.joint_count:
        try:
            model.skinned_positions(0.5)
        except retromodel.Error:
            pass


def test_truncations_and_flips_never_crash(corpus):
    rng = random.Random(14)
    for data in [sample_md2(corpus), (corpus / "ms3d/assimpdeb_Wuson.ms3d").read_bytes()]:
        for n in sorted({rng.randrange(len(data)) for _ in range(150)} | {0, 1, 4, 8, 16, 68, 69}):
            exercise(data[:n])
        for _ in range(150):
            mutated = bytearray(data)
            for _ in range(rng.randrange(1, 8)):
                i = rng.randrange(min(len(mutated), 400) if rng.random() < 0.7 else len(mutated))
                mutated[i] = rng.randrange(256)
            exercise(bytes(mutated))


def test_validate_engine_reads_the_bytes_as_the_engine_does(corpus):
    # Bytes after ofs_end: UFO:AI refuses a file whose ofs_end is not its
    # length (src/client/renderer/r_model_md2.cpp, R_ModLoadAliasMD2Mesh,
    # "broken offset values"); Q2PRO never reads ofs_end.
    md2 = retromodel.load(sample_md2(corpus) + b"tail", name="tail.md2")
    end = [p for p in md2.validate(engine="ufoai")
           if p.severity == "error" and p.path == "header.ofs_end"]
    assert len(end) == 1 and "UFO:AI refuses" in end[0].message, end
    assert not [p for p in md2.validate(engine="q2pro") if p.severity == "error"]
    # The file as it is: ofs_end is its length.
    whole = retromodel.load(sample_md2(corpus), name="whole.md2")
    assert not [p for p in whole.validate(engine="ufoai") if p.path == "header.ofs_end"]
