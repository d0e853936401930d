"""Checks the cross-built retromodel wheels without running them.

For each platform the add-on ships (Linux, Windows, macOS arm64 and x86_64)
it reads the wheel as a zip and its native module's bytes:

* the file name and the WHEEL file carry the same `cp39-abi3-PLATFORM` tag,
  METADATA the workspace's version;
* the native module is the file type and CPU the tag says (ELF x86-64,
  PE32+ x86-64 DLL, Mach-O arm64 or x86_64 bundle), its headers parsed here;
* what it imports: abi3audit finds no symbol outside the stable ABI; the
  PE imports python3.dll (not python3X.dll) and only Windows' own DLLs, no
  MinGW runtime (libgcc_s, libwinpthread, libstdc++); the ELF needs no
  GLIBC symbol version newer than 2.28 (`objdump -T`) and no libpython; the
  Mach-O loads only macOS's own libraries, its minimum macOS is the tag's
  and, on arm64, its ad-hoc code signature matches every page;
* it is the same code: every name retromodel.pyi declares is in the binary,
  and so is the workspace's version next to `__version__`'s other strings;
  the Python files of every wheel are the same bytes;
* it installs the `retromodel` command: entry_points.txt names the native
  module's `_cli_main` as the console script, and the binary holds it.

    python3 check_wheels.py WHEEL_DIR VERSION PYI
"""

import configparser
import hashlib
import re
import struct
import subprocess
import sys
import zipfile
from pathlib import Path

import pefile

PLATFORMS = {
    "manylinux_2_28_x86_64": "elf-x86_64",
    "win_amd64": "pe-x86_64",
    "macosx_11_0_arm64": "macho-arm64",
    "macosx_10_12_x86_64": "macho-x86_64",
}
# DLLs every Windows 10+ has; the .pyd must need nothing else but python3.dll.
WINDOWS_SYSTEM_DLLS = {
    "kernel32.dll",
    "ntdll.dll",
    "msvcrt.dll",
    "bcryptprimitives.dll",
    "advapi32.dll",
    "userenv.dll",
    "ws2_32.dll",
    "vcruntime140.dll",
}
MAX_GLIBC = (2, 28)


def fail(wheel, message):
    sys.exit(f"{wheel}: {message}")


def native_module(wheel, z):
    names = [n for n in z.namelist() if re.fullmatch(r"retromodel/retromodel\..*(so|pyd)", n)]
    if len(names) != 1:
        fail(wheel, f"expected one native module in retromodel/, found {names}")
    return names[0], z.read(names[0])


def check_elf(wheel, data, path):
    if data[:4] != b"\x7fELF":
        fail(wheel, "native module is not ELF")
    if data[4] != 2 or data[5] != 1:
        fail(wheel, "ELF is not 64-bit little-endian")
    e_type, e_machine = struct.unpack_from("<HH", data, 16)
    if e_machine != 62 or e_type != 3:  # EM_X86_64, ET_DYN
        fail(wheel, f"ELF machine {e_machine} type {e_type}, expected x86-64 shared object")
    dynsyms = subprocess.run(["objdump", "-T", path], check=True, capture_output=True, text=True).stdout
    versions = {tuple(map(int, v.split("."))) for v in re.findall(r"GLIBC_(\d+(?:\.\d+)+)", dynsyms)}
    newest = max(versions)
    if newest > MAX_GLIBC:
        fail(wheel, f"needs GLIBC_{'.'.join(map(str, newest))}, more than manylinux_2_28 allows")
    headers = subprocess.run(["objdump", "-p", path], check=True, capture_output=True, text=True).stdout
    needed = re.findall(r"NEEDED\s+(\S+)", headers)
    if any("python" in n for n in needed):
        fail(wheel, f"links libpython: {needed}")
    return f"ELF x86-64 shared object, newest GLIBC_{'.'.join(map(str, newest))}, needs {needed}"


