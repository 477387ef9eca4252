"""The HTTP service through a real HTTP client (httpx, in process): every endpoint
against the library's own answers, and every kind of bad input a problem detail."""

from __future__ import annotations

import json
import threading

import pytest

fastapi = pytest.importorskip("fastapi")
from fastapi.testclient import TestClient  # noqa: E402

import wordsalvo as ws  # noqa: E402
from wordsalvo.errors import ServeConfigError  # noqa: E402
from wordsalvo.serve import service  # noqa: E402
from wordsalvo.serve.app import create_app  # noqa: E402
from wordsalvo.serve.config import ServeConfig  # noqa: E402

CGP = "15/15/15/15/15/15/15/9R5/15/15/15/15/15/15/15 DOWEIST/ 0/0 0"
EMPTY = ["." * 15] * 15


@pytest.fixture(scope="module")
def client():
    with TestClient(create_app(), raise_server_exceptions=False) as c:
        yield c


def problem_of(r, status: int, kind: str) -> dict:
    assert r.status_code == status, r.text
    assert r.headers["content-type"].startswith("application/problem+json")
    body = r.json()
    assert body["type"] == f"urn:wordsalvo:problem:{kind}" and body["status"] == status
    assert body["title"] and isinstance(body["detail"], str) and "Traceback" not in body["detail"]
    return body


@pytest.fixture(scope="module")
def played():
    """A wordsalvo-en game four turns in, and the same game to its end."""
    g = ws.Game(ws.Rules.preset("wordsalvo-en"), seed=3)
    bot = ws.Bot("equity", g.rules)
    for _ in range(4):
        g.apply(bot.choose(g))
    part = ws.to_gcg(g)
    while not g.is_over:
        g.apply(bot.choose(g))
    return part, ws.to_gcg(g)


# -- moves, best, validate ---------------------------------------------------------------
def test_moves_lists_every_move_of_the_library_a_page_at_a_time(client):
    rules = ws.Rules.preset("classic-en")
    pos = ws.parse_cgp(CGP, rules=rules)
    expected = ws.MoveGenerator(ws.Lexicon.default("en"), rules).generate(pos).sorted()
    seen = []
    offset = 0
    while True:
        r = client.post("/v1/moves", json={"rules": "classic-en", "cgp": CGP, "offset": offset, "limit": 400})
        assert r.status_code == 200, r.text
        body = r.json()
        assert body["count"] == len(expected)
        if not body["moves"]:
            break
        seen += body["moves"]
        offset += 400
    assert [m["notation"] for m in seen] == expected.notations()
    assert [m["score"] for m in seen] == [int(s) for s in expected.scores]
    assert seen[0] == {"notation": "8H WO(R)DIEST", "score": 128, "tiles_played": 7, "bingo": True,
                       "words": ["WORDIEST"]}


def test_moves_by_equity_and_top(client):
    r = client.post("/v1/moves", json={"rules": "wordsalvo-en", "board": EMPTY, "rack": "AEINRS?", "by": "equity",
                                       "top": 5})
    body = r.json()
    assert r.status_code == 200 and body["count"] == 5
    eq = [m["equity"] for m in body["moves"]]
    assert eq == sorted(eq, reverse=True) and all("leave" in m for m in body["moves"])


def test_a_json_board_is_the_same_position_as_its_cgp(client):
    board = ["." * 15] * 7 + ["." * 9 + "R" + "." * 5] + ["." * 15] * 7
    a = client.post("/v1/moves", json={"board": board, "rack": "DOWEIST", "limit": 50}).json()
    b = client.post("/v1/moves", json={"cgp": CGP, "limit": 50}).json()
    assert a["moves"] == b["moves"] and a["count"] == b["count"]


def test_best_by_score_and_by_equity(client):
    r = client.post("/v1/best", json={"cgp": CGP})
    assert r.json()["move"]["notation"] == "8H WO(R)DIEST"
    r = client.post("/v1/best", json={"rules": "wordsalvo-en", "board": EMPTY, "rack": "AEINRST", "by": "equity"})
    body = r.json()
    assert body["move"]["notation"] == "8D ANESTRI" and body["choice"] == "play"
    assert body["exchange"]["kind"] == "exchange" and body["exchange"]["notation"].startswith("-")


