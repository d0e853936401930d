"""Checks the add-on's per-platform zips with Blender's own extension tool.

blender_ext.py (Blender's `blender --command extension` implementation,
taken from the bpy wheel by check_extension.sh) is the oracle:

* `blender_ext.py validate ZIP` accepts each zip;
* `blender_ext.py build --split-platforms`, given the add-on with every
  wheel and platform, names its zips as package.sh does and puts the same
  files in each (package.sh keeps them in a retromodel_io/ folder, which
  Blender 4.2+ accepts and Blender 3.x's legacy add-on install needs);
* Blender's own wheel-to-platform mapping puts each zip's one wheel on the
  platform its manifest lists;
* the manifest says what Blender's extension platform asks for add-ons:
  licence SPDX:GPL-3.0-or-later, Blender 4.2.0 or later, a reason for the
  file permission.

    python3 check_extension.py BLENDER_EXT_PY DIST_DIR SOURCE_DIR VERSION
"""

import importlib.util
import re
import shutil
import subprocess
import sys
import tempfile
import tomllib
import zipfile
from pathlib import Path

PLATFORMS = ["linux-x64", "windows-x64", "macos-arm64", "macos-x64"]


def main():
    blender_ext, dist, source, version = Path(sys.argv[1]), Path(sys.argv[2]), Path(sys.argv[3]), sys.argv[4]
    spec = importlib.util.spec_from_file_location("blender_ext", blender_ext)
    ext = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(ext)

    ours = sorted(p.name for p in dist.glob(f"retromodel_io-{version}-*.zip"))
    if len(ours) != len(PLATFORMS):
        sys.exit(f"expected {len(PLATFORMS)} zips in {dist}, found {ours}")
    failures = 0

    # Blender's build of the same add-on with every wheel, split by platform.
    with tempfile.TemporaryDirectory() as tmp:
        src = Path(tmp) / "retromodel_io"
        shutil.copytree(source, src, ignore=shutil.ignore_patterns("__pycache__"))
        (src / "wheels").mkdir()
        wheels = []
        for name in ours:
            with zipfile.ZipFile(dist / name) as z:
                for member in z.namelist():
                    if member.endswith(".whl"):
                        (src / "wheels" / Path(member).name).write_bytes(z.read(member))
                        wheels.append(f"./wheels/{Path(member).name}")
        manifest = src / "blender_manifest.toml"
        text = manifest.read_text()
        extra = f"platforms = {PLATFORMS!r}\nwheels = {sorted(wheels)!r}\n".replace("'", '"')
        manifest.write_text(re.sub(r"^(license = .*\n)", lambda m: m.group(1) + extra, text, count=1, flags=re.M))
        out = Path(tmp) / "out"
        out.mkdir()
        run = subprocess.run(
            [sys.executable, str(blender_ext), "build", "--source-dir", str(src), "--output-dir", str(out), "--split-platforms"],
            capture_output=True,
            text=True,
        )
        if run.returncode != 0:
            sys.exit(f"blender_ext.py build --split-platforms failed:\n{run.stdout}{run.stderr}")
        theirs = sorted(p.name for p in out.glob("*.zip"))
        if theirs != ours:
            sys.exit(f"Blender names the zips {theirs}, package.sh wrote {ours}")
        blender_files = {}
        for name in theirs:
            with zipfile.ZipFile(out / name) as z:
                blender_files[name] = sorted(n for n in z.namelist() if not n.endswith("/"))

    for name in ours:
        path = dist / name
        problems = []
        run = subprocess.run([sys.executable, str(blender_ext), "validate", str(path)], capture_output=True, text=True)
        said = " ".join((run.stdout + run.stderr).split())
        if run.returncode != 0 or "error" in said.lower():
            problems.append(f"blender_ext.py validate: exit {run.returncode}: {said}")
        with zipfile.ZipFile(path) as z:
            files = sorted(n.removeprefix("retromodel_io/") for n in z.namelist() if not n.endswith("/"))
            if files != blender_files[name]:
                problems.append(f"files {files}, Blender's build has {blender_files[name]}")
            manifest = tomllib.loads(z.read("retromodel_io/blender_manifest.toml").decode())
            has_bl_info = b"bl_info" in z.read("retromodel_io/__init__.py")
        platform = name.removesuffix(".zip").rsplit("-", 1)[1].replace("_", "-")
        if manifest.get("platforms") != [platform]:
            problems.append(f"platforms {manifest.get('platforms')}, expected [{platform!r}]")
        wheel_list = manifest.get("wheels", [])
        if len(wheel_list) != 1 or f"retromodel_io/{wheel_list[0].removeprefix('./')}" not in z.namelist():
            problems.append(f"wheels {wheel_list}: expected one, in the zip")
        else:
            wheel_platform = wheel_list[0].removesuffix(".whl").rsplit("-", 1)[1]
            if ext.blender_platforms_from_wheel_platform(wheel_platform) != [platform]:
                problems.append(f"Blender puts the wheel {wheel_list[0]} on {ext.blender_platforms_from_wheel_platform(wheel_platform)}")
        if manifest.get("license") != ["SPDX:GPL-3.0-or-later"]:
            problems.append(f"license {manifest.get('license')}")
        if manifest.get("blender_version_min") != "4.2.0":
            problems.append(f"blender_version_min {manifest.get('blender_version_min')}")
        if not manifest.get("permissions", {}).get("files"):
            problems.append("no reason for the files permission")
        if manifest.get("version") != version or manifest.get("type") != "add-on":
            problems.append(f"version {manifest.get('version')} type {manifest.get('type')}")
        if not has_bl_info:
            problems.append("__init__.py lost bl_info (Blender 3.x legacy install)")
        if problems:
            failures += 1
            print(f"FAIL {name}: " + "; ".join(problems))
        else:
            print(f"ok {name} ({path.stat().st_size // 1024} KiB): {platform}, {wheel_list[0]}; blender_ext.py validate: {said}")
    print(f"{len(ours) - failures} passed, {failures} failed")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
