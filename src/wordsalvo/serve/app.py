"""The HTTP service: ``create_app(config)`` is an ASGI application (FastAPI).

Endpoints (JSON in and out, versioned under ``/v1``; the OpenAPI document at
``/openapi.json``, browsable at ``/docs``):

* ``POST /v1/moves``: every legal move of a position, or the best N, by score or
  equity, a page at a time (``offset``, ``limit``);
* ``POST /v1/best``: the best move by score or equity (by equity also the best
  exchange, when the rules allow one);
* ``POST /v1/validate``: a move in notation: its score and words, or every reason it
  is illegal (``legal: false``: an answer, not an error);
* ``POST /v1/bot``: a game record (and the rack on turn) and a level or rating: the
  action the engine takes;
* ``POST /v1/analyze``: a GCG record of any program: the analysis as JSON
  (``?html=1``: the report page);
* ``POST /v1/sim``, ``POST /v1/endgame``, ``POST /v1/peg``: the simulator, the endgame solver and the
  pre-endgame solver, within the request's time budget;
* ``POST /v1/game``, ``POST /v1/game/turn``: the game of the browser page ``GET /play``
  (the game's state travels sealed in a token, :mod:`wordsalvo.serve.tokens`: any copy
  of the service with the same secret can answer);
* ``GET /healthz``, ``GET /metrics`` (Prometheus text); the pages for people in
  :mod:`wordsalvo.serve.pages`.

Engine work runs in a pool of ``threads`` threads per process (the C core releases the
GIL; each thread has its own move generators); at most ``queue_length`` requests wait
for a thread (503 at once beyond), each at most ``queue_seconds`` (then 503), and a
request gets at most ``seconds`` in all, its wait included (then 504).  A search (the
simulator, the solver, the master bot) is given what is left of the budget after the
wait, less a fifth of the budget for the work around it, so it stops by itself; with
nothing left it is not started.  ``/healthz`` answers 503 while an engine thread runs
work ``stuck_seconds`` past its budget.  Every error is a problem detail
(:mod:`wordsalvo.serve.problems`).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import random
import time
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Callable

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, JSONResponse, Response
from prometheus_client import CONTENT_TYPE_LATEST
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.middleware.cors import CORSMiddleware

from .. import __version__
from ..errors import ServeRequestError, WordSalvoError
from ..inputs import excerpt
from .config import ServeConfig
from .engines import Engines
from .limits import KEYED, LIMIT_KEY, BodyLimitExceeded, LimitsMiddleware, Metrics
from .pages import install as install_pages, play_page, report_headers
from .problems import error_kind, problem
from .schemas import AnalyzeIn, BestIn, BotIn, EndgameIn, GameNewIn, GameTurnIn, MovesIn, PegIn, SimIn, ValidateIn
from .tokens import GameTokens, secret_of
from . import service

__all__ = ["create_app", "app_from_environment", "CONFIG_VARIABLE"]

log = logging.getLogger("wordsalvo.serve")

#: the environment variable through which ``wordsalvo serve --workers N`` hands each worker
#: process its configuration file
CONFIG_VARIABLE = "WORDSALVO_SERVE_CONFIG"


class _Deadline(Exception):
    """The request's time budget ran out (504)."""

    def __init__(self, detail: str = ""):
        self.detail = detail
        super().__init__(detail)


class _Busy(Exception):
    """No engine thread came free in time, or too many requests wait for one (503)."""

    def __init__(self, detail: str):
        self.detail = detail
        super().__init__(detail)


