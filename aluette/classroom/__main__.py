"""``python -m aluette.classroom app|teacher --host=H --port=P [--token=T]``: see :mod:`aluette.classroom.command`."""

import sys

from .command import main

if __name__ == "__main__":
    sys.exit(main())
