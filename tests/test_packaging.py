"""The three places that name dependencies agree: pyproject.toml (the one list), environment.yml (conda users:
runtime + lab + test) and .binder/environment.yml (Binder: runtime + lab; its postBuild installs the package,
since repo2docker builds the environment before the repository is copied: jupyterhub/repo2docker#1265); and the
package ships, as package data, every file its servers load."""

import os
import re
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def names(requirements) -> set[str]:
    return {re.split(r"[<>=!~ \[]", r, maxsplit=1)[0].strip().lower() for r in requirements}


def conda_names(path: Path) -> set[str]:
    deps = []
    for line in path.read_text().split("dependencies:", 1)[1].splitlines():
        match = re.match(r"\s+-\s+([A-Za-z0-9_.\-]+)", line)
        if match:
            deps.append(match.group(1))
    return names(deps) - {"python", "pip"}


PROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
RUNTIME = names(PROJECT["dependencies"])
LAB = names(PROJECT["optional-dependencies"]["lab"])
TEST = names(PROJECT["optional-dependencies"]["test"])


def test_environment_yml_names_every_dependency():
    assert conda_names(ROOT / "environment.yml") == RUNTIME | LAB | TEST


def test_binder_environment_names_runtime_and_lab():
    assert conda_names(ROOT / ".binder" / "environment.yml") == RUNTIME | LAB


def test_binder_postbuild_installs_the_package_and_env_does_not():
    assert "pip install" in (ROOT / ".binder" / "postBuild").read_text()
    for env in (ROOT / "environment.yml", ROOT / ".binder" / "environment.yml"):
        assert "-e ." not in env.read_text().split("repo2docker#1265")[-1]


def test_ci_calls_the_readme_test_command():
    assert "make test" in (ROOT / ".ci" / "run").read_text()
    assert "make test" in (ROOT / "README.md").read_text()
    assert "playwright" + " install" not in (ROOT / ".ci" / "run").read_text()  # no downloaded browser


def package_data() -> set[Path]:
    """The files pyproject.toml ships as package data of ``aluette`` (its globs, as setuptools expands them)."""
    globs = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["package-data"]["aluette"]
    return {path for glob in globs for path in (ROOT / "aluette").glob(glob) if path.is_file()}


def test_the_servers_load_only_the_package_and_its_package_data(tmp_path):
    """An installed (non-editable) aluette serves the class: what Voilà reads (its configuration, JUPYTER_CONFIG_PATH,
    and the template, JUPYTER_PATH, as the command gives them; the Solara app reads the landing page's style sheet
    from that template too) and the apps uvicorn and Solara import are all in the package, each file shipped as
    package data. The notebooks alone are told (--notebooks). Source: aluette/classroom/command.py; pyproject.toml."""
    from aluette.classroom import command
    folder = tmp_path / "tutorial"
    folder.mkdir()
    (folder / "00_start_here.ipynb").write_text("{}")
    launch = command.voila_command(folder=folder, environ={})
    config = Path(launch.env["JUPYTER_CONFIG_PATH"].split(os.pathsep)[0])
    data = Path(launch.env["JUPYTER_PATH"].split(os.pathsep)[0])
    loaded = {*config.glob("voila.*"), *(data / "voila" / "templates" / "aluette").glob("*")}
    assert len(loaded) >= 5 and all(path.is_relative_to(ROOT / "aluette") for path in loaded)
    assert loaded <= package_data(), sorted(map(str, loaded - package_data()))
    solara = command.solara_command(folder=folder, environ={}, workers=1)
    assert solara.env["SOLARA_APP"].startswith("aluette.") and "--app-dir" not in solara.argv
    assert any(arg.startswith("aluette.classroom.") and arg.endswith(":app") for arg in solara.argv)
    assert solara.env["ALUETTE_NOTEBOOKS"] == str(folder) and launch.argv[-1] == str(folder)
