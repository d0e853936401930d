"""`Model.to_glb(clips=...)`: an MS3D's timeline cut into the clips named,
each an animation as long as its frames at the file's rate (facts.json's
fps, the GLB's own accessors); a clip outside the timeline is an error."""

import json
import struct

import pytest

import retromodel


def animations(glb):
    (length,) = struct.unpack_from("<I", glb, 12)
    doc = json.loads(glb[20 : 20 + length])
    return [(a["name"], max(doc["accessors"][s["input"]]["max"][0] for s in a["samplers"])) for a in doc["animations"]]


def test_clips_cut_the_timeline(corpus, facts):
    name = "ms3d/glscene_Woman4.ms3d"
    model = retromodel.load(str(corpus / name))
    fps, total = facts[name]["fps"], facts[name]["total_frames"]
    assert [n for n, _ in animations(model.to_glb())] == ["timeline"]
    got = animations(model.to_glb(clips=["a:1-100", "b:100-400"]))
    assert [n for n, _ in got] == ["a", "b"]
    assert got[0][1] == pytest.approx(99 / fps, abs=1e-4) and got[1][1] == pytest.approx(300 / fps, abs=1e-4)
    with pytest.raises(retromodel.Error):
        model.to_glb(clips=[f"late:1-{total + 100}"])
    with pytest.raises(retromodel.Error):
        model.to_glb(clips=["no range"])
