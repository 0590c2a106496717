"""A server killed with SIGKILL mid-game and started again on the same file has
every acknowledged action, shows the same views, and the game goes on."""

from __future__ import annotations

import random
import threading
import time

import pytest

pytest.importorskip("uvicorn", reason="the [server] extra is not installed")

import httpx

from rami_core.players.bots import make_bot
from rami_core.profile.loader import load_profile
from rami_core.referee.engine import Game
from tests.server_support import ProcessServer, action_body, check_view_against

VOLATILE = ("connected", "clock", "next_round_in", "version")


def stable(view: dict) -> dict:
    return {k: v for k, v in view.items() if k not in VOLATILE}


class Referee:
    """The test's own copy of the game, fed the same actions: what the server must show."""

    def __init__(self, variant: str, players: int, seed: int):
        self.game = Game.new(load_profile(variant), players, seed=seed)
        self.bots = [make_bot("greedy", seed=i) for i in range(players)]
        self.ready: set[int] = set()  # the people who continued at this round's end

    def next(self) -> tuple[int, dict]:
        g = self.game
        if g.state.phase == "over":
            return min(set(range(len(self.bots))) - self.ready), {"next_round": True}
        seat = g.state.turn
        return seat, action_body(self.bots[seat].choose(g.view(seat), g.rules))

    def play(self, body: dict, seat: int) -> None:
        from rami_core.game.actions import action_from_dict

        if body == {"next_round": True}:
            self.ready.add(seat)
            if len(self.ready) == len(self.bots):  # every seat is a person: the last one deals
                self.ready = set()
                self.game.next_round()
        else:
            self.game.apply(action_from_dict({"player": seat, **body}))


@pytest.fixture(scope="module")
def one_server(tmp_path_factory: pytest.TempPathFactory):
    """One `rami serve` process for the module: each test kills it and starts it
    again on the same file, on a table of its own (a start costs a second of imports)."""
    db = tmp_path_factory.mktemp("restart") / "kill.sqlite"
    server = ProcessServer(
        db, None, "--round-pause", "1000", "--bot-delay", "0.02", "--reproducible-seeds"
    ).start()
    yield server
    server.stop()


@pytest.fixture
def server(one_server: ProcessServer) -> ProcessServer:
    """The module's server, running (a test that failed between its kill and its start left it down)."""
    if one_server.proc is None or one_server.proc.poll() is not None:
        one_server.start()
    return one_server


# After the restart: 40 more moves by default, to the game's end in the slow run.
@pytest.mark.parametrize(
    "moves_after", [40, pytest.param(400, marks=pytest.mark.slow)], ids=["on", "to_the_end"]
)
def test_sigkill_mid_game_loses_nothing(server: ProcessServer, moves_after: int):
    http = httpx.Client(base_url=server.url, timeout=10)
    r = http.post("/api/tables", json={"variant": "rami51", "seats": ["human", "human"], "seed": 31})
    tid, tokens = r.json()["table"], [s["token"] for s in r.json()["seats"]]
    ref = Referee("rami51", 2, 31)
    for _ in range(40):
        seat, body = ref.next()
        assert http.post(f"/api/tables/{tid}/actions?token={tokens[seat]}", json=body).status_code == 200
        ref.play(body, seat)
    version = http.get(f"/api/tables/{tid}/view").json()["version"]
    before = [stable(http.get(f"/api/tables/{tid}/view?token={t}").json()) for t in tokens]
    before.append(stable(http.get(f"/api/tables/{tid}/view").json()))
    server.kill()
    server.start()
    ref.ready = set()  # a click to continue is not stored: the pause starts again
    after = [stable(http.get(f"/api/tables/{tid}/view?token={t}").json()) for t in tokens]
    after.append(stable(http.get(f"/api/tables/{tid}/view").json()))
    assert after == before
    # A client that drops views older than one it has keeps the restarted server's.
    assert http.get(f"/api/tables/{tid}/view").json()["version"] > version
    # The game goes on after the restart (to its end in the slow run), each view true to the referee.
    moves = 0
    while not ref.game.state.game_over and moves < moves_after:
        seat, body = ref.next()
        r = http.post(f"/api/tables/{tid}/actions?token={tokens[seat]}", json=body)
        assert r.status_code == 200, r.text
        ref.play(body, seat)
        check_view_against(r.json(), ref.game, seat)
        moves += 1


