"""The browser game's state, sealed by the service: the person holds a token, never the record.

The page's game (``/v1/game``, ``/v1/game/turn``) is owned by the service: the whole
state (the record with its racks and bag ``#seed``, the engine's level) travels as a
token that is encrypted and authenticated with a secret only the service knows
(Fernet of the ``cryptography`` package: AES-128-CBC with HMAC-SHA256 over the
ciphertext).  So the person can neither read the engine's rack or the bag's order out
of it, nor change a rack, a move, the seed or the level: a token that was changed, cut
or sealed with another secret is refused (:class:`~wordsalvo.errors.GameTokenError`,
the problem kind ``game-token``).

The secret: ``[game] secret`` of the configuration file, else the environment variable
:data:`SECRET_VARIABLE`, else 32 random bytes drawn when the process starts (its
tokens then die with it).  ``wordsalvo serve --workers N`` draws one before the
workers start and hands it to them in the environment, so any worker opens any
worker's token; copies of the service on several hosts need the same ``[game]
secret`` in their configuration.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import os
import zlib
from typing import Any

from ..errors import GameTokenError

__all__ = ["GameTokens", "SECRET_VARIABLE", "secret_of"]

#: the environment variable that hands the token secret to the workers of ``wordsalvo serve``
SECRET_VARIABLE = "WORDSALVO_SERVE_SECRET"
#: the version of the sealed state (a token of another version is refused)
VERSION = 1
#: the most bytes a token's state may inflate to (a sealed record is far smaller)
_MAX_STATE = 4 << 20


def secret_of(configured: str | None) -> bytes:
    """The token secret: the configuration's, else the environment's, else a random one
    for this process."""
    text = configured or os.environ.get(SECRET_VARIABLE)
    if text:
        return text.encode("utf-8")
    return os.urandom(32)


class GameTokens:
    """Seals a game state into a token and opens it again, with one secret."""

    def __init__(self, secret: bytes):
        from cryptography.fernet import Fernet

        # the Fernet key (16 bytes to sign, 16 to encrypt) derived from the secret of any length
        key = hmac.new(secret, b"wordsalvo game token v1", hashlib.sha256).digest()
        self._fernet = Fernet(base64.urlsafe_b64encode(key))

    def seal(self, state: dict[str, Any]) -> str:
        data = json.dumps({"v": VERSION, **state}, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
        return self._fernet.encrypt(zlib.compress(data, 6)).decode("ascii")

    def open(self, token: str) -> dict[str, Any]:
        """The state of a token this service sealed; GameTokenError for any other."""
        from cryptography.fernet import InvalidToken

        try:
            sealed = self._fernet.decrypt(token.encode("ascii"))
        except (InvalidToken, UnicodeEncodeError, ValueError, TypeError):
            raise GameTokenError("token: expected a game token as this service issued it (from /v1/game or "
                                 "/v1/game/turn), got one that does not verify: changed, cut, or sealed with "
                                 "another secret (a restarted service without [game] secret)") from None
        try:
            inflater = zlib.decompressobj()
            data = inflater.decompress(sealed, _MAX_STATE)
            state = json.loads(data.decode("utf-8"))
        except (zlib.error, UnicodeDecodeError, ValueError) as e:  # pragma: no cover - only what seal made
            raise GameTokenError(f"token: the sealed state does not read ({e})") from None
        if not isinstance(state, dict) or state.get("v") != VERSION:
            raise GameTokenError(f"token: expected a game state of version {VERSION}, got another")
        return state
