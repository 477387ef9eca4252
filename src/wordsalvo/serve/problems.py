"""Problem details (RFC 9457): every error of the service as one JSON shape.

``{"type": "urn:wordsalvo:problem:<kind>", "title": ..., "status": ..., "detail": ...}``
with the media type ``application/problem+json``.  ``detail`` is the message of the
:class:`~wordsalvo.WordSalvoError` (what was expected, what came, where) or of the
limit that was hit; a server fault says only that it happened (the traceback goes to
the log, never to the client).  The kinds are listed in :data:`KINDS`.
"""

from __future__ import annotations

import json
from typing import Any

from ..errors import (AnalysisError, GameError, GameTokenError, GCGError, IllegalMoveError, LeavesError, LexiconFormatError,
                      NotationError, PositionError, RulesError, ServeRequestError, WordSalvoError)

__all__ = ["KINDS", "problem", "problem_body", "error_kind"]

#: kind -> (status, title)
KINDS: dict[str, tuple[int, str]] = {
    "malformed-json": (400, "The body is not JSON"),
    "unauthorized": (401, "A valid X-API-Key header is required"),
    "not-found": (404, "No such endpoint"),
    "method-not-allowed": (405, "Method not allowed"),
    "slow-body": (408, "The body did not arrive in time"),
    "body-too-large": (413, "The body is larger than the service accepts"),
    "unsupported-media-type": (415, "Expected a JSON body"),
    "headers-too-large": (431, "The request's headers are larger than the service accepts"),
    "invalid-request": (422, "The request does not match the endpoint's schema"),
    "position": (422, "The position cannot be used"),
    "notation": (422, "The move notation cannot be read"),
    "illegal-move": (422, "The move is illegal"),
    "rules": (422, "The rule set cannot be used"),
    "game-record": (422, "The game record cannot be replayed"),
    "game": (422, "The game cannot do that"),
    "game-token": (422, "The game token was not issued by this service or was changed"),
    "analysis": (422, "The game cannot be analysed"),
    "lexicon": (422, "The lexicon cannot be used"),
    "leaves": (422, "The leave table cannot be used"),
    "request": (422, "The request asks for something the service does not have or allow"),
    "bad-input": (422, "The input cannot be used"),
    "busy": (503, "Every engine thread is busy; try again"),
    "timeout": (504, "The request ran past its time budget"),
    "internal": (500, "The service failed; the fault is logged"),
}

_BY_CLASS: tuple[tuple[type, str], ...] = (
    (IllegalMoveError, "illegal-move"), (NotationError, "notation"), (PositionError, "position"),
    (RulesError, "rules"), (GCGError, "game-record"), (GameError, "game"), (AnalysisError, "analysis"),
    (LexiconFormatError, "lexicon"), (LeavesError, "leaves"),
)


def error_kind(e: WordSalvoError) -> str:
    """The problem kind of a library error."""
    if isinstance(e, GameTokenError):
        return "game-token"
    if isinstance(e, ServeRequestError):
        return "request"
    for cls, kind in _BY_CLASS:
        if isinstance(e, cls):
            return kind
    return "bad-input"


def problem_body(kind: str, detail: str, **extra: Any) -> dict[str, Any]:
    status, title = KINDS[kind]
    return {"type": f"urn:wordsalvo:problem:{kind}", "title": title, "status": status, "detail": detail, **extra}


def problem(kind: str, detail: str, headers: dict[str, str] | None = None, **extra: Any):
    """A Starlette response carrying the problem."""
    from starlette.responses import Response

    body = problem_body(kind, detail, **extra)
    return Response(json.dumps(body, ensure_ascii=False), status_code=body["status"],
                    media_type="application/problem+json", headers=headers)