def check_pe(wheel, data):
    pe = pefile.PE(data=data)
    if pe.FILE_HEADER.Machine != 0x8664:
        fail(wheel, f"PE machine {pe.FILE_HEADER.Machine:#x}, expected AMD64")
    if pe.OPTIONAL_HEADER.Magic != 0x20B:
        fail(wheel, "PE is not PE32+")
    if not pe.FILE_HEADER.Characteristics & 0x2000:
        fail(wheel, "PE is not a DLL")
    dlls = sorted(e.dll.decode().lower() for e in pe.DIRECTORY_ENTRY_IMPORT)
    if "python3.dll" not in dlls:
        fail(wheel, f"does not import python3.dll: {dlls}")
    others = [d for d in dlls if d != "python3.dll" and d not in WINDOWS_SYSTEM_DLLS and not d.startswith("api-ms-win-")]
    if others:
        fail(wheel, f"imports DLLs Windows does not ship (MinGW runtime?): {others}")
    exports = [e.name.decode() for e in pe.DIRECTORY_ENTRY_EXPORT.symbols if e.name]
    if "PyInit_retromodel" not in exports:
        fail(wheel, f"does not export PyInit_retromodel: {exports}")
    return f"PE32+ x86-64 DLL, imports {dlls}"


MACOS_SYSTEM = ("/usr/lib/libSystem.", "/usr/lib/libiconv.", "/usr/lib/libcharset.", "/System/Library/Frameworks/")
MACHO_CPU = {"arm64": 0x0100000C, "x86_64": 0x01000007}


def check_code_signature(wheel, data, signature):
    """macOS on arm64 loads only signed code: an ad-hoc signature whose
    CodeDirectory hashes (SHA-256, big-endian structures) match every page."""
    if signature is None:
        fail(wheel, "arm64 Mach-O without a code signature (macOS refuses to load it)")
    dataoff, _datasize = signature
    magic, _length, count = struct.unpack_from(">III", data, dataoff)
    if magic != 0xFADE0CC0:  # CSMAGIC_EMBEDDED_SIGNATURE
        fail(wheel, f"code signature superblob magic {magic:#x}")
    for i in range(count):
        _type, blob = struct.unpack_from(">II", data, dataoff + 12 + 8 * i)
        base = dataoff + blob
        if struct.unpack_from(">I", data, base)[0] != 0xFADE0C02:  # CSMAGIC_CODEDIRECTORY
            continue
        hash_offset, _ident, _special, n_slots, code_limit, hash_size, hash_type, _platform, page_log = struct.unpack_from(
            ">IIIIIBBBB", data, base + 16
        )
        if hash_type != 2 or hash_size != 32:  # SHA-256
            fail(wheel, f"code signature hash type {hash_type}")
        page = 1 << page_log
        for slot in range(n_slots):
            chunk = data[slot * page : min((slot + 1) * page, code_limit)]
            expected = data[base + hash_offset + 32 * slot : base + hash_offset + 32 * (slot + 1)]
            if hashlib.sha256(chunk).digest() != expected:
                fail(wheel, f"code signature does not match page {slot}")
        return
    fail(wheel, "code signature without a CodeDirectory")


def check_macho(wheel, data, cpu, tag):
    magic, cputype, _sub, filetype, ncmds, _size, _flags = struct.unpack_from("<IiiIIII", data, 0)
    if magic != 0xFEEDFACF:
        fail(wheel, f"not a 64-bit little-endian Mach-O (magic {magic:#x})")
    if cputype != MACHO_CPU[cpu]:
        fail(wheel, f"Mach-O CPU {cputype:#x}, expected {cpu}")
    if filetype not in (6, 8):  # MH_DYLIB, MH_BUNDLE
        fail(wheel, f"Mach-O file type {filetype}, expected a dylib or bundle")
    offset, dylibs, minos, signature = 32, [], None, None
    for _ in range(ncmds):
        cmd, cmdsize = struct.unpack_from("<II", data, offset)
        if cmd in (0xC, 0x80000018):  # LC_LOAD_DYLIB, LC_LOAD_WEAK_DYLIB
            name_offset = struct.unpack_from("<I", data, offset + 8)[0]
            dylibs.append(data[offset + name_offset : offset + cmdsize].split(b"\0")[0].decode())
        elif cmd == 0x1D:  # LC_CODE_SIGNATURE: dataoff, datasize
            signature = struct.unpack_from("<II", data, offset + 8)
        elif cmd == 0x32:  # LC_BUILD_VERSION: platform, minos (xxxx.yy.zz)
            minos = struct.unpack_from("<I", data, offset + 12)[0]
        elif cmd == 0x24:  # LC_VERSION_MIN_MACOSX
            minos = struct.unpack_from("<I", data, offset + 8)[0]
        offset += cmdsize
    # macOS's own libraries (Rust's std links libiconv too); nothing from
    # Homebrew, no libpython.
    if "/usr/lib/libSystem.B.dylib" not in dylibs or [d for d in dylibs if not d.startswith(MACOS_SYSTEM)]:
        fail(wheel, f"loads libraries macOS does not ship: {dylibs}")
    if minos is None:
        fail(wheel, "no minimum macOS version in the load commands")
    if cpu == "arm64":
        check_code_signature(wheel, data, signature)
    major, minor = minos >> 16, (minos >> 8) & 0xFF
    tag_version = tuple(map(int, re.match(r"macosx_(\d+)_(\d+)_", tag).groups()))
    if (major, minor) > tag_version:
        fail(wheel, f"needs macOS {major}.{minor}, newer than its tag {tag}")
    return f"Mach-O {cpu} {'bundle' if filetype == 8 else 'dylib'}, macOS {major}.{minor}+, loads {dylibs}"


