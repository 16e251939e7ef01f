"""Without Chromium (or playwright, voila, jupyterlab) the browser tests skip on a user's machine, with the install
command in the message, and fail when the CI variable is set, so CI can never go green by skipping them (decision
of this project). These checks need no browser."""

import pytest

from tests.browser.harness import find_chromium, require_module


def test_missing_chromium_skips_with_the_install_command(monkeypatch, tmp_path):
    monkeypatch.delenv("CI", raising=False)
    with pytest.raises(pytest.skip.Exception, match="sudo apt-get install chromium"):
        find_chromium(tmp_path / "chromium")


def test_missing_chromium_fails_under_ci(monkeypatch, tmp_path):
    monkeypatch.setenv("CI", "true")
    with pytest.raises(pytest.fail.Exception, match="CI is set"):
        find_chromium(tmp_path / "chromium")


def test_present_chromium_is_returned(tmp_path):
    browser = tmp_path / "chromium"
    browser.write_text("")
    assert find_chromium(browser) == browser


@pytest.mark.parametrize("ci, outcome", [(None, pytest.skip.Exception), ("true", pytest.fail.Exception)])
def test_missing_python_package(monkeypatch, ci, outcome):
    if ci is None:
        monkeypatch.delenv("CI", raising=False)
    else:
        monkeypatch.setenv("CI", ci)
    with pytest.raises(outcome, match=r"pip install -e '\.\[lab\]'"):
        require_module("no_such_module_for_aluette", "lab")
    require_module("pytest", "test")  # present: nothing raised
