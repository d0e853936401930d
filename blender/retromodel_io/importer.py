"""The import operator (File > Import > Quake MDL / Quake II MD2 / Quake
III MD3 / MilkShape 3D, and File > Import > Inter-Quake Model): retromodel
converts the model to binary glTF in memory and Blender's own glTF
importer brings it in; the side panel's options are import_options.py's."""

import json
import os

import bpy
from bpy.props import BoolProperty, EnumProperty, FloatProperty, IntProperty, StringProperty
from bpy_extras.io_utils import ImportHelper

from . import import_options, vertex_map
from .glb_record import RECORD_KEY, glb_json, glb_record, glb_with_json
from .scene_tools import import_glb, set_scene_fps


def _retromodel():
    """The retromodel package (the add-on's ``_retromodel``, imported on
    use: the add-on's module imports this one)."""
    from . import _retromodel as find  # noqa: PLC0415

    return find()


class ImportRetromodel(bpy.types.Operator, ImportHelper):
    """Import a Quake MDL, Quake II MD2, Quake III MD3, MilkShape 3D MS3D, MilkShape 3D ASCII or Inter-Quake Model"""

    bl_idname = "import_scene.retromodel"
    bl_label = "Import MDL / MD2 / MD3 / MS3D / IQM"
    bl_options = {"REGISTER", "UNDO"}

    filter_glob: StringProperty(default="*.mdl;*.md2;*.md3;*.ms3d;*.txt;*.iqm", options={"HIDDEN"})
    set_frame_rate: BoolProperty(
        name="Scene frame rate",
        description="set the scene's frame rate to the model's (MDL and MD2: 10, MS3D and IQM: its own), so that "
        "Blender's frames are the model's frames and exporting samples them exactly",
        default=True,
    )

    animations: StringProperty(
        name="Animations",
        description="the animations to import (MDL, MD2 and IQM animations, MS3D clips), comma-separated (empty: all)",
        default="",
    )
    frames: EnumProperty(
        name="Frames",
        items=[
            ("ALL", "Every frame", "import every frame of the model"),
            ("RANGE", "Frame range", "only the model's frames First frame to Last frame"),
        ],
        default="ALL",
    )
    frame_first: IntProperty(
        name="First frame",
        description="the first frame to import: an MDL's or MD2's frame number (from 0), an MS3D's timeline frame",
        default=0,
        min=0,
    )
    frame_last: IntProperty(name="Last frame", description="the last frame to import (included)", default=0, min=0)
    scale: FloatProperty(name="Scale", description="multiply the model's units by this", default=1.0, min=0.000001)
    fit_height: FloatProperty(
        name="Fit height",
        description="scale so the model's meshes are this many Blender units tall (0: use Scale)",
        default=0.0,
        min=0.0,
    )
    quake_palette: StringProperty(
        name="Quake palette",
        description="an MDL's skins are palette indices: Quake's gfx/palette.lmp (768 bytes) colours them "
        "(empty: gfx/palette.lmp found beside the model or in a folder above it; none: skins without images)",
        subtype="FILE_PATH",
    )
    skins: EnumProperty(
        name="MD2 skins",
        items=[
            ("MATERIALS", "Materials", "each skin the MD2 lists becomes a material named after it"),
            ("IMAGES", "Images", "each skin becomes an image named after it (loaded when found beside the model)"),
        ],
        default="MATERIALS",
    )
    skin: IntProperty(
        name="Skin shown", description="which of the MD2's skins is applied to the mesh (0: the first)", default=0, min=0
    )
    clip_actions: BoolProperty(
        name="Clips as actions",
        description="each clip of an MS3D's timeline its own action; off: one action of the whole timeline",
        default=True,
    )
    clips: StringProperty(
        name="Clips",
        description="an MS3D's clips as name:first-last, comma-separated (empty: those the file stores)",
        default="",
    )
    whole_player: BoolProperty(
        name="Whole player",
        description="a Quake III player's lower.md3, upper.md3 or head.md3: import all three from its folder, "
        "joined at their tags, with animation.cfg's animations as actions (off: this part alone)",
        default=True,
    )
    md3_skin: StringProperty(
        name="Skin",
        description="a Quake III model's skin set: the .skin files beside it named after it "
        "(lower_default.skin, upper_red.skin, ...)",
        default="default",
    )

    def execute(self, context):
        try:
            rm = _retromodel()
            if self.filepath.lower().endswith(".md3"):
                model = rm.load(self.filepath, skin=self.md3_skin or "default", player=self.whole_player)
            else:
                model = rm.load(self.filepath)
            info = model.info()
            frame_range = (self.frame_first, self.frame_last) if self.frames == "RANGE" else None
            if frame_range and frame_range[0] > frame_range[1]:
                raise ValueError('"First frame" is after "Last frame"')
            chosen = import_options.names_list(self.animations)
            timeline = model.format not in ("md2", "mdl", "md3")
            clips = (
                import_options.timeline_clips(info, self.clips, self.clip_actions, frame_range, chosen)
                if timeline
                else None
            )
            if model.format == "mdl":
                palette = import_options.quake_palette(self.quake_palette, self.filepath)
                glb = model.to_glb(palette=palette)
                if palette is None:
                    self.report(
                        {"WARNING"},
                        f"{os.path.basename(self.filepath)}: no gfx/palette.lmp beside it or above it: the skins "
                        'come without images; choose a "Quake palette" (Quake\'s gfx/palette.lmp, which '
                        "retromodel does not ship)",
                    )
            else:
                glb = model.to_glb(clips=clips) if clips else model.to_glb()
            if chosen and not clips:
                document, rest = glb_json(glb)
                import_options.keep_animations(document, chosen)
                glb = glb_with_json(document, rest)
        except ImportError as e:
            self.report({"ERROR"}, f"the retromodel package is not importable: {e}")
            return {"CANCELLED"}
        except (ValueError, OSError) as e:
            self.report({"ERROR"}, str(e))
            return {"CANCELLED"}
        # What `retromodel validate` would say, in Blender's report area
        # (the model was readable, so these are warnings to the user).
        for problem in model.validate():
            self.report({"WARNING"}, f"{os.path.basename(self.filepath)}: {problem}")
        record = glb_record(glb)
        if self.set_frame_rate and record["fps"]:
            set_scene_fps(context.scene, record["fps"])
        objects_before, actions_before = set(bpy.data.objects), set(bpy.data.actions)
        result = import_glb(glb, os.path.splitext(os.path.basename(self.filepath))[0])
        context.scene[RECORD_KEY] = json.dumps(record)
        if result != {"FINISHED"}:
            return result
        objects = [o for o in bpy.data.objects if o not in objects_before]
        actions = [a for a in bpy.data.actions if a not in actions_before]
        scene = context.scene
        if frame_range and not timeline:
            import_options.cut_md2_frames(actions, record, frame_range, scene.render.fps / scene.render.fps_base)
        if model.format == "iqm":
            # Each IQM animation an action named as in the file (Blender's
            # glTF importer adds the armature's name to it).
            import_options.name_actions(objects, record)
        if self.fit_height or self.scale != 1.0:
            import_options.scale_objects(objects, self.scale, self.fit_height)
        if model.format == "md2":
            # The MD2 vertex of each vertex, for an unchanged export to give
            # the file's frames back byte for byte (vertex_map.py).
            vertex_map.restore(*glb_json(glb), objects)
            import_options.apply_md2_skins(
                objects,
                info.get("skins") or [],
                (info.get("skin_width", 0), info.get("skin_height", 0)),
                self.skin,
                self.skins,
                os.path.dirname(self.filepath),
            )
        return result
