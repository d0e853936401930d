"""Blender 3.x's legacy path: the Linux zip installs as an add-on
(Preferences > Add-ons > Install), enables, and its retromodel module is the
wheel's. Run by blender/test.sh:
    blender -b --factory-startup --python test_legacy_install.py -- ZIP VERSION
with BLENDER_USER_SCRIPTS pointing at an empty folder and RETROMODEL_PYTHONPATH
at the zip's wheel installed with pip --target."""

import sys

import addon_utils
import bpy

zip_path, version = sys.argv[sys.argv.index("--") + 1 :][:2]
bpy.ops.preferences.addon_install(filepath=zip_path, overwrite=True)
bpy.ops.preferences.addon_enable(module="retromodel_io")
import retromodel_io  # noqa: E402

assert addon_utils.check("retromodel_io")[1], "retromodel_io is not enabled"
assert "bl_info" in vars(retromodel_io), "no bl_info"
retromodel = retromodel_io._retromodel()
assert retromodel.__version__ == version, retromodel.__version__
print(f"legacy add-on install: {retromodel_io.__file__}, retromodel {retromodel.__version__} from {retromodel.__file__}")
