"""What the lobby offers a new table: the presets and bundled house files by
name, or a pasted YAML text read by the same loader as a file on disk."""

from __future__ import annotations

import functools
import tempfile
from pathlib import Path
from typing import Any

from rami_core.files.resources import house_dir, preset_names
from rami_core.profile.model import Profile
from rami_core.server.protocol import MAX_VARIANT_NAME, CreateTable, plain_description, plain_text
from rami_core.words.errors import Problem, ProfileError
from rami_core.words.problems import Said, said
from rami_core.words.refusals import LANGS


def house_names() -> list[str]:
    folder = house_dir()
    return sorted(p.stem for p in folder.glob("*.yaml")) if folder.is_dir() else []


@functools.cache
def described(name: str) -> dict[str, str]:
    """A preset's or bundled house file's line in each language, for the
    lobby's menu: read once (the bundled files do not change under a
    running server); a file that does not load says nothing."""
    from rami_core.profile.loader import load_profile

    try:
        p = load_profile(name if name in preset_names() else house_dir() / f"{name}.yaml")
    except ProfileError:
        return {}
    return {lang: plain_text(p.description_in(lang), 400) for lang in LANGS}


def profile_from_request(req: CreateTable) -> tuple[str, Profile]:
    """The profile a table is created with (see _read_profile), its `name`,
    `description` and `source` made plain text: they are shown to everyone."""
    return profile_and_warnings(req)[0]


def profile_and_warnings(req: CreateTable) -> tuple[tuple[str, Profile], list[Problem]]:
    """`profile_from_request`, and the profile's warnings (hands that hardly
    ever go out), located in the pasted text as its errors are: the
    creation answer carries them, the lobby shows them."""
    variant, profile, warnings = _read_profile(req)
    clean: dict[str, Any] = {
        "name": plain_text(profile.name, MAX_VARIANT_NAME) or "custom",
        "description": plain_description(profile.description, 400),
        "source": plain_text(profile.source, 400),
    }
    if req.rules is not None:
        variant = str(clean["name"])
    return (variant, profile.model_copy(update=clean)), warnings


def _read_profile(req: CreateTable) -> tuple[str, Profile, list[Problem]]:
    """The profile a table is created with: a preset or bundled house file by
    name (never a path), or a pasted YAML text read by the same loader, its
    errors located in the text (`rules:LINE: key: message`)."""
    from rami_core.profile.loader import check_profile

    if req.variant is not None:
        name = req.variant.strip()
        if name in preset_names():
            return name, *check_profile(name)
        if name in house_names():
            return name, *check_profile(house_dir() / f"{name}.yaml")
        known = ", ".join(preset_names() + house_names())
        raise ProfileError(
            Problem("variant", None, None, "", Said("unknown_variant", name=repr(name), known=known))
        )
    assert req.rules is not None
    with tempfile.TemporaryDirectory(prefix="rami-rules-") as tmp:
        path = Path(tmp) / "rules.yaml"
        path.write_text(req.rules, encoding="utf-8")
        try:
            profile, warnings = check_profile(path)
        except ProfileError as e:
            # The file was ours, not the user's: name it after the request's key.
            raise ProfileError(_unrooted(e.problems, str(Path(tmp).resolve()))) from None
        warnings = _unrooted(warnings, str(Path(tmp).resolve()))
    return profile.name, profile, warnings


def _unrooted(problems: list[Problem], root: str) -> list[Problem]:
    """Problems of the temporary file, named after the request's key (in the
    location and in any path the problem's parameters name)."""

    def unrooted(value: object) -> object:
        return value.replace(root + "/", "") if isinstance(value, str) else value

    return [
        Problem(
            "rules" if root in p.file or p.file.endswith("rules.yaml") else p.file,
            p.line,
            p.column,
            p.key_path,
            said(p.message).with_params(unrooted),
            p.suggestion,
        )
        for p in problems
    ]
