"""`rami solve`: one position, a batch, and bad input."""

from __future__ import annotations

import json

from click.testing import CliRunner

from rami_core.cli import main


def run(*args: str, input: str | None = None):
    # These positions were written for voleur (the whole table rebuilt); the
    # command's own default is rami51, so they name voleur unless they say otherwise.
    if "--variant" not in args and "--rules" not in args:
        args = ("--variant", "voleur", *args)
    return CliRunner().invoke(main, ["solve", *args], input=input)


def test_borrowing_the_fourth_card_of_a_carre():
    r = run("--table", "8S 8H 8D 8C", "--hand", "6H 7H 2C", "--json")
    assert r.exit_code == 0, r.output
    out = json.loads(r.output)
    assert out["max_cards_laid"] == 2 and sorted(out["laid"]) == ["6H", "7H"]
    assert sorted(map(sorted, out["melds"])) == [["6H", "7H", "8H"], ["8C", "8D", "8S"]]


def test_batch_writes_one_line_per_position(tmp_path):
    f = tmp_path / "b.jsonl"
    f.write_text(
        json.dumps({"id": "cut", "table": ["3C", "4C", "5C", "6C", "7C"], "hand": ["5C"]})
        + "\n"
        + json.dumps({"id": 7, "table": ["9D", "10D", "JD", "QD"], "hand": ["QS", "QH", "2H"]})
        + "\n"
    )
    r = run("--batch", str(f))
    assert r.exit_code == 0, r.output
    lines = [json.loads(x) for x in r.output.splitlines()]
    assert [x["id"] for x in lines] == ["cut", 7]
    assert [x["max_cards_laid"] for x in lines] == [1, 2]
    assert all(
        set(x) == {"id", "max_cards_laid", "laid", "melds", "proven", "cards_proven", "seconds"}
        for x in lines
    )
    assert all(x["proven"] for x in lines)
    assert all(x["seconds"] >= 0 for x in lines)


def test_profile_rules_apply():
    # Classic plays the ace low only: Q-K-A is no run there.
    r = run("--variant", "classic", "--hand", "QS KS AS", "--json")
    assert json.loads(r.output)["max_cards_laid"] == 0
    r = run("--variant", "rami51", "--hand", "QS KS AS", "--json")
    assert json.loads(r.output)["max_cards_laid"] == 3


def one_line_error(r, text: str) -> None:
    """Exit 1 and a single line on stderr that says ``text``, no traceback."""
    assert r.exit_code == 1, r.output
    assert text in r.output and "Traceback" not in r.output
    assert len(r.output.strip().splitlines()) == 1


# --------------------------------------------------------------------------- rami51: melds keep their places


def test_rami51_does_not_break_the_table_melds():
    r = run("--variant", "rami51", "--table", "8S 8H 8D 8C | 3C 4C 5C 6C 7C", "--hand", "6H 7H 5C 2D")
    assert r.exit_code == 0, r.output
    assert r.output.splitlines()[0] == "0 hand card(s) laid: -"


def test_rami51_lays_off_onto_the_melds_as_they_lie():
    r = run("--variant", "rami51", "--table", "3C 4C 5C | 8S 8H 8D", "--hand", "6C 8C 2D")
    assert r.exit_code == 0, r.output
    assert r.output.splitlines()[0] == "2 hand card(s) laid: 6C 8C"
    out = json.loads(
        run("--variant", "rami51", "--table", "3C 4C 5C | 8S 8H 8D", "--hand", "6C 8C 2D", "--json").output
    )
    assert out["melds"] == [["3C", "4C", "5C", "6C"], ["8S", "8H", "8D", "8C"]]
    assert out["lay_offs"] == [{"meld": 1, "cards": ["6C"]}, {"meld": 2, "cards": ["8C"]}]


