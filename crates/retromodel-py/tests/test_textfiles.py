"""qc_frames() and modeldef(): the text files a mod needs beside a model.

The `$frame` lists are numbered here as QuakeC compilers number them (id's
qcc `PR_ParseFrame`: each name on a `$frame` line takes the next number
from 0, over every `$frame` line in order) and compared with the frame
names read from the model's own bytes with struct (MD2: `num_frames` at
40, `ofs_frames` at 56, `framesize` at 16, a frame's name at +24; MDL:
id's modelgen.h layout; MD3: `numFrames` at 76, `ofsFrames` at 92, a
frame's name at +40 of 56 bytes). The MODELDEF blocks are read by a
scanner written to GZDoom's rules (`sc_man_scanner.re`: `//`, `/* */` and
`;` comments, quoted strings, tokens ending at space, `{ } | =`, `"` and
`;`; `ParseModelDefLump`: keywords without case, a token `model` makes the
next the model's index, integers by `GetNumber` (a leading 0 is octal),
frame characters `toupper(c) - 'A' < 29`, 4-character sprite names), and
its Scale and ZOffset against frame 0's height from the MD2's bytes and
GZDoom's pixel stretch of 1.2.
"""

import struct

import pytest

import retromodel

DIRECTIVES = {
    "frame", "skin", "flush", "cd", "origin", "base", "flags", "scale", "modelname",
    "framesave", "framevalue", "framerestore", "frame_reset",
}


def le(b, at):
    return struct.unpack_from("<i", b, at)[0]


def cstr(b):
    return b.split(b"\0", 1)[0].decode("latin-1")


def md2_frame_names(b):
    assert b[:4] == b"IDP2"
    size, n, ofs = le(b, 16), le(b, 40), le(b, 56)
    return [cstr(b[ofs + k * size + 24 : ofs + k * size + 40]) for k in range(n)]


def md2_frame0_heights(b):
    """Frame 0's lowest and highest z, decoded as id's loader does
    (`scale * byte + translate`)."""
    ofs, verts = le(b, 56), le(b, 24)
    scale = struct.unpack_from("<3f", b, ofs)
    translate = struct.unpack_from("<3f", b, ofs + 12)
    zs = [b[ofs + 40 + 4 * v + 2] * scale[2] + translate[2] for v in range(verts)]
    return min(zs), max(zs)


def mdl_frame_names(b):
    """Each MDL frame entry's name (a group's first picture's)."""
    assert b[:4] == b"IDPO"
    skins, w, h, verts, tris, frames = (le(b, at) for at in (48, 52, 56, 60, 64, 68))
    at = 84
    for _ in range(skins):
        if le(b, at) == 0:
            at += 4 + w * h
        else:
            n = le(b, at + 4)
            at += 8 + 4 * n + n * w * h
    at += verts * 12 + tris * 16
    names = []
    for _ in range(frames):
        if le(b, at) == 0:
            names.append(cstr(b[at + 12 : at + 28]))
            at += 4 + 24 + 4 * verts
        else:
            n = le(b, at + 4)
            first = at + 16 + 4 * n
            names.append(cstr(b[first + 8 : first + 24]))
            at = first + n * (24 + 4 * verts)
    return names


def md3_frame_names(b):
    assert b[:4] == b"IDP3"
    n, ofs = le(b, 76), le(b, 92)
    return [cstr(b[ofs + 56 * k + 40 : ofs + 56 * k + 56]) for k in range(n)]


def parse_qc(text):
    """`{name: number}` as the compilers number the `$frame` lines, every
    name checked portable (an identifier of at most 15 characters, no
    directive word, unique ignoring case)."""
    numbers, lower = {}, set()
    for line in text.splitlines():
        tokens = line.split()
        if not tokens:
            continue
        if tokens[0] == "$frame":
            for name in tokens[1:]:
                assert len(name) <= 15, name
                assert name[0].isascii() and (name[0].isalpha() or name[0] == "_"), name
                assert all(c.isascii() and (c.isalnum() or c == "_") for c in name), name
                assert name.lower() not in DIRECTIVES, name
                assert name.lower() not in lower, f"{name} declared twice"
                lower.add(name.lower())
                numbers[name] = len(numbers)
        elif tokens[0].startswith("$"):
            assert tokens[0] == "$skin", line
        else:
            assert tokens[0].startswith("//"), line
    return numbers


