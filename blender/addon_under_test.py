"""The add-on the headless tests drive, and a fresh scene that keeps it.

Two ways, the same test scripts:

- Debian's Blender 3.4 (blender/test.sh runs ``blender -b --python TEST``):
  the add-on is the source folder beside this file, registered directly,
  with the retromodel wheel in RETROMODEL_PYTHONPATH.
- PyPI's ``bpy`` 4.2+ (blender/test_bpy.sh runs ``python TEST``): when
  RETROMODEL_EXTENSION_ZIP names an add-on zip, it is installed as a user
  would, as an extension (Blender's ``extensions.package_install_files``,
  which installs the wheel the zip carries) into the user repository under
  BLENDER_USER_RESOURCES, and enabled; the add-on is then the installed
  ``bl_ext.user_default.retromodel_io``, and retromodel the wheel Blender
  installed.

    import addon_under_test
    retromodel_io = addon_under_test.load()
    addon_under_test.fresh()
"""

import os
import sys

import bpy

# Blender's module name for an extension in the default user repository.
EXTENSION_MODULE = "bl_ext.user_default.retromodel_io"


def load():
    """The add-on module, registered (see the module's text)."""
    zip_path = os.environ.get("RETROMODEL_EXTENSION_ZIP")
    if not zip_path:
        sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
        import retromodel_io  # noqa: PLC0415

        retromodel_io.register()
        return retromodel_io
    # Blender's own checks: the install must be a user resource folder of
    # the test's, never the real user's.
    assert os.environ.get("BLENDER_USER_RESOURCES"), "BLENDER_USER_RESOURCES must point at a temporary folder"
    result = bpy.ops.extensions.package_install_files(
        filepath=os.path.abspath(zip_path), repo="user_default", enable_on_install=True
    )
    assert result == {"FINISHED"}, result
    enabled = [a.module for a in bpy.context.preferences.addons]
    assert EXTENSION_MODULE in enabled, enabled
    module = sys.modules[EXTENSION_MODULE]
    # The add-on and the wheel are the installed ones, not the source tree's.
    root = os.path.realpath(os.environ["BLENDER_USER_RESOURCES"])
    rm = module._retromodel()
    for path in (module.__file__, rm.__file__):
        assert os.path.realpath(path).startswith(root + os.sep), (path, root)
    print(f"extension installed and enabled: {module.__name__} (retromodel {rm.__version__} from {rm.__file__})")
    return module


def fresh():
    """An empty scene from Blender's factory startup file. Unlike
    ``read_factory_settings``, the preferences stay, so an extension
    enabled by ``load`` stays enabled."""
    bpy.ops.wm.read_homefile(use_empty=True, use_factory_startup=True)
