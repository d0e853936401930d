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


def animations_from_zero(document, rest: bytes) -> bytes:
    """Moves each of ``document``'s animations to start at time 0 (its
    samplers' key times less the earliest of them), in the binary chunk
    ``rest`` (returned changed): Blender's glTF exporter times keys from
    the scene's frame 0, so an action keyed from frame 1 would start a
    frame late, and a compiler sampling from 0 would count a frame more."""
    data = bytearray(rest)
    views = document.get("bufferViews", [])
    accessors = document.get("accessors", [])
    moved = set()
    for animation in document.get("animations", []):
        inputs = {s["input"] for s in animation.get("samplers", []) if isinstance(s.get("input"), int)}
        inputs = [i for i in inputs if i < len(accessors) and i not in moved]
        times = {i: _floats(data, views, accessors[i]) for i in inputs}
        if not any(times.values()):
            continue
        start = min(min(t) for t in times.values() if t)
        if start == 0:
            continue
        for i, values in times.items():
            if values is None:
                continue
            values = [t - start for t in values]
            _put_floats(data, views, accessors[i], values)
            accessors[i]["min"], accessors[i]["max"] = [min(values)], [max(values)]
            moved.add(i)
    return bytes(data)


def _float_place(views, accessor):
    """Where a float SCALAR accessor's values are in the binary chunk
    (after its 8-byte header), or ``None``."""
    if accessor.get("componentType") != 5126 or accessor.get("type") != "SCALAR" or "bufferView" not in accessor:
        return None
    view = views[accessor["bufferView"]]
    if view.get("buffer", 0) != 0 or view.get("byteStride", 4) != 4:
        return None
    return 8 + view.get("byteOffset", 0) + accessor.get("byteOffset", 0)


def _floats(data, views, accessor):
    at = _float_place(views, accessor)
    if at is None or at + 4 * accessor["count"] > len(data):
        return None
    return list(struct.unpack_from(f"<{accessor['count']}f", data, at))


def _put_floats(data, views, accessor, values):
    struct.pack_into(f"<{len(values)}f", data, _float_place(views, accessor), *values)
