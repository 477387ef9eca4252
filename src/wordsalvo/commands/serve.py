"""``wordsalvo serve``: the HTTP service (the extra ``wordsalvo[serve]``)."""

from __future__ import annotations

import argparse
import ipaddress
import os
import secrets
import shutil
import sys
import tempfile

from ..errors import ServeConfigError
from ._common import whole_number


def register(subparsers) -> None:
    p = subparsers.add_parser(
        "serve",
        help="run the HTTP service: moves, validation, bots, analysis, a page to play",
        description="Serve the engine over HTTP (JSON endpoints under /v1, OpenAPI docs at /docs,\n"
                    "a game in the browser at /play, /healthz and /metrics). Needs the extra\n"
                    "wordsalvo[serve] (FastAPI and uvicorn). Stateless: run several copies behind a\n"
                    "load balancer; each worker process loads the lexicons once and maps them.",
        epilog="examples:\n"
               "  wordsalvo serve                       # http://127.0.0.1:8000/play\n"
               "  wordsalvo serve --host 0.0.0.0 --port 8080 --workers 2 --config serve.toml\n\n"
               "An address other than the loopback needs API keys in the configuration ([auth]\n"
               "api_keys), or --open to serve everyone who reaches it.",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("--host", default="127.0.0.1", help="the address to listen on (default: 127.0.0.1)")
    p.add_argument("--port", type=whole_number(0, 65535), default=8000, help="the port (default: 8000)")
    p.add_argument("--workers", type=whole_number(1, 256), default=1,
                   help="worker processes (default: 1); each has the configuration's engine threads")
    p.add_argument("--config", metavar="FILE",
                   help="a TOML file of limits, API keys, CORS origins and lexicons (see the README)")
    p.add_argument("--http", choices=["h11", "httptools"], default="h11",
                   help="the HTTP/1.1 parser: h11 (default) refuses a request line and headers over the "
                        "configuration's header_bytes before buffering more; httptools is faster but buffers "
                        "headers of any size (the service then refuses them with 431 once read): use it behind a "
                        "proxy that bounds headers")
    p.add_argument("--open", action="store_true",
                   help="serve an address other than the loopback without API keys (anyone who reaches it "
                        "may use the engines); refused without it")
    p.add_argument("--log-level", default="info", choices=["critical", "error", "warning", "info", "debug"])
    p.set_defaults(func=run)


def run(args) -> int:
    try:
        import uvicorn  # noqa: F401
        import fastapi  # noqa: F401
        import cryptography  # noqa: F401
        import fastapi_offline  # noqa: F401
    except ModuleNotFoundError as e:
        raise ServeConfigError(f"wordsalvo serve needs {e.name}: pip install 'wordsalvo[serve]'") from None
    from ..serve.app import CONFIG_VARIABLE, create_app
    from ..serve.config import ServeConfig
    from ..serve.tokens import SECRET_VARIABLE

    config = ServeConfig.load(args.config)  # every problem of the file before anything listens
    if not config.game_secret and not os.environ.get(SECRET_VARIABLE):
        # one secret for every worker (forked or spawned, each inherits the environment), so any
        # worker opens the game tokens of any other; it dies with this server
        os.environ[SECRET_VARIABLE] = secrets.token_urlsafe(32)
    if not config.api_keys and not loopback(args.host):
        if not args.open:
            raise ServeConfigError(
                f"--host {args.host}: expected API keys in the configuration ([auth] api_keys) to serve an address "
                "other than the loopback, got none; give keys, or pass --open to serve everyone who reaches it")
        print(f"wordsalvo serve: WARNING: serving {args.host} without API keys (--open): anyone who reaches "
              "this address may use the engines; put keys in [auth] api_keys to close it", file=sys.stderr)
    create_app(config)  # and its lexicons load: a bad path fails here, not in a worker
    print(f"wordsalvo serve: http://{args.host}:{args.port}/play (docs /docs), {args.workers} worker(s), "
          f"{config.threads} engine thread(s) each", file=sys.stderr)
    import uvicorn

    # h11 bounds what it buffers of a request line and headers (a request over header_bytes
    # is answered 400 and closed); httptools takes headers of any size
    common = dict(host=args.host, port=args.port, log_level=args.log_level, timeout_keep_alive=5, http=args.http,
                  h11_max_incomplete_event_size=config.header_bytes, access_log=args.log_level == "debug")
    if args.workers == 1:
        uvicorn.run(create_app(config), **common)
        return 0
    if args.config:
        os.environ[CONFIG_VARIABLE] = os.path.abspath(args.config)
    # /metrics merged across the workers: the Prometheus client's multiprocess mode, its
    # files in a folder of this run (the workers are started afresh, so they see it)
    own = "PROMETHEUS_MULTIPROC_DIR" not in os.environ
    folder = tempfile.mkdtemp(prefix="wordsalvo-metrics-") if own else os.environ["PROMETHEUS_MULTIPROC_DIR"]
    os.environ["PROMETHEUS_MULTIPROC_DIR"] = folder
    try:
        uvicorn.run("wordsalvo.serve.app:app_from_environment", factory=True, workers=args.workers, **common)
    finally:
        if own:
            shutil.rmtree(folder, ignore_errors=True)
            os.environ.pop("PROMETHEUS_MULTIPROC_DIR", None)
    return 0


def loopback(host: str) -> bool:
    """Whether ``host`` is a loopback address (only this machine reaches it)."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False  # a name: it may resolve to any address
