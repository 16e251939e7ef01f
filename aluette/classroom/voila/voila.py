# Voilà configuration of the classroom app (package data, in JUPYTER_CONFIG_PATH), loaded by `python -m
# aluette.classroom` (make app SERVER=voila, make teacher) beside voila.json. Only what JSON cannot say lives here: the
# landing page's hook (a Python callable) and the template that draws it (templates/voila/templates/aluette beside this
# file: Voilà's "lab" template with its own tree page and a print stylesheet on its notebook pages).
c = get_config()  # noqa: F821 (defined by traitlets when it loads this file)

from aluette.classroom.landing import page_config_hook  # noqa: E402

c.VoilaConfiguration.template = "aluette"
c.VoilaConfiguration.page_config_hook = page_config_hook