def check_numbering(qc, raw_names):
    """Frame k is `$name` = k: under its own name, or under the name a
    warning gives it."""
    numbers = parse_qc(qc.text)
    assert len(numbers) == len(raw_names)
    renamed = {d["frame"]: d for d in qc.warning_details if "frame" in d}
    for k, raw in enumerate(raw_names):
        if k in renamed:
            assert renamed[k]["name"] == raw
            assert numbers[renamed[k]["declared"]] == k
        else:
            assert numbers[raw] == k, raw
    return numbers


def modeldef_tokens(text):
    """GZDoom's scanner as MODELDEF uses it: `(token, quoted)`."""
    out, i, n = [], 0, len(text)
    while i < n:
        c = text[i]
        if c.isspace():
            i += 1
        elif c == ";" or text.startswith("//", i):
            while i < n and text[i] != "\n":
                i += 1
        elif text.startswith("/*", i):
            end = text.index("*/", i + 2)
            i = end + 2
        elif c == '"':
            s, i = "", i + 1
            while True:
                assert i < n, "unterminated string"
                if text[i] == "\\" and i + 1 < n and text[i + 1] == '"':
                    s, i = s + '"', i + 2
                elif text[i] == '"':
                    i += 1
                    break
                else:
                    s, i = s + text[i], i + 1
            out.append((s, True))
        elif c in "{}|=":
            out.append((c, False))
            i += 1
        else:
            start = i
            while (
                i < n
                and not text[i].isspace()
                and text[i] not in '{}|=";'
                and not text.startswith("//", i)
                and not text.startswith("/*", i)
            ):
                i += 1
            out.append((text[start:i], False))
    return out


def get_number(t):
    """`GetNumber` without octal surprises: plain decimal, no leading 0."""
    assert t == "0" or not t.lstrip("-").startswith("0"), f"leading 0: {t}"
    return int(t)


def check_modeldef(text, frame_count):
    """Reads the block as ParseModelDefLump does: `(actor, keyword values,
    [(sprite, frame char, model frame)])`."""
    t = modeldef_tokens(text)
    assert t[0][0].lower() == "model" and t[2][0] == "{", t[:3]
    actor = t[1][0]
    close = [k for k, x in enumerate(t) if x[0] == "}"]
    assert close == [len(t) - 1], "one block"
    block = t[3:-1]
    # Pass 1: the token after any `model` is an index: no other `model`.
    models = [get_number(block[k + 1][0]) for k, x in enumerate(block) if x[0].lower() == "model"]
    assert all(not x[1] for x in block if x[0].lower() == "model"), "a quoted model"
    assert models == sorted(set(models)) and models
    amount = max(models[-1] + 1, 4)
    values, entries, seen_frame, k = {}, [], False, 0
    while k < len(block):
        kw = block[k][0].lower()

        def arg(m):
            return block[k + m][0]

        if kw == "frameindex":
            seen_frame = True
            sprite, chars = arg(1), arg(2)
            assert len(sprite) == 4 and sprite.upper() != "TNT1", sprite
            assert not block[k + 2][1] and len(chars) == 1, chars
            c = chars.upper()
            assert 0 <= ord(c) - ord("A") < 29, c
            assert 0 <= get_number(arg(3)) < amount
            frame = get_number(arg(4))
            assert 0 <= frame < frame_count, frame
            entries.append((sprite, c, frame))
            k += 5
            continue
        assert not seen_frame, f"{kw} after a FrameIndex"
        width = {"path": 2, "model": 3, "skin": 3, "surfaceskin": 4, "scale": 4, "offset": 4,
                 "zoffset": 2, "angleoffset": 2, "pitchoffset": 2, "rolloffset": 2}[kw]
        if kw in ("model", "skin", "surfaceskin"):
            assert 0 <= get_number(arg(1)) < amount
        if kw in ("scale", "offset", "zoffset", "angleoffset"):
            for m in range(1, width):
                float(arg(m))
        values[kw] = [arg(m) for m in range(1, width)]
        k += width
    return actor, values, entries


