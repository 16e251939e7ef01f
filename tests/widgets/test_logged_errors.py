"""The raising log handler of ``tests/widgets/conftest.py`` (quality bar): a widget callback that raises fails the
test, although ipywidgets' ``CallbackDispatcher`` only logs the exception (logger ``traitlets``, level WARNING)."""

import logging

import ipywidgets as w
import pytest

from aluette.widgets.ranking import OrderingExercise

from .conftest import LoggedCallbackError


def broken(_button):
    raise RuntimeError("a bug in a callback")


class TestRaiseLogHandler:
    def test_a_raising_button_callback_fails_the_click(self, raise_logged_errors):
        button = w.Button()
        button.on_click(broken)
        with pytest.raises(LoggedCallbackError, match="a bug in a callback"):
            button.click()
        on_traitlets, _ = raise_logged_errors
        assert [r.name for r in on_traitlets.records] == ["traitlets"]
        on_traitlets.records.clear()  # expected here; any other record fails the test at teardown

    def test_a_raise_injected_into_a_real_widget_button_fails(self, raise_logged_errors):
        exercise = OrderingExercise(seed=3)
        exercise.check_button.on_click(broken)  # runs after the widget's own callback
        with pytest.raises(LoggedCallbackError, match="RuntimeError"):
            exercise.check_button.click()
        raise_logged_errors[0].records.clear()

    def test_a_swallowed_raise_is_still_recorded_for_the_teardown(self, raise_logged_errors):
        button = w.Button()
        button.on_click(broken)
        try:
            button.click()
        except LoggedCallbackError:
            pass  # as a widget's catch-all might do
        assert len(raise_logged_errors[0].records) == 1  # the fixture fails the test on this record at teardown
        raise_logged_errors[0].records.clear()

    def test_an_error_record_of_any_logger_fails(self, raise_logged_errors):
        with pytest.raises(LoggedCallbackError, match="task failed"):
            logging.getLogger("asyncio").error("task failed")
        raise_logged_errors[1].records.clear()

    def test_a_plain_warning_passes(self, raise_logged_errors):
        logging.getLogger("traitlets").warning("a deprecation notice, no exception")
        assert raise_logged_errors[0].records == [] and raise_logged_errors[1].records == []

    def test_a_working_callback_passes(self):
        clicks = []
        button = w.Button()
        button.on_click(clicks.append)
        button.click()
        assert clicks == [button]
