"""Small helpers between retromodel and Blender: handing a GLB to
Blender's glTF importer, the scene's frame rate, writing a file
atomically, and whether objects move by their keys alone.
"""

import os
import tempfile

import bpy


def set_scene_fps(scene, fps):
    """Sets the scene's rate to ``fps`` (``fps`` over a whole ``render.fps``)."""
    whole = max(1, min(120, round(fps)))
    scene.render.fps = whole
    scene.render.fps_base = whole / fps


def import_glb(glb: bytes, name: str):
    """Hands retromodel's GLB to Blender's glTF importer (a temporary file:
    the importer reads paths only)."""
    _numpy_bool_alias()
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, name + ".glb")
        with open(path, "wb") as f:
            f.write(glb)
        return bpy.ops.import_scene.gltf(filepath=path)


def _numpy_bool_alias():
    """Debian's Blender 3.4 glTF add-on uses `np.bool`, an alias NumPy 1.24
    (Debian's) removed: restore it as the builtin it stood for, when gone."""
    import numpy as np  # noqa: PLC0415

    if "bool" not in np.__dict__:
        np.bool = bool


def _write_atomically(path, data):
    """Writes ``data`` to a temporary file beside ``path`` and renames it into
    place, so a failure never leaves a partial file."""
    folder = os.path.dirname(path) or "."
    os.makedirs(folder, exist_ok=True)  # md5/ beside an MD2
    fd, tmp = tempfile.mkstemp(dir=folder, prefix=".retromodel-", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def keys_say_all(objects):
    """Whether ``objects`` move by their keyframes alone: no object or pose
    bone constraint and no driver, so the glTF exporter can write the keys
    as they are rather than sample every frame."""
    for o in objects:
        if len(o.constraints) or (o.animation_data and len(o.animation_data.drivers)):
            return False
        if o.pose and any(len(b.constraints) for b in o.pose.bones):
            return False
    return True
