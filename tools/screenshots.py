"""Take the README's screenshots of the table page in Debian's Chromium.

    .venv/bin/python tools/screenshots.py [--out docs/screenshots] [--chromium /usr/bin/chromium]

Serves a throwaway table server on a free port (a temporary database), sets
up three positions with the scenario format's setup (so that every picture
shows the same cards), and drives the page with Playwright as a player would:

- ``table-desktop.png``: Rami 51 in French at 1280x800, a meld being
  prepared (invalid, marked), the rules panel, the last move highlighted;
- ``table-phone.png``: the same table at 390x844, hand and actions at the
  bottom of the screen;
- ``voleur-rearrange.png``: rami voleur in French, a rearrangement in
  progress: a hand card dragged into a run, a table card being moved;
- ``hand-26-phone.png``: a 26-card voleur hand at 390x844, every card in
  sight (overlapping, on two rows), a rearrangement in progress;
- ``puzzles-phone.png``, ``puzzles-desktop.png``: the puzzles page in
  French, some puzzles solved and tried, the day's highlighted.

Needs the [server] and [browser] extras; never downloads a browser.
"""

from __future__ import annotations

import argparse
import socket
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

RAMI51 = {
    "hands": [
        ["7H", "8H", "9H", "10H", "KS", "KC", "KD", "2C", "5D", "JK", "QS", "3S", "4C"],
        ["2H", "7D", "8C", "9S", "4H", "6C", "AD", "QD", "10C", "5S", "3H", "JD", "6S"],
        ["2S", "3D", "4D", "5C", "6D", "9C", "10D", "JC", "QH", "AH", "AS", "8S", "7C"],
    ],
    "stock": ["3C", "6H", "9D", "JS", "KH", "4S", "QC", "2D", "8D", "10S", "5H", "AC", "7S"],
    "discard": ["4D", "JH"],
    "table": [
        {"cards": ["5C", "6C", "7C", "8C"], "owner": 1},
        {"cards": ["9D", "9S", "9C"], "owner": 1},
    ],
    "opened": [False, True, False],
}

VOLEUR = {
    "hands": [["5S", "9D", "KC", "4H", "QD"], ["2H", "7D", "8C", "10S"]],
    "stock": ["QH", "4D", "6D", "JC", "3C"],
    "table": [
        {"cards": ["2S", "3S", "4S", "5S", "6S", "7S"], "owner": 1},
        {"cards": ["4D", "5D", "6D"], "owner": 1},
        {"cards": ["9H", "9C", "9S"], "owner": 0},
    ],
    "opened": [True, True],
}


RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
HAND26 = {
    "hands": [
        [r + s for s in "SH" for r in RANKS][:22] + ["10C", "10D", "JK", "JK"],
        ["2C", "7D", "8C", "9C"],
    ],
    "stock": ["QD", "4D", "6D", "JC", "3C", "9D"],
    "table": [{"cards": ["5C", "6C", "7C"], "owner": 1}, {"cards": ["JD", "QD", "KD"], "owner": 1}],
    "opened": [True, True],
}


def _port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    """uvicorn serving the app in a thread; `hub` is the app's own."""

    def __init__(self, db: Path):
        import uvicorn

        from rami_core.server.app import create_app

        self.app = create_app(db, bot_delay=0.05, round_pause=1000)
        self.port = _port()
        self.server = uvicorn.Server(
            uvicorn.Config(self.app, host="127.0.0.1", port=self.port, log_level="warning", lifespan="on")
        )
        self.thread = threading.Thread(target=self.server.run, daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def __enter__(self) -> Server:
        self.thread.start()
        deadline = time.monotonic() + 20
        while not self.server.started:
            if time.monotonic() > deadline:
                raise RuntimeError("the server did not start")
            time.sleep(0.02)
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=20)


def table_with(
    srv: Server, variant: str, seats: list[str], names: list[str], setup: dict
) -> tuple[str, list]:
    """A table whose position is `setup` (the scenario format's), with its seats' links."""
    import httpx

    from rami_core.profile.loader import load_profile
    from rami_core.referee.position import build_setup

    r = httpx.post(
        f"{srv.url}/api/tables",
        json={"variant": variant, "seats": seats, "names": names, "seed": 1, "lang": "fr"},
    )
    r.raise_for_status()
    out = r.json()
    hub = srv.app.state.hub
    t = hub.tables[out["table"]]
    t.game = build_setup(load_profile(variant), setup)
    return out["table"], out["links"]