def main():
    wheel_dir, version, pyi = Path(sys.argv[1]), sys.argv[2], Path(sys.argv[3])
    declared = set(re.findall(r"^\s*(?:def|class) ([A-Za-z]\w*)", pyi.read_text(), re.M))
    python_files = {}
    for tag, kind in PLATFORMS.items():
        wheels = list(wheel_dir.glob(f"retromodel-*-{tag}.whl"))
        if len(wheels) != 1:
            sys.exit(f"expected one wheel for {tag} in {wheel_dir}, found {[w.name for w in wheels]}")
        wheel = wheels[0]
        expected_name = f"retromodel-{version}-cp39-abi3-{tag}.whl"
        if wheel.name != expected_name:
            fail(wheel.name, f"expected the name {expected_name}")
        z = zipfile.ZipFile(wheel)
        dist_info = f"retromodel-{version}.dist-info"
        wheel_file = z.read(f"{dist_info}/WHEEL").decode()
        tags = re.findall(r"^Tag: (.*)$", wheel_file, re.M)
        if tags != [f"cp39-abi3-{tag}"] or "Root-Is-Purelib: false" not in wheel_file:
            fail(wheel.name, f"WHEEL file says {tags}:\n{wheel_file}")
        metadata = z.read(f"{dist_info}/METADATA").decode()
        if f"\nVersion: {version}\n" not in metadata or "\nName: retromodel\n" not in metadata:
            fail(wheel.name, "METADATA does not name retromodel " + version)
        entry_points = configparser.ConfigParser(delimiters=("=",))
        if f"{dist_info}/entry_points.txt" in z.namelist():
            entry_points.read_string(z.read(f"{dist_info}/entry_points.txt").decode())
        script = entry_points.get("console_scripts", "retromodel", fallback=None)
        if script != "retromodel.retromodel:_cli_main":
            fail(wheel.name, f"entry_points.txt: the console script retromodel is {script!r}, not retromodel.retromodel:_cli_main")
        name, data = native_module(wheel.name, z)
        extracted = wheel_dir / "check" / tag / Path(name).name
        extracted.parent.mkdir(parents=True, exist_ok=True)
        extracted.write_bytes(data)
        if kind == "elf-x86_64":
            what = check_elf(wheel.name, data, extracted)
        elif kind == "pe-x86_64":
            what = check_pe(wheel.name, data)
        else:
            what = check_macho(wheel.name, data, kind.split("-")[1], tag)
        missing = sorted(n for n in declared if n.encode() not in data)
        if missing:
            fail(wheel.name, f"names retromodel.pyi declares are not in the binary: {missing}")
        if b"_cli_main" not in data:
            fail(wheel.name, "the binary has no _cli_main, which the console script calls")
        if b"__version__" not in data or version.encode() not in data:
            fail(wheel.name, f"the binary does not hold __version__ {version}")
        audit = subprocess.run(
            [sys.executable, "-m", "abi3audit", "--strict", "--summary", str(wheel)],
            capture_output=True,
            text=True,
        )
        if audit.returncode != 0:
            fail(wheel.name, f"abi3audit:\n{audit.stdout}{audit.stderr}")
        summary = " ".join((audit.stdout + audit.stderr).split()).split(f"{wheel.name}: ")[-1]
        python_files[tag] = {n: z.read(n) for n in z.namelist() if n.endswith((".py", ".pyi", "py.typed"))}
        print(f"ok {wheel.name} ({wheel.stat().st_size // 1024} KiB): {what}; {len(declared)} declared names; abi3audit: {summary}; console script retromodel")
    reference = next(iter(python_files.values()))
    for tag, files in python_files.items():
        if files != reference:
            sys.exit(f"the Python files of the {tag} wheel differ from the others")
    print(f"{len(PLATFORMS)} passed, 0 failed")


if __name__ == "__main__":
    main()
