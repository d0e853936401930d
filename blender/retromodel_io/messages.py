"""retromodel's errors and warnings in the export panel's words (its
advice is data: each remedy is worded with the label of the setting that
applies it, or the edit in Blender's menus), and the progress indicator
over an export. Plain Python: the operator's properties are read from its
class's annotations.
"""


def _label(operator, prop):
    """The panel label of ``operator``'s (an operator or its class)
    property ``prop``, quoted, or ``None`` when the panel has no such
    property."""
    cls = operator if isinstance(operator, type) else type(operator)
    prop = getattr(cls, "__annotations__", {}).get(prop)
    name = getattr(prop, "keywords", {}).get("name")
    return f'"{name}"' if name else None


# Remedies no export setting applies: the edit in Blender's own menus.
_BLENDER_EDITS = {
    "smaller_textures": "scale the material's images down (Image Editor: Image > Resize), or use fewer",
    "merge_vertices": "merge vertices (Edit Mode: Mesh > Clean Up > Merge by Distance)",
    "decimate": "add a Decimate modifier",
    "split_model": "export the objects as several models (Selected only)",
    "fewer_seams": "mark fewer UV seams, or decimate",
    "join_meshes": "join the objects that share a material (Object > Join)",
    "merge_materials": "give the faces fewer materials",
    "fewer_joints": "remove or merge bones (an armature's bones and every animated object are joints)",
}


def cls_of(operator):
    """An operator's class (``operator`` is one or its class)."""
    return operator if isinstance(operator, type) else type(operator)


def word_remedy(operator, remedy):
    """One remedy of retromodel's advice (a dict of ``Error.remedies`` or
    ``warning_details``) in the export panel's words: the label of the
    setting that applies it; edits of the model keep retromodel's words."""
    kind = remedy["remedy"]
    label = {
        "lower_fps": "fps",
        "fewer_animations": "anims",
        "engine": "engine",
        "skin_size": "skin_size",
        "skin_name": "skin_name",
        "palette": "palette",
        "quake_palette": "quake_palette" if "quake_palette" in getattr(cls_of(operator), "__annotations__", {}) else "palette",
        "skin_png_or_tga": "skin_format",
        "fit_height": "fit_height",
    }.get(kind)
    if label is None and kind in _BLENDER_EDITS:
        return _BLENDER_EDITS[kind]
    name = _label(operator, label) if label else None
    if name is None and kind == "fewer_animations":
        # An export without "Animations" (IQM: every action goes out).
        return "export fewer actions (delete the ones not wanted)"
    if name is None:
        return remedy["text"]
    if kind == "lower_fps":
        return f"lower {name}"
    if kind == "fewer_animations":
        return f"list fewer actions in {name}"
    if kind == "engine":
        allows = "no limit" if remedy["allows"] is None else f"allows {remedy['allows']}"
        return f"set {name} to {remedy['engine']} ({allows})"
    if kind == "skin_size":
        return f"set {name}, or give the material an image texture"
    if kind == "skin_name":
        return f"give one short {name}"
    if kind == "quake_palette":
        return f"choose a {name} (Quake's gfx/palette.lmp, which retromodel does not ship)"
    if kind == "palette":
        if getattr(operator, "filename_ext", None) == ".mdl":
            return f"choose a {name} (Quake's gfx/palette.lmp)"
        return f"choose a {name} (Quake II's pics/colormap.pcx, which retromodel does not ship)"
    if kind == "fit_height":
        return f"set {name} to {remedy['units']}"
    return f"set {name} to PNG or TGA (for yquake2, Q2PRO, KMQuake2, UFO:AI)"


def advice_text(operator, message, remedies):
    """``message`` and its remedies in the panel's words."""
    if not remedies:
        return message
    return message + "; " + ", or ".join(word_remedy(operator, r) for r in remedies)


def error_text(operator, error):
    """An exception as the panel words it: retromodel's errors carry their
    advice as data (``reason``, ``remedies``), worded with the panel's
    labels instead of the Python keywords of their message."""
    remedies = getattr(error, "remedies", None)
    reason = getattr(error, "reason", None)
    if remedies is None or reason is None:
        return str(error)
    return advice_text(operator, reason, remedies)


class Progress:
    """Blender's progress indicator over an export, from 0 to 1 (the
    window manager's ``progress_begin/update/end``; only where there is a
    window: background mode has none). ``steps`` keeps ``(fraction,
    stage)`` of the last export, which headless tests read."""

    last_steps = []

    def __init__(self, context):
        wm = getattr(context, "window_manager", None)
        self.wm = wm if wm is not None and getattr(context, "window", None) is not None else None
        self.steps = []

    def __enter__(self):
        Progress.last_steps = self.steps
        if self.wm is not None:
            self.wm.progress_begin(0, 1000)
        return self

    def step(self, fraction, stage):
        self.steps.append((fraction, stage))
        if self.wm is not None:
            self.wm.progress_update(int(fraction * 1000))

    def __exit__(self, *_):
        if self.wm is not None:
            self.wm.progress_end()
        return False