def test_validate_gives_score_and_words_or_every_reason(client):
    ok = client.post("/v1/validate", json={"cgp": CGP, "move": "8H WO(R)D"}).json()
    assert ok["legal"] and ok["score"] == 16 and ok["words"][0]["word"] == "WORD"
    bad = client.post("/v1/validate", json={"cgp": CGP, "move": "8G WO(R)D"}).json()
    assert bad["legal"] is False and bad["reasons"] == ["notation_mismatch"] and bad["problems"]
    phony = client.post("/v1/validate", json={"cgp": CGP, "move": "8H DO(R)W"}).json()
    assert phony["legal"] is False and "DORW" in phony["invalid_words"]
    problem_of(client.post("/v1/validate", json={"cgp": CGP, "move": "!!"}), 422, "notation")


# -- engines and analysis ----------------------------------------------------------------
def test_bot_takes_the_action_of_the_library_bot(client, played):
    part, _ = played
    r = client.post("/v1/bot", json={"gcg": part, "level": "hard", "seed": 2})
    assert r.status_code == 200, r.text
    game = ws.from_gcg(part)
    bot = ws.Bot("hard", game.rules, seed=2)
    expected = bot.choose(game)
    assert r.json()["action"]["notation"] == expected.move.notation
    rated = client.post("/v1/bot", json={"gcg": part, "rating": 900}).json()
    assert rated["level"] == "900" and rated["action"]["kind"] in ("play", "exchange", "pass")
    problem_of(client.post("/v1/bot", json={"gcg": part, "level": "wizard"}), 422, "game")
    problem_of(client.post("/v1/bot", json={"gcg": part, "level": "hard", "rating": 900}), 422, "game")


def test_bot_refuses_a_finished_game(client, played):
    _, full = played
    problem_of(client.post("/v1/bot", json={"gcg": full, "level": "easy"}), 422, "game")


def test_analyze_gives_the_analysis_and_the_report_page(client, played):
    _, full = played
    body = client.post("/v1/analyze", json={"gcg": full}).json()
    direct = ws.analyze_game(full, endgame=None).to_dict()
    assert body["analysis"]["final_scores"] == direct["final_scores"]
    assert [t.get("equity_lost") for t in body["analysis"]["turns"]] == [t.get("equity_lost") for t in direct["turns"]]
    page = client.post("/v1/analyze?html=1", json={"gcg": full})
    assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
    assert page.text.lower().startswith("<!doctype html>") and "<svg" in page.text
    body = problem_of(client.post("/v1/analyze", json={"gcg": "#player1 a A\n>a: ZZZ 8H QQQ +5 5\n"}), 422,
                      "game-record")
    assert "line" in body["detail"]


def test_sim_and_endgame_answer_as_the_library(client):
    r = client.post("/v1/sim", json={"cgp": CGP, "plays": 3, "iterations": 20, "sampling": "rr", "seed": 4})
    assert r.status_code == 200, r.text
    direct = ws.simulate(ws.parse_cgp(CGP), plays=3, iterations=20, sampling="rr", seed=4).to_dict()
    assert r.json()["plays"] == direct["plays"]
    eg = ws.Game(ws.Rules.preset("classic-en"), seed=14)
    while eg.bag_count and not eg.is_over:
        eg.apply(ws.Bot("equity", eg.rules).choose(eg))
    line = ws.format_cgp(eg.position())
    r = client.post("/v1/endgame", json={"rules": "classic-en", "cgp": line})
    assert r.status_code == 200, r.text
    assert r.json()["value"] == ws.solve_endgame(eg).value and r.json()["exact"]


def test_the_browser_game_new_turn_undo(client):
    new = client.post("/v1/game", json={"rules": "wordsalvo-en", "level": "easy", "seed": 5}).json()
    assert new["to_move"] == 0 and new["names"] == ["You", "wordsalvo-easy"] and new["svg"].startswith("<svg")
    hint = client.post("/v1/best", json={"rules": "wordsalvo-en", "cgp": new["cgp"]}).json()["move"]["notation"]
    after = client.post("/v1/game/turn", json={"gcg": new["gcg"], "action": hint, "level": "easy"}).json()
    assert [t["player"] for t in after["turns"]] == [0, 1] and after["to_move"] == 0
    assert after["bot"]["notation"] == after["turns"][1]["what"]
    back = client.post("/v1/game/turn", json={"gcg": after["gcg"], "action": "undo", "level": "easy"}).json()
    assert back["turns"] == [] and back["rack"] == new["rack"]
    swapped = client.post("/v1/game/turn", json={"gcg": new["gcg"], "action": "-" + new["rack"][:2],
                                                 "level": "easy"}).json()
    assert swapped["turns"][0]["kind"] == "swap"
    problem_of(client.post("/v1/game/turn", json={"gcg": new["gcg"], "action": "8A QQQQ", "level": "easy"}),
               422, "illegal-move")
    resigned = client.post("/v1/game/turn", json={"gcg": new["gcg"], "action": "resign", "level": "easy"}).json()
    assert resigned["over"] and resigned["winners"] == [1]
    page = client.get("/play")
    assert page.status_code == 200 and "/v1/game/turn" in page.text and "http" not in page.text.split("<script>")[0]


