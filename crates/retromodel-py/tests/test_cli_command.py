"""The `retromodel` command the wheel installs (`pip install retromodel`,
`pipx install retromodel`) is the Rust command line: on the same arguments
it prints the same bytes to stdout and stderr, writes the same files and
exits with the same status as the binary (RETROMODEL_CLI), though the two
are built apart (the binary unoptimised, the wheel --release)."""

import importlib.metadata
import os
import pathlib
import subprocess
import sys
import sysconfig

import pytest

import retromodel
import retromodel.retromodel as native  # the extension module itself
from conftest import REPO


def installed_command() -> pathlib.Path:
    """The console script pip wrote beside this interpreter."""
    name = "retromodel.exe" if os.name == "nt" else "retromodel"
    for folder in (sysconfig.get_path("scripts"), pathlib.Path(sys.executable).parent):
        path = pathlib.Path(folder) / name
        if path.is_file():
            return path
    pytest.fail(f"no {name} beside {sys.executable}: the wheel installs no command")


@pytest.fixture(scope="session")
def binary() -> pathlib.Path:
    path = pathlib.Path(os.environ.get("RETROMODEL_CLI", REPO / "target" / "debug" / "retromodel"))
    if not path.is_file():
        if os.environ.get("CI"):
            pytest.fail(f"retromodel command line missing at {path} (set RETROMODEL_CLI)")
        pytest.skip(f"retromodel command line missing at {path}")
    return path


def run(program, args, cwd):
    done = subprocess.run([str(program), *map(str, args)], capture_output=True, cwd=cwd)
    return done.returncode, done.stdout, done.stderr


def same(binary, args, tmp_path, expect_status):
    """Runs the binary and the installed command on `args`, each in a folder
    of its own, and returns the one result they both gave."""
    results = []
    for who, program in (("binary", binary), ("command", installed_command())):
        cwd = tmp_path / who
        cwd.mkdir(exist_ok=True)
        results.append(run(program, args, cwd))
    (status, out, err), command = results
    assert command == (status, out, err), f"retromodel {args}: the installed command differs from the binary"
    assert status == expect_status, f"retromodel {args}: status {status}, stderr {err.decode(errors='replace')}"
    return out, err


def test_entry_point_names_the_module_function():
    [script] = [e for e in importlib.metadata.entry_points(group="console_scripts") if e.name == "retromodel"]
    assert script.value == "retromodel.retromodel:_cli_main"
    assert script.load() is native._cli_main


def test_version_and_help(binary, tmp_path):
    out, err = same(binary, ["--version"], tmp_path, 0)
    assert out == f"retromodel {retromodel.__version__}\n".encode() and err == b""
    out, _ = same(binary, ["--help"], tmp_path, 0)
    assert b"Usage: retromodel <COMMAND>" in out
    out, _ = same(binary, ["convert", "--help"], tmp_path, 0)
    assert b"Usage: retromodel convert" in out


def test_usage_errors(binary, tmp_path):
    _, err = same(binary, ["info", "--no-such-flag"], tmp_path, 2)
    assert b"Usage: retromodel info" in err
    same(binary, [], tmp_path, 2)
    same(binary, ["no-such-command"], tmp_path, 2)


def test_info_and_validate(binary, corpus, tmp_path):
    out, _ = same(binary, ["info", corpus / "md2" / "assimpdeb_sydney.md2"], tmp_path, 0)
    assert out
    same(binary, ["info", "--json", corpus / "md2" / "assimpdeb_sydney.md2"], tmp_path, 0)
    same(binary, ["validate", corpus / "md2" / "assimpdeb_sydney.md2"], tmp_path, 0)
    # A file cut short: a problem, status 1.
    bad = tmp_path / "cut.md2"
    bad.write_bytes((corpus / "md2" / "assimpdeb_sydney.md2").read_bytes()[:100])
    out, err = same(binary, ["validate", bad], tmp_path, 1)
    assert b"cut.md2: error: " in out + err
    same(binary, ["info", tmp_path / "missing.md2"], tmp_path, 1)


def test_convert_writes_the_same_bytes_and_refuses_to_overwrite(binary, corpus, tmp_path):
    model = corpus / "md2" / "assimpdeb_sydney.md2"
    same(binary, ["convert", model, "out.glb"], tmp_path, 0)
    written = (tmp_path / "binary" / "out.glb").read_bytes()
    assert written[:4] == b"glTF"
    assert (tmp_path / "command" / "out.glb").read_bytes() == written
    # Again, without --force: refused, the file kept.
    _, err = same(binary, ["convert", model, "out.glb"], tmp_path, 1)
    assert err
    assert (tmp_path / "command" / "out.glb").read_bytes() == written


def test_in_process(corpus, capfd):
    """`retromodel.retromodel._cli` runs the command in this process and returns its
    status; it prints to the process's stdout and stderr."""
    print("before", flush=False)
    assert native._cli(["info", str(corpus / "md2" / "assimpdeb_sydney.md2")]) == 0
    out, _ = capfd.readouterr()
    assert out.startswith("before\n") and len(out) > len("before\n")
    assert native._cli(["info", "--no-such-flag"]) == 2
    assert "Usage: retromodel info" in capfd.readouterr().err
    assert native._cli(["--version"]) == 0
    assert capfd.readouterr().out == f"retromodel {retromodel.__version__}\n"
