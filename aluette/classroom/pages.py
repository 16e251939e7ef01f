"""What both of the students' servers use and that needs no server: the refusal pages (room full, teacher only,
token) and the raised limit of open files. Solara's workers import it without Jupyter Server (Voilà's)."""

from __future__ import annotations

import resource
from html import escape

__all__ = ["refusal_page", "raise_open_files_limit"]


def raise_open_files_limit(target: int) -> tuple[int, int]:
    """Raise the soft limit of open file descriptors to ``target`` (never above the hard limit, never lower than it
    was). Every kernel websocket costs about nine descriptors, so the usual soft limit of 1024 ends near a hundred
    sockets. Returns the soft limit (before, after)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = target if hard == resource.RLIM_INFINITY else min(target, hard)
    if wanted > soft:
        resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))
    return soft, resource.getrlimit(resource.RLIMIT_NOFILE)[0]


PAGE = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>{title} - Aluette</title>
<style>body {{ font-family: sans-serif; max-width: 40em; margin: 4em auto; padding: 0 1em; color: #1a1a1a; }}
a {{ color: #0b5394; }}</style></head>
<body><main><h1>{title}</h1>{body}</main></body></html>
"""


def refusal_page(title: str, *paragraphs: str) -> str:
    """A small, self-contained HTML page (no script, nothing fetched) with a title and plain paragraphs."""
    return PAGE.format(title=escape(title), body="".join(f"<p>{escape(p)}</p>" for p in paragraphs))
