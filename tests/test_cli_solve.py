"""`rami solve`: one position, a batch, and bad input."""

from __future__ import annotations

import json

from click.testing import CliRunner

from rami_core.cli import main


def run(*args: str, input: str | None = None):
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
    assert all(set(x) == {"id", "max_cards_laid", "laid", "melds", "seconds"} for x in lines)
    assert all(x["seconds"] >= 0 for x in lines)


def test_profile_rules_apply():
    # Classic plays the ace low only: Q-K-A is no run there.
    r = run("--variant", "classic", "--hand", "QS KS AS", "--json")
    assert json.loads(r.output)["max_cards_laid"] == 0
    r = run("--variant", "rami51", "--hand", "QS KS AS", "--json")
    assert json.loads(r.output)["max_cards_laid"] == 3


def test_bad_card_is_a_usage_error():
    r = run("--hand", "ZZ")
    assert r.exit_code == 2 and "not a card" in r.output