def create_app(config: ServeConfig | None = None):
    """The service for ``config`` (default: the defaults of :class:`ServeConfig`): an ASGI
    application (the FastAPI app inside the limits middleware, and CORS when configured);
    its ``.fastapi`` is the FastAPI object."""
    config = config or ServeConfig()
    engines = Engines(config)
    metrics = Metrics()
    tokens = GameTokens(secret_of(config.game_secret))
    pool = ThreadPoolExecutor(max_workers=config.threads, thread_name_prefix="wordsalvo-engine")
    loop_slots: dict[str, Any] = {}

    def slots_of(loop) -> asyncio.Semaphore:
        """The engine-thread slots of this event loop (one loop a process when served;
        a test client may start several, one after the other)."""
        if loop_slots.get("loop") is not loop:
            loop_slots["loop"], loop_slots["slots"] = loop, asyncio.Semaphore(config.threads)
        return loop_slots["slots"]

    #: requests waiting for an engine thread now (counted on the event loop)
    waiting = [0]
    #: work in the engine threads: a token -> when it started (time.monotonic()); added and
    #: removed on the event loop, read by /healthz
    running: dict[int, float] = {}
    #: the part of a request's budget kept for the work around a search (parsing, replay,
    #: the answer): a search gets what is left after the wait, less this
    margin = config.seconds * 0.2

    @contextlib.asynccontextmanager
    async def lifespan(_app):
        yield
        pool.shutdown(wait=False, cancel_futures=True)
        metrics.process_ended()

    app = FastAPI(title="wordsalvo", version=__version__, lifespan=lifespan, docs_url=None, redoc_url=None,
                  description="Move generation, validation, engines and analysis for crossword-style tile "
                              "games. Every error is an RFC 9457 problem detail.")
    app.state.config = config
    app.state.engines = engines
    app.state.metrics = metrics
    app.state.started = time.time()

    async def run(fn: Callable[..., Any], *args: Any, search: tuple[float | None, float] | None = None) -> Any:
        """``fn(*args)`` in an engine thread within the request's budget; with ``search``
        (what the request asked, the cap), ``fn(*args, seconds)`` with the seconds of the
        search: what it asked, within the cap and what is left of the budget after the wait."""
        started = time.monotonic()
        loop = asyncio.get_running_loop()
        slots = slots_of(loop)
        if slots.locked():  # every thread busy: wait for one, if there is room in the queue
            if waiting[0] >= config.queue_length:
                raise _Busy(f"every one of the {config.threads} engine threads is busy and {waiting[0]} requests "
                            f"wait for one already (the service's limits.queue_length)")
            # no longer than queue_seconds, nor past the point where nothing of the budget is left
            wait = max(0.0, min(config.queue_seconds, config.seconds - margin))
            waiting[0] += 1
            try:
                await asyncio.wait_for(slots.acquire(), timeout=wait)
            except asyncio.TimeoutError:
                raise _Busy(f"every one of the {config.threads} engine threads stayed busy for {wait:g} s") from None
            finally:
                waiting[0] -= 1
        else:
            await slots.acquire()  # free: taken at once
        waited = time.monotonic() - started
        left = config.seconds - waited
        if search is not None:
            asked, cap = search
            most = min(cap, left - margin)
            if most < 0.01:  # nothing left for the search: not started
                slots.release()
                raise _Deadline(f"expected an answer within the budget of {config.seconds:g} s; the request waited "
                                f"{waited:.2f} s for an engine thread and no time was left for the search")
            args = (*args, most if asked is None else min(asked, most))
        try:
            future = loop.run_in_executor(pool, fn, *args)
        except BaseException:
            slots.release()
            raise
        metrics.in_flight.inc()
        token = id(future)
        running[token] = time.monotonic()

        def done(f) -> None:  # the thread is free only when the work has ended, budget or not
            slots.release()
            metrics.in_flight.dec()
            running.pop(token, None)
            if not f.cancelled():
                f.exception()  # retrieved: a late failure after a 504 is not logged as lost

        future.add_done_callback(done)
        try:
            return await asyncio.wait_for(asyncio.shield(future), timeout=max(left, 0.001))
        except asyncio.TimeoutError:
            raise _Deadline() from None

    def stuck() -> int:
        """Engine threads running work ``stuck_seconds`` past the budget of ``seconds``."""
        now = time.monotonic()
        return sum(1 for t in list(running.values()) if now - t > config.seconds + config.stuck_seconds)

    # -- errors -----------------------------------------------------------------------
    @app.exception_handler(WordSalvoError)
    async def _library_error(request: Request, e: WordSalvoError):
        kind = error_kind(e)
        extra: dict[str, Any] = {}
        if getattr(e, "problems", None):
            extra["problems"] = [str(p) for p in e.problems][:50]
        return problem(kind, str(e), headers={"x-problem-kind": kind}, **extra)

    def broken_limit(request: Request):
        """The problem of a body limit the middleware saw broken while the framework read
        the body (it reports that as a parse error of its own)."""
        hit = request.scope.get(LIMIT_KEY)
        if hit is None:
            return None
        return problem(hit[0], hit[1], headers={"x-problem-kind": hit[0], "connection": "close"})

    @app.exception_handler(RequestValidationError)
    async def _schema_error(request: Request, e: RequestValidationError):
        limit = broken_limit(request)
        if limit is not None:
            return limit
        errors = e.errors()
        if any(err.get("type") == "json_invalid" for err in errors):
            err = next(err for err in errors if err.get("type") == "json_invalid")
            detail = f"expected a JSON object, got text that does not parse ({err.get('msg', '')}" + (
                f" at byte {err['loc'][1]})" if len(err.get("loc", ())) > 1 else ")")
            return problem("malformed-json", detail, headers={"x-problem-kind": "malformed-json"})
        shown = []
        for err in errors[:20]:
            where = ".".join(str(x) for x in err.get("loc", ()) if x != "body") or "body"
            shown.append({"where": where, "problem": err.get("msg", ""), "got": excerpt(err.get("input"), 60)})
        detail = "; ".join(f"{s['where']}: {s['problem']}" for s in shown)
        return problem("invalid-request", detail, headers={"x-problem-kind": "invalid-request"}, errors=shown)

    @app.exception_handler(StarletteHTTPException)
    async def _http_error(request: Request, e: StarletteHTTPException):
        limit = broken_limit(request)
        if limit is not None:
            return limit
        kind = {400: "malformed-json", 404: "not-found", 405: "method-not-allowed",
                415: "unsupported-media-type"}.get(e.status_code)
        if kind is None:
            kind = "invalid-request" if 400 <= e.status_code < 500 else "internal"
        detail = {"malformed-json": "expected a JSON object, got a body that does not parse (too deeply nested, "
                                    "or not JSON)",
                  "not-found": f"no endpoint {excerpt(request.url.path, 80)} (see /docs)",
                  "method-not-allowed": f"{request.method} is not allowed on {excerpt(request.url.path, 80)}"
                  }.get(kind, str(e.detail))
        return problem(kind, detail, headers={"x-problem-kind": kind})

    @app.exception_handler(_Busy)
    async def _busy(request: Request, e: _Busy):
        return problem("busy", e.detail, headers={"x-problem-kind": "busy", "retry-after": "1"})

    @app.exception_handler(_Deadline)
    async def _deadline(request: Request, e: _Deadline):
        return problem("timeout", e.detail or f"expected an answer within the budget of {config.seconds:g} s, the "
                       "work took longer", headers={"x-problem-kind": "timeout"})

    @app.exception_handler(BodyLimitExceeded)
    async def _body(request: Request, e: BodyLimitExceeded):
        return problem(e.kind, e.detail, headers={"x-problem-kind": e.kind, "connection": "close"})

    @app.exception_handler(Exception)
    async def _fault(request: Request, e: Exception):
        log.exception("request %s %s failed", request.method, request.url.path)
        return problem("internal", "the service failed on this request; the fault is logged",
                       headers={"x-problem-kind": "internal"})

    # -- endpoints --------------------------------------------------------------------
    @app.post("/v1/moves", tags=["moves"], summary="Every legal move of a position (paginated)")
    async def moves(req: MovesIn) -> Response:
        if req.limit > config.page:
            raise ServeRequestError(f"limit: expected at most {config.page:,} moves a page (the service's "
                                    f"limits.page), got {req.limit:,}")
        return _json(await run(service.moves, engines, req))

    @app.post("/v1/best", tags=["moves"], summary="The best move by score or equity")
    async def best(req: BestIn) -> Response:
        return _json(await run(service.best, engines, req))

    @app.post("/v1/validate", tags=["moves"], summary="A move's score and words, or why it is illegal")
    async def validate(req: ValidateIn) -> Response:
        return _json(await run(service.validate, engines, req))

    @app.post("/v1/bot", tags=["engines"], summary="The action an engine player takes")
    async def bot(req: BotIn) -> Response:
        return _json(await run(service.bot, engines, req, search=(None, config.endgame_seconds)))

    @app.post("/v1/analyze", tags=["analysis"], summary="The analysis of a GCG record (JSON, or ?html=1)")
    async def analyze(req: AnalyzeIn, html: int = 0):
        result = await run(service.analyze, engines, req, bool(html))
        if html:
            return HTMLResponse(result, headers=report_headers())
        return _json(result)

    @app.post("/v1/sim", tags=["engines"], summary="Monte Carlo simulation of the candidates")
    async def sim(req: SimIn) -> Response:
        return _json(await run(service.sim, engines, req, search=(req.seconds, config.sim_seconds)))

    @app.post("/v1/endgame", tags=["engines"], summary="The endgame solved (bag empty, both racks known)")
    async def endgame(req: EndgameIn) -> Response:
        return _json(await run(service.endgame, engines, req, search=(req.seconds, config.endgame_seconds)))

    @app.post("/v1/peg", tags=["engines"], summary="The pre-endgame solved (1-4 tiles in the bag)")
    async def peg(req: PegIn) -> Response:
        return _json(await run(service.peg, engines, req, search=(req.seconds, config.endgame_seconds)))

    @app.post("/v1/game", tags=["play"], summary="A new game against an engine (the page /play)")
    async def game_new(req: GameNewIn) -> Response:
        seed = random.SystemRandom().randrange(1 << 62)  # the bag: drawn here, sealed in the token
        return _json(await run(service.game_new, engines, tokens, req, seed))

    @app.post("/v1/game/turn", tags=["play"], summary="The person's action and the engine's answer")
    async def game_turn(req: GameTurnIn) -> Response:
        return _json(await run(service.game_turn, engines, tokens, req))

    @app.get("/healthz", tags=["service"], summary="Liveness: answers without engine work (503: a thread is stuck)")
    async def healthz(request: Request) -> Response:
        n = stuck()
        body: dict[str, Any] = {"status": "degraded" if n else "ok"}
        if n:
            body["stuck_threads"] = n
        if request.scope.get(KEYED):  # the details only to a client with a key (or with none configured)
            body.update(version=__version__, pid=os.getpid(), uptime=round(time.time() - app.state.started, 3),
                        threads=config.threads, busy_threads=len(running), waiting=waiting[0],
                        limits=config.limits(), lexicons=engines.lexicon_names())
        return JSONResponse(body, status_code=503 if n else 200)

    @app.get("/metrics", tags=["service"], summary="Prometheus metrics (every worker's, merged)")
    async def prometheus() -> Response:
        return Response(metrics.exposition(), media_type=CONTENT_TYPE_LATEST)

    @app.get("/play", tags=["play"], summary="Play against the engines in the browser")
    async def play() -> HTMLResponse:
        return play_page()

    install_pages(app)  # /docs and /redoc on the package's files, /favicon.ico

    @app.get("/", include_in_schema=False)
    async def root() -> JSONResponse:
        return JSONResponse({"service": "wordsalvo", "version": __version__, "docs": "/docs", "play": "/play"})

    metrics.known = frozenset(getattr(r, "path", "") for r in app.routes)
    wrapped: Any = LimitsMiddleware(app, config, metrics)
    if config.cors_origins:
        wrapped = CORSMiddleware(wrapped, allow_origins=list(config.cors_origins), allow_methods=["GET", "POST"],
                                 allow_headers=["content-type", "x-api-key"])
    wrapped.fastapi = app  # the FastAPI object, for tests and docs
    return wrapped


def _json(data: Any) -> Response:
    """A JSON answer, encoded once (the endpoints' data is plain JSON already: no
    second pass through the framework's encoder)."""
    return Response(json.dumps(data, ensure_ascii=False, separators=(",", ":")), media_type="application/json")


def app_from_environment():
    """The app of a worker process that ``wordsalvo serve`` started (its configuration
    file in :data:`CONFIG_VARIABLE`)."""
    return create_app(ServeConfig.load(os.environ.get(CONFIG_VARIABLE) or None))