def shoot(out: Path, chromium: str) -> list[Path]:
    from playwright.sync_api import sync_playwright

    out.mkdir(parents=True, exist_ok=True)
    shots: list[Path] = []
    with tempfile.TemporaryDirectory() as tmp, Server(Path(tmp) / "shots.sqlite") as srv:
        import httpx

        tid, links = table_with(srv, "rami51", ["human", "human", "human"], ["Anne", "Luc", "Zoé"], RAMI51)
        with sync_playwright() as p:
            b = p.chromium.launch(
                executable_path=chromium, args=["--headless", "--no-sandbox"], headless=True
            )
            # Luc lays off first, so that Anne sees the last move highlighted.
            httpx.post(
                f"{srv.url}/api/tables/{tid}/actions?token={links[0].split('=')[1]}", json={"draw": "stock"}
            )
            for size, name in (
                ({"width": 1280, "height": 800}, "table-desktop.png"),
                ({"width": 390, "height": 844}, "table-phone.png"),
            ):
                ctx = b.new_context(viewport=size, locale="fr-FR")
                page = ctx.new_page()
                page.goto(f"{srv.url}{links[0]}&lang=fr")
                page.wait_for_selector("#hand .card")
                page.wait_for_selector("#rules-box dd")
                for card in ("7H", "8H", "10H"):
                    page.click(f'#hand .card[data-card="{card}"]')
                page.click("#b-stage")
                page.wait_for_selector("#staged .meld.invalid")
                page.click("#b-hint")
                page.wait_for_selector("#hint-text:not(:empty)")
                if size["width"] > 900:
                    # The hand panel stays at the bottom; the table is shown scrolled above it.
                    page.evaluate("document.getElementById('h-table').scrollIntoView()")
                path = out / name
                page.screenshot(path=str(path))
                shots.append(path)
                page.evaluate("localStorage.clear()")
                ctx.close()

            tid, links = table_with(srv, "voleur", ["human", "human"], ["Anne", "Luc"], VOLEUR)
            ctx = b.new_context(viewport={"width": 1280, "height": 800}, locale="fr-FR")
            page = ctx.new_page()
            page.goto(f"{srv.url}{links[0]}&lang=fr")
            page.wait_for_selector("#hand .card")
            page.click("#stock")
            page.wait_for_selector("#b-rearrange:not([hidden])")
            page.click("#b-rearrange")
            # 6♠ 7♠ taken off Luc's run with the hand's 5♠ make a new run (put in order by the
            # server); the hand's D♦ dragged onto 4♦ 5♦ 6♦ leaves that meld invalid, marked.
            work = page.locator("#work")
            page.click('#work .meld[data-index="0"] .card[data-card="6S"]')
            page.click('#work .meld[data-index="0"] .card[data-card="7S"]')
            page.click('#hand .card[data-card="5S"]')
            page.click("#new-meld")
            src = page.locator('#hand .card[data-card="QD"]')
            dst = work.locator('.meld[data-index="1"]')
            sb, db = src.bounding_box(), dst.bounding_box()
            page.mouse.move(sb["x"] + sb["width"] / 2, sb["y"] + sb["height"] / 2)
            page.mouse.down()
            page.mouse.move(sb["x"] + 30, sb["y"] - 30, steps=4)
            page.mouse.move(db["x"] + db["width"] - 10, db["y"] + db["height"] / 2, steps=8)
            page.mouse.up()
            page.wait_for_selector("#work .meld.invalid")
            page.evaluate("document.getElementById('h-rearrange').scrollIntoView()")
            path = out / "voleur-rearrange.png"
            page.screenshot(path=str(path))
            shots.append(path)
            ctx.close()

            tid, links = table_with(srv, "voleur", ["human", "human"], ["Anne", "Luc"], HAND26)
            ctx = b.new_context(viewport={"width": 390, "height": 844}, locale="fr-FR", has_touch=True)
            page = ctx.new_page()
            page.goto(f"{srv.url}{links[0]}&lang=fr")
            page.wait_for_selector("#hand .card")
            page.tap("#stock")
            page.wait_for_selector("#b-rearrange:not([hidden])")
            page.tap("#b-rearrange")
            page.wait_for_selector("#work .meld")
            page.tap('#hand .card[data-card="JK"] >> nth=0')
            page.wait_for_timeout(300)
            path = out / "hand-26-phone.png"
            page.screenshot(path=str(path))
            shots.append(path)
            ctx.close()

            listing = httpx.get(f"{srv.url}/api/puzzles").json()
            daily = next(p for p in listing["puzzles"] if p["id"] == listing["daily"])
            same = [p["id"] for p in listing["puzzles"] if p["difficulty"] == daily["difficulty"]]
            done = {
                pid: ("solved" if i % 3 else "tried") for i, pid in enumerate(same[:5]) if pid != daily["id"]
            }
            for width, height, name in ((390, 844, "puzzles-phone.png"), (1280, 800, "puzzles-desktop.png")):
                ctx = b.new_context(viewport={"width": width, "height": height}, locale="fr-FR")
                page = ctx.new_page()
                page.goto(f"{srv.url}/puzzles?lang=fr")
                page.evaluate("(d) => localStorage.setItem('rami-puzzles', JSON.stringify(d))", done)
                page.reload()
                page.wait_for_selector(".puzzle-item.daily")
                path = out / name
                page.screenshot(path=str(path))
                shots.append(path)
                ctx.close()
            b.close()
    return shots


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", type=Path, default=ROOT / "docs" / "screenshots")
    ap.add_argument("--chromium", default="/usr/bin/chromium")
    args = ap.parse_args()
    for path in shoot(args.out, args.chromium):
        print(path.relative_to(ROOT) if path.is_relative_to(ROOT) else path)


if __name__ == "__main__":
    main()