def test_rami51_new_melds_from_the_hand_beside_lay_offs():
    r = run("--variant", "rami51", "--table", "3C 4C 5C", "--hand", "9H 10H JH 6C", "--json")
    one_line_error(r, "separated by '|'")
    r = run("--variant", "rami51", "--table", "3C 4C 5C |", "--hand", "9H 10H JH 6C", "--json")
    one_line_error(r, "table meld 2 is empty")
    r = run("--variant", "rami51", "--table", "3C 4C 5C | 7D 7S 7H", "--hand", "9H 10H JH 6C", "--json")
    out = json.loads(r.output)
    assert out["max_cards_laid"] == 4 and ["9H", "10H", "JH"] in out["melds"]


def test_a_pile_where_the_game_forbids_rearranging_is_refused():
    r = run("--variant", "rami51", "--table", "8S 8H 8D 8C 3C 4C 5C 6C 7C", "--hand", "6H 7H 5C 2D")
    one_line_error(r, "separated by '|'")


def test_an_invalid_table_meld_is_named():
    r = run("--variant", "rami51", "--table", "3C 4C 6C | 8S 8H 8D", "--hand", "5C")
    one_line_error(r, "table meld 1 (3C 4C 6C) is not a valid meld")


def test_batch_table_may_be_a_list_of_melds(tmp_path):
    f = tmp_path / "b.jsonl"
    f.write_text(
        json.dumps(
            {"id": "lists", "table": [["3C", "4C", "5C"], ["8S", "8H", "8D"]], "hand": ["6C", "8C", "2D"]}
        )
        + "\n"
        + json.dumps({"id": "strings", "table": ["3C 4C 5C", "8S 8H 8D"], "hand": ["6C", "8C", "2D"]})
        + "\n"
        + json.dumps({"id": "pile", "table": ["3C", "4C", "5C"], "hand": ["6C"]})
        + "\n"
    )
    r = run("--variant", "rami51", "--batch", str(f))
    lines = [json.loads(x) for x in r.output.splitlines()]
    assert [x["max_cards_laid"] for x in lines[:2]] == [2, 2]
    assert lines[2]["id"] == "pile" and "separated by '|'" in lines[2]["error"]
    assert r.exit_code == 1


# --------------------------------------------------------------------------- input checked, work bounded


def test_more_copies_than_the_decks_hold():
    one_line_error(run("--table", "8S 8H 8D 8S 8S", "--hand", "6H"), "3 copies of 8S")


def test_jokers_the_game_does_not_have():
    one_line_error(
        run("--hand", "JK JK JK JK JK JK JK JK JK JK JK JK JK JK 7H 9D"),
        "14 joker(s) in the table and the hand",
    )
    one_line_error(run("--variant", "classic", "--hand", "JK 7H 8H"), "the game has no jokers")


def test_a_position_the_deck_cannot_hold_is_refused_in_the_language_asked():
    says = {
        ("--table", "8S 8H 8D 8S 8S", "--hand", "6H"): "3 exemplaires de 8S",
        ("--hand", "JK JK JK JK JK 7H"): "5 joker(s) sur la table et dans la main : le jeu n'en a que 2",
        ("--variant", "classic", "--hand", "JK 7H 8H"): "le jeu n'a pas de joker",
    }
    for args, words in says.items():
        one_line_error(run("--lang", "fr", *args), words)


def test_more_cards_than_the_deck_holds():
    deck = " ".join(
        f"{r}{s}" for r in ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"] for s in "SHDC"
    )
    r = run("--variant", "rami51", "--table", f"{deck} {deck}", "--hand", "JK JK JK JK JK JK")
    one_line_error(r, "the game's deck holds 108")


def test_a_table_that_cannot_be_arranged():
    one_line_error(run("--table", "8S 8H 8D 4C", "--hand", "6H"), "cannot all be arranged")


def test_set_and_rules_options_load_the_profile(tmp_path):
    one_line_error(run("--set", "deck.jokers=0", "--hand", "JK 7H 8H"), "the game has no jokers")
    house = tmp_path / "house.yaml"
    house.write_text("extends: voleur\ndeck:\n  jokers: 0\n")
    one_line_error(run("--rules", str(house), "--hand", "JK 7H 8H"), "the game has no jokers")