# -- service endpoints ---------------------------------------------------------------------
def test_healthz_metrics_and_docs(client):
    h = client.get("/healthz").json()
    assert h["status"] == "ok" and h["limits"]["body_bytes"] == 1 << 20
    client.post("/v1/best", json={"cgp": "junk"})
    text = client.get("/metrics").text
    assert 'wordsalvo_requests_total{endpoint="/v1/best",status="422"}' in text
    assert 'wordsalvo_errors_total{kind="position"}' in text
    client.get("/random/path/1")
    client.get("/random/path/2")
    assert "/random/path" not in client.get("/metrics").text  # labels stay bounded
    spec = client.get("/openapi.json").json()
    assert {"/v1/moves", "/v1/best", "/v1/validate", "/v1/bot", "/v1/analyze", "/v1/sim", "/v1/endgame"} <= set(
        spec["paths"])


# -- bad input -----------------------------------------------------------------------------
@pytest.mark.parametrize("body, status, kind", [
    (b"{not json", 400, "malformed-json"),
    (b"[1, 2]", 422, "invalid-request"),
    (b'{"cgp": 5}', 422, "invalid-request"),
    (b'{"cgp": "' + CGP.encode() + b'", "surprise": 1}', 422, "invalid-request"),
    (b'{"cgp": "' + CGP.encode() + b'", "limit": 1e400}', 422, "invalid-request"),
    (b'{"cgp": "' + CGP.encode() + b'", "offset": ' + b"9" * 5000 + b"}", 400, "malformed-json"),
    (b'{"cgp": "' + CGP.encode() + b'", "limit": 5000}', 422, "request"),
    (b'{"rules": "../../etc", "cgp": "' + CGP.encode() + b'"}', 422, "request"),
    (b'{"cgp": "' + CGP.encode() + b'", "lexicon": "csw24"}', 422, "request"),
    (b'{"board": ["..."]}', 422, "invalid-request"),
    (b'{"board": ' + json.dumps(["." * 14] * 15).encode() + b', "rack": "AB"}', 422, "position"),
    (b'{"cgp": "15/15/15/15/15/15/15/15/15/15/15/15/15/15/15 / 0/0 0"}', 422, "position"),
    (b'{"cgp": "' + CGP.encode() + b'", "rack": "QQQQQQQQ"}', 422, "position"),
    (b"[" * 200_000, 400, "malformed-json"),
])
def test_bad_bodies_are_problem_details(client, body, status, kind):
    r = client.post("/v1/moves", content=body, headers={"content-type": "application/json"})
    problem_of(r, status, kind)


def test_not_found_method_and_size(client):
    problem_of(client.get("/v1/nothing"), 404, "not-found")
    problem_of(client.get("/v1/moves"), 405, "method-not-allowed")
    problem_of(client.post("/v1/moves", content=b"x" * (2 << 20), headers={"content-type": "application/json"}),
               413, "body-too-large")

    def chunks():  # no Content-Length: the body is cut when it grows past the limit
        for _ in range(40):
            yield b" " * 65536

    problem_of(client.post("/v1/moves", content=chunks(), headers={"content-type": "application/json"}),
               413, "body-too-large")


def test_a_record_over_the_event_limit_is_refused():
    with TestClient(create_app(ServeConfig(events=3))) as c:
        g = ws.Game(ws.Rules.preset("wordsalvo-en"), seed=1)
        for _ in range(4):
            g.pass_turn()
        body = problem_of(c.post("/v1/analyze", json={"gcg": ws.to_gcg(g)}), 422, "request")
        assert "at most 3 event lines" in body["detail"]


def test_a_fault_is_a_500_problem_without_a_traceback(monkeypatch):
    def broken(engines, req):
        raise RuntimeError("secret internals")

    monkeypatch.setattr(service, "best", broken)
    with TestClient(create_app(), raise_server_exceptions=False) as c:
        body = problem_of(c.post("/v1/best", json={"cgp": CGP}), 500, "internal")
        assert "secret" not in body["detail"]
        assert c.get("/healthz").status_code == 200


