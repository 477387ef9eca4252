"""``wordsalvo serve``: the HTTP service (the extra ``wordsalvo[serve]``)."""

from __future__ import annotations

import argparse
import os
import secrets
import sys

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
               "  wordsalvo serve --host 0.0.0.0 --port 8080 --workers 2 --config serve.toml",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("--host", default="127.0.0.1", help="the address to listen on (default: 127.0.0.1)")
    p.add_argument("--port", type=whole_number(0, 65535), default=8000, help="the port (default: 8000)")
    p.add_argument("--workers", type=whole_number(1, 256), default=1,
                   help="worker processes (default: 1); each has the configuration's engine threads")
    p.add_argument("--config", metavar="FILE",
                   help="a TOML file of limits, API keys, CORS origins and lexicons (see the README)")
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
    create_app(config)  # and its lexicons load: a bad path fails here, not in a worker
    print(f"wordsalvo serve: http://{args.host}:{args.port}/play (docs /docs), {args.workers} worker(s), "
          f"{config.threads} engine thread(s) each", file=sys.stderr)
    import uvicorn

    common = dict(host=args.host, port=args.port, log_level=args.log_level, timeout_keep_alive=5,
                  h11_max_incomplete_event_size=64 * 1024, access_log=args.log_level == "debug")
    if args.workers == 1:
        uvicorn.run(create_app(config), **common)
    else:
        if args.config:
            os.environ[CONFIG_VARIABLE] = os.path.abspath(args.config)
        uvicorn.run("wordsalvo.serve.app:app_from_environment", factory=True, workers=args.workers, **common)
    return 0
