"""The three places that name dependencies agree: pyproject.toml (the one list), environment.yml (conda users:
runtime + lab + test) and .binder/environment.yml (Binder: runtime + lab; its postBuild installs the package,
since repo2docker builds the environment before the repository is copied: jupyterhub/repo2docker#1265)."""

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
