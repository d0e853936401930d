"""Blender add-on: Quake MDL, Quake II MD2, Quake III MD3, MilkShape 3D and
Inter-Quake Models through retromodel.

Import (File > Import > Quake MDL / Quake II MD2 / Quake III MD3 /
MilkShape 3D, or Inter-Quake Model): the model is converted by
retromodel to binary glTF in memory and handed to Blender's own glTF
importer (MDL, MD2 and MD3 frames become shape keys with their
animations, an MDL's frame groups animations at their intervals and its
palette-indexed skins images through the Quake palette; an MD3's tags
empties, and a Quake III player's three parts one model joined at its
tags with animation.cfg's animations; MS3D skeletons an armature with
its actions; an IQM's joints an armature, each animation an action named
as in the file). The side panel chooses the animations, a frame range,
scale or fit height, the Quake palette, how an MD2's skins come in and
which is shown, an MD3's skin set and whole player, and whether an
MS3D's clips become separate actions (import_options.py).

Export (File > Export > Quake MDL / Quake II MD2 / Quake III MD3 /
MilkShape 3D MS3D / Inter-Quake Model): the scene goes out through
Blender's glTF exporter and retromodel compiles it into an MDL (its skin
quantised to the Quake palette, the effect flags, sync type and eye
position of the panel), an MD2 and its skin, an MD3 (or a Quake III
player's three files, animation.cfg and skins), or an MS3D (armature,
weights, every action as a clip on MilkShape's timeline) and its
textures, or an IQM (every action an animation from its first key, at
the panel's frame rate, looping or not), as ``retromodel convert x.glb
x.mdl`` / ``x.md2`` / ``x.md3`` / ``x.ms3d`` / ``x.iqm`` do. MDL and MD2
exports of one shape-key animated mesh sample the shape keys themselves
(fast_export.py); exports move Blender's progress indicator.

The ``retromodel`` Python package (the wheel from crates/retromodel-py)
must be importable from Blender's Python: install it there, or put the
folder holding it in the RETROMODEL_PYTHONPATH environment variable.
"""

import json
import os
import sys
import tempfile

import bpy
from bpy.props import (
    BoolProperty,
    EnumProperty,
    FloatProperty,
    FloatVectorProperty,
    IntVectorProperty,
    StringProperty,
)
from bpy_extras.io_utils import ExportHelper

from . import fast_export, import_options, text_files, vertex_map
from .glb_record import RECORD_KEY, animations_from_zero, glb_json, glb_with_json, restore_record
from .importer import ImportRetromodel
from .messages import Progress, advice_text, error_text
from .scene_tools import _numpy_bool_alias, _write_atomically, keys_say_all

# Whether an MD2 export of one shape-key animated mesh samples its shape
# keys itself (fast_export.py), and what else it asks of Blender's glTF
# exporter then; blender/bench_export.py changes them to compare.
FAST_EXPORT = True
FAST_GLTF = {}
# Blender's glTF exporter takes `export_attributes` from 3.4 on (older ones
# refuse the keyword).
EXPORT_ATTRIBUTES = bpy.app.version >= (3, 4, 0)

bl_info = {
    "name": "retromodel: Quake MDL, MD2, MD3, MilkShape 3D and IQM",
    "author": "retromodel",
    "version": (0, 1, 0),
    "blender": (3, 4, 0),
    "location": "File > Import / Export",
    "description": "Import MDL, MD2, MD3 (a whole Quake III player too), MS3D, MilkShape ASCII and IQM; export MDL, MD2, MD3, MS3D and IQM (via glTF and retromodel)",
    "category": "Import-Export",
}


def _retromodel():
    """The retromodel package, found on sys.path or in RETROMODEL_PYTHONPATH."""
    extra = os.environ.get("RETROMODEL_PYTHONPATH")
    if extra:
        for folder in extra.split(os.pathsep):
            if folder and folder not in sys.path:
                sys.path.append(folder)
    import retromodel  # noqa: PLC0415 (imported on use, so the add-on registers without it)

    return retromodel


