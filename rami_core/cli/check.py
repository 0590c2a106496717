"""`rami check PATH ...`: run conformance scenarios and say which fail and why."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import click
from rich.console import Console
from rich.markup import escape

from rami_core.scenario import Result, run_file, scenario_files
from rami_core.userfiles import visible


@click.command("check")
@click.argument("paths", nargs=-1, required=True, type=click.Path(exists=True, path_type=Path))
@click.option(
    "--json", "as_json", is_flag=True, help="Print one JSON document on stdout; the summary goes to stderr."
)
@click.option("-q", "--quiet", is_flag=True, help="Print only failures and the summary.")
def check(paths: tuple[Path, ...], as_json: bool, quiet: bool) -> None:
    """Run the scenarios in PATHS (files, or folders searched for *.yaml)."""
    results: list[Result] = []
    for f in scenario_files(paths):
        results.extend(run_file(f))
    passed = sum(r.passed for r in results)
    failed = len(results) - passed
    summary = f"{passed} passed, {failed} failed"
    if as_json:
        json.dump([r.to_dict() for r in results], sys.stdout, indent=2, default=str)
        sys.stdout.write("\n")
        print(summary, file=sys.stderr)
    else:
        out = Console(highlight=False, soft_wrap=True, emoji=False)
        for r in results:
            if r.passed:
                if not quiet:
                    out.print(f"[green]PASS[/] {escape(visible(r.name))}  [dim]{escape(visible(r.file))}[/]")
                continue
            where = f"step {r.step}" if r.step is not None else "setup"
            out.print(f"[red]FAIL[/] {escape(visible(r.name))}  [dim]{escape(visible(r.file))}[/]")
            out.print(f"     {where}: {escape(visible(r.message))}")
            if r.expected is not None or r.actual is not None:
                out.print(f"     expected: {escape(json.dumps(r.expected, default=str))}")
                out.print(f"     actual:   {escape(json.dumps(r.actual, default=str))}")
        # The last line is the contract: plain, uncoloured.
        sys.stdout.flush()
        print(summary)
    sys.exit(0 if failed == 0 and results else 1)