def check_covers(entries, frame_count):
    """Every model frame once, each sprite frame once."""
    assert sorted(e[2] for e in entries) == list(range(frame_count))
    assert len({(e[0], e[1]) for e in entries}) == frame_count


def test_real_md2_frames_number_as_the_file_has_them(corpus):
    path = corpus / "md2" / "assimpdeb_sydney.md2"
    raw = md2_frame_names(path.read_bytes())
    qc = retromodel.qc_frames(path)
    numbers = check_numbering(qc, raw)
    assert list(numbers) == qc.names
    assert "assimpdeb_sydney.md2" in qc.text.splitlines()[0]
    # A Model and the bytes give the same text.
    assert retromodel.qc_frames(retromodel.load(path)).text == qc.text
    assert retromodel.qc_frames(path.read_bytes(), name="assimpdeb_sydney.md2").text == qc.text


def test_compiled_md2_frames_number_as_written(corpus):
    out = retromodel.compile_md2(corpus / "md2" / "assimpdeb_sydney.md2", name="sydney.md2")
    raw = md2_frame_names(out.md2)
    qc = retromodel.qc_frames(out.md2, name="sydney.md2")
    check_numbering(qc, raw)
    assert qc.warnings == []


def test_real_mdl_frames_number_as_the_file_has_them(corpus):
    import json

    path = corpus / "mdl" / "c0burn_progs_ogre.mdl"
    raw = mdl_frame_names(path.read_bytes())
    facts = json.loads((corpus / "mdl" / "facts.json").read_text())["c0burn_progs_ogre.mdl"]
    assert raw == facts["frame_names"]
    qc = retromodel.qc_frames(path)
    numbers = check_numbering(qc, raw)
    # id's ogre.qc: $frame stand1 ... numbers stand1 0, walk1 9, run1 25.
    assert (numbers["stand1"], numbers["walk1"], numbers["run1"]) == (0, 9, 25)
    assert qc.text.count("$skin ") == facts["skins"]


def test_names_compilers_refuse_are_renamed_and_warned(corpus):
    data = bytearray((corpus / "md2" / "assimpdeb_sydney.md2").read_bytes())
    size, ofs = le(data, 16), le(data, 56)
    for k, name in enumerate([b"1st-run", b"frame", b"Walk", b"walk", b"a_very_long_frame_x"[:16]]):
        at = ofs + k * size + 24
        data[at : at + 16] = name.ljust(16, b"\0")[:16]
    raw = md2_frame_names(bytes(data))
    qc = retromodel.qc_frames(bytes(data), name="odd.md2")
    check_numbering(qc, raw)
    issues = {d["frame"]: d["issue"] for d in qc.warning_details if "frame" in d}
    assert issues == {0: "not_identifier", 1: "directive", 3: "duplicate", 4: "too_long"}
    assert len(qc.warnings) == 4
    assert any("frame 1 \"frame\"" in w and "directive" in w for w in qc.warnings), qc.warnings


