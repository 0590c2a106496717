"""`rami plugins`: the bundled and installed house-rule plugins and their settings."""

from __future__ import annotations

import json
import sys

import click

from rami_core.cli.common import cli_words, lang_option, plugin_classes, plugin_doc


@click.command("plugins")
@lang_option(help="Language of the listing's own words (a plugin's description is its author's).")
def plugins_command(lang: str) -> None:
    """List the bundled and installed house-rule plugins with their settings."""
    from rami_core.profile.hooks import settings_model

    failed = False
    for name, where, cls in plugin_classes():
        if isinstance(cls, Exception):
            error = f"{type(cls).__name__}: {cls}"  # the package's own words
            click.echo(f"{name}  [{where}]  {cli_words('plugin_failed_load', error=error)}")
            failed = True
            continue
        doc = plugin_doc(cls)
        click.echo(f"{name}  [{where}]  {doc[0] if doc else ''}".rstrip())
        fields = settings_model(cls).model_fields
        if not fields:
            click.echo(f"    {cli_words('plugin_no_settings')}")
        for field_name, field in fields.items():
            default = json.dumps(field.default if not field.is_required() else None, default=str)
            required = f" {cli_words('plugin_required')}" if field.is_required() else f" = {default}"
            click.echo(f"    {field_name}{required}  {field.description or ''}".rstrip())
    if failed:
        sys.exit(1)
