"""What both of the students' servers use and that needs no server: the refusal pages (room full, teacher only,
token), the raised limit of open files, and the checks of a request's ``Host`` and ``Origin`` (DNS rebinding).
Solara's workers import it without Jupyter Server (Voilà's).

**DNS rebinding.** A hostile page the teacher opens (``http://evil.example:8889/``) can have its name resolve to
127.0.0.1: the browser then sends it to the server on this computer with ``Host: evil.example:8889``, and its
websockets with a matching ``Origin``. A server on the loopback address without a token must answer only requests
addressed to this computer by its loopback names (:func:`loopback_host`); every server takes a websocket only from
a page of its own address (:func:`same_origin`), never ``Origin: null`` (a sandboxed frame or a file)."""

from __future__ import annotations

import ipaddress
import resource
from html import escape
from typing import Callable
from urllib.parse import urlsplit

__all__ = ["refusal_page", "raise_open_files_limit", "host_name", "loopback_host", "same_origin", "LOOPBACK_NAMES",
           "replaces_a_page"]

#: The names a request to this computer's loopback address may carry in its ``Host`` header (without the port).
LOOPBACK_NAMES = frozenset({"127.0.0.1", "localhost", "::1"})


def host_name(host: str) -> str:
    """The name part of a ``Host`` header (``"[::1]:8888"`` -> ``"::1"``, ``"Example:80"`` -> ``"example"``)."""
    host = host.strip().lower()
    if host.startswith("["):
        return host[1:host.find("]")] if "]" in host else host
    return host.rsplit(":", 1)[0] if host.count(":") == 1 else host


def loopback_host(host: str | None) -> bool:
    """Whether a request's ``Host`` header names this computer's loopback address (any port): ``localhost`` or a
    loopback IP (``127.0.0.1``, ``127.0.0.2``, ``::1``...), never a name that merely starts like one."""
    if host is None or len(host) > 300:
        return False
    name = host_name(host)
    if name in LOOPBACK_NAMES:
        return True
    try:
        return ipaddress.ip_address(name).is_loopback
    except ValueError:
        return False


def same_origin(origin: str | None, host: str | None) -> bool:
    """Whether a websocket's ``Origin`` is a page of the server the request is addressed to (``Host``); a client
    that sends no ``Origin`` (not a browser) passes, ``"null"`` never does."""
    if origin is None:
        return True
    if host is None or len(origin) > 300:
        return False
    origin = origin.strip().lower()
    return origin in (f"http://{host.strip().lower()}", f"https://{host.strip().lower()}")


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
<html lang="{language}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>{title} - Aluette</title>
<style>body {{ font-family: sans-serif; max-width: 40em; margin: 4em auto; padding: 0 1em; color: #1a1a1a; }}
a {{ color: #0b5394; }}</style></head>
<body><main><h1>{title}</h1>{body}</main></body></html>
"""


def refusal_page(title: str, *paragraphs: str, language: str = "en") -> str:
    """A small, self-contained HTML page (no script, nothing fetched) with a title and plain paragraphs, in
    ``language`` (its ``lang``; the words are the caller's: :class:`aluette.classroom.policy.Refusal`)."""
    return PAGE.format(title=escape(title), body="".join(f"<p>{escape(p)}</p>" for p in paragraphs),
                       language=escape(language))


def replaces_a_page(cache_control: str | None, referer: str | None, host: str | None,
                    is_lesson: Callable[[str], bool]) -> bool:
    """Whether a page's request says it replaces a page of the same browser, which the door then counts as gone:
    the browser asks for the new page before the old one has gone (its close request races it). A reload (browsers
    send ``Cache-Control: max-age=0``, or ``no-cache`` for a hard reload), or a link followed from a lesson's page of
    this server (the ``Referer``'s host is the request's ``Host``, its path one that ``is_lesson``)."""
    control = (cache_control or "")[:2048].lower()
    if "max-age=0" in control or "no-cache" in control:
        return True
    if not referer or not host or len(referer) > 2048:
        return False
    parts = urlsplit(referer)
    return parts.netloc == host and is_lesson(parts.path)