def export_through_gltf(operator, compile_model):
    """Writes the scene through Blender's glTF exporter (to a temporary GLB),
    has ``compile_model(rm, glb_path, name)`` make ``(model bytes, {name:
    bytes} of files beside it, warning details)`` (and, after them, notes
    for Blender's report area as information) and writes them beside
    ``operator.filepath``; errors and warnings go to Blender's report area,
    their advice worded with the panel's labels. Custom properties go into
    the GLB as extras (Blender's importer made them of the extras
    retromodel's import wrote)."""
    try:
        rm = _retromodel()
    except ImportError as e:
        operator.report({"ERROR"}, f"the retromodel package is not importable: {e}")
        return {"CANCELLED"}
    _numpy_bool_alias()
    with Progress(bpy.context) as progress, tempfile.TemporaryDirectory() as tmp:
        return _export(operator, compile_model, rm, progress, tmp)


def _export(operator, compile_model, rm, progress, tmp):
    """The steps of ``export_through_gltf``, in the temporary folder ``tmp``."""
    glb = os.path.join(tmp, "scene.glb")
    # Custom properties go out as extras: an imported MD2's record (skin
    # names and size, frame names and grids), an imported MS3D's names
    # as stored (GBK, bytes after the NUL, a `none` parent).
    progress.step(0.05, "glTF")
    scene = bpy.context.scene
    exported = [
        o
        for o in scene.objects
        if o.type not in ("CAMERA", "LIGHT") and (o.select_get() or not operator.use_selection)
    ]
    fast = getattr(operator, "fast_shape_keys", False) and FAST_EXPORT and fast_export.eligible(exported)
    bpy.ops.export_scene.gltf(
        filepath=glb,
        export_format="GLB",
        use_selection=operator.use_selection,
        export_extras=True,
        # Application attributes: an imported MD2's `_MD2_VERTEX`.
        **({"export_attributes": True} if EXPORT_ATTRIBUTES and vertex_map.in_scene(exported) else {}),
        # The fast export samples the shape keys' animations itself
        # (fast_export.py).
        **({"export_animations": False, **FAST_GLTF} if fast else {}),
        # A Quake III player's actions keep their keys' own times (an
        # imported player's frames at 13, 15, 20, 25 fps): sampling them
        # at the scene's rate would move its frames. Unless something
        # moves that keys alone do not say (constraints, drivers): then
        # Blender samples it.
        **({"export_force_sampling": False} if getattr(operator, "player", False) and keys_say_all(exported) else {}),
    )
    if fast:
        progress.step(0.5, "shape keys")
        with open(glb, "rb") as f:
            document, rest = glb_json(f.read())
        animations = fast_export.sampled_animations(fast, scene.render.fps)
        rest = fast_export.add_animations(document, rest, fast_export.mesh_node(document), animations)
        with open(glb, "wb") as f:
            f.write(glb_with_json(document, rest))
    progress.step(0.7, "compile")
    recorded = bpy.context.scene.get(RECORD_KEY)
    with open(glb, "rb") as f:
        document, rest = glb_json(f.read())
    rest = vertex_map.as_integers(document, rest)
    restored = glb_with_json(document, rest)
    if recorded:
        restored = restore_record(restored, json.loads(recorded))
    with open(glb, "wb") as f:
        f.write(restored)
    try:
        model, beside, warnings, *notes = compile_model(rm, glb, os.path.basename(operator.filepath))
    except (ValueError, OSError) as e:
        operator.report({"ERROR"}, error_text(operator, e))
        return {"CANCELLED"}
    progress.step(0.95, "write")
    folder = os.path.dirname(operator.filepath)
    for name, data in beside.items():
        _write_atomically(os.path.join(folder, name), data)
    _write_atomically(operator.filepath, model)
    progress.step(1.0, "done")
    for w in warnings:
        operator.report({"WARNING"}, advice_text(operator, w["message"], w["remedies"]))
    for note in notes:
        operator.report({"INFO"}, note)
    return {"FINISHED"}


