"""A faster export of a shape-key animated mesh (an imported MD2, or any
one mesh whose actions only move its shape keys).

Blender's glTF exporter spends half of an MD2's export sampling the
shape keys' curves in Python (every channel of every action, each frame;
``blender/bench_export.py`` measures it). Here the exporter writes the
mesh, its shape keys (positions and normals) and its materials, and the
animations are sampled as the exporter samples them (every frame from each
action's first key to its last, each curve evaluated there, times
``frame / render.fps``, linear) with NumPy and appended to the GLB: the
compiled MD2 is the same, byte for byte.

The curves are read through Blender 4.4+'s slotted actions (the action's
one layer, its one keyframe strip, the channel bag of the slot that
animates the shape keys) where Blender has them, and through the action's
own ``fcurves`` before (Blender 5 removed that legacy collection), so every
Blender from 4.2 on takes this path for an imported MD2.
"""

import bpy


# Blender 4.4 made every action a slotted (layered) one; 5.0 removed the
# legacy ``Action.fcurves``.
SLOTTED = bpy.app.version >= (4, 4, 0)


def _curves(action, slot):
    """The F-curves of ``action`` that animate the shape keys: in a slotted
    action (Blender 4.4+) those of ``slot`` (the slot the animation data or
    NLA strip uses) in the action's one layer and its one keyframe strip,
    when ``slot`` is the action's only slot; before 4.4 the action's
    ``fcurves``. ``None`` for any other layout (then Blender's exporter
    does it all)."""
    if not SLOTTED:
        curves = getattr(action, "fcurves", None)
        return list(curves) if curves is not None else None
    if slot is None or len(action.slots) != 1 or len(action.layers) != 1:
        return None
    (layer,) = action.layers
    if len(layer.strips) != 1 or layer.strips[0].type != "KEYFRAME":
        return None
    bag = layer.strips[0].channelbag(slot)
    return list(bag.fcurves) if bag is not None else None


def _actions(key):
    """``[(glTF animation name, action, its F-curves)]`` the glTF exporter
    would export for the shape keys ``key`` (its active action, and each NLA
    track of one unmuted strip, named after the track unless Blender named
    it), ordered by action name; ``None`` when it would merge or skip some,
    or an action's curves are not laid out as ``_curves`` reads them."""
    data = key.animation_data
    named = {}
    if data.action is not None:
        named[data.action.name] = (data.action.name, data.action, getattr(data, "action_slot", None))
    for track in data.nla_tracks:
        strips = [s for s in track.strips if s.action is not None and not s.mute]
        if len(strips) != 1:
            if track.strips:
                return None
            continue
        action = strips[0].action
        default = track.name.startswith("NlaTrack") or track.name.startswith("[Action Stash]")
        named[action.name] = (action.name if default else track.name, action, getattr(strips[0], "action_slot", None))
    names = [n for n, _, _ in named.values()]
    if len(set(names)) != len(names):
        return None
    out = []
    for a in sorted(named, key=str.lower):
        name, action, slot = named[a]
        curves = _curves(action, slot)
        if not curves:
            return None
        out.append((name, action, curves))
    return out


def eligible(objects):
    """The one mesh object of ``objects`` (what the export writes) when the
    fast export applies to it: no other object, no parent, modifier or
    object animation, shape keys animated by actions of shape-key values
    only. ``None`` otherwise (then Blender's exporter does it all)."""
    if len(objects) != 1:
        return None
    (obj,) = objects
    if obj.type != "MESH" or obj.parent is not None or len(obj.modifiers) or obj.data.shape_keys is None:
        return None
    if obj.animation_data is not None and (obj.animation_data.action or len(obj.animation_data.nla_tracks)):
        return None
    key = obj.data.shape_keys
    if key.animation_data is None or not key.use_relative or key.animation_data.drivers:
        return None
    actions = _actions(key)
    if not actions:
        return None
    paths = _key_paths(key)
    for _, _, curves in actions:
        if not all(curve.data_path in paths for curve in curves):
            return None
    return obj


def _key_paths(key):
    """``{data path of a shape key's value: its morph target index}``."""
    return {f'key_blocks["{bpy.utils.escape_identifier(b.name)}"].value': i - 1 for i, b in enumerate(key.key_blocks) if i > 0}


