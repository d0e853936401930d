"""The import panel's options: what goes to retromodel's conversion (an
MS3D timeline's clips), what is cut from its glTF before Blender's importer
reads it (animations), and what is done to Blender's data after (an MD2's
frame range, scale and fit height, an MD2's skins as materials or images).
"""

import os

import bpy
from mathutils import Matrix


def names_list(text):
    """``"a, b"`` as ``["a", "b"]`` (empty: ``[]``)."""
    return [n.strip() for n in text.split(",") if n.strip()]


def timeline_clips(info, clip_text, clip_actions, frame_range, animations):
    """The ``clips`` for ``Model.to_glb`` of a model with a timeline (MS3D,
    MilkShape ASCII), or ``None`` for the conversion's default (the clips
    the file stores, else the whole timeline as one animation).

    ``info``: the model's ``info()`` (its first clip is the whole timeline,
    the others those the file stores); ``clip_text``: the panel's clips,
    ``"name:first-last, ..."``; ``clip_actions``: each clip its own action
    (else one action of the timeline); ``frame_range``: ``(first, last)``
    or ``None``; ``animations``: the clip names to keep (empty: all)."""
    stored = info.get("clips") or []
    if not stored:
        return None
    whole = stored[0]
    given = [_clip(c) for c in names_list(clip_text)]
    clips = given or [(c["name"], c["first_frame"], c["last_frame"]) for c in stored[1:]]
    if not clip_actions or not clips:
        clips = [(whole["name"], whole["first_frame"], whole["last_frame"])]
    if animations:
        clips = [c for c in clips if c[0] in animations]
    if frame_range:
        first, last = frame_range
        clips = [(n, max(a, first), min(b, last)) for n, a, b in clips if a <= last and b >= first]
    if not given and clip_actions and not animations and not frame_range:
        return None
    if not clips:
        raise ValueError("no clip of the timeline is left by the panel's Animations and Frame range")
    return [f"{n}:{a:g}-{b:g}" for n, a, b in clips]


def _clip(text):
    """``"name:first-last"`` as ``(name, first, last)``; ``ValueError``
    worded for the panel otherwise."""
    name, _, frames = text.rpartition(":")
    first, _, last = frames.partition("-")
    try:
        first, last = float(first), float(last)
    except ValueError:
        first = last = -1.0
    if not name or not 0 <= first <= last:
        raise ValueError(f'"Clips": {text!r} is not name:first-last (frames, first not after last)')
    return name, first, last


def keep_animations(document, animations):
    """Drops the glTF ``document``'s animations not named in
    ``animations`` (a list; empty keeps all). Raises ``ValueError`` naming
    the model's animations when none is left."""
    if not animations:
        return
    found = document.get("animations", [])
    kept = [a for a in found if a.get("name") in animations]
    if not kept:
        names = ", ".join(a.get("name", "") for a in found) or "none"
        raise ValueError(f"no animation named {', '.join(animations)} (the model has: {names})")
    document["animations"] = kept


def fcurves(action):
    """Every F-curve of ``action``: ``action.fcurves`` up to Blender 4.x, the
    channel bags of its layers' strips in Blender 5's layered actions."""
    if hasattr(action, "fcurves"):
        return list(action.fcurves)
    return [c for layer in action.layers for strip in layer.strips for bag in strip.channelbags for c in bag.fcurves]


def _action_animation(action, names):
    """The recorded animation name ``action`` was made of (Blender's glTF
    importer may add the object's name after it)."""
    if action.name in names:
        return action.name
    prefixes = [n for n in names if action.name.startswith(n)]
    return max(prefixes, key=len) if prefixes else None


def name_actions(objects, record):
    """Names each action the import made after the animation it was made
    of: Blender's glTF importer puts every animation on an NLA track named
    after it, and names the action NAME_OBJECT (up to Blender 4.x) or NAME
    (5.x, one action whose slots move every object)."""
    names = {a["name"] for a in record["animations"] if a["name"]}
    for obj in objects:
        data = obj.animation_data
        if data is None:
            continue
        for track in data.nla_tracks:
            for strip in track.strips:
                if track.name in names and strip.action is not None and strip.action.name != track.name:
                    strip.action.name = track.name


def cut_md2_frames(actions, record, frame_range, scene_fps):
    """Cuts MD2 animations (``actions``, made by the import) to the
    model's frames ``first..=last`` (frame numbers as in the file, from 0):
    keys of other frames are removed, an action left without keys is
    removed, the kept keys move to the action's start. ``record``: the
    import's record (each animation's ``first_frame`` and ``fps``)."""
    first, last = frame_range
    animations = {a["name"]: a["extras"] for a in record["animations"]}
    for action in list(actions):
        name = _action_animation(action, animations)
        extras = animations.get(name) or {}
        if "first_frame" not in extras:
            continue
        step = scene_fps / (extras.get("fps") or scene_fps)
        curves = fcurves(action)
        start = min((k.co.x for c in curves for k in c.keyframe_points), default=0.0)

        def frame_of(x):
            return extras["first_frame"] + round((x - start) / step)

        kept = [k.co.x for c in curves for k in c.keyframe_points if first <= frame_of(k.co.x) <= last]
        if not kept:
            _forget(action)
            continue
        shift = min(kept) - start
        for curve in curves:
            points = curve.keyframe_points
            for k in reversed(list(points)):
                if not first <= frame_of(k.co.x) <= last:
                    points.remove(k)
            for k in points:
                k.co.x -= shift
                k.handle_left.x -= shift
                k.handle_right.x -= shift
            curve.update()