class ExportMd2(bpy.types.Operator, ExportHelper, text_files.QcOption, text_files.ModeldefOption):
    """Export the scene as a Quake II MD2 (and its skin)"""

    bl_idname = "export_scene.retromodel_md2"
    bl_label = "Export MD2"

    filename_ext = ".md2"
    filter_glob: StringProperty(default="*.md2", options={"HIDDEN"})
    fps: FloatProperty(name="Frames per second", default=10.0, min=0.1, max=1000.0)
    engine: EnumProperty(
        name="Engine",
        items=[(e, e, f"meet {e}'s limits") for e in ("quake2", "yquake2", "q2pro", "kmquake2", "ufoai")],
        default="quake2",
    )
    grid: EnumProperty(
        name="Grid",
        items=[
            ("frame", "Per frame", "each frame its own 8-bit grid (smallest error)"),
            ("animation", "Per animation", "still vertices do not wobble within an animation"),
            ("model", "Whole model", "one grid for every frame"),
        ],
        default="animation",
    )
    player: BoolProperty(name="Player table", description="lay out the 198-frame Quake II player table")
    anims: StringProperty(
        name="Animations",
        description="the actions to bake, comma-separated, in this order (empty: all)",
        default="",
    )
    scale: FloatProperty(
        name="Scale", description="multiply Blender's units by this (0: use Fit height or 1)", default=0.0, min=0.0
    )
    fit_height: FloatProperty(
        name="Fit height",
        description="scale so the model is this many Quake units tall (a player is about 56; 0: off)",
        default=0.0,
        min=0.0,
    )
    skin_format: EnumProperty(
        name="Skin format",
        items=[
            ("auto", "Automatic", "PCX with a palette, else PNG"),
            ("pcx", "PCX", "8-bit PCX in the palette (every engine; the only one id's loads)"),
            ("png", "PNG", "yquake2, Q2PRO, KMQuake2, UFO:AI"),
            ("tga", "TGA", "yquake2, Q2PRO, KMQuake2, UFO:AI"),
        ],
        default="auto",
    )
    palette: StringProperty(
        name="Palette", description="a PCX such as baseq2/pics/colormap.pcx, or 768 bytes of RGB", subtype="FILE_PATH"
    )
    skin_name: StringProperty(
        name="Skin name",
        description="the skin path written in the model, e.g. players/NAME/skin.pcx (empty: the file's name)",
        default="",
    )
    skin_size: IntVectorProperty(
        name="Skin size",
        description="the skin's width and height in pixels when no material has an image (0: automatic)",
        size=2,
        default=(0, 0),
        min=0,
        max=65536,
    )
    rerelease_md5: BoolProperty(
        name="Rerelease MD5",
        description=(
            "also write the Quake II rerelease's MD5 replacement beside the MD2 (md5/NAME.md5mesh and "
            ".md5anim, frame for frame the MD2's; needs an armature or animated objects, not shape keys)"
        ),
        default=False,
    )
    use_selection: BoolProperty(name="Selected only", default=False)

    fast_shape_keys = True

    def invoke(self, context, event):
        self._frame_grid_for_imported_md2(context)
        return super().invoke(context, event)

    def execute(self, context):
        self._frame_grid_for_imported_md2(context)
        return export_through_gltf(self, self.compile)

    def _frame_grid_for_imported_md2(self, context):
        """An imported MD2 (a mesh with its vertex map) exports on its
        own per-frame grids unless "Grid" was chosen: then an unchanged
        model's frames come back as they were (shared grids bake afresh)."""
        if not self.properties.is_property_set("grid") and vertex_map.in_scene(context.scene.objects):
            self.grid = "frame"

    def compile(self, rm, glb, name):
        text_files.check(self)
        palette = None
        if self.palette:
            with open(bpy.path.abspath(self.palette), "rb") as f:
                palette = f.read()
        anims = [a.strip() for a in self.anims.split(",") if a.strip()] or None
        out = rm.compile_md2(
            glb,
            fps=self.fps,
            engine=self.engine,
            grid=self.grid,
            player=self.player,
            anims=anims,
            scale=self.scale or None,
            fit_height=self.fit_height or None,
            skin_format=None if self.skin_format == "auto" else self.skin_format,
            palette=palette,
            skin_name=self.skin_name or None,
            skin_size=tuple(self.skin_size) if min(self.skin_size) > 0 else None,
            name=name,
        )
        beside, warnings = dict(out.skins), list(out.warning_details)
        if self.rerelease_md5:
            # The rerelease loads md5/STEM.md5mesh and .md5anim beside
            # STEM.md2 (Q2PRO src/refresh/models.c, MOD_LoadMD5); frame k
            # of the anim is frame k of this MD2 (same keywords).
            stem = os.path.splitext(name)[0]
            md5 = rm.compile_md5(
                glb,
                fps=self.fps,
                player=self.player,
                anims=anims,
                scale=self.scale or None,
                fit_height=self.fit_height or None,
                name=f"{stem}.md5mesh",
            )
            # Q2PRO draws the MD5 with each MD2 skin looked up in md5/
            # beside it (models.c, MD5_LoadSkins).
            beside.update({f"md5/{n}": data for n, data in out.skins.items()})
            beside[f"md5/{stem}.md5mesh"] = md5.md5mesh
            beside.update({f"md5/{n}": data for n, data in md5.files.items()})
            warnings += md5.warning_details
        return text_files.add(self, rm, name, out.md2, beside, warnings)


