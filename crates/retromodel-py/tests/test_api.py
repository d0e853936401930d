"""The installed package matches its type stubs, and help() has text for
everything."""

import ast
import pathlib

import retromodel

STUBS = pathlib.Path(__file__).resolve().parents[1] / "retromodel.pyi"


def stub_names():
    tree = ast.parse(STUBS.read_text())
    names = {}
    for node in tree.body:
        if isinstance(node, ast.FunctionDef):
            names[node.name] = None
        elif isinstance(node, ast.ClassDef):
            names[node.name] = {
                n.name for n in node.body if isinstance(n, ast.FunctionDef)
            } | {n.target.id for n in node.body if isinstance(n, ast.AnnAssign)}
    return names


def test_the_wheel_ships_the_stubs():
    package = pathlib.Path(retromodel.__file__).parent
    assert (package / "py.typed").is_file()
    assert (package / "__init__.pyi").read_text() == STUBS.read_text()


def test_stubs_and_module_agree():
    stubs = stub_names()
    public = {n for n in dir(retromodel) if not n.startswith("_")} - {"retromodel"}
    assert set(stubs) == public
    for name, members in stubs.items():
        obj = getattr(retromodel, name)
        assert obj.__doc__, name
        for member in members or ():
            if name == "Error":
                continue
            assert hasattr(obj, member), f"{name}.{member}"
            assert getattr(obj, member).__doc__ or name == "Problem", f"{name}.{member}"


def test_help_reads_well():
    assert "load(" in retromodel.__doc__ and "retromodel.Error" in retromodel.__doc__
    assert retromodel.load.__text_signature__ == '(source, name=None, *, skin="default", weapon=None, player=True)'
    assert "--" not in retromodel.compile_md2.__doc__.splitlines()[0]
