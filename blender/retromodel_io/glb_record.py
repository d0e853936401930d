"""Reading and rewriting the JSON of a binary glTF: what an imported
model's glTF (retromodel's own) says that Blender's glTF add-on does not
keep (its extras, its animations' names, order and extras), and putting
it back into Blender's export. Plain Python, no Blender.
"""

import json
import struct


# The scene property that remembers what Blender's glTF add-on drops on its
# way in and out (the file's extras, its animations' order and extras), so
# that exporting an imported model gives its animations back in their order,
# with their places on an MS3D's timeline.
RECORD_KEY = "retromodel_import"


def glb_json(glb: bytes):
    """The JSON chunk of a binary glTF, and the bytes after it."""
    if len(glb) < 20 or glb[:4] != b"glTF":
        raise ValueError("not a binary glTF")
    (length,) = struct.unpack_from("<I", glb, 12)
    if glb[16:20] != b"JSON" or 20 + length > len(glb):
        raise ValueError("binary glTF without a JSON chunk")
    return json.loads(glb[20 : 20 + length]), glb[20 + length :]


def glb_with_json(document, rest: bytes) -> bytes:
    """A binary glTF of ``document`` and the chunks ``rest`` (the binary buffer)."""
    text = json.dumps(document, separators=(",", ":")).encode()
    text += b" " * (-len(text) % 4)
    total = 12 + 8 + len(text) + len(rest)
    return struct.pack("<4sII", b"glTF", 2, total) + struct.pack("<I4s", len(text), b"JSON") + text + rest


def glb_record(glb: bytes):
    """What an imported model's glTF (retromodel's own) says that Blender's
    glTF add-on does not keep: its extras, and each animation's name and
    extras in order; ``fps``: the rate its animations were made at."""
    document, _ = glb_json(glb)
    extras = document.get("extras") if isinstance(document.get("extras"), dict) else {}
    animations = [
        {"name": a.get("name", ""), "extras": a.get("extras") if isinstance(a.get("extras"), dict) else {}}
        for a in document.get("animations", [])
    ]
    rates = [extras.get("fps")] + [a["extras"].get("fps") for a in animations]
    fps = next((r for r in rates if isinstance(r, (int, float)) and r > 0), None)
    return {"extras": extras, "animations": animations, "fps": fps}


def restore_record(glb: bytes, record) -> bytes:
    """Blender's glTF export ``glb`` with what the import recorded put back:
    the file's extras (when the export has none), the recorded animations'
    extras, and the recorded animations first, in their order (animations
    made in Blender follow in Blender's order)."""
    document, rest = glb_json(glb)
    if record.get("extras") and not document.get("extras"):
        document["extras"] = record["extras"]
    animations = document.get("animations", [])
    order = {a["name"]: (i, a["extras"]) for i, a in enumerate(record.get("animations", []))}
    for a in animations:
        known = order.get(a.get("name"))
        if known and known[1] and not a.get("extras"):
            a["extras"] = known[1]
    if animations:
        document["animations"] = sorted(
            animations, key=lambda a: order.get(a.get("name"), (len(order), None))[0]
        )
    return glb_with_json(document, rest)
