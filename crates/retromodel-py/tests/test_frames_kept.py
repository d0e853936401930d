"""A frame format's frames are kept one for one between MD2, MDL and MD3
unless ``fps`` is given (issue 37, item 3): frame counts read from the
written files' own headers (MD2 ``num_frames`` at byte 40, MDL at 68, MD3
at 76, as id's headers lay them out), against the source's count in the
corpus facts."""

import struct

import retromodel


def frames(data: bytes) -> int:
    at = {b"IDP2": 40, b"IDPO": 68, b"IDP3": 76}[data[:4]]
    return struct.unpack_from("<i", data, at)[0]


def test_md2_to_md3_and_mdl_keeps_every_frame(corpus, facts):
    path = corpus / "md2" / "assimpdeb_sydney.md2"
    source = facts["md2/assimpdeb_sydney.md2"]["frames"]
    assert frames(path.read_bytes()) == source == 198
    md3 = retromodel.compile_md3(str(path))
    assert frames(md3.md3) == source
    palette = (corpus / "quake" / "palette.lmp").read_bytes()
    mdl = retromodel.compile_mdl(str(path), palette=palette)
    assert frames(mdl.mdl) == source
    # The MD3 back to MD2: the same frames again, with their names.
    back = retromodel.compile_md2(md3.md3)
    assert frames(back.md2) == source


def test_fps_given_resamples(corpus):
    path = corpus / "md2" / "assimpdeb_sydney.md2"
    source = frames(path.read_bytes())
    md3 = retromodel.compile_md3(str(path), fps=15)
    assert frames(md3.md3) > source
