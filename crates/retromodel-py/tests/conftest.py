"""Shared fixtures: the corpus (RETROMODEL_CORPUS, default ../shared/corpus
beside the repository; under CI a missing corpus fails) and the built
command line (RETROMODEL_CLI, default target/debug/retromodel)."""

import json
import os
import pathlib
import subprocess

import pytest

REPO = pathlib.Path(__file__).resolve().parents[3]


def corpus_dir() -> pathlib.Path:
    return pathlib.Path(os.environ.get("RETROMODEL_CORPUS", REPO.parent / "shared" / "corpus"))


@pytest.fixture(scope="session")
def corpus() -> pathlib.Path:
    d = corpus_dir()
    if not (d / "facts.json").is_file():
        if os.environ.get("CI"):
            pytest.fail(f"corpus missing at {d} (set RETROMODEL_CORPUS)")
        pytest.skip(f"corpus missing at {d}")
    return d


@pytest.fixture(scope="session")
def facts(corpus):
    return json.loads((corpus / "facts.json").read_text())


@pytest.fixture(scope="session")
def cli():
    path = pathlib.Path(os.environ.get("RETROMODEL_CLI", REPO / "target" / "debug" / "retromodel"))
    if not path.is_file():
        if os.environ.get("CI"):
            pytest.fail(f"retromodel command line missing at {path} (set RETROMODEL_CLI)")
        pytest.skip(f"retromodel command line missing at {path}")

    def run(*args, cwd=None):
        done = subprocess.run([str(path), *map(str, args)], capture_output=True, cwd=cwd)
        assert done.returncode == 0, done.stderr.decode()
        return done.stdout

    return run