def test_sigkill_while_actions_are_in_flight(server: ProcessServer):
    """Killed at a random moment while a client plays as fast as it can: after the
    restart the game is the referee's after every acknowledged action (plus,
    at most, the one whose answer the kill cut off)."""
    rng = random.Random(7)
    http = httpx.Client(base_url=server.url, timeout=10)
    r = http.post("/api/tables", json={"variant": "rami51", "seats": ["human", "human"], "seed": 77})
    tid, tokens = r.json()["table"], [s["token"] for s in r.json()["seats"]]
    ref = Referee("rami51", 2, 77)
    timer = threading.Timer(rng.uniform(0.5, 1.5), server.kill)
    timer.start()
    pending = None
    try:
        for _ in range(5000):
            seat, body = ref.next()
            pending = (seat, body)
            r = http.post(f"/api/tables/{tid}/actions?token={tokens[seat]}", json=body)
            assert r.status_code == 200
            ref.play(body, seat)
            pending = None
            if ref.game.state.game_over:
                break
    except httpx.HTTPError:
        pass
    timer.join()
    server.start()
    view = http.get(f"/api/tables/{tid}/view?token={tokens[0]}").json()
    try:
        check_view_against(view, ref.game, 0)
    except AssertionError:
        assert pending is not None, "the server lost an acknowledged action"
        ref.play(pending[1], pending[0])  # the cut-off action was committed before the kill
        check_view_against(view, ref.game, 0)
    for seat, tok in enumerate(tokens):
        check_view_against(http.get(f"/api/tables/{tid}/view?token={tok}").json(), ref.game, seat)
    # And play goes on.
    if not ref.game.state.game_over:
        seat, body = ref.next()
        assert http.post(f"/api/tables/{tid}/actions?token={tokens[seat]}", json=body).status_code == 200


def test_bot_table_goes_on_after_a_kill(server: ProcessServer):
    http = httpx.Client(base_url=server.url, timeout=10)
    r = http.post("/api/tables", json={"variant": "rami51", "seats": ["human", "greedy"], "seed": 5})
    tid, token = r.json()["table"], r.json()["seats"][0]["token"]
    # The human draws and discards; the bot answers in the server.
    for _ in range(3):
        v = http.get(f"/api/tables/{tid}/view?token={token}").json()
        for _ in range(200):
            if v["turn"] == 0 and v["phase"] != "over":
                break
            v = http.get(f"/api/tables/{tid}/view?token={token}").json()
        if v["phase"] == "over":
            break
        http.post(f"/api/tables/{tid}/actions?token={token}", json={"draw": "stock"})
        hand = http.get(f"/api/tables/{tid}/view?token={token}").json()["hand"]
        http.post(f"/api/tables/{tid}/actions?token={token}", json={"discard": hand[-1]})
    before = stable(http.get(f"/api/tables/{tid}/view?token={token}").json())
    server.kill()
    server.start()
    after = stable(http.get(f"/api/tables/{tid}/view?token={token}").json())
    # The bot may have moved between the reading and the kill: the hand is ours and did not change.
    assert after["hand"] == before["hand"]
    assert after["round_no"] == before["round_no"]
    # If the kill caught the bot's turn, the restarted server has it play on.
    http.post(f"/api/tables/{tid}/actions?token={token}", json={"draw": "stock"})
    for _ in range(300):
        v = http.get(f"/api/tables/{tid}/view?token={token}").json()
        if v["phase"] == "over" or v["turn"] == 0:
            break
        time.sleep(0.02)
    assert v["phase"] == "over" or v["turn"] == 0
