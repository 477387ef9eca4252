"""The ASGI middleware in front of the app: the header- and body-size limits, the
slow-body cut, API keys and the request metrics.

It wraps the whole application, so a request that breaks a limit is answered before
any endpoint (or JSON parser) sees it: headers over ``header_bytes`` are refused (431;
``wordsalvo serve`` also has its HTTP parser refuse them before they are buffered), a
declared ``Content-Length`` over the limit is refused at once, a body that grows past it while read is cut as soon as it does, and a
body whose next chunk does not come within ``body_seconds`` is answered 408.  Health
checks (``/healthz``) need no key; ``/metrics`` and the docs need one when keys are
configured, unless the configuration opens them.  Neither is ever queued behind engine
work: they run on the event loop.
"""

from __future__ import annotations

import asyncio
import hmac
import os
import time

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram

from .config import ServeConfig
from .problems import problem

__all__ = ["LimitsMiddleware", "Metrics", "BodyLimitExceeded", "LIMIT_KEY", "KEYED", "open_paths"]

#: where the middleware leaves the limit a body broke, for the app's error handlers
LIMIT_KEY = "wordsalvo.limit"
#: True in the scope of a request that gave a valid key (or when no key is configured)
KEYED = "wordsalvo.keyed"

#: paths that never need an API key (the health check says little without one)
ALWAYS_OPEN = ("/healthz", "/play", "/favicon.ico")
DOCS_PATHS = ("/docs", "/openapi.json", "/redoc")
METRICS_PATHS = ("/metrics",)


def open_paths(config: ServeConfig) -> tuple[str, ...]:
    """The paths that need no API key under ``config``."""
    return ALWAYS_OPEN + (DOCS_PATHS if config.docs_open else ()) + (METRICS_PATHS if config.metrics_open else ())


class BodyLimitExceeded(Exception):
    """Raised into the app when the body grows past the limit while read."""

    def __init__(self, kind: str, detail: str):
        self.kind = kind
        self.detail = detail
        super().__init__(detail)


class Metrics:
    """Prometheus counters of one process (``GET /metrics``).  Under ``wordsalvo serve
    --workers N`` (N > 1) the counters live in files of ``PROMETHEUS_MULTIPROC_DIR`` (the
    Prometheus client's multiprocess mode) and :meth:`exposition` merges every worker's."""

    def __init__(self) -> None:
        #: the paths that get their own label (the app's routes; set when they are made)
        self.known: frozenset[str] = frozenset(ALWAYS_OPEN + DOCS_PATHS + METRICS_PATHS)
        self.registry = CollectorRegistry()
        self.requests = Counter("wordsalvo_requests", "HTTP requests answered", ["endpoint", "status"],
                                registry=self.registry)
        self.errors = Counter("wordsalvo_errors", "Requests answered with a problem, by kind", ["kind"],
                              registry=self.registry)
        self.latency = Histogram("wordsalvo_request_seconds", "Time from the request to the response",
                                 ["endpoint"], registry=self.registry,
                                 buckets=(0.0005, 0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10,
                                          30))
        self.in_flight = Gauge("wordsalvo_engine_requests_in_flight", "Requests holding an engine thread",
                               registry=self.registry, multiprocess_mode="livesum")

    @staticmethod
    def multiprocess() -> bool:
        return bool(os.environ.get("PROMETHEUS_MULTIPROC_DIR"))

    def exposition(self) -> bytes:
        """The Prometheus text: this process's counters, or every worker's merged."""
        from prometheus_client import generate_latest

        if self.multiprocess():
            from prometheus_client import multiprocess

            merged = CollectorRegistry()
            multiprocess.MultiProcessCollector(merged)
            return generate_latest(merged)
        return generate_latest(self.registry)

    def process_ended(self) -> None:
        """Drops this process's live gauges from the merged view (a worker that stops)."""
        if self.multiprocess():
            from prometheus_client import multiprocess

            multiprocess.mark_process_dead(os.getpid())

    def endpoint(self, path: str) -> str:
        """A bounded label: the app's routes, every other path 'other' (a client that
        asks for random paths cannot grow the metrics)."""
        return path if path in self.known else "other"


