"""What the test-model scripts beside this file share: an empty scene at a
frame rate, and an armature object entered in edit mode. Imported by them
(Blender runs a script with its folder not on sys.path, so they add it)."""
import bpy


def empty_scene(fps):
    """Removes every object, mesh, armature, material, action, camera and
    light, and sets the scene to `fps` frames per second, frames 0 to `fps`."""
    for coll in (bpy.data.objects, bpy.data.meshes, bpy.data.armatures,
                 bpy.data.materials, bpy.data.actions, bpy.data.cameras,
                 bpy.data.lights):
        for item in list(coll):
            coll.remove(item)
    scene = bpy.context.scene
    scene.render.fps = fps
    scene.render.fps_base = 1.0
    scene.frame_start = 0
    scene.frame_end = fps
    scene.frame_set(0)
    return scene


def armature_in_edit_mode(scene, name):
    """A new armature object `name` (data `name_data`), linked, active and
    selected, in edit mode: add bones, then leave with mode_set('OBJECT')."""
    arm = bpy.data.armatures.new(name + "_data")
    rig = bpy.data.objects.new(name, arm)
    scene.collection.objects.link(rig)
    bpy.context.view_layer.objects.active = rig
    rig.select_set(True)
    bpy.ops.object.mode_set(mode="EDIT")
    return arm, rig