def test_the_state_limit_answers_not_proven_with_a_valid_table():
    table = "AS 2S 3S 4S 5S 6S 7S 8S 9S 10S 7H 7D 7C 3H 4H 5H 6H QD QC QH KD KC KH"
    hand = "8H 9H 2S JS QS KS 7S 4D 5D 6D JK"
    r = run("--table", table, "--hand", hand, "--max-states", "5")
    assert r.exit_code == 0, r.output
    assert r.output.splitlines()[:2] == [
        "0 hand card(s) laid: -",
        "not proven: the search reached its state limit; this is the best lay it found",
    ]
    full = json.loads(run("--table", table, "--hand", hand, "--json").output)
    assert full["proven"] and full["max_cards_laid"] == 11


def test_batch_bad_lines_get_an_error_line_and_the_batch_goes_on(tmp_path):
    f = tmp_path / "b.jsonl"
    f.write_text(
        "not json\n"
        + json.dumps({"id": "jokers", "hand": ["JK"] * 16 + ["7H"]})
        + "\n"
        + json.dumps({"id": "card", "hand": ["ZZ"]})
        + "\n"
        + json.dumps({"id": "ok", "table": ["9D", "10D", "JD", "QD"], "hand": ["QS", "QH", "2H"]})
        + "\n"
    )
    r = run("--batch", str(f))
    lines = [json.loads(x) for x in r.output.splitlines()]
    assert [x["id"] for x in lines] == [1, "jokers", "card", "ok"]
    assert all(set(x) == {"id", "error"} for x in lines[:3])
    assert lines[3]["max_cards_laid"] == 2
    assert r.exit_code == 1


def test_bad_card_is_a_usage_error():
    r = run("--hand", "ZZ")
    assert r.exit_code == 2 and "not a card" in r.output


def test_a_batch_that_is_not_a_regular_file_is_refused_without_reading(tmp_path):
    # /dev/zero never ends and a FIFO with no writer never answers: both are refused at once.
    import os

    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    for path in ("/dev/zero", str(fifo), str(tmp_path)):
        r = run("--batch", path)
        assert r.exit_code == 1, (path, r.output)
        assert "not a regular file" in r.output or "folder" in r.output, r.output


def test_batch_lines_read_numbers_within_bounds(tmp_path):
    f = tmp_path / "b.jsonl"
    f.write_text('{"id": 1, "table": [], "hand": [' + "9" * 5000 + "]}\n")
    r = run("--batch", str(f))
    assert r.exit_code == 1
    line = json.loads(r.output.splitlines()[0])
    assert line["id"] == 1 and "digits" in line["error"] and len(line["error"]) < 300


def test_a_closed_output_pipe_is_not_an_internal_error(tmp_path):
    import subprocess
    import sys

    f = tmp_path / "b.jsonl"
    f.write_text('{"id": 1, "table": ["3C", "4C", "5C"], "hand": ["6C"]}\n' * 2000)
    p = subprocess.Popen(
        [sys.executable, "-m", "rami_core.cli", "solve", "--variant", "voleur", "--batch", str(f)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert p.stdout is not None and p.stderr is not None
    p.stdout.readline()
    p.stdout.close()  # as `| head -1` does
    err = p.stderr.read().decode()
    assert p.wait(timeout=60) == 0, err
    assert "internal error" not in err


def test_the_shown_state_limit_is_the_solvers():
    from rami_core.cli.solve import SHOWN_MAX_STATES
    from rami_core.solver import DEFAULT_MAX_STATES

    assert int(SHOWN_MAX_STATES.replace(",", "")) == DEFAULT_MAX_STATES
    r = CliRunner().invoke(main, ["solve", "--help"])
    assert SHOWN_MAX_STATES in r.output


def test_the_command_line_loads_the_solver_only_to_solve():
    """`rami --help` and the other commands do not pay for the solver and
    scipy (half a second); `rami solve` loads them where it solves."""
    import subprocess
    import sys

    code = (
        "import sys, rami_core.cli; assert 'scipy' not in sys.modules, 'scipy'; "
        "assert 'rami_core.solver' not in sys.modules, 'solver'"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