def sampled_animations(obj, fps):
    """The exporter's animations of ``obj``'s shape keys, sampled:
    ``[(name, times, weights)]``, ``times`` float32 ``(n,)``, ``weights``
    float32 ``(n, targets)`` (the shape keys after the basis, in order;
    keys no curve moves keep their value)."""
    import numpy as np  # noqa: PLC0415 (Blender ships NumPy)

    blocks = obj.data.shape_keys.key_blocks
    paths = _key_paths(obj.data.shape_keys)
    still = np.array([b.value for b in blocks[1:]], dtype=np.float32)
    out = []
    for name, _, curves in _actions(obj.data.shape_keys):
        # Each curve's range read once (an MD2's actions have a curve per
        # frame: 3,960 of them for faerie; every call into Blender counts).
        curves = [(paths[c.data_path], c, c.range()) for c in curves]
        start = min(r[0] for _, _, r in curves)
        end = max(r[1] for _, _, r in curves)
        frames = np.arange(start, end + 0.5, 1.0)
        frames = frames[frames <= end]
        listed = frames.tolist()
        weights = np.tile(still, (len(frames), 1))
        for target, curve, _ in curves:
            # A curve keyed on exactly the sampled frames (an import's)
            # passes through its keys there: read them in one call (into
            # float32, the keys' own type, which foreach_get copies as is).
            points = curve.keyframe_points
            co = np.empty(2 * len(points), dtype=np.float32)
            points.foreach_get("co", co)
            if len(co) == 2 * len(listed) and co[0::2].tolist() == listed and not len(curve.modifiers):
                weights[:, target] = co[1::2]
            else:
                evaluate = curve.evaluate
                weights[:, target] = [evaluate(f) for f in listed]
        out.append((name, (frames / fps).astype(np.float32), weights))
    return out


def add_animations(document, rest, node, animations):
    """Appends ``animations`` (``sampled_animations``) to the GLB's JSON
    ``document`` and binary chunk ``rest`` (its chunk header included),
    animating the weights of node ``node``. Returns the new ``rest``."""
    import struct  # noqa: PLC0415

    import numpy as np  # noqa: PLC0415

    if rest:
        (length, kind) = struct.unpack_from("<I4s", rest, 0)
        binary = bytearray(rest[8 : 8 + length])
        tail = rest[8 + length :]
    else:
        binary, tail = bytearray(), b""
    buffers = document.setdefault("buffers", [])
    if not buffers:
        buffers.append({"byteLength": 0})
    views = document.setdefault("bufferViews", [])
    accessors = document.setdefault("accessors", [])

    def accessor(array, kind, with_range):
        binary.extend(b"\0" * (-len(binary) % 4))
        views.append({"buffer": 0, "byteOffset": len(binary), "byteLength": array.nbytes})
        binary.extend(array.astype("<f4").tobytes())
        entry = {"bufferView": len(views) - 1, "componentType": 5126, "count": len(array), "type": kind}
        if with_range:
            entry["min"], entry["max"] = [float(array.min())], [float(array.max())]
        accessors.append(entry)
        return len(accessors) - 1

    made = document.setdefault("animations", [])
    for name, times, weights in animations:
        flat = np.ascontiguousarray(weights, dtype=np.float32).reshape(-1)
        sampler = {"input": accessor(times, "SCALAR", True), "interpolation": "LINEAR",
                   "output": accessor(flat, "SCALAR", False)}
        made.append({"name": name, "channels": [{"sampler": 0, "target": {"node": node, "path": "weights"}}],
                     "samplers": [sampler]})
    binary.extend(b"\0" * (-len(binary) % 4))
    buffers[0]["byteLength"] = len(binary)
    return struct.pack("<I4s", len(binary), b"BIN\0") + bytes(binary) + tail


def mesh_node(document):
    """The index of the one node with a mesh."""
    nodes = [i for i, n in enumerate(document.get("nodes", [])) if "mesh" in n]
    if len(nodes) != 1:
        raise ValueError("the fast export expected one mesh node")
    return nodes[0]
