"""Quake MDL, Quake II MD2 and MilkShape 3D MS3D models: read, validate, rewrite, convert.

``load(path_or_bytes)`` reads any supported file (MDL, MD2, MS3D, MilkShape 3D
ASCII, glTF 2.0, OBJ) into a :class:`Model`. Bad input raises
:class:`Error` (a ``ValueError``) with the library's message, which names
the section, the field path and the byte offset.
"""

import os
import pathlib
from typing import Any, Dict, List, Optional, Tuple, Union

import numpy as np
import numpy.typing as npt

__version__: str

Source = Union[str, "os.PathLike[str]", bytes, bytearray]

class Error(ValueError):
    """A model that cannot be read, checked or converted, or options that do not apply."""

    offset: Optional[int]
    """The byte offset the error points at, or ``None``."""
    path: Optional[str]
    """The section, field or JSON pointer it names (``frames[3]``, ``/accessors/2/count``), or ``None``."""
    line: Optional[int]
    """The line of a text file (OBJ, MilkShape ASCII) it is on, or ``None``."""
    reason: str
    """The message without its advice (what is wrong)."""
    limit: Optional[Dict[str, Any]]
    """The limit passed: ``{"quantity": "frames", "max": 512, "actual": 601, "over": 89}``, or ``None``."""
    remedies: List[Dict[str, Any]]
    """What would help, as data: ``{"remedy": "lower_fps", "text": ...}``, ``{"remedy": "engine",
    "engine": "ufoai", "allows": 1023, "text": ...}``, ``{"remedy": "fit_height", "units": 56,
    "text": ...}`` ...; the message words them with this
    module's keyword arguments."""

class Problem:
    """One problem ``Model.validate()`` found."""

    severity: str
    """``"warning"`` (the model is usable as read) or ``"error"``."""
    path: str
    """Where in the model, e.g. ``frames[12].vertices[301].normal_index``."""
    message: str
    """What is wrong."""
    offset: Optional[int]
    """The byte offset of the value in the file, when known."""

