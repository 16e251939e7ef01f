# Voilà configuration of the classroom app, loaded by `python -m aluette.classroom` (make app SERVER=voila, make
# teacher) after ../voila.json. Only what JSON cannot say lives here: the landing page's hook (a Python callable) and the
# template that draws it (classroom/templates/voila/templates/aluette: Voilà's "lab" template with its own tree page).
c = get_config()  # noqa: F821 (defined by traitlets when it loads this file)

from aluette.classroom.landing import page_config_hook  # noqa: E402

c.VoilaConfiguration.template = "aluette"
c.VoilaConfiguration.page_config_hook = page_config_hook