# The MDL header's effect flags (id's EF_* in model.h), as the panel names
# them and compile_mdl's ``flags`` takes them.
MDL_FLAGS = [
    ("rocket", "Rocket trail", "leaves a rocket's trail of fire and smoke"),
    ("grenade", "Grenade trail", "leaves a grenade's trail of smoke"),
    ("gib", "Blood trail", "leaves a trail of blood (gibs)"),
    ("rotate", "Rotate", "spins in place (items and weapons on the floor)"),
    ("tracer", "Green tracer", "leaves a green tracer (the scrag's spit)"),
    ("zombie_gib", "Zombie blood", "leaves a smaller trail of blood (zombie gibs)"),
    ("tracer2", "Orange tracer", "leaves an orange tracer (the hell knight's spikes)"),
    ("tracer3", "Purple tracer", "leaves a purple tracer (the vore's ball)"),
]


class ExportMdl(bpy.types.Operator, ExportHelper, text_files.QcOption):
    """Export the scene as a Quake MDL (its skin quantised to the Quake palette)"""

    bl_idname = "export_scene.retromodel_mdl"
    bl_label = "Export MDL"

    filename_ext = ".mdl"
    filter_glob: StringProperty(default="*.mdl", options={"HIDDEN"})
    fps: FloatProperty(name="Frames per second", default=10.0, min=0.1, max=1000.0)
    anims: StringProperty(
        name="Animations",
        description="the actions to bake, comma-separated, in this order (empty: all)",
        default="",
    )
    frame_groups: StringProperty(
        name="Frame groups",
        description=(
            "actions written as frame groups, comma-separated: one frame QuakeC selects, whose frames the "
            "engine plays by itself at their times (a torch's flicker; empty: none)"
        ),
        default="",
    )
    scale: FloatProperty(
        name="Scale", description="multiply Blender's units by this (0: use Fit height or 1)", default=0.0, min=0.0
    )
    fit_height: FloatProperty(
        name="Fit height",
        description="scale so the model is this many Quake units tall (a player is about 56; 0: off)",
        default=0.0,
        min=0.0,
    )
    palette: StringProperty(
        name="Quake palette",
        description="Quake's gfx/palette.lmp (768 bytes of RGB) the skin is quantised to (needed: retromodel does "
        "not ship it; empty: gfx/palette.lmp beside the .blend or the exported file, or in a folder above)",
        subtype="FILE_PATH",
    )
    engine: EnumProperty(
        name="Engine",
        items=[("quake", "quake", "meet id's Quake's limits (1024 vertices, 2048 triangles, 256 frames)")]
        + [
            (e, e, f"meet {e}'s limits")
            for e in ("glquake", "quakespasm", "quakespasm-spiked", "ironwail", "vkquake", "fte", "quake-rerelease")
        ],
        default="quake",
    )
    flags: EnumProperty(
        name="Effects",
        description="the effect flags in the header: trails and rotation the engine adds to the model",
        items=MDL_FLAGS,
        options={"ENUM_FLAG"},
        default=set(),
    )
    sync_type: EnumProperty(
        name="Sync type",
        items=[
            ("sync", "Synchronised", "frame groups and skin groups play in step on every entity"),
            ("random", "Random", "each entity starts its frame groups and skin groups at its own time"),
        ],
        default="sync",
    )
    eye_position: FloatVectorProperty(
        name="Eye position",
        description="the header's eye position, in Quake units (id's player: 0, 0, 24)",
        size=3,
        default=(0.0, 0.0, 24.0),
    )
    rerelease_md5: BoolProperty(
        name="Rerelease MD5",
        description=(
            "also write the Quake rerelease's MD5 replacement beside the MDL (NAME.md5mesh, NAME.md5anim and "
            "the skin as NAME_00_00.png), which the rerelease, QuakeSpasm-Spiked, vkQuake and Ironwail draw "
            "in its place; frame k of the anim is frame k of the MDL"
        ),
        default=False,
    )
    frames_like: StringProperty(
        name="Frames like",
        description=(
            "the MDL this model replaces (a monster, an item): its frames are laid out as that model's, "
            "which QuakeC selects by number (its animations in its order and frame counts, filled from the "
            "actions by name; its frame names and frame groups); Frames per second, Animations and Frame "
            "groups are then not used"
        ),
        subtype="FILE_PATH",
    )
    player: BoolProperty(
        name="Player table",
        description=(
            "lay out Quake's 143-frame player table (axrun, rockrun, stand ... axattd, in QuakeC's order) "
            "from the actions by name; Frames per second, Animations and Frame groups are then not used"
        ),
    )
    use_selection: BoolProperty(name="Selected only", default=False)

    fast_shape_keys = True

    def execute(self, context):
        return export_through_gltf(self, self.compile)

    def compile(self, rm, glb, name):
        text_files.check(self)
        if self.palette:
            path = bpy.path.abspath(self.palette)
            with open(path, "rb") as f:
                palette = f.read()
            if len(palette) != 768 and palette[:1] != b"\x0a":
                raise ValueError(
                    f'"Quake palette": {path} is no palette (Quake\'s gfx/palette.lmp is 768 bytes of RGB)'
                )
        else:
            blend = bpy.data.filepath
            palette = import_options.quake_palette("", self.filepath) or (
                import_options.quake_palette("", blend) if blend else None
            )
            if palette is None:
                raise ValueError(
                    'choose a "Quake palette" (Quake\'s gfx/palette.lmp, which retromodel does not ship): '
                    "an MDL's skin is palette indices"
                )
        anims = import_options.names_list(self.anims) or None
        if self.player and self.frames_like:
            raise ValueError('choose "Player table" or "Frames like", not both')
        like = bpy.path.abspath(self.frames_like) if self.frames_like else None
        if like is not None:
            try:
                is_mdl = rm.load(like).format == "mdl"
            except (ValueError, OSError):
                is_mdl = False
            if not is_mdl:
                raise ValueError(f'"Frames like": {like} is no Quake MDL (choose the .mdl this model replaces)')
        out = rm.compile_mdl(
            glb,
            palette=palette,
            fps=self.fps,
            anims=anims,
            groups=None
            if self.player or self.frames_like
            else (import_options.names_list(self.frame_groups) or None),
            scale=self.scale or None,
            fit_height=self.fit_height or None,
            flags=sorted(self.flags),
            sync_type=self.sync_type,
            eye_position=tuple(self.eye_position),
            engine=None if self.engine == "quake" else self.engine,
            name=name,
            player=self.player,
            rerelease=self.rerelease_md5,
            frames_like=like,
        )
        # With Rerelease MD5: NAME.md5mesh, .md5anim and the skins beside
        # the MDL, where the ports look (Ironwail Quake/gl_model.c,
        # Mod_LoadMD5Skins; mdl::rerelease in the library).
        return text_files.add(self, rm, name, out.mdl, dict(out.files), list(out.warning_details))