class Model:
    """A model of any format retromodel reads, as read from one file (immutable)."""

    @property
    def format(self) -> str:
        """``"mdl"``, ``"md3"``, ``"md2"``, ``"ms3d"``, ``"ms3d_ascii"``, ``"gltf"`` or ``"obj"``."""
    @property
    def name(self) -> str:
        """The file name the model was read from (or the ``name`` given to ``load``)."""
    @property
    def path(self) -> Optional[pathlib.Path]:
        """The path the model was read from, or ``None`` for bytes."""
    @property
    def vertex_count(self) -> int:
        """Vertices: an MDL's or MD2's per frame, an MS3D's."""
    @property
    def frame_count(self) -> int:
        """MD2 or MDL frames (an MDL's frame groups counted frame by frame; 0 for other formats)."""
    @property
    def frame_names(self) -> List[str]:
        """MD2 or MDL frame names, in order (an MDL's groups flattened)."""
    def frame_list(self) -> List[Dict[str, Any]]:
        """MDL: the entries QuakeC's ``self.frame`` selects: ``{"index", "name", "first_frame",
        "frame_count", "intervals"}`` (a frame group's end times in seconds, else ``None``)."""
    @property
    def skin_count(self) -> int:
        """MDL: skin images (an animated skin's images each count; 0 for other formats)."""
    def skin_indices(self, index: int) -> npt.NDArray[np.uint8]:
        """MDL skin image ``index``'s palette indices, ``(height, width)``, as stored."""
    def skin_rgba(self, index: int, palette: Source) -> npt.NDArray[np.uint8]:
        """MDL skin image ``index`` through ``palette`` (Quake's ``gfx/palette.lmp`` or a PCX; a path
        or bytes), ``(height, width, 4)`` RGBA."""
    @property
    def flags(self) -> int:
        """MDL: the header's effect flags, as stored."""
    @property
    def flag_names(self) -> List[str]:
        """MDL: the effect flags set, by the names ``compile_mdl(flags=...)`` takes."""
    @property
    def sync_type(self) -> str:
        """MDL: ``"sync"`` or ``"random"``."""
    @property
    def eye_position(self) -> Tuple[float, float, float]:
        """MDL: the header's eye position."""
    @property
    def variant(self) -> str:
        """MDL: ``"quake"``, ``"hexen2"``, ``"quakeforge16"`` or ``"qtest"``."""
    @property
    def joint_count(self) -> int:
        """MS3D joints (0 for other formats)."""
    @property
    def fps(self) -> float:
        """The MS3D timeline's frames per second (at least 1)."""
    def animations(self) -> List[Tuple[str, int, int]]:
        """MD2 or MDL animations by frame names: ``(name, first_frame, frame_count)``."""
    def info(self, clips: Optional[List[str]] = None) -> Dict[str, Any]:
        """The summary ``retromodel info --json`` prints; ``clips``: ``"name:first-last"``."""
    def validate(self, engine: Optional[str] = None) -> List[Problem]:
        """Every problem in the model; with ``engine``, whether the MD2 loads in it, judged on the
        file's bytes as that engine's loader reads them (damage in a part it never reads is a
        warning naming the engines that fail). A Quake engine (``"glquake"``, ``"vkquake"``,
        ``"quake-rerelease"`` ...) says whether it loads the format, and checks an MD5 as the Quake
        rerelease's replacement (``"quake-rerelease"``, ``"ironwail"``, ``"vkquake"``)."""
    def to_bytes(self, layout: str = "original") -> bytes:
        """The model in its own format: the file's bytes (``"original"``), or MD2 sections in the ``"standard"`` order."""
    def frame_positions(self, frame: int) -> npt.NDArray[np.float32]:
        """MD2 or MDL frame ``frame``'s positions, ``(vertices, 3)``, Quake axes (X forward, Y left, Z up)."""
    def frame_normals(self, frame: int) -> npt.NDArray[np.float32]:
        """MD2 or MDL frame ``frame``'s normals, ``(vertices, 3)``, Quake axes."""
    def all_positions(self) -> npt.NDArray[np.float32]:
        """Every MD2 or MDL frame's positions, ``(frames, vertices, 3)``."""
    def all_normals(self) -> npt.NDArray[np.float32]:
        """Every MD2 or MDL frame's normals, ``(frames, vertices, 3)``."""
    def skinned_positions(self, time: float) -> npt.NDArray[np.float32]:
        """MS3D positions at ``time`` seconds, skinned as MilkShape does, ``(vertices, 3)``."""
    def to_glb(
        self,
        quantize: bool = False,
        compress: bool = False,
        clips: Optional[List[str]] = None,
        palette: Optional[Source] = None,
    ) -> bytes:
        """Binary glTF 2.0 (``KHR_mesh_quantization`` / ``EXT_meshopt_compression`` optional);
        ``palette``: the Quake palette an MDL's skins index."""
    def to_obj(
        self,
        frame: Optional[int] = None,
        anim: Optional[str] = None,
        time: Optional[float] = None,
        name: str = "model.obj",
        palette: Optional[Source] = None,
    ) -> Dict[str, bytes]:
        """OBJ of one pose: ``{file name: bytes}``, the ``.obj`` last, glTF axes."""

class Md2Output:
    """What ``compile_md2`` made."""

    @property
    def md2(self) -> bytes:
        """The MD2 file's bytes."""
    @property
    def skins(self) -> Dict[str, bytes]:
        """Skin files to write beside it: ``{file name: bytes}``."""
    @property
    def report(self) -> Optional[Dict[str, Any]]:
        """The compile report (frames and quantisation error per animation)."""
    @property
    def warnings(self) -> List[str]:
        """What the compiler had to change (with what would help, naming keyword arguments)."""
    @property
    def warning_details(self) -> List[Dict[str, Any]]:
        """The warnings as data: ``{"message", "limit", "remedies"}`` (as on :class:`Error`)."""

class Ms3dOutput:
    """What ``compile_ms3d`` made."""

    @property
    def ms3d(self) -> bytes:
        """The MS3D file's bytes."""
    @property
    def textures(self) -> Dict[str, bytes]:
        """Texture files to write beside it: ``{file name: bytes}``."""
    @property
    def report(self) -> Optional[Dict[str, Any]]:
        """The compile report (keys written, largest error per animation)."""
    @property
    def warnings(self) -> List[str]:
        """What the compiler had to change (with what would help, naming keyword arguments)."""
    @property
    def warning_details(self) -> List[Dict[str, Any]]:
        """The warnings as data: ``{"message", "limit", "remedies"}`` (as on :class:`Error`)."""

class Md5Output:
    """What ``compile_md5`` made."""

    @property
    def md5mesh(self) -> bytes:
        """The md5mesh file's bytes."""
    @property
    def files(self) -> Dict[str, bytes]:
        """The files to write beside it: the ``.md5anim`` and, when a joint's scale animates, the ``.md5scale``."""
    @property
    def report(self) -> None:
        """Always ``None``."""
    @property
    def warnings(self) -> List[str]:
        """What the compiler had to change (with what would help, naming keyword arguments)."""
    @property
    def warning_details(self) -> List[Dict[str, Any]]:
        """The warnings as data: ``{"message", "limit", "remedies"}`` (as on :class:`Error`)."""