class LimitsMiddleware:
    def __init__(self, app, config: ServeConfig, metrics: Metrics):
        self.app = app
        self.config = config
        self.metrics = metrics
        self.keys = tuple(k.encode() for k in config.api_keys)
        self.open = open_paths(config)

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        path = scope.get("path", "")
        endpoint = self.metrics.endpoint(path)
        started = time.perf_counter()
        status_box = [500]

        async def send_counted(message):
            if message["type"] == "http.response.start":
                status_box[0] = message["status"]
                if message["status"] >= 400:
                    kind = dict(message.get("headers", [])).get(b"x-problem-kind")
                    if kind is not None:
                        self.metrics.errors.labels(kind.decode("ascii", "replace")).inc()
            await send(message)

        try:
            raw_headers = scope.get("headers", [])
            size = len(scope.get("raw_path", b"")) + len(scope.get("query_string", b"")) + sum(
                len(k) + len(v) + 4 for k, v in raw_headers)
            if size > self.config.header_bytes:  # a server other than `wordsalvo serve` took them
                await self._problem(send_counted, scope, receive, "headers-too-large",
                                    f"expected a request line and headers of at most {self.config.header_bytes:,} "
                                    f"bytes, got {size:,}", close=True)
                return
            headers = dict(raw_headers)
            given = headers.get(b"x-api-key", b"")
            keyed = not self.keys or any(hmac.compare_digest(given, k) for k in self.keys)
            scope[KEYED] = keyed
            if not keyed and not path.startswith(self.open) and scope.get("method") != "OPTIONS":
                await self._problem(send_counted, scope, receive, "unauthorized",
                                    "expected the header X-API-Key with one of the service's keys"
                                    + (", got none" if not given else ", got another key"))
                return
            length = headers.get(b"content-length")
            limit = self.config.body_bytes
            if length is not None:
                if not length.isdigit() or len(length) > 18:
                    await self._problem(send_counted, scope, receive, "invalid-request",
                                        f"Content-Length: expected a whole number, got {length[:40]!r}")
                    return
                if int(length) > limit:
                    await self._problem(send_counted, scope, receive, "body-too-large",
                                        f"expected a body of at most {limit:,} bytes, got {int(length):,}")
                    return
            seen = [0]

            async def receive_bounded():
                try:
                    message = await asyncio.wait_for(receive(), timeout=self.config.body_seconds)
                except asyncio.TimeoutError:
                    raise self._exceeded(scope, "slow-body", f"expected the body within {self.config.body_seconds:g}"
                                         f" s of each part, got {seen[0]:,} bytes and then nothing") from None
                if message["type"] == "http.request":
                    seen[0] += len(message.get("body", b""))
                    if seen[0] > limit:
                        raise self._exceeded(scope, "body-too-large", f"expected a body of at most {limit:,} "
                                             f"bytes, got more ({seen[0]:,} so far)")
                return message

            await self.app(scope, receive_bounded, send_counted)
        except BodyLimitExceeded as e:
            await self._problem(send_counted, scope, None, e.kind, e.detail, close=True)
        finally:
            self.metrics.requests.labels(endpoint, str(status_box[0])).inc()
            self.metrics.latency.labels(endpoint).observe(time.perf_counter() - started)

    @staticmethod
    def _exceeded(scope, kind: str, detail: str) -> BodyLimitExceeded:
        """The limit that was hit, also left in the scope: the framework turns an error
        while it reads the body into its own 400, and the app's handlers look here."""
        scope[LIMIT_KEY] = (kind, detail)
        return BodyLimitExceeded(kind, detail)

    async def _problem(self, send, scope, receive, kind: str, detail: str, close: bool = False) -> None:
        headers = {"x-problem-kind": kind}
        if close or kind in ("body-too-large", "slow-body"):
            headers["connection"] = "close"
        response = problem(kind, detail, headers=headers)
        try:
            await response(scope, receive or _nothing, send)
        except RuntimeError:  # the response had started: nothing more can be sent
            pass


async def _nothing():
    return {"type": "http.disconnect"}

