"""`rami schema`: the profile JSON Schema, plugin settings included."""

from __future__ import annotations

import json
from typing import Any

import click

from rami_core.cli.common import plugin_classes, plugin_doc


@click.command()
@click.option("--protocol", is_flag=True, help="Print the table server's message schemas instead.")
@click.option("--puzzle", is_flag=True, help="Print the schema of one puzzle line instead (docs/puzzles.md).")
def schema(protocol: bool, puzzle: bool) -> None:
    """Print the profile JSON Schema (for editor completion of house-rule files),
    each bundled or installed plugin's settings included under `plugins`."""
    from rami_core.profile.model import Profile

    if puzzle:
        from rami_core.puzzles.format import schema as puzzle_schema

        click.echo(json.dumps(puzzle_schema(), indent=2, ensure_ascii=False))
        return
    if protocol:
        from rami_core.server.protocol import schemas

        click.echo(json.dumps(schemas(), indent=2, ensure_ascii=False))
        return

    data = Profile.model_json_schema()
    add_plugin_schemas(data)
    click.echo(json.dumps(data, indent=2, ensure_ascii=False))


def add_plugin_schemas(data: dict[str, Any]) -> None:
    """Put each plugin's settings schema under `$defs` (as `plugin_<name>`) and
    name the plugins under the profile's `plugins` property."""
    from rami_core.profile.hooks import settings_model

    defs = data.setdefault("$defs", {})
    props: dict[str, Any] = {}
    for name, _, cls in plugin_classes():
        if isinstance(cls, Exception):
            continue
        key = f"plugin_{name}"
        sub = settings_model(cls).model_json_schema(ref_template=f"#/$defs/{key}_{{model}}")
        for inner, schema_ in sub.pop("$defs", {}).items():
            defs[f"{key}_{inner}"] = schema_
        doc = plugin_doc(cls)
        sub["title"] = name
        if doc:
            sub.setdefault("description", doc[0])
        defs[key] = sub
        props[name] = {
            "anyOf": [{"$ref": f"#/$defs/{key}"}, {"type": "boolean"}, {"type": "null"}],
            "description": sub.get("description", ""),
        }
    plugins = data.setdefault("properties", {}).setdefault("plugins", {"type": "object"})
    plugins["properties"] = props
    plugins["additionalProperties"] = False