class MdlOutput:
    """What ``compile_mdl`` made."""

    @property
    def mdl(self) -> bytes:
        """The MDL file's bytes (its skin inside)."""
    @property
    def files(self) -> Dict[str, bytes]:
        """With ``rerelease=True``: the rerelease's MD5 files and skins to write beside the MDL."""
    @property
    def report(self) -> Dict[str, Any]:
        """The compile report (animations, counts, the grid's step and largest error)."""
    @property
    def warnings(self) -> List[str]:
        """What the compiler had to change, with what would help."""
    @property
    def warning_details(self) -> List[Dict[str, Any]]:
        """The warnings as data: ``{"message", "limit", "remedies"}``."""

class Md3Output:
    """What ``compile_md3`` made."""

    @property
    def md3(self) -> bytes:
        """The MD3 file's bytes."""
    @property
    def report(self) -> Dict[str, Any]:
        """The compile report (animations with their first frame, frame count and fps; surfaces; counts; the largest error in units)."""
    @property
    def warnings(self) -> List[str]:
        """What the compiler had to change, with what would help."""
    @property
    def warning_details(self) -> List[Dict[str, Any]]:
        """The warnings as data: ``{"message", "limit", "remedies"}``."""

class IqmOutput:
    """What ``compile_iqm`` made."""

    @property
    def iqm(self) -> bytes:
        """The IQM file's bytes."""
    @property
    def files(self) -> Dict[str, bytes]:
        """The files to write beside it (a Quake MDL's skins as PNG)."""
    @property
    def report(self) -> Optional[Dict[str, Any]]:
        """The compile report: ``meshes``, ``vertices``, ``joints``, ``animations`` (``name``, ``fps``, ``frames``, ``loops``), ``largest_error`` and ``extent`` in units."""
    @property
    def warnings(self) -> List[str]:
        """What the compiler could not carry exactly."""
    @property
    def warning_details(self) -> List[Dict[str, Any]]:
        """The warnings as data: ``{"message", "limit", "remedies"}``."""

class QcFrames:
    """What ``qc_frames`` made: a model's QuakeC ``$frame`` list."""

    text: str
    """The ``.qc`` file's text: ``$skin`` lines, then one ``$frame`` line per animation."""
    names: List[str]
    """Each frame's name as declared, in frame order (``names[n]`` is numbered ``n``)."""
    warnings: List[str]
    """Frame names that had to change (and more frames than id's qcc holds), one line each."""
    @property
    def warning_details(self) -> List[Dict[str, Any]]:
        """The warnings as data: ``{"message", "issue", "frame", "name", "declared"}`` for a renamed
        frame (``issue``: ``"empty"``, ``"not_identifier"``, ``"too_long"``, ``"directive"``,
        ``"duplicate"``), ``{"message", "issue": "too_many_for_id_qcc", "frames"}``."""

class Modeldef:
    """What ``modeldef`` made: a model's GZDoom MODELDEF block."""

    text: str
    """A comment listing each animation's sprite frames, then the ``Model ACTOR { ... }`` block."""
    actor: str
    """The actor class the block is for."""
    path: str
    """The folder ``Path`` names (where the model and its skins go)."""
    model_file: str
    """The model's file name, as ``Model 0`` names it."""
    scale: float
    """The ``Scale`` written (the same on every axis)."""
    z_offset: float
    """The ``ZOffset`` written, in map units."""
    @property
    def sprites(self) -> List[Dict[str, Any]]:
        """Each animation's sprite frames, for the actor's states: ``{"animation": "run", "parts":
        [("RU00", 6, 6)], "states": "RU00 GHIJKL"}`` (a part: sprite, first frame letter's index,
        how many letters)."""

def load(
    source: Source,
    name: Optional[str] = None,
    *,
    skin: str = "default",
    weapon: Optional[Union[str, "os.PathLike[str]"]] = None,
    player: bool = True,
) -> Model:
    """Reads a model from a path or bytes; the format is told by the content.

    A Quake III .md3 path (or a player's folder) is read with the files
    beside it: animation.cfg, the .skin files of the skin set `skin`, and
    with `player`, the whole player (lower, upper, head at their tags) when
    the file is lower.md3, upper.md3 or head.md3; `weapon` is held at
    tag_weapon. info()["md3_files"] says what was found."""

