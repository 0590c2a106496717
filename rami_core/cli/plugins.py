"""`rami plugins`: the bundled and installed house-rule plugins and their settings."""

from __future__ import annotations

import json
import sys

import click

from rami_core.cli.common import plugin_classes, plugin_doc


@click.command("plugins")
def plugins_command() -> None:
    """List the bundled and installed house-rule plugins with their settings."""
    from rami_core.hooks import settings_model

    failed = False
    for name, where, cls in plugin_classes():
        if isinstance(cls, Exception):
            click.echo(f"{name}  [{where}]  failed to load: {type(cls).__name__}: {cls}")
            failed = True
            continue
        doc = plugin_doc(cls)
        click.echo(f"{name}  [{where}]  {doc[0] if doc else ''}".rstrip())
        fields = settings_model(cls).model_fields
        if not fields:
            click.echo("    (no settings)")
        for field_name, field in fields.items():
            default = json.dumps(field.default if not field.is_required() else None, default=str)
            required = " (required)" if field.is_required() else f" = {default}"
            click.echo(f"    {field_name}{required}  {field.description or ''}".rstrip())
    if failed:
        sys.exit(1)
