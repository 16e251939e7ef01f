"""Thin ipywidgets views over the engine, one module per notebook topic.

Widgets only wire controls to :mod:`aluette`; no rule is implemented here. Each view is a small ``VBox`` subclass
whose constructor returns the widget without displaying it (the notebook shows it), and whose callbacks turn any
:class:`~aluette.errors.AluetteError` into a friendly message in the view instead of an invisible traceback.
"""