def _forget(action):
    """Removes ``action`` and the NLA tracks and active slots that hold it."""
    for key in bpy.data.shape_keys:
        data = key.animation_data
        if data is None:
            continue
        if data.action == action:
            data.action = None
        for track in list(data.nla_tracks):
            if any(s.action == action for s in track.strips):
                data.nla_tracks.remove(track)
    bpy.data.actions.remove(action)


def _mesh_height(objects):
    """The world-space height (Z extent) of ``objects``' meshes at rest
    (their vertices: an MD2's first frame, an MS3D's bind pose)."""
    zs = [(o.matrix_world @ v.co).z for o in objects if o.type == "MESH" for v in o.data.vertices]
    return max(zs) - min(zs) if zs else 0.0


def scale_objects(objects, scale, fit_height):
    """Scales the imported ``objects`` about the origin: so their meshes
    are ``fit_height`` tall (when given), else by ``scale``."""
    bpy.context.view_layer.update()
    factor = scale
    if fit_height:
        height = _mesh_height(objects)
        if height > 0:
            factor = fit_height / height
    if factor == 1.0:
        return
    matrix = Matrix.Scale(factor, 4)
    for root in [o for o in objects if o.parent is None or o.parent not in objects]:
        root.matrix_world = matrix @ root.matrix_world
    bpy.context.view_layer.update()


def _skin_file(folder, skin):
    """An image file for the skin path ``skin`` beside the model (its file
    name, or its stem with a usual image extension), or ``None``."""
    base = os.path.basename(skin.replace("\\", "/"))
    stem = os.path.splitext(base)[0]
    for name in [base] + [stem + e for e in (".png", ".tga", ".jpg", ".bmp")]:
        path = os.path.join(folder, name)
        if name and os.path.isfile(path):
            return path
    return None


def apply_md2_skins(objects, skins, size, chosen, mode, folder):
    """An MD2's skins (``skins``: the names its header lists) as Blender
    materials (``mode`` ``"MATERIALS"``: one per skin, named after it, the
    ``chosen`` one on the mesh, the others kept with a fake user) or images
    (``"IMAGES"``: one per skin, named after it, loaded from beside the
    model when there, else blank at the header's ``size``; the chosen one
    is the mesh material's image texture). Returns the skin applied."""
    if not skins:
        return None
    chosen = min(max(chosen, 0), len(skins) - 1)
    meshes = [o for o in objects if o.type == "MESH"]
    base = next((s.material for o in meshes for s in o.material_slots if s.material), None)
    if mode == "MATERIALS":
        made = []
        for i, skin in enumerate(skins):
            if i == chosen and base is not None:
                material = base
            else:
                material = base.copy() if base is not None else bpy.data.materials.new(skin)
                material.use_fake_user = i != chosen
            material.name = skin
            material["md2_skin"] = i
            made.append(material)
        for o in meshes:
            if not o.material_slots:
                o.data.materials.append(made[chosen])
            for s in o.material_slots:
                s.material = made[chosen]
        return skins[chosen]
    images = []
    for i, skin in enumerate(skins):
        path = _skin_file(folder, skin)
        image = None
        if path:
            try:
                image = bpy.data.images.load(path)
            except RuntimeError:
                image = None
        if image is None:
            image = bpy.data.images.new(skin, max(1, size[0]), max(1, size[1]))
        image.name = skin
        image.use_fake_user = True
        image["md2_skin"] = i
        images.append(image)
    material = base or bpy.data.materials.new("skin")
    material.use_nodes = True
    nodes = material.node_tree.nodes
    texture = next((n for n in nodes if n.type == "TEX_IMAGE"), None) or nodes.new("ShaderNodeTexImage")
    texture.image = images[chosen]
    shader = next((n for n in nodes if n.type == "BSDF_PRINCIPLED"), None)
    if shader is not None and not shader.inputs["Base Color"].is_linked:
        material.node_tree.links.new(texture.outputs["Color"], shader.inputs["Base Color"])
    for o in meshes:
        if not o.material_slots:
            o.data.materials.append(material)
    return skins[chosen]


def quake_palette(chosen, model_path, levels=4):
    """The bytes of the Quake palette that colours an MDL's skins: the
    panel's "Quake palette" file when one is chosen, else ``gfx/palette.lmp``
    (or ``palette.lmp``) found in the model's folder or one of the
    ``levels`` folders above it (``id1/progs/x.mdl`` finds
    ``id1/gfx/palette.lmp``); ``None`` when there is none (retromodel then
    uses its own)."""
    if chosen:
        path = bpy.path.abspath(chosen)
        try:
            with open(path, "rb") as f:
                return f.read()
        except OSError as e:
            raise ValueError(f'"Quake palette": {path}: {e.strerror or e}') from e
    folder = os.path.dirname(os.path.abspath(model_path))
    for _ in range(levels + 1):
        for candidate in (os.path.join(folder, "gfx", "palette.lmp"), os.path.join(folder, "palette.lmp")):
            if os.path.isfile(candidate):
                with open(candidate, "rb") as f:
                    return f.read()
        parent = os.path.dirname(folder)
        if parent == folder:
            break
        folder = parent
    return None