def compile_md2(
    source: Union[Source, Model],
    fps: Optional[float] = None,
    engine: str = "quake2",
    grid: str = "animation",
    player: bool = False,
    anims: Optional[List[str]] = None,
    scale: Optional[float] = None,
    fit_height: Optional[float] = None,
    skin_format: Optional[str] = None,
    skin_name: Optional[str] = None,
    palette: Optional[bytes] = None,
    skin_size: Optional[Tuple[int, int]] = None,
    name: str = "model.md2",
) -> Md2Output:
    """Compiles any model (a ``.glb`` from Blender, an MS3D, an OBJ) into a Quake II MD2."""

def compile_ms3d(
    source: Union[Source, Model],
    anims: Optional[List[str]] = None,
    name: str = "model.ms3d",
) -> Ms3dOutput:
    """Compiles a glTF or OBJ model into a MilkShape 3D MS3D with its skeleton and animations."""

def compile_md5(
    source: Union[Source, Model],
    fps: Optional[float] = None,
    player: bool = False,
    anims: Optional[List[str]] = None,
    scale: Optional[float] = None,
    fit_height: Optional[float] = None,
    name: str = "model.md5mesh",
) -> Md5Output:
    """Compiles a model with a skeleton into the Quake II rerelease's MD5 replacement, frame k of its md5anim being frame k of ``compile_md2`` with the same options."""

def compile_mdl(
    source: Union[Source, Model],
    palette: Optional[Source] = None,
    fps: Optional[float] = None,
    anims: Optional[List[str]] = None,
    groups: Optional[List[str]] = None,
    scale: Optional[float] = None,
    fit_height: Optional[float] = None,
    flags: Optional[Union[int, List[str]]] = None,
    sync_type: str = "sync",
    eye_position: Optional[Tuple[float, float, float]] = None,
    engine: Optional[str] = None,
    name: str = "model.mdl",
    player: bool = False,
    rerelease: bool = False,
    frames_like: Optional[Source] = None,
) -> MdlOutput:
    """Compiles any model (a ``.glb`` from Blender, an MS3D, an MD2) into a Quake MDL, its skin
    quantised to ``palette`` (Quake's ``gfx/palette.lmp``, required). ``player=True`` lays the
    frames out as Quake's 143-frame player table, filled from the animations by name;
    ``rerelease=True`` also makes the Quake rerelease's MD5 (``MdlOutput.files``); ``frames_like``
    (an MDL) lays the frames out as that model's, for a replacement QuakeC selects by number."""


def compile_md3(
    source: Union[Source, Model],
    fps: Optional[float] = None,
    anims: Optional[List[str]] = None,
    scale: Optional[float] = None,
    fit_height: Optional[float] = None,
    engine: Optional[str] = None,
    split: bool = True,
    name: str = "model.md3",
) -> Md3Output:
    """Compiles any model (a ``.glb`` from Blender, an MS3D, an MD2, an MDL) into a Quake III MD3:
    a surface per mesh, positions in 1/64 units, tags from ``tag_*`` nodes, ioquake3's limits
    unless ``engine`` says otherwise (``"ironwail"``, ``"vkquake"``, ``"none"``)."""

def compile_iqm(
    source: Union[Source, Model],
    fps: Optional[float] = None,
    engine: Optional[str] = None,
    name: str = "model.iqm",
) -> IqmOutput:
    """Compiles any skinned or node-animated model (a ``.glb`` from Blender, an MS3D, an MD5, an
    IQM) into an Inter-Quake Model: a joint per node, up to four byte weights per vertex, each
    animation at its own rate (or ``fps``) quantised to 16 bits per channel; ``engine="ioquake3"``
    splits meshes to its limits. The same bytes as ``retromodel convert SOURCE NAME.iqm``."""

def qc_frames(source: Union[Source, Model], name: Optional[str] = None) -> QcFrames:
    """QuakeC's ``$frame`` (and ``$skin``) declarations for an MD2, MDL or MD3, numbered as QuakeC
    compilers number them (``$name`` is the frame's number; an MDL frame group is one frame), one
    ``$frame`` line per animation; names no compiler takes are declared renamed (``warnings``).
    ``name`` names the model in the comment (default: the file's name)."""

def modeldef(
    source: Union[Source, Model],
    actor: Optional[str] = None,
    height: Optional[float] = None,
    path: Optional[str] = None,
    name: Optional[str] = None,
) -> Modeldef:
    """GZDoom's MODELDEF block for an MD2 or MD3: each frame one ``FrameIndex`` line, each
    animation's frames sprite frames (``sprites``), ``Scale`` and ``ZOffset`` standing frame 0
    ``height`` map units (default 56) tall on the floor. ``actor``: the class (default: from the
    file's name); ``path``: the folder ``Path`` names (default ``models/<actor>``); ``name``: the
    model's file name (default: the file's)."""
