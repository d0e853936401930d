"""The MD2 vertex of every vertex (retromodel's ``_MD2_VERTEX`` glTF
attribute) through Blender and back, so that exporting an unchanged MD2
gives its quantised frames back byte for byte.

- Import: Blender's glTF importer before 4.x drops application attributes
  (names starting with ``_``). ``restore`` puts ``_MD2_VERTEX`` on the
  imported mesh as an integer point attribute, matching Blender's vertices
  to glTF's as the importer makes them (per primitive, the vertices its
  indices use, in index order; primitives one after the other). When the
  importer kept the attribute itself, or the counts do not match, nothing
  is done.
- Export: Blender's glTF exporter (``export_attributes=True``) writes an
  integer attribute as FLOAT (glTF has no signed integer attributes);
  ``as_integers`` rewrites ``_MD2_VERTEX`` as UNSIGNED_INT, the scalar
  integers retromodel's compiler reads. The compiler still checks the
  mesh against the record and bakes afresh when it changed.
"""

import struct

NAME = "_MD2_VERTEX"
_COMPONENTS = {5120: "b", 5121: "B", 5122: "h", 5123: "H", 5125: "I", 5126: "f"}
_TRIANGLES = 4


def _read(document, binary, index):
    """Accessor ``index`` of ``document`` as a flat NumPy array (scalars
    and plain buffer views only), or ``None``."""
    import numpy as np  # noqa: PLC0415 (Blender ships NumPy)

    accessor = document["accessors"][index]
    kind = _COMPONENTS.get(accessor.get("componentType"))
    if kind is None or accessor.get("type") != "SCALAR" or "bufferView" not in accessor or "sparse" in accessor:
        return None
    view = document["bufferViews"][accessor["bufferView"]]
    size, count = struct.calcsize(kind), accessor["count"]
    stride = view.get("byteStride") or size
    start = view.get("byteOffset", 0) + accessor.get("byteOffset", 0)
    if view.get("buffer", 0) != 0 or stride < size or count < 1 or start + stride * (count - 1) + size > len(binary):
        return None
    # (Attribute elements are 4-byte aligned: a uint16 one has stride 4.)
    return np.ndarray((count,), dtype="<" + kind, buffer=binary, offset=start, strides=(stride,)).copy()


def _binary(rest):
    """The binary chunk's bytes of a GLB's bytes after its JSON chunk."""
    if len(rest) < 8:
        return b""
    (length, kind) = struct.unpack_from("<I4s", rest, 0)
    return rest[8 : 8 + length] if kind == b"BIN\0" else b""


def blender_values(document, rest):
    """``_MD2_VERTEX`` of the GLB's one mesh in the order of the vertices
    Blender's importer makes (without merging), or ``None`` when the GLB
    has no such attribute or more than one mesh."""
    import numpy as np  # noqa: PLC0415

    meshes = document.get("meshes", [])
    if len(meshes) != 1:
        return None
    binary = _binary(rest)
    out = []
    for primitive in meshes[0].get("primitives", []):
        attributes = primitive.get("attributes", {})
        if NAME not in attributes or "POSITION" not in attributes or primitive.get("mode", _TRIANGLES) != _TRIANGLES:
            return None
        values = _read(document, binary, attributes[NAME])
        if values is None:
            return None
        if "indices" in primitive:
            indices = _read(document, binary, primitive["indices"])
            if indices is None:
                return None
        else:
            indices = np.arange(document["accessors"][attributes["POSITION"]]["count"])
        used = np.unique(indices[: len(indices) // 3 * 3])
        if len(used) and used[-1] >= len(values):
            return None
        out.append(values[used])
    return np.concatenate(out).astype(np.int32) if out else None


def restore(document, rest, objects):
    """Adds ``_MD2_VERTEX`` to the mesh of the one mesh object of
    ``objects`` (just imported from the GLB ``document``/``rest``) unless
    Blender's importer kept it. Returns whether the mesh has it."""
    meshes = [o.data for o in objects if o.type == "MESH"]
    if len(meshes) != 1:
        return False
    mesh = meshes[0]
    if mesh.attributes.get(NAME) is not None:
        return True
    values = blender_values(document, rest)
    if values is None or len(values) != len(mesh.vertices):
        return False
    attribute = mesh.attributes.new(NAME, "INT", "POINT")
    attribute.data.foreach_set("value", values.tolist())
    return True


def in_scene(objects):
    """Whether a mesh of ``objects`` has ``_MD2_VERTEX`` (then the export
    asks Blender's exporter for attributes)."""
    return any(o.type == "MESH" and o.data.attributes.get(NAME) is not None for o in objects)


def as_integers(document, rest):
    """Blender's exported ``_MD2_VERTEX`` made what retromodel's compiler
    reads: Blender 3.4 names an attribute ``_`` + its name in capitals
    (``__MD2_VERTEX``), and writes an integer one as FLOAT (glTF has no
    signed integer attributes); it becomes ``_MD2_VERTEX``, UNSIGNED_INT
    (appended to the binary chunk) when its values are whole numbers in
    0..2^32. The other application attributes Blender wrote (``_`` names)
    are dropped, as they were before the export asked for attributes.
    Returns the new ``rest``; ``document`` is changed in place."""
    import numpy as np  # noqa: PLC0415

    binary = bytearray(_binary(rest))
    tail = rest[8 + len(binary) :] if binary else rest
    changed = False
    for mesh in document.get("meshes", []):
        for primitive in mesh.get("primitives", []):
            attributes = primitive.get("attributes", {})
            index = attributes.get(NAME, attributes.get("_" + NAME))
            for key in [k for k in attributes if k.startswith("_")]:
                del attributes[key]
            if index is None:
                continue
            accessor = document["accessors"][index]
            if accessor.get("componentType") != 5126:
                attributes[NAME] = index
                continue
            values = _read(document, bytes(binary), index)
            if values is None or not np.all(np.isfinite(values)):
                continue
            if np.any(values != np.round(values)) or np.any(values < 0) or np.any(values >= 2**32):
                continue
            binary.extend(b"\0" * (-len(binary) % 4))
            document["bufferViews"].append(
                {"buffer": 0, "byteOffset": len(binary), "byteLength": 4 * len(values), "target": 34962}
            )
            binary.extend(values.astype("<u4").tobytes())
            attributes[NAME] = len(document["accessors"])
            document["accessors"].append(
                {"bufferView": len(document["bufferViews"]) - 1, "componentType": 5125, "count": len(values), "type": "SCALAR"}
            )
            changed = True
    if not changed:
        return rest
    binary.extend(b"\0" * (-len(binary) % 4))
    document["buffers"][0]["byteLength"] = len(binary)
    return struct.pack("<I4s", len(binary), b"BIN\0") + bytes(binary) + tail