def test_modeldef_of_a_real_md2(corpus):
    path = corpus / "md2" / "assimpdeb_sydney.md2"
    data = path.read_bytes()
    frames = le(data, 40)
    m = retromodel.modeldef(path, actor="Sydney", height=64)
    actor, values, entries = check_modeldef(m.text, frames)
    assert actor == "Sydney" == m.actor
    assert values["model"] == ["0", "assimpdeb_sydney.md2"]
    assert values["path"] == ["models/sydney"] == [m.path]
    check_covers(entries, frames)
    # Frame 0 stands 64 map units tall on the floor (GZDoom divides the
    # height by pixel stretch 1.2 after Scale).
    low, high = md2_frame0_heights(data)
    scale = float(values["scale"][0])
    assert values["scale"] == [values["scale"][0]] * 3
    assert scale * (high - low) / 1.2 == pytest.approx(64, rel=1e-3)
    assert float(values["zoffset"][0]) == pytest.approx(-scale * low / 1.2, abs=1e-3)
    assert m.scale == pytest.approx(scale, rel=1e-3)
    # The sprites table names every FrameIndex's sprite frame.
    listed = {(s, chr(ord("A") + first + i)) for a in m.sprites for s, first, count in a["parts"] for i in range(count)}
    assert listed == {(e[0], e[1]) for e in entries}
    assert all(a["states"] in m.text for a in m.sprites)


def test_modeldef_of_a_compiled_md3_and_its_defaults(corpus):
    out = retromodel.compile_md3(corpus / "md2" / "assimpdeb_sydney.md2", name="sydney.md3")
    names = md3_frame_names(out.md3)
    m = retromodel.modeldef(out.md3, name="sydney.md3")
    actor, values, entries = check_modeldef(m.text, len(names))
    assert actor == "sydney" and values["model"] == ["0", "sydney.md3"]
    check_covers(entries, len(names))
    assert all(e[0].startswith("SY") for e in entries)
    # Bytes without a name: the model is called model.md3, never the bare
    # word `model`.
    check_modeldef(retromodel.modeldef(out.md3).text, len(names))


def test_modeldef_refuses_in_python_words(corpus):
    md2 = corpus / "md2" / "assimpdeb_sydney.md2"
    with pytest.raises(retromodel.Error, match=r"actor=.*class name"):
        retromodel.modeldef(md2, actor="2fort")
    with pytest.raises(retromodel.Error, match=r"height=-1"):
        retromodel.modeldef(md2, height=-1)
    with pytest.raises(retromodel.Error, match=r"path="):
        retromodel.modeldef(md2, path="Model")
    with pytest.raises(retromodel.Error, match=r"not MDL"):
        retromodel.modeldef(corpus / "mdl" / "c0burn_progs_ogre.mdl")
    with pytest.raises(retromodel.Error, match=r"no frames"):
        retromodel.qc_frames(corpus / "ms3d" / sorted(p.name for p in (corpus / "ms3d").glob("*.ms3d"))[0])


def md2_with_frame_count(data, count):
    """An MD2 whose frames are its frame 0 `count` times (header fields
    and the offsets after the frames moved to match)."""
    size, n, ofs = le(data, 16), le(data, 40), le(data, 56)
    frames = data[ofs : ofs + size] * count
    out = bytearray(data[:ofs] + frames + data[ofs + n * size :])
    delta = (count - n) * size
    struct.pack_into("<i", out, 40, count)
    for at in (44, 48, 52, 60, 64):
        if le(data, at) > ofs:
            struct.pack_into("<i", out, at, le(data, at) + delta)
    return bytes(out)


def test_modeldef_too_many_frames_advises_as_data(corpus):
    data = md2_with_frame_count((corpus / "md2" / "assimpdeb_sydney.md2").read_bytes(), 2901)
    assert le(data, 40) == 2901
    check_modeldef(retromodel.modeldef(md2_with_frame_count(data, 2900), name="x.md2").text, 2900)
    with pytest.raises(retromodel.Error) as e:
        retromodel.modeldef(data, name="x.md2")
    assert e.value.limit == {"quantity": "frames", "max": 2900, "actual": 2901, "over": 1}
    assert [r["remedy"] for r in e.value.remedies] == ["lower_fps", "fewer_animations"]
    assert "fps" in str(e.value) and "anims=" in str(e.value)