class ExportMs3d(bpy.types.Operator, ExportHelper):
    """Export the scene as a MilkShape 3D MS3D (and its textures)"""

    bl_idname = "export_scene.retromodel_ms3d"
    bl_label = "Export MS3D"

    filename_ext = ".ms3d"
    filter_glob: StringProperty(default="*.ms3d", options={"HIDDEN"})
    anims: StringProperty(
        name="Animations",
        description="the actions to put on MilkShape's timeline, comma-separated, in this order (empty: all)",
        default="",
    )
    use_selection: BoolProperty(name="Selected only", default=False)

    def execute(self, context):
        return export_through_gltf(self, self.compile)

    def compile(self, rm, glb, name):
        anims = [a.strip() for a in self.anims.split(",") if a.strip()] or None
        out = rm.compile_ms3d(glb, anims=anims, name=name)
        return out.ms3d, out.textures, out.warning_details


class ExportMd3(bpy.types.Operator, ExportHelper, text_files.ModeldefOption):
    """Export the scene as a Quake III MD3 (a surface per mesh, tags from empties named tag_*)"""

    bl_idname = "export_scene.retromodel_md3"
    bl_label = "Export MD3"

    filename_ext = ".md3"
    filter_glob: StringProperty(default="*.md3", options={"HIDDEN"})
    fps: FloatProperty(name="Frames per second", default=15.0, min=0.1, max=1000.0)
    anims: StringProperty(
        name="Animations",
        description="the actions to bake, comma-separated, in this order (empty: all)",
        default="",
    )
    scale: FloatProperty(
        name="Scale", description="multiply Blender's units by this (0: use Fit height or 1)", default=0.0, min=0.0
    )
    fit_height: FloatProperty(
        name="Fit height",
        description="scale so the model is this many Quake units tall (a Quake III player is about 56; 0: off)",
        default=0.0,
        min=0.0,
    )
    engine: EnumProperty(
        name="Engine",
        items=[
            ("ioquake3", "ioquake3", "meet ioquake3's limits (999 vertices and 1999 triangles per surface)"),
            ("etlegacy", "etlegacy", "meet ET: Legacy's limits (10000 vertices and 20000 triangles per surface)"),
            ("rtcw", "rtcw", "meet Return to Castle Wolfenstein's single-player limits (3999 vertices and 7999 triangles per surface)"),
            ("rtcw-mp", "rtcw-mp", "meet Return to Castle Wolfenstein's multiplayer limits (999 vertices and 1999 triangles per surface)"),
            ("ironwail", "ironwail", "meet Ironwail's limits (Quake mods)"),
            ("vkquake", "vkquake", "meet vkQuake's limits (Quake mods)"),
            ("fte", "fte", "FTE checks no count (Quake mods)"),
            ("none", "none", "only the format's own limits"),
        ],
        default="ioquake3",
    )
    use_selection: BoolProperty(name="Selected only", default=False)
    player: BoolProperty(
        name="Quake III player",
        description=(
            "write a player into the chosen file's folder: lower.md3, upper.md3, head.md3, animation.cfg and "
            "the _default.skin files, from the objects named lower, upper and head (head below upper's "
            "tag_head empty, upper below lower's tag_torso); actions named after animation.cfg's lines "
            "(LEGS_RUN, TORSO_ATTACK, ...; idle, run, walk, attack, death also fit) make its frames"
        ),
        default=False,
    )
    sex: EnumProperty(
        name="Sex",
        description="a player's animation.cfg sex line",
        items=[
            ("KEEP", "As imported", "what the imported player had, else none (the game reads m)"),
            ("m", "Male", ""),
            ("f", "Female", ""),
            ("n", "Neuter", ""),
        ],
        default="KEEP",
    )
    footsteps: EnumProperty(
        name="Footsteps",
        description="a player's animation.cfg footsteps line",
        items=[
            ("KEEP", "As imported", "what the imported player had, else none (normal)"),
            ("normal", "Normal", ""),
            ("boot", "Boot", ""),
            ("flesh", "Flesh", ""),
            ("mech", "Mech", ""),
            ("energy", "Energy", ""),
        ],
        default="KEEP",
    )

    def execute(self, context):
        if self.player:
            # A player's main file is its lower.md3, in the chosen folder.
            folder = os.path.dirname(self.filepath)
            if os.path.basename(self.filepath).lower() not in ("lower.md3", "upper.md3", "head.md3"):
                self.filepath = os.path.join(folder, "lower.md3")
            if self.anims.strip():
                self.report(
                    {"ERROR"},
                    '"Animations" does not apply to a Quake III player: its actions are named after '
                    "animation.cfg's lines (LEGS_RUN, TORSO_ATTACK, ...)",
                )
                return {"CANCELLED"}
        return export_through_gltf(self, self.compile)

    def compile(self, rm, glb, name):
        text_files.check(self)
        if self.player:
            folder = os.path.dirname(os.path.abspath(self.filepath))
            try:
                out = self._compile_player(rm, glb, folder)
            except rm.Error as e:
                # The library names glTF nodes; Blender has objects.
                raise ValueError(str(e).replace("no node called", "no object named").replace("nodes", "objects")) from e
            files = dict(out.files)
            main = files.pop(os.path.basename(self.filepath).lower(), out.md3)
            return main, files, list(out.warning_details)
        out = rm.compile_md3(
            glb,
            fps=self.fps,
            anims=import_options.names_list(self.anims) or None,
            scale=self.scale or None,
            fit_height=self.fit_height or None,
            engine=self.engine,
            name=name,
        )
        return text_files.add(self, rm, name, out.md3, {}, list(out.warning_details))

    def _compile_player(self, rm, glb, folder):
        return rm.compile_md3(
            glb,
            fps=self.fps,
            scale=self.scale or None,
            fit_height=self.fit_height or None,
            engine=self.engine,
            player=True,
            player_name=os.path.basename(folder) or None,
            sex=None if self.sex == "KEEP" else self.sex,
            footsteps=None if self.footsteps == "KEEP" else self.footsteps,
        )


