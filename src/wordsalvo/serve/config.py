"""The configuration of ``wordsalvo serve``: limits, keys, origins and lexicons.

A TOML file (``--config FILE``), every key optional::

    [limits]
    body_bytes = 1048576        # the largest request body (413 above it)
    body_seconds = 10.0         # a body must arrive within this (408: a slow client)
    seconds = 10.0              # the time budget of one request (504 when it runs out)
    queue_seconds = 5.0         # the longest wait for a free engine thread (503 after it)
    queue_length = 32           # requests of a worker waiting for an engine thread (503 at once beyond)
    stuck_seconds = 30.0        # work running this long past its budget: /healthz answers 503
    header_bytes = 16384        # the request line and headers (the HTTP parser refuses more)
    events = 1000               # the event lines a game record may have (at most the reader's, EVENTS_MAX)
    plies = 10                  # the most turns /v1/sim plays a candidate on (at most the simulator's, 32)
    page = 1000                 # the most moves one /v1/moves page lists
    sim_seconds = 5.0           # the longest simulation a request may ask for
    endgame_seconds = 5.0       # the longest endgame search a request may ask for
    threads = 2                 # engine threads of a worker process (one generator each)

    [auth]
    api_keys = ["k1", "k2"]     # when given, every /v1 request needs the header X-API-Key
    open_docs = false           # /docs, /redoc, /openapi.json without a key (default: open only without keys)
    open_metrics = false        # /metrics without a key (default: open only without keys)

    [cors]
    origins = ["https://example.org"]

    [lexicons]                  # graphs the clients may name in "lexicon"; paths read at start
    csw24 = "/data/csw24.wsg"

    [game]
    secret = "..."              # seals the browser game's tokens (serve/tokens.py); the same on every host

Clients never name a file: a request's ``lexicon`` is a key of ``[lexicons]`` (or
omitted: the rule set's embedded lexicon).  Every problem of the file is reported at
once as a :class:`~wordsalvo.errors.ServeConfigError`.
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..errors import ServeConfigError
from ..engine.simulation import MAX_PLIES as SIM_MAX_PLIES
from ..formats.gcg_record import EVENTS_MAX
from ..inputs import excerpt, is_number, is_whole, list_problems, read_bytes

__all__ = ["ServeConfig", "LIMIT_KEYS"]

#: [limits] key -> (type, smallest, largest, default)
LIMIT_KEYS: dict[str, tuple[type, float, float, float]] = {
    "body_bytes": (int, 1024, 64 << 20, 1 << 20),
    "body_seconds": (float, 0.1, 600.0, 10.0),
    "seconds": (float, 0.05, 600.0, 10.0),
    "queue_seconds": (float, 0.0, 600.0, 5.0),
    "queue_length": (int, 0, 100_000, 32),
    "stuck_seconds": (float, 0.01, 86_400.0, 30.0),
    "header_bytes": (int, 1024, 1 << 20, 16384),
    "events": (int, 1, EVENTS_MAX, EVENTS_MAX),
    "plies": (int, 0, SIM_MAX_PLIES, 10),
    "page": (int, 1, 100_000, 1000),
    "sim_seconds": (float, 0.01, 600.0, 5.0),
    "endgame_seconds": (float, 0.01, 600.0, 5.0),
    "threads": (int, 1, 256, 2),
}

#: a lexicon key: what a client may write in "lexicon"
LEXICON_KEY = re.compile(r"[a-z0-9][a-z0-9_-]{0,31}")
#: an API key: printable ASCII without spaces, 8 to 256 characters
API_KEY = re.compile(r"[!-~]{8,256}")
#: the secret of the browser game's tokens (never echoed in a message)
GAME_SECRET = re.compile(r"[!-~]{16,1024}")
#: an origin as browsers send it
ORIGIN = re.compile(r"(\*|https?://[A-Za-z0-9.-]+(:[0-9]{1,5})?)")


@dataclass(frozen=True)
class ServeConfig:
    """What the service enforces; see the module docstring for the file."""

    body_bytes: int = 1 << 20
    body_seconds: float = 10.0
    seconds: float = 10.0
    queue_seconds: float = 5.0
    queue_length: int = 32
    stuck_seconds: float = 30.0
    header_bytes: int = 16384
    events: int = EVENTS_MAX
    plies: int = 10
    page: int = 1000
    sim_seconds: float = 5.0
    endgame_seconds: float = 5.0
    threads: int = 2
    api_keys: tuple[str, ...] = ()
    #: None: open when no API key is configured, closed (a key needed) when one is
    open_docs: bool | None = None
    open_metrics: bool | None = None
    cors_origins: tuple[str, ...] = ()
    lexicons: dict[str, str] = field(default_factory=dict)
    game_secret: str = field(default="", repr=False)
    source: str = "defaults"

    @classmethod
    def load(cls, path: str | Path | None) -> "ServeConfig":
        """The configuration of a TOML file (None: the defaults)."""
        if path is None:
            return cls()
        data = read_bytes(path, ServeConfigError, "service configuration")
        try:
            table = tomllib.loads(data.decode("utf-8"))
        except (UnicodeDecodeError, tomllib.TOMLDecodeError, RecursionError) as e:
            raise ServeConfigError(f"{path}: expected a TOML file, got: {excerpt(str(e), 200)}") from None
        return cls.from_dict(table, str(path))

    @classmethod
    def from_dict(cls, table: dict[str, Any], source: str = "<dict>") -> "ServeConfig":
        problems: list[str] = []
        values: dict[str, Any] = {}
        for key in table:
            if key not in ("limits", "auth", "cors", "lexicons", "game"):
                problems.append(f"{excerpt(key)}: unknown table (expected limits, auth, cors, lexicons, game)")

        def section(name: str) -> dict[str, Any]:
            got = table.get(name, {})
            if not isinstance(got, dict):
                problems.append(f"[{name}]: expected a table, got {excerpt(got)}")
                return {}
            return got

        for key, value in section("limits").items():
            if key not in LIMIT_KEYS:
                problems.append(f"limits.{excerpt(key)}: unknown key (expected one of {', '.join(LIMIT_KEYS)})")
                continue
            kind, low, high, _ = LIMIT_KEYS[key]
            ok = is_number(value, low, high) if kind is float else is_whole(value, low, high)
            if not ok:
                what = "a whole number" if kind is int else "a number"
                span = f"{low:,} to {high:,}" if kind is int else f"{low:g} to {high:g}"  # 67,108,864, not 6.71089e+07
                problems.append(f"limits.{key}: expected {what} from {span}, got {excerpt(value)}")
                continue
            values[key] = kind(value)
        # [auth] api_keys and [cors] origins: one list of checked strings each
        for name, key, field_name, pattern, what in (
                ("auth", "api_keys", "api_keys", API_KEY,
                 "a list of keys of 8 to 256 printable ASCII characters without spaces"),
                ("cors", "origins", "cors_origins", ORIGIN, "a list of origins such as 'https://example.org' or '*'")):
            table_ = section(name)
            got = table_.get(key, [])
            if not isinstance(got, list) or not all(isinstance(x, str) and pattern.fullmatch(x) for x in got):
                problems.append(f"{name}.{key}: expected {what}, got {excerpt(got)}")
            else:
                values[field_name] = tuple(got)
            extra = ("open_docs", "open_metrics") if name == "auth" else ()
            for k in table_:
                if k in extra:
                    if isinstance(table_[k], bool):
                        values[k] = table_[k]
                    else:
                        problems.append(f"{name}.{k}: expected true or false, got {excerpt(table_[k])}")
                elif k != key:
                    problems.append(f"{name}.{excerpt(k)}: unknown key (expected {', '.join((key, *extra))})")
        lexicons: dict[str, str] = {}
        for key, value in section("lexicons").items():
            if not LEXICON_KEY.fullmatch(key):
                problems.append(f"lexicons.{excerpt(key)}: expected a name of 1..32 of a-z 0-9 - _")
            elif not isinstance(value, str) or not value:
                problems.append(f"lexicons.{key}: expected the path of a graph file, got {excerpt(value)}")
            else:
                lexicons[key] = value
        values["lexicons"] = lexicons
        for key, value in section("game").items():
            if key != "secret":
                problems.append(f"game.{excerpt(key)}: unknown key (expected secret)")
            elif not isinstance(value, str) or not GAME_SECRET.fullmatch(value):
                problems.append("game.secret: expected 16 to 1024 printable ASCII characters without spaces, got "
                                + (f"{len(value)} characters" if isinstance(value, str) else type(value).__name__))
            else:
                values["game_secret"] = value
        if problems:
            raise ServeConfigError(list_problems(source, problems), problems)
        return cls(source=source, **values)

    @property
    def docs_open(self) -> bool:
        """Whether /docs, /redoc and /openapi.json answer without a key."""
        return not self.api_keys if self.open_docs is None else self.open_docs

    @property
    def metrics_open(self) -> bool:
        """Whether /metrics answers without a key."""
        return not self.api_keys if self.open_metrics is None else self.open_metrics

    def limits(self) -> dict[str, float]:
        """The [limits] in force, for /healthz and the docs."""
        return {k: getattr(self, k) for k in LIMIT_KEYS}
