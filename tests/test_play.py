"""`rami play`: scripted games through the command line, checked by what the screen shows.

Whole games run as subprocesses. Bot-only games are watched to the end; in
human games a test player reads the screen (its hand, whether it must draw,
the hint line) and answers line by line over a pipe (pexpect's PopenSpawn),
as a person would at the keyboard. One test drives a real terminal (pexpect
spawn on a pty) for colours and the interactive prompt. A script typed ahead
(all its lines on stdin at once) runs in this process (click's CliRunner):
what it checks is the screen, not the process.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys

import pytest

from rami_core.cards import parse_card
from rami_core.cards.text import CardStyle, parse_input_card
from rami_core.terminal import commands as C
from rami_core.terminal.commands import CommandError, apply_edits, parse
from tests.support.in_process import run_in_process

pexpect = pytest.importorskip("pexpect")
from pexpect.popen_spawn import PopenSpawn  # noqa: E402

pytestmark = pytest.mark.filterwarnings("ignore:setDaemon:DeprecationWarning")

PRESETS = ["voleur", "rami51", "rami71", "simple", "kaluki", "classic"]
ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")
PROMPT = r"(?m)^> "
CONTINUE = r"\[(Enter|Entrée)\] "


def env(**extra: str) -> dict[str, str]:
    e = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "FORCE_COLOR", "PYTHONIOENCODING")}
    e.update({"PYTHONUTF8": "1", "COLUMNS": "200"})
    e.update(extra)
    return e


def rami(*args: str, input: str = "", **extra_env: str) -> subprocess.CompletedProcess:
    """`rami play ARGS` in this process: the screen it prints and its exit code."""
    unset: dict[str, str | None] = dict.fromkeys(("NO_COLOR", "FORCE_COLOR", "PYTHONIOENCODING"))
    return run_in_process("play", *args, input=input, env={**unset, "COLUMNS": "200", **extra_env})


def rami_process(
    *args: str, input: str = "", timeout: float = 300, **extra_env: str
) -> subprocess.CompletedProcess:
    """`rami play ARGS` as a process of its own, where its stdout or its time limit is the point."""
    return subprocess.run(
        [sys.executable, "-m", "rami_core.cli", "play", *args],
        input=input,
        capture_output=True,
        text=True,
        encoding="utf-8",
        timeout=timeout,
        env=env(**extra_env),
    )


def bots_available() -> list[str]:
    from rami_core.players.bots import BOTS

    return list(BOTS)


def pick_bot(*wanted: str) -> str:
    names = bots_available()
    for w in wanted:
        if w in names:
            return w
    return names[0]


# --------------------------------------------------------------------------- a scripted player


class Player:
    """Plays a game over a pipe: reads the screen, answers one line at a time.

    Strategy: draw from the stock; ask for a hint and play what it says (the
    solver's lays, then its discard); if anything is refused, discard the
    first card of the hand (or end the turn where there is no discard)."""

    def __init__(self, *args: str, timeout: float = 120, lang: str = "en", **extra_env: str):
        self.child = PopenSpawn(
            [sys.executable, "-m", "rami_core.cli", "play", "--ascii", *args],
            encoding="utf-8",
            timeout=timeout,
            env=env(**extra_env),
        )
        self.transcript: list[str] = []
        self.lang = lang

    def wait(self) -> str:
        """Until the next prompt: 'command', 'continue' or 'eof'; the text since the last one in self.text."""
        i = self.child.expect([PROMPT, CONTINUE, pexpect.EOF])
        self.text = self.child.before + (self.child.after if isinstance(self.child.after, str) else "")
        self.transcript.append(self.text)
        return ("command", "continue", "eof")[i]

    def send(self, line: str) -> None:
        self.child.sendline(line)

    def hand(self) -> list[str]:
        lines = [ln for ln in self.text.splitlines() if re.match(r"(Your hand|Votre main) \(\d+\)", ln)]
        assert lines, self.text
        return lines[-1].split(":", 1)[1].split()

    def must_draw(self) -> bool:
        return bool(re.search(r"^(Draw|Piochez)\b", self.text, re.M))

    def command(self, line: str) -> str:
        self.send(line)
        return self.wait()

    def play_turn(self) -> str:
        """One whole turn from a 'command' prompt; returns the state after it."""
        state = self.command("d") if self.must_draw() else "command"
        if state != "command":
            return state
        state = self.command("h")
        hint = re.search(r"(?:Hint|Conseil) ?: (.*)", self.text)
        assert hint, self.text
        steps = [s.strip() for s in re.split(r", (?:then|puis) ", hint.group(1))]
        for step in steps:
            m = re.search(r"\((x \S+|e|dd|d)\)$", step)
            cmd = m.group(1) if m else step
            if not re.match(r"^[mlrsxe]\b", cmd):
                continue
            state = self.command(cmd)
            if state != "command" or not self.my_turn_continues():
                return state
            if re.search(r"^(Refused|Refusé)", self.text, re.M):
                break
        # Whatever is left of the turn: discard, or end it.
        for card in self.hand():
            state = self.command(f"x {card}")
            if state != "command" or not self.my_turn_continues():
                return state
            if re.search(r"discard_forbidden", self.text) and "no discard" in self.text:
                return self.command("e")
        return self.command("e")

    def my_turn_continues(self) -> bool:
        """Still this player's lay phase (the screen was redrawn with a 'Now:' line)."""
        return bool(re.search(r"^(Now|Maintenant)\b", self.text, re.M)) and not self.must_draw()

    def play_game(self, max_prompts: int = 5000) -> str:
        state = self.wait()
        for _ in range(max_prompts):
            if state == "eof":
                break
            if state == "continue":
                state = self.command("")
                continue
            state = self.play_turn()
        self.child.wait()
        return "".join(self.transcript)


# --------------------------------------------------------------------------- whole games


# Bot pairs that finish a game quickly. Where a discard pile exists, two
# greedy bots can pass one card back and forth for ever; a random bot breaks
# that. Voleur has no discard pile (and random bots rearrange slowly there).
WATCH_BOTS = {"voleur": ("greedy", "greedy")}


def some_presets_quick(*quick: str) -> list:
    """Every preset, those outside `quick` marked slow: each whole game is a
    process of seconds, and the rules of each preset are the engine's tests'."""
    return [v if v in quick else pytest.param(v, marks=pytest.mark.slow) for v in PRESETS]


@pytest.mark.parametrize("variant", some_presets_quick("kaluki"))
def test_bots_watch_a_whole_game_of_every_preset(variant):
    pair = WATCH_BOTS.get(variant, ("greedy", "random"))
    bots = ",".join(pick_bot(b, "greedy", "random") for b in pair)
    args = ["--variant", variant, "--bots", bots, "--seed", "3"]
    if variant in ("rami51", "rami71", "simple"):
        args += ["--set", "game.target=200", "--set", "game.team_target=200"]
    r = rami_process(*args)  # a whole game: under a time limit
    assert r.returncode == 0, r.stderr
    out = r.stdout
    assert "Traceback" not in out + r.stderr
    assert out.startswith("Watching:")
    assert "Round 1 dealt" in out
    assert "Game over." in out
    assert re.search(r"wins the game\.|ends in a tie\.", out)
    assert re.search(r"Every hand:", out)
    assert re.search(r"Scores: .*\d", out)
    assert "Your hand" not in out  # a spectator sees no hand during play


@pytest.mark.parametrize("variant", some_presets_quick("voleur", "rami51"))
def test_a_person_plays_a_whole_game_against_a_bot(variant):
    bot = pick_bot("greedy", "random")
    args = ["--variant", variant, "--bots", bot, "--seed", "11"]
    if variant in ("rami51", "rami71", "simple", "kaluki"):
        args += ["--set", "game.target=120"]
    p = Player(*args)
    out = p.play_game()
    assert p.child.exitstatus == 0, out[-3000:]
    assert "Traceback" not in out
    assert "Your hand (" in out
    assert "Game over." in out, out[-3000:]
    assert re.search(r"Every hand:", out)
    assert re.search(r"You win the game\.|(greedy|random) bot wins the game\.|ends in a tie", out)
    # The other seat's cards are only ever shown at the end of a round.
    assert "bot's hand" not in out


def test_a_person_plays_in_french():
    bot = pick_bot("greedy", "random")
    p = Player(
        "--variant",
        "rami51",
        "--bots",
        bot,
        "--seed",
        "2",
        "--lang",
        "fr",
        "--set",
        "game.target=60",
        lang="fr",
    )
    out = p.play_game()
    assert p.child.exitstatus == 0
    assert "Votre main (" in out
    assert "Fin de la partie." in out
    assert "Your hand" not in out
    assert re.search(r"Scores : ", out)


# --------------------------------------------------------------------------- the screen


def test_default_game_is_rami51_against_the_expert_without_a_clock():
    r = rami(input="")
    assert r.returncode == 0, r.stderr
    assert "rami51 - round 1" in r.stdout
    bot = "expert" if "expert" in bots_available() else None
    if bot:
        assert "expert bot" in r.stdout and "expert bot 2" not in r.stdout  # one bot: no number
    assert "Game abandoned." in r.stdout
    assert "clock" not in r.stdout  # a casual game has none


def test_screen_shows_hand_piles_others_scores_and_what_to_do():
    r = rami("--variant", "rami51", "--bots", pick_bot("greedy"), "--seed", "5", "--ascii", input="")
    out = r.stdout
    assert r.returncode == 0
    assert "rami51 - round 1" in out
    assert re.search(r"^Scores: You 0 +\| +\S+ bot 0 +\(game to 500\)", out, re.M)
    assert re.search(r"^Discard: \S+ \(1 card\) +Stock: 81 cards", out, re.M)
    assert re.search(r"^Others: \S+ bot 13 cards \(not opened\)", out, re.M)
    hand = re.search(r"^Your hand \(13\): (.*)$", out, re.M).group(1)
    cards = [parse_card(c) for c in hand.split()]
    assert len(cards) == 13
    from rami_core.cards import sort_key

    assert cards == sorted(cards, key=sort_key)  # sorted, grouped by suit
    assert "Draw: d = stock, dd = discard pile" in out
    assert "To open: at least 51 points, a pure run (no joker)." in out
    assert "Game abandoned." in out and "Traceback" not in out + r.stderr


def test_refusals_show_the_engine_message_and_lose_nothing():
    script = "m 7H 8H 9H\nd\nzz\nx QQ\nl 7H 4\nm 2S 2S\nr 2S 3S 4S\nq\n"
    r = rami("--variant", "rami51", "--bots", pick_bot("greedy"), "--seed", "5", "--ascii", input=script)
    out = r.stdout
    assert r.returncode == 0
    assert "Refused (wrong_phase): draw a card before laying" in out
    assert "Not understood: unknown command 'zz'" in out
    assert "Not understood: 'QQ' is not a card: no suit" in out
    assert "Refused (no_such_meld): there is no meld 4 on the table (the table is empty)" in out
    assert "Refused (card_not_in_hand)" in out
    assert "Refused (action_forbidden)" in out  # rami51 never rearranges
    # The game went on after every refusal: the hand still holds 14 cards.
    assert out.count("Your hand (14)") == 1 and "Game abandoned." in out


def test_french_refusals_are_translated_by_code_with_the_detail():
    r = rami(
        "--variant",
        "rami51",
        "--bots",
        pick_bot("greedy"),
        "--seed",
        "5",
        "--lang",
        "fr",
        input="x 7Co\nd\nl 7Co 3\n",
    )
    out = r.stdout
    assert "Refusé : piochez une carte avant de défausser" in out
    assert "Refusé : il n'y a pas de combinaison 3 sur la table (la table est vide)" in out
    assert "Partie abandonnée." in out
    assert re.search(r"Votre main \(13\) : ", out)
    hand = re.search(r"Votre main \(14\) : (.*)$", out, re.M).group(1)
    assert not re.search(r"\b[JQK][♠♥♦♣]", hand)  # V, D, R for the court cards
    for tok in hand.split():
        parse_input_card(tok, "fr")


def test_ascii_fallback_when_stdout_cannot_show_symbols():
    r = rami_process(
        "--variant",
        "rami51",
        "--bots",
        pick_bot("greedy"),
        "--seed",
        "5",
        input="",
        PYTHONIOENCODING="ascii",
        PYTHONUTF8="0",
    )
    assert r.returncode == 0, r.stderr
    assert not re.search(r"[♠♥♦♣─]", r.stdout)
    hand = re.search(r"^Your hand \(13\): (.*)$", r.stdout, re.M).group(1)
    assert all(re.fullmatch(r"(10|[2-9AJQK])[SHDC]|JK", c) for c in hand.split())


def test_ascii_flag_and_symbols_by_default():
    sym = rami("--variant", "rami51", "--bots", pick_bot("greedy"), "--seed", "5", input="").stdout
    asc = rami("--variant", "rami51", "--bots", pick_bot("greedy"), "--seed", "5", "--ascii", input="").stdout
    assert re.search(r"Your hand \(13\): .*[♠♥♦♣]", sym)
    assert not re.search(r"[♠♥♦♣]", asc)


def test_colours_on_a_terminal_and_no_color_honoured():
    def screen(**extra: str) -> str:
        child = pexpect.spawn(
            sys.executable,
            [
                "-m",
                "rami_core.cli",
                "play",
                "--variant",
                "rami51",
                "--bots",
                pick_bot("greedy"),
                "--seed",
                "5",
                "--delay",
                "0",
            ],
            env=env(TERM="xterm-256color", **extra),
            encoding="utf-8",
            timeout=60,
            dimensions=(50, 160),
        )
        child.expect(r"(?m)^(\x1b\[[0-9;]*m)*> ")
        text = child.before
        child.sendline("q")
        child.expect("Save the game before leaving")
        child.sendline("")
        child.expect(pexpect.EOF)
        child.close()
        assert child.exitstatus == 0
        return text

    coloured = screen()
    assert re.search(r"\x1b\[[0-9;]*31m", coloured)  # hearts in red
    assert "Your hand (13)" in ANSI.sub("", coloured)
    plain = screen(NO_COLOR="1")
    assert not re.search(r"\x1b\[[0-9;]*3[1-7]m", plain)
    assert re.search(r"[♠♥♦♣]", plain)  # suits still told apart by symbol


# --------------------------------------------------------------------------- hot seat, undo, save


def test_hotseat_hides_each_hand_until_its_player_is_ready():
    p = PopenSpawn(
        [
            sys.executable,
            "-m",
            "rami_core.cli",
            "play",
            "--variant",
            "rami51",
            "--hotseat",
            "--seed",
            "4",
            "--ascii",
        ],
        encoding="utf-8",
        timeout=60,
        env=env(),
    )
    p.expect(CONTINUE)
    before = p.before
    assert "Pass the screen to Player" in before
    assert "hand (" not in before
    p.sendline("")
    p.expect(PROMPT)
    first = p.before
    m = re.search(r"^(Player \d)'s hand \(13\): ", first, re.M)
    assert m, first
    p.sendline("d")
    p.expect(PROMPT)
    hand = re.search(r"'s hand \(14\): (.*)$", p.before, re.M).group(1).split()
    p.sendline(f"x {hand[0]}")
    p.expect(CONTINUE)
    handover = p.before
    other = "Player 2" if m.group(1) == "Player 1" else "Player 1"
    assert f"Pass the screen to {other}" in handover
    assert "'s hand (" not in handover.split("discards")[-1]  # nothing of the next hand yet
    p.sendline("")
    p.expect(PROMPT)
    assert f"{other}'s hand (13)" in p.before
    p.sendline("q")
    p.expect(pexpect.EOF)


def test_undo_takes_back_the_turn_and_a_save_after_it_replays(tmp_path):
    save = tmp_path / "g.json"
    bot = pick_bot("greedy")
    # Seed 1 of voleur: find an opening with the hint, lay it, undo it.
    p = Player("--variant", "voleur", "--bots", bot, "--seed", "1", "--save", str(save))
    assert p.wait() == "command"
    for _ in range(40):
        if p.must_draw():
            p.command("d")
        p.command("h")
        hint = re.search(r"Hint: (m [^,]*)", p.text)
        if hint:
            break
        assert p.command("e") == "command"
    assert hint, "no opening found in 40 turns"
    p.command("")  # Enter redraws the screen
    size = len(p.hand())
    table_before = re.search(r"^Table.*?(?=^Stock)", p.text, re.M | re.S).group(0)
    p.command(hint.group(1))
    assert re.search(r"You (open|lay)", p.text)
    assert len(p.hand()) < size
    p.command("u")
    assert "Undone: You open" in p.text
    assert len(p.hand()) == size
    assert re.search(r"^Table.*?(?=^Stock)", p.text, re.M | re.S).group(0) == table_before
    p.command("u")
    assert "Nothing to undo" in p.text
    p.command("save " + str(tmp_path / "manual.json"))
    assert "Game saved to" in p.text
    p.send("q")
    p.child.expect(pexpect.EOF)
    data = json.loads((tmp_path / "manual.json").read_text())
    assert not any("meld" in a for a in data["log"][-2:])  # the undone meld is not in the log
    # Both saves replay (they are checked against their snapshot on load).
    r = run_in_process("replay", str(save))
    assert r.returncode == 0, r.stdout + r.stderr
    assert "replay matches the saved snapshot" in r.stdout


def test_save_and_resume_continue_the_same_game(tmp_path):
    save = tmp_path / "g.json"
    bot = pick_bot("greedy")
    r1 = rami(
        "--variant", "rami51", "--bots", bot, "--seed", "8", "--ascii", "--save", str(save), input="d\n"
    )
    assert r1.returncode == 0
    hand1 = re.findall(r"^Your hand \(14\): (.*)$", r1.stdout, re.M)[-1]
    data = json.loads(save.read_text())
    assert data["play"]["seats"] == [{"human": True, "name": "You"}, {"bot": bot, "name": f"{bot} bot"}]
    r2 = rami("--resume", str(save), "--ascii", input="")
    assert r2.returncode == 0, r2.stderr
    assert f"Game resumed from {save}" in r2.stdout
    assert re.search(r"^Your hand \(14\): " + re.escape(hand1), r2.stdout, re.M)
    assert f"{bot} bot" in r2.stdout


def test_resume_refuses_a_damaged_save(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text("{}")
    r = rami("--resume", str(bad))
    assert r.returncode == 1
    assert "cannot resume" in r.stderr and "Traceback" not in r.stderr


def test_bad_options_are_usage_errors():
    r = rami("--variant", "rami71", "--players", "3", input="")
    assert r.returncode == 2 and "rami71 is played by 2, 4 players" in r.stderr
    r = rami("--bots", "nosuchbot", input="")
    assert r.returncode == 2 and "no bot named 'nosuchbot'" in r.stderr


# --------------------------------------------------------------------------- commands


def test_parse_commands_and_short_forms():
    assert parse("d") == C.Draw("stock")
    assert parse("dd") == C.Draw("discard")
    assert parse("draw discard") == C.Draw("discard")
    assert parse("pioche") == C.Draw("stock")
    m = parse("m 7H 8H 9H | KS KH KC / 2c,3c,4c")
    assert isinstance(m, C.Meld)
    assert [[str(c) for c in meld] for meld in m.melds] == [
        ["7H", "8H", "9H"],
        ["KS", "KH", "KC"],
        ["2C", "3C", "4C"],
    ]
    lay_off = parse("l JK 2 as 6H | 5c 1")
    assert isinstance(lay_off, C.LayOff)
    assert [(str(i.card), i.to, str(i.as_) if i.as_ else None) for i in lay_off.items] == [
        ("JK", 1, "6H"),
        ("5C", 0, None),
    ]
    lay = parse("lay off 7H 8H 3")
    assert isinstance(lay, C.LayOff) and lay.items[1].to == 2
    s = parse("s 6H 6C 2")
    assert isinstance(s, C.Swap) and [str(c) for c in s.cards] == ["6H", "6C"] and s.meld == 1
    assert parse("x D♠") == C.Discard(parse_card("QS"))
    assert parse("x DS") == C.Discard(parse_card("QS"))  # a French court letter with an English suit
    assert parse("discard JK(6♥)") == C.Discard(parse_card("JK"))
    r = parse("r 1: 3C 4C 5C | 2: 5C 6C 7C")
    assert isinstance(r, C.Rearrange) and r.table[1][0] == parse_card("5C")
    for cmd, line in [
        (C.EndTurn(), "e"),
        (C.Undo(), "u"),
        (C.Hint(), "h"),
        (C.Help(), "?"),
        (C.Quit(), "q"),
        (C.Show(), ""),
        (C.Scores(), "sc"),
    ]:
        assert parse(line) == cmd
    assert parse("save my game.json") == C.Save("my game.json")
    for bad in ["zz", "x", "l 7H", "l 7H x", "s 2", "m", "r", "r move 7H"]:
        with pytest.raises(CommandError):
            parse(bad)


def test_french_words_and_cards():
    assert parse("défausse RCo", "fr") == C.Discard(parse_card("KH"))
    assert parse("pose 3P 4P 5P", "fr") == C.Meld(((parse_card("3S"), parse_card("4S"), parse_card("5S")),))
    assert parse("compléter JK 2 comme 6Co", "fr") == C.LayOff(
        (C.LayOffItem(parse_card("JK"), 1, parse_card("6H")),)
    )
    assert parse("x VT", "fr") == C.Discard(parse_card("JC"))
    assert parse("x 10Ca", "fr") == C.Discard(parse_card("10D"))
    assert parse("x AP", "fr") == C.Discard(parse_card("AS"))
    assert parse("x 7♥", "fr") == C.Discard(parse_card("7H"))
    assert parse("x 7H", "fr") == C.Discard(parse_card("7H"))  # English notation read too
    with pytest.raises(CommandError) as e:
        parse("x 3C", "fr")  # C: clubs in English, coeur for a French player
    assert e.value.kw["error"].key == "card_ambiguous"
    assert parse("x 3C", "en") == C.Discard(parse_card("3C"))


def test_rearrange_edits_build_the_whole_new_table():
    c = lambda s: [parse_card(x) for x in s.split()]  # noqa: E731

    def edits(line):
        cmd = parse(line)
        assert isinstance(cmd, C.EditTable)
        return cmd.edits

    table = [c("3C 4C 5C 6C 7C"), c("8H 8S 8D")]
    # Split a long run by adding its duplicate (voleur's classic move).
    assert apply_edits(table, edits("r split 1 at 5C; add 5C 1")) == [
        c("3C 4C 5C"),
        c("8H 8S 8D"),
        c("5C 6C 7C"),
    ]
    assert apply_edits(table, edits("r move 8D 2 new; add 9D 10D 3"))[1:] == [c("8H 8S"), c("8D 9D 10D")]
    assert apply_edits(table, edits("r join 1 2")) == [c("3C 4C 5C 6C 7C 8H 8S 8D")]
    assert apply_edits(table, edits("r new 2H 3H 4H"))[-1] == c("2H 3H 4H")
    with pytest.raises(CommandError):
        apply_edits(table, edits("r move 9S 1 2"))
    with pytest.raises(CommandError):
        apply_edits(table, edits("r split 3 5C"))


def test_card_style_french_ascii_and_engine_details():
    fr = CardStyle("fr")
    assert (
        fr.name(parse_card("QS")) == "D♠"
        and fr.name(parse_card("JH")) == "V♥"
        and fr.name(parse_card("KD")) == "R♦"
    )
    assert CardStyle("fr", ascii_only=True).name(parse_card("QS")) == "DP"
    assert CardStyle("fr", ascii_only=True).name(parse_card("10H")) == "10Co"
    assert CardStyle("fr", ascii_only=True).name(parse_card("KD")) == "RCa"
    assert CardStyle("fr", ascii_only=True).name(parse_card("JC")) == "VT"
    assert CardStyle("en", ascii_only=True).name(parse_card("10H")) == "10H"
    assert CardStyle("en").name(parse_card("10H")) == "10♥"
    from rami_core.words.refusals import Reason

    en = CardStyle("en")
    assert (
        Reason("meld_reason", meld=0, reason=Reason("set_rank", card="QS")).words("en", en.code)
        == "meld 1: Q♠ is not of the set's rank"
    )
    assert (
        Reason("no_meld_range", meld=5, last=3).words("en", en.code)
        == "there is no meld 6 on the table (melds 1 to 4)"
    )
    fr = CardStyle("fr", ascii_only=True)
    assert (
        Reason("meld_reason", meld=0, reason=Reason("set_rank", card="QS")).words("fr", fr.code)
        == "combinaison 1 : DP n'a pas la valeur du brelan"
    )


# --------------------------------------------------------------------------- table moves, in process


class _StubBot:
    """Draws, then ends its turn or discards its last card."""

    name = "stub"

    def choose(self, view, rules):
        from rami_core.game import actions as A

        if view.phase == "draw":
            return A.Draw(view.seat, "stock")
        if rules.profile.discard.enabled:
            return A.Discard(view.seat, view.hand[-1])
        return A.EndTurn(view.seat)


def _session(variant: str, hand: str, table: list[str], lines: list[str]):
    """A game at a chosen position: seat 0 (a person) to lay, table owned by seat 1."""
    import io

    from rich.console import Console

    from rami_core.cards.melds import read_meld
    from rami_core.game.state import TableMeld
    from rami_core.profile.loader import load_profile
    from rami_core.referee.engine import Game
    from rami_core.terminal import Seat, Session, Terminal
    from rami_core.words.messages import Messages

    game = Game.new(load_profile(variant), 2, seed=1)
    s = game.state
    s.hands[0] = [parse_card(c) for c in hand.split()]
    s.table = [TableMeld(read_meld([parse_card(c) for c in m.split()], game.rules.melds), 1) for m in table]
    s.opened = [True, True]
    s.turn, s.phase, s.drew_from = 0, "lay", "stock"
    game._turn_start = s.copy()
    feed = iter(line + "\n" for line in lines)
    out = io.StringIO()
    console = Console(file=out, width=160, color_system=None, highlight=False, soft_wrap=True)
    term = Terminal(console, interactive=False, read_line=lambda: next(feed, ""))
    seats = [Seat(True, "You"), Seat(False, "stub bot 2", "stub", _StubBot())]
    session = Session(game, seats, term, Messages("en"), CardStyle("en", ascii_only=True))
    assert session.run() == 0
    return game, out.getvalue()


def test_rearrange_by_edits_and_whole_table_and_undo():
    game, out = _session(
        "voleur",
        "5C 9H 2D",
        ["3C 4C 5C 6C 7C"],
        ["r split 1 5C; add 5C 1", "u", "r 1: 3C 4C 5C | 2: 5C 6C 7C", "e"],
    )
    assert "You rearrange the table: [3C 4C 5C]  [5C 6C 7C]" in out
    assert "Undone: You rearrange the table" in out
    assert out.count("You rearrange the table") == 3  # done, undone, done again
    assert "stub bot 2 draws from the stock" in out
    assert "Game abandoned." in out
    log = [type(a).__name__ for a in game.log]
    assert log.count("Rearrange") == 1  # the undone one left the log


def test_swap_owes_the_joker_back_and_refusals_name_it():
    game, out = _session(
        "rami51",
        "8H 2C 3S 4S 5S KD",
        ["7H JK 9H"],
        ["s 8H 1", "x 2C", "u", "x KD"],
    )
    assert "You give 8H for the joker of meld 1" in out
    assert "The joker you took (JK) must go back on the table this turn." in out
    assert "Refused (joker_not_reused)" in out
    assert "Undone: You give 8H for the joker of meld 1" in out
    assert "You discard KD" in out
    assert next(m.cards for m in game.state.table)[1].is_joker  # the joker is back in the meld


def test_lay_off_with_as_and_a_meld_number_from_one():
    _game, out = _session("rami51", "JK 10H 2C 2D", ["7H 8H 9H"], ["l JK 1 as 6H", "l 10H 1", "x 2C"])
    assert "You lay off JK on meld 1" in out
    assert "   1. JK(6H) 7H 8H 9H 10H   stub bot 2" in out
    assert "You discard 2C" in out


def test_hint_lays_off_a_joker_onto_a_set_where_its_suit_is_free():
    """best_lay_offs gives no face for a joker added to a set of three (its
    suit is open): the hint suggests the lay off instead of failing."""
    from rami_core.cards import parse_cards
    from rami_core.cards.melds import read_meld
    from rami_core.game import actions as A
    from rami_core.game.state import LAY, TableMeld
    from rami_core.players.hint import suggest
    from rami_core.profile.loader import load_profile
    from rami_core.referee.engine import Game

    game = Game.new(load_profile("rami51"), 2, seed=1)
    s = game.state
    nines = parse_cards("9S 9H 9D")
    hand = parse_cards("JK 2C 7D")
    s.hands[0] = hand
    s.table = [TableMeld(read_meld(nines, game.rules.melds), 1)]
    s.opened = [True, True]
    s.laid_before = [True, True]
    s.turn, s.phase = 0, LAY
    plan = suggest(game.view(0), game.rules)
    lay_offs = [a for a in plan["actions"] if isinstance(a, A.LayOff)]
    assert lay_offs and lay_offs[0].items[0].card.suit == hand[0].suit
    assert plan["discard"] is not None