def test_the_budget_gives_504_and_a_full_pool_503(monkeypatch):
    release = threading.Event()

    def stuck(engines, req):
        release.wait(30)
        return {"late": True}

    monkeypatch.setattr(service, "best", stuck)
    with TestClient(create_app(ServeConfig(seconds=0.2, queue_seconds=0.0, threads=1))) as c:
        problem_of(c.post("/v1/best", json={"cgp": CGP}), 504, "timeout")
        # the thread is still held by the stuck call: the next request finds no free thread
        busy = c.post("/v1/best", json={"cgp": CGP})
        problem_of(busy, 503, "busy")
        assert busy.headers["retry-after"] == "1"
        assert c.get("/healthz").status_code == 200  # health checks never wait for a thread
        release.set()


def test_api_keys_and_cors():
    config = ServeConfig.from_dict({"auth": {"api_keys": ["secret-key-1"]}, "cors": {"origins": ["https://a.example"]}})
    with TestClient(create_app(config)) as c:
        problem_of(c.post("/v1/best", json={"cgp": CGP}), 401, "unauthorized")
        problem_of(c.post("/v1/best", json={"cgp": CGP}, headers={"x-api-key": "wrong-key-22"}), 401, "unauthorized")
        ok = c.post("/v1/best", json={"cgp": CGP}, headers={"x-api-key": "secret-key-1",
                                                            "origin": "https://a.example"})
        assert ok.status_code == 200 and ok.headers["access-control-allow-origin"] == "https://a.example"
        assert c.get("/healthz").status_code == 200
        pre = c.options("/v1/best", headers={"origin": "https://a.example", "access-control-request-method": "POST"})
        assert pre.status_code == 200


# -- configuration -------------------------------------------------------------------------
def test_config_file_problems_are_listed_at_once(tmp_path):
    path = tmp_path / "serve.toml"
    path.write_text('[limits]\nseconds = -1\nbody_bytes = "big"\nnope = 1\n[auth]\napi_keys = ["short"]\n'
                    '[lexicons]\n"../x" = "a.wsg"\n[other]\n')
    with pytest.raises(ServeConfigError) as e:
        ServeConfig.load(path)
    text = str(e.value)
    for part in ("limits.seconds", "limits.body_bytes", "nope", "auth.api_keys", "lexicons.", "other"):
        assert part in text
    assert len(e.value.problems) == 6
    path.write_text("[limits\n")
    with pytest.raises(ServeConfigError, match="expected a TOML file"):
        ServeConfig.load(path)
    with pytest.raises(ServeConfigError, match="no such file"):
        ServeConfig.load(tmp_path / "missing.toml")


def test_a_limit_out_of_range_names_whole_numbers_as_whole_numbers(tmp_path):
    path = tmp_path / "serve.toml"
    path.write_text("[limits]\nbody_bytes = 1\nseconds = 0\n")
    with pytest.raises(ServeConfigError) as e:
        ServeConfig.load(path)
    assert "limits.body_bytes: expected a whole number from 1,024 to 67,108,864, got 1" in str(e.value)
    assert "e+07" not in str(e.value) and "limits.seconds: expected a number from 0.05 to 600" in str(e.value)


def test_a_configured_lexicon_is_named_by_key(tmp_path):
    words = tmp_path / "w.txt"
    words.write_text("WORD\nWORDS\nDOW\nSOW\n")
    ws.compile_lexicon(str(words), str(tmp_path / "w.wsg"), alphabet="en")
    config = ServeConfig.from_dict({"lexicons": {"tiny": str(tmp_path / "w.wsg")}})
    with TestClient(create_app(config)) as c:
        body = c.post("/v1/moves", json={"cgp": CGP, "lexicon": "tiny"}).json()
        assert {m["words"][0] for m in body["moves"]} <= {"WORD", "WORDS", "DOW", "SOW"}
        assert c.get("/healthz").json()["lexicons"] == ["tiny"]
        problem_of(c.post("/v1/moves", json={"rules": "turkish", "board": EMPTY, "rack": "ABC", "lexicon": "tiny"}),
                   422, "request")


def test_the_serve_command_refuses_a_bad_config(tmp_path, capsys):
    from wordsalvo.cli import main

    bad = tmp_path / "serve.toml"
    bad.write_text("[limits]\nthreads = 0\n")
    assert main(["serve", "--config", str(bad)]) == 2
    assert "limits.threads" in capsys.readouterr().err
