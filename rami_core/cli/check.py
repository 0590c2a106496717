"""`rami check PATH ...`: run conformance scenarios and say which fail and why."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import click
from rich.console import Console
from rich.markup import escape

import rami_core.cli.types as types
from rami_core.cli.common import lang_option
from rami_core.conformance.scenario import Result, run_file, scenario_files
from rami_core.files.userfiles import visible

# The frame around a failure, per language (the messages come from rami_core.words.problems).
FRAME = {
    "en": {"step": "step {n}: ", "setup": "setup: ", "expected": "expected: ", "actual": "actual:   "},
    "fr": {"step": "étape {n} : ", "setup": "setup : ", "expected": "attendu : ", "actual": "obtenu :  "},
}


@click.command("check")
@click.argument("paths", nargs=-1, required=True, type=types.Path(exists=True, path_type=Path))
@click.option(
    "--json", "as_json", is_flag=True, help="Print one JSON document on stdout; the summary goes to stderr."
)
@click.option("-q", "--quiet", is_flag=True, help="Print only failures and the summary.")
@lang_option
def check(paths: tuple[Path, ...], as_json: bool, quiet: bool, lang: str) -> None:
    """Run the scenarios in PATHS (files, or folders searched for *.yaml).

    A failure is located by file and line; its message is in the language
    of --lang (the summary line stays the same in every language)."""
    frame = FRAME[lang]
    results: list[Result] = []
    for f in scenario_files(paths):
        results.extend(run_file(f))
    passed = sum(r.passed for r in results)
    failed = len(results) - passed
    summary = f"{passed} passed, {failed} failed"
    if as_json:
        json.dump([r.to_dict(lang) for r in results], sys.stdout, indent=2, default=str)
        sys.stdout.write("\n")
        print(summary, file=sys.stderr)
    else:
        out = Console(highlight=False, soft_wrap=True, emoji=False)
        for r in results:
            if r.passed:
                if not quiet:
                    out.print(f"[green]PASS[/] {escape(visible(r.name))}  [dim]{escape(visible(r.file))}[/]")
                continue
            where = frame["step"].format(n=r.step) if r.step is not None else frame["setup"]
            at = f"{r.file}:{r.line}" if r.line is not None else r.file
            out.print(f"[red]FAIL[/] {escape(visible(r.name))}  [dim]{escape(visible(at))}[/]")
            out.print(f"     {where}{escape(visible(r.words(lang)))}")
            if r.expected is not None or r.actual is not None:
                out.print(f"     {frame['expected']}{escape(json.dumps(r.expected, default=str))}")
                out.print(f"     {frame['actual']}{escape(json.dumps(r.actual, default=str))}")
        # The last line is the contract: plain, uncoloured.
        sys.stdout.flush()
        print(summary)
    sys.exit(0 if failed == 0 and results else 1)