# The engines that load IQMs (retromodel's IQM engine profiles).
IQM_ENGINES = [
    ("none", "none", "only the format's own limits"),
    ("ioquake3", "ioquake3", "meet ioquake3's limits (128 bones; 999 vertices and 1999 triangles per mesh)"),
    ("daemon", "daemon", "meet the Daemon engine's limits (Unvanquished; 256 bones, uniform scale)"),
    ("fte", "fte", "meet FTE's limits (256 bones, 65536 vertices per mesh)"),
    ("quakespasm-spiked", "quakespasm-spiked", "meet QuakeSpasm-Spiked's limits (256 bones, 65535 vertices)"),
    ("darkplaces", "darkplaces", "meet DarkPlaces' limits"),
    ("gzdoom", "gzdoom", "meet GZDoom's limits"),
    ("raylib", "raylib", "meet raylib's limits (65536 vertices per mesh)"),
]


class ExportIqm(bpy.types.Operator, ExportHelper):
    """Export the scene as an Inter-Quake Model (an armature's bones its joints, every action an animation)"""

    bl_idname = "export_scene.retromodel_iqm"
    bl_label = "Export IQM"

    filename_ext = ".iqm"
    filter_glob: StringProperty(default="*.iqm", options={"HIDDEN"})
    fps: FloatProperty(
        name="Frames per second",
        description="the rate every action is sampled at (default: the scene's frame rate)",
        default=24.0,
        min=0.1,
        max=1000.0,
        # Not remembered from the last export: the scene's rate each time.
        options={"SKIP_SAVE"},
    )
    engine: EnumProperty(
        name="Engine",
        description="the engine the model is for: meshes are split to its limits, and what it refuses is an error",
        items=IQM_ENGINES,
        default="none",
    )
    loop: BoolProperty(
        name="Loop",
        description="mark every animation as looping (played over and over; off: it stops at its last frame)",
        default=True,
    )
    use_selection: BoolProperty(name="Selected only", default=False)

    def invoke(self, context, event):
        self._scene_fps(context)
        return super().invoke(context, event)

    def execute(self, context):
        self._scene_fps(context)
        return export_through_gltf(self, self.compile)

    def _scene_fps(self, context):
        """"Frames per second" unless chosen: the scene's rate."""
        if not self.properties.is_property_set("fps"):
            render = context.scene.render
            self.fps = render.fps / render.fps_base

    def compile(self, rm, glb, name):
        with open(glb, "rb") as f:
            document, rest = glb_json(f.read())
        # Every action's animation starts at its first key, and loops or
        # not as "Loop" says (the compile reads each animation's `loop`).
        rest = animations_from_zero(document, rest)
        for animation in document.get("animations", []):
            extras = animation.get("extras") if isinstance(animation.get("extras"), dict) else {}
            animation["extras"] = {**extras, "loop": self.loop}
        try:
            out = rm.compile_iqm(
                glb_with_json(document, rest),
                fps=self.fps,
                engine=self.engine,
                name=name,
            )
        except rm.Error as e:
            # An engine's refusal names the engines that load the model:
            # the panel's "Engine" chooses one.
            text = error_text(self, e).replace("(these load it: ", '(set "Engine" to one that loads it: ')
            raise ValueError(text) from e
        return out.iqm, dict(out.files), list(out.warning_details), *iqm_notes(name, out.report)


