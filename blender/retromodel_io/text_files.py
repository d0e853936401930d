"""The text files an export can write beside the model: QuakeC's frame
list (MD2 and MDL exports) and GZDoom's MODELDEF block (MD2 and MD3
exports), made by retromodel's ``qc_frames`` and ``modeldef`` from the
model as written.

- ``NAME.qc``: ``$frame`` lines numbering the frames as QuakeC compilers
  do (``$name`` is the frame's number), for the mod's ``.qc`` source;
  frames whose names no compiler takes are declared renamed, reported as
  warnings.
- ``MODELDEF.NAME.txt``: the ``Model ACTOR { ... }`` block and, in its
  comment, the sprite frames each animation is for the actor's states.
  GZDoom reads every lump named MODELDEF, and a file at a pk3's root is
  the lump named by its name up to the first dot: put it there as it is.

Both are written beside the model as its skins are: replaced when they
exist (the file browser asks before replacing the model itself).
"""

import os

from bpy.props import BoolProperty, FloatProperty, StringProperty


class QcOption:
    """The export panel's QuakeC option (mixed into the MD2 and MDL
    exports)."""

    qc_file: BoolProperty(
        name="QuakeC frame list (.qc)",
        description=(
            "also write NAME.qc beside the model: $frame lines numbering its frames as QuakeC compilers do "
            "($name is the frame's number), one line per animation, for the mod's QuakeC source"
        ),
        default=False,
    )


class ModeldefOption:
    """The export panel's GZDoom options (mixed into the MD2 and MD3
    exports)."""

    modeldef_file: BoolProperty(
        name="GZDoom MODELDEF",
        description=(
            "also write MODELDEF.NAME.txt beside the model: GZDoom's Model block drawing each frame as a "
            "sprite frame (the comment lists each animation's sprite frames for the actor's states); "
            "put it at the pk3's root"
        ),
        default=False,
    )
    modeldef_actor: StringProperty(
        name="Actor",
        description="the MODELDEF's actor class (letters, digits and _, not a digit first; empty: the file's name)",
        default="",
    )
    modeldef_height: FloatProperty(
        name="Height",
        description="how tall frame 0 stands in GZDoom, in map units (a Doom player is 56)",
        default=56.0,
        min=0.01,
    )


def is_actor_name(name):
    """A ZScript/DECORATE class name: letters, digits and _, not a digit
    first."""
    return bool(name) and (name[0].isalpha() or name[0] == "_") and all(
        c.isascii() and (c.isalnum() or c == "_") for c in name
    )


def check(operator):
    """Refuses, before the model is compiled (nothing is written then),
    text file options that cannot work: ValueError in the panel's words."""
    if getattr(operator, "modeldef_file", False):
        if getattr(operator, "player", False) and getattr(operator, "filename_ext", "") == ".md3":
            raise ValueError('"GZDoom MODELDEF" and "Quake III player": a player\'s three parts are not one GZDoom model')
        actor = operator.modeldef_actor.strip()
        if actor and not is_actor_name(actor):
            raise ValueError(f'"Actor" {actor}: not a class name (letters, digits and _, not a digit first)')
        name = os.path.basename(operator.filepath)
        if '"' in name:
            raise ValueError(f"{name}: a MODELDEF cannot name a file with a quote in its name; choose another name")


def add(operator, rm, name, model, beside, warnings):
    """Adds the text files ``operator``'s options ask for to ``beside``
    (``{file name: bytes}``), made from ``model`` (the model's bytes, file
    ``name``), and their warnings to ``warnings``; returns ``(model,
    beside, warnings)`` as an export's compile does."""
    stem = os.path.splitext(name)[0]
    if getattr(operator, "qc_file", False):
        qc = rm.qc_frames(model, name=name)
        beside[f"{stem}.qc"] = qc.text.encode()
        warnings.extend({"message": f"{stem}.qc: {w}", "remedies": []} for w in qc.warnings)
    if getattr(operator, "modeldef_file", False):
        m = rm.modeldef(
            model,
            actor=operator.modeldef_actor.strip() or None,
            height=operator.modeldef_height,
            name=name,
        )
        beside[f"MODELDEF.{stem}.txt"] = m.text.encode()
    return model, beside, warnings
