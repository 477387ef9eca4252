"""The service's pages for people: ``/play``, the report page, ``/docs`` and ``/favicon.ico``.

Every page works offline: ``/play`` is one self-contained file, the report page too,
and ``/docs`` (Swagger UI) and ``/redoc`` load their scripts from the files the package
``fastapi-offline`` ships, served under ``/docs/static``, never from a CDN.

``/play`` and the report page carry a Content-Security-Policy that allows exactly what
they hold: their own inline script (by its SHA-256 hash: an injected script does not
run), inline styles, ``data:`` images, requests to this service only, no plugins, no
forms, no framing by other sites.  The report of a finished game is shown in the page
in an iframe (``srcdoc``) sandboxed with ``allow-scripts`` only: its turn stepping runs,
in an opaque origin that can reach neither the page nor its stored API key; a
``srcdoc`` document keeps the policy of ``/play``, so the report's script hash is listed
there too.
"""

from __future__ import annotations

import base64
import hashlib
import re
from importlib import resources

from fastapi.openapi.docs import get_redoc_html, get_swagger_ui_html
from fastapi.responses import HTMLResponse, Response
from fastapi.staticfiles import StaticFiles

from ..render import report

__all__ = ["install", "play_page", "report_headers", "PLAY_CSP", "REPORT_CSP"]

_SCRIPT = re.compile(r"<script>(.*?)</script>", re.S)


def _hash(source: str) -> str:
    return "'sha256-" + base64.b64encode(hashlib.sha256(source.encode("utf-8")).digest()).decode("ascii") + "'"


def _static(name: str) -> bytes:
    return resources.files("wordsalvo.serve").joinpath("static", name).read_bytes()


def _policy(scripts: list[str], connect: str) -> str:
    return "; ".join((
        "default-src 'none'", f"script-src {' '.join(_hash(s) for s in scripts)}", "style-src 'unsafe-inline'",
        "img-src 'self' data:", f"connect-src {connect}", "base-uri 'none'", "form-action 'none'",
        "frame-ancestors 'self'", "object-src 'none'"))


_PLAY = _static("play.html").decode("utf-8")
_FAVICON = _static("favicon.ico")
#: the report page's policy: its one inline script, nothing fetched
REPORT_CSP = _policy([report.SCRIPT], "'none'")
#: /play's policy: its inline script, the report's (shown in a srcdoc iframe), requests to this service
PLAY_CSP = _policy(_SCRIPT.findall(_PLAY) + [report.SCRIPT], "'self'")
_HEADERS = {"x-content-type-options": "nosniff", "referrer-policy": "no-referrer"}


def play_page() -> HTMLResponse:
    return HTMLResponse(_PLAY, headers={"content-security-policy": PLAY_CSP, **_HEADERS})


def report_headers() -> dict[str, str]:
    """The headers of a report page the service answers with."""
    return {"content-security-policy": REPORT_CSP, **_HEADERS}


def install(app) -> None:
    """``/docs`` and ``/redoc`` on the package's Swagger UI and ReDoc files, and
    ``/favicon.ico`` (the FastAPI ``app`` made with ``docs_url=None, redoc_url=None``)."""
    assets = resources.files("fastapi_offline").joinpath("static")
    app.mount("/docs/static", StaticFiles(directory=str(assets)), name="docs-static")
    title = app.title

    @app.get("/docs", include_in_schema=False)
    async def swagger() -> HTMLResponse:
        return get_swagger_ui_html(openapi_url=app.openapi_url, title=f"{title} \u2013 API",
                                   swagger_js_url="/docs/static/swagger-ui-bundle.js",
                                   swagger_css_url="/docs/static/swagger-ui.css", swagger_favicon_url="/favicon.ico")

    @app.get("/redoc", include_in_schema=False)
    async def redoc() -> HTMLResponse:
        return get_redoc_html(openapi_url=app.openapi_url, title=f"{title} \u2013 API",
                              redoc_js_url="/docs/static/redoc.standalone.js", redoc_favicon_url="/favicon.ico",
                              with_google_fonts=False)

    @app.get("/favicon.ico", include_in_schema=False)
    async def favicon() -> Response:
        return Response(_FAVICON, media_type="image/x-icon", headers={"cache-control": "public, max-age=86400"})