def iqm_notes(name, report):
    """What an IQM export wrote, for Blender's report area."""
    if not report:
        return []
    animations = ", ".join(f"{a['name']} ({a['frames']} frames)" for a in report["animations"]) or "none"
    return [
        f"{name}: {report['meshes']} meshes, {report['vertices']} vertices, {report['joints']} bones; "
        f"animations: {animations}; largest error {report['largest_error']:.4g} "
        f"(the model is {report['extent']:.4g} across)"
    ]


def _menu_import(self, context):
    self.layout.operator(
        ImportRetromodel.bl_idname,
        text="Quake MDL / Quake II MD2 / Quake III MD3 / MilkShape 3D (.mdl, .md2, .md3, .ms3d, .txt)",
    )
    # The same import, its file browser showing IQMs.
    self.layout.operator(ImportRetromodel.bl_idname, text="Inter-Quake Model (.iqm)").filter_glob = "*.iqm"


def _menu_export(self, context):
    self.layout.operator(ExportMdl.bl_idname, text="Quake MDL (.mdl)")
    self.layout.operator(ExportMd2.bl_idname, text="Quake II MD2 (.md2)")
    self.layout.operator(ExportMd3.bl_idname, text="Quake III MD3 (.md3)")
    self.layout.operator(ExportMs3d.bl_idname, text="MilkShape 3D (.ms3d)")
    self.layout.operator(ExportIqm.bl_idname, text="Inter-Quake Model (.iqm)")


def register():
    bpy.utils.register_class(ImportRetromodel)
    bpy.utils.register_class(ExportMdl)
    bpy.utils.register_class(ExportMd2)
    bpy.utils.register_class(ExportMd3)
    bpy.utils.register_class(ExportMs3d)
    bpy.utils.register_class(ExportIqm)
    bpy.types.TOPBAR_MT_file_import.append(_menu_import)
    bpy.types.TOPBAR_MT_file_export.append(_menu_export)


def unregister():
    bpy.types.TOPBAR_MT_file_export.remove(_menu_export)
    bpy.types.TOPBAR_MT_file_import.remove(_menu_import)
    bpy.utils.unregister_class(ExportIqm)
    bpy.utils.unregister_class(ExportMs3d)
    bpy.utils.unregister_class(ExportMd3)
    bpy.utils.unregister_class(ExportMd2)
    bpy.utils.unregister_class(ExportMdl)
    bpy.utils.unregister_class(ImportRetromodel)
