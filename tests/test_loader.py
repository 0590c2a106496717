"""The profile loader: YAML with locations, extends chains, --set, located errors.

Golden files: each ``tests/golden/<case>.txt`` is the exact message that
loading ``tests/golden/<case>.yaml`` must raise (run from that folder, so paths
are relative). Files under ``tests/golden/parts/`` are only reached by extends.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml
from hypothesis import given
from hypothesis import strategies as st

import rami_core.files.resources as resources
import rami_core.profile.loader as loader
from rami_core.profile.loader import (
    MAX_FILE_BYTES,
    load_profile,
    load_yaml_file,
    load_yaml_text,
    resolve_profile_data,
)
from rami_core.profile.model import EmptyStock, Profile
from rami_core.words.errors import ERROR_CODES, InternalError, Problem, ProfileError, RuleError

GOLDEN = Path(__file__).parent / "golden"
CASES = sorted(p.stem for p in GOLDEN.glob("*.txt"))
PRESETS = ["voleur", "rami51", "rami71", "simple", "kaluki", "classic"]


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


@pytest.fixture
def tmp_presets(tmp_path, monkeypatch):
    """A presets folder in tmp_path holding only ``_tmp_test.yaml``."""
    folder = tmp_path / "presets"
    write(folder / "_tmp_test.yaml", "name: tmp_test\ndescription: a test preset\nopening:\n  points: 30\n")
    monkeypatch.setattr(resources, "variants_dir", lambda: folder)
    return folder


# --------------------------------------------------------------------------- golden files


def test_golden_cases_are_paired():
    assert CASES, "no golden cases found"
    for yaml_file in GOLDEN.glob("*.yaml"):
        assert yaml_file.with_suffix(".txt").exists(), f"{yaml_file.name} has no expected .txt"


@pytest.mark.parametrize("case", CASES)
def test_golden(case, monkeypatch):
    monkeypatch.chdir(GOLDEN)
    expected = (GOLDEN / f"{case}.txt").read_text(encoding="utf-8").rstrip("\n")
    with pytest.raises(ProfileError) as info:
        load_profile(f"{case}.yaml")
    assert str(info.value) == expected


def test_golden_unknown_key_names_file_line_and_suggestion(monkeypatch):
    monkeypatch.chdir(GOLDEN)
    with pytest.raises(ProfileError) as info:
        load_profile("unknown_key.yaml")
    (problem,) = info.value.problems
    assert (problem.file, problem.line, problem.key_path, problem.suggestion) == (
        "unknown_key.yaml",
        2,
        "openning",
        "opening",
    )


def test_python_tag_executes_nothing(monkeypatch):
    marker = Path("/tmp/pwned_x")
    marker.unlink(missing_ok=True)
    monkeypatch.chdir(GOLDEN)
    with pytest.raises(
        ProfileError, match=re.escape("unsupported YAML tag '!!python/object/apply:os.system'")
    ):
        load_profile("python_tag.yaml")
    assert not marker.exists()


@pytest.mark.parametrize(
    "text",
    [
        "a: !!python/object/apply:os.system ['touch /tmp/pwned_x']\n",
        "a: !!python/object/new:os.system ['touch /tmp/pwned_x']\n",
        "a: !!python/name:os.system\n",
        "!!python/object/apply:os.system ['touch /tmp/pwned_x']\n",
        "a: !!binary aGVsbG8=\n",
        "a: !!set {x, y}\n",
    ],
)
def test_other_tags_refused(text):
    Path("/tmp/pwned_x").unlink(missing_ok=True)
    with pytest.raises(ProfileError, match="unsupported YAML tag"):
        load_yaml_text(text, "t.yaml")
    assert not Path("/tmp/pwned_x").exists()


def test_huge_file(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    write(tmp_path / "huge.yaml", "# " + "x" * MAX_FILE_BYTES + "\nname: big\n")
    with pytest.raises(ProfileError) as info:
        load_profile("huge.yaml")
    assert str(info.value) == "huge.yaml: larger than 1048576 bytes (1 MiB): refused"


def test_recursive_alias_is_bounded():
    with pytest.raises(ProfileError, match="nesting deeper than 50 levels"):
        load_yaml_text("a: &x [*x]\n", "t.yaml")


def test_nesting_at_the_limit_is_fine():
    doc = load_yaml_text("a: " + "[" * 49 + "]" * 49 + "\n", "t.yaml")
    assert isinstance(doc.data["a"], list)


def test_merge_keys_refused():
    with pytest.raises(ProfileError, match=r"merge keys \(<<\)"):
        load_yaml_text("base: &b {x: 1}\nopening:\n  <<: *b\n", "t.yaml")


def test_multiple_documents_refused():
    with pytest.raises(ProfileError, match="invalid YAML"):
        load_yaml_text("a: 1\n---\nb: 2\n", "t.yaml")


# --------------------------------------------------------------------------- YAML locations


def test_locations_of_keys_and_items(tmp_path):
    path = write(
        tmp_path / "p.yaml",
        "# comment\nname: x\nopening:\n  points: 51\n  pure_run: true\nplugins:\n  demo:\n    cards: [1, 2]\n",
    )
    doc = load_yaml_file(path, label="p.yaml")
    assert doc.data["opening"] == {"points": 51, "pure_run": True}
    assert doc.locations[("name",)].line == 2
    assert doc.locations[("opening", "points")].line == 4
    assert doc.locations[("opening", "pure_run")].line == 5
    assert doc.locations[("opening", "pure_run")].column == 3
    assert doc.locations[("plugins", "demo", "cards", 1)].line == 8


def test_yaml_scalars_are_plain_data():
    doc = load_yaml_text("a: 1\nb: 1.5\nc: yes\nd: null\ne: '7'\nf: 2026-01-01\n2: 10\n", "t.yaml")
    assert doc.data == {"a": 1, "b": 1.5, "c": True, "d": None, "e": "7", "f": "2026-01-01", 2: 10}


def test_empty_file_is_an_empty_profile(tmp_path):
    path = write(tmp_path / "empty.yaml", "# nothing\n")
    assert load_profile(path) == Profile()


@given(st.text(max_size=200))
def test_any_text_gives_data_or_a_profile_error(text):
    try:
        load_yaml_text(text, "fuzz.yaml")
    except ProfileError as exc:
        assert exc.problems and all(p.file == "fuzz.yaml" for p in exc.problems)


# --------------------------------------------------------------------------- extends and merging


def test_extends_chain_and_deep_merge(tmp_path, monkeypatch):
    write(
        tmp_path / "base.yaml",
        "name: base\nopening:\n  points: 51\n  pure_run: true\nplugins:\n  demo:\n    keep: 1\n    cards: [1, 2, 3]\n",
    )
    write(tmp_path / "sub" / "mid.yaml", "extends: ../base.yaml\nname: mid\nopening:\n  points: 71\n")
    write(tmp_path / "top.yaml", "extends: sub/mid.yaml\nplugins:\n  demo:\n    cards: [9]\n")
    monkeypatch.chdir(tmp_path.parent)  # relative extends are relative to the file, not the cwd
    data = resolve_profile_data(tmp_path / "top.yaml")
    assert data == {
        "name": "mid",
        "opening": {"points": 71, "pure_run": True},
        "plugins": {"demo": {"keep": 1, "cards": [9]}},
    }
    # `demo` is no real plugin: the merged data is right, and loading names the unknown plugin.
    with pytest.raises(ProfileError) as err:
        load_profile(tmp_path / "top.yaml")
    assert err.value.problems[0].key_path == "plugins.demo" and err.value.problems[0].line == 3


def test_scalar_replaces_mapping_and_locations_follow(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    write(tmp_path / "base.yaml", "opening:\n  points: 51\n")
    write(tmp_path / "child.yaml", "extends: base.yaml\n\n\nopening: 3\n")
    with pytest.raises(ProfileError) as info:
        load_profile("child.yaml")
    (problem,) = info.value.problems
    assert (problem.file, problem.line, problem.key_path) == ("child.yaml", 4, "opening")


def test_error_in_parent_names_the_parent(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    write(tmp_path / "base.yaml", "name: base\ndraw:\n  empty_stock: turnover\n")
    write(tmp_path / "child.yaml", "extends: base.yaml\nname: child\n")
    with pytest.raises(ProfileError) as info:
        load_profile("child.yaml")
    assert str(info.value).startswith("base.yaml:3: draw.empty_stock: 'turnover' is not one of")
    assert info.value.problems[0].suggestion == "turn_over"


def test_child_fixes_parent(tmp_path):
    write(tmp_path / "base.yaml", "draw:\n  empty_stock: turnover\n")
    write(tmp_path / "child.yaml", "extends: base.yaml\ndraw:\n  empty_stock: turn_over\n")
    assert load_profile(tmp_path / "child.yaml").draw.empty_stock is EmptyStock.turn_over


def test_self_extends_is_a_cycle(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    write(tmp_path / "a.yaml", "extends: a.yaml\n")
    with pytest.raises(ProfileError) as info:
        load_profile("a.yaml")
    assert str(info.value) == "a.yaml:1: extends: cycle: a.yaml -> a.yaml"


def test_three_file_cycle_names_the_chain(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    write(tmp_path / "a.yaml", "extends: b.yaml\n")
    write(tmp_path / "b.yaml", "extends: c.yaml\n")
    write(tmp_path / "c.yaml", "name: c\nextends: ./a.yaml\n")
    with pytest.raises(ProfileError) as info:
        load_profile("a.yaml")
    assert str(info.value) == "c.yaml:2: extends: cycle: a.yaml -> b.yaml -> c.yaml -> a.yaml"


def test_extends_may_not_climb_above_the_first_file(tmp_path, monkeypatch):
    # sub/top.yaml may read sub/ and below, and the presets: not its parent folder
    write(tmp_path / "base.yaml", "name: base\n")
    write(tmp_path / "sub" / "top.yaml", "extends: ../base.yaml\n")
    monkeypatch.chdir(tmp_path)
    with pytest.raises(ProfileError, match=r"^sub/top\.yaml:1: extends: '\.\./base\.yaml' is outside"):
        load_profile("sub/top.yaml")


def test_extends_must_be_a_string(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    write(tmp_path / "a.yaml", "name: a\nextends: [rami51]\n")
    with pytest.raises(ProfileError, match=r"^a\.yaml:2: extends: must be a preset name"):
        load_profile("a.yaml")


def test_extends_through_a_symlink_outside_is_refused(tmp_path, monkeypatch):
    outside = write(tmp_path / "outside" / "secret.yaml", "name: secret\n")
    inside = tmp_path / "inside"
    inside.mkdir()
    (inside / "link.yaml").symlink_to(outside)
    write(inside / "a.yaml", "extends: link.yaml\n")
    monkeypatch.chdir(inside)
    with pytest.raises(ProfileError, match="outside the folders"):
        load_profile("a.yaml")


def test_temporary_preset(tmp_presets, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert resources.preset_names() == []  # names starting with _ are not listed
    assert load_profile("_tmp_test").opening.points == 30
    write(tmp_path / "house.yaml", "extends: _tmp_test\nopening:\n  pure_run: true\n")
    profile = load_profile("house.yaml")
    assert (profile.name, profile.opening.points, profile.opening.pure_run) == ("tmp_test", 30, True)


def test_unknown_preset_name(tmp_presets):
    write(tmp_presets / "rami51.yaml", "name: rami51\n")
    with pytest.raises(ProfileError) as info:
        load_profile("rami5")
    assert info.value.problems[0].message == "unknown preset 'rami5'"
    assert info.value.problems[0].suggestion == "rami51"


def test_missing_file(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    with pytest.raises(ProfileError) as info:
        load_profile("nope.yaml")
    assert str(info.value) == "nope.yaml: no such file"


def test_base_dir(tmp_path, monkeypatch):
    write(tmp_path / "scen" / "p.yaml", "opening:\n  points: 12\n")
    monkeypatch.chdir("/")
    assert load_profile("p.yaml", base_dir=tmp_path / "scen").opening.points == 12


def test_rules_mapping_merged_like_a_child(tmp_path):
    path = write(tmp_path / "p.yaml", "opening:\n  points: 12\n  pure_run: true\n")
    profile = load_profile(path, rules={"opening": {"points": 30}})
    assert (profile.opening.points, profile.opening.pure_run) == (30, True)
    with pytest.raises(ProfileError) as info:
        load_profile(path, rules={"opening": {"pointz": 30}}, rules_label="scenario.yaml rules")
    assert str(info.value) == "scenario.yaml rules: opening.pointz: unknown key (did you mean 'points'?)"


# --------------------------------------------------------------------------- --set


def test_set_overrides(tmp_path):
    path = write(tmp_path / "p.yaml", "opening:\n  points: 51\n")
    profile = load_profile(
        path,
        [
            "opening.points=71",
            "opening.pure_run=true",
            "jokers.max_per_meld=null",
            "deal.hand_size_by_players.2=10",
            "plugins={no_playable_discard: {last_card_exempt: false}}",
            "name=my table",
        ],
    )
    assert profile.opening.points == 71 and profile.opening.pure_run is True
    assert profile.jokers.max_per_meld is None
    assert profile.deal.hand_size_by_players == {2: 10}
    assert profile.plugins == {"no_playable_discard": {"last_card_exempt": False}}
    assert profile.name == "my table"


def test_set_later_wins(tmp_path):
    path = write(tmp_path / "p.yaml", "")
    assert load_profile(path, ["game.target=200", "game.target=300"]).game.target == 300


@pytest.mark.parametrize(
    "override, expected",
    [
        ("opening.pints=71", "--set opening.pints=71: opening.pints: unknown key (did you mean 'points'?)"),
        (
            "draw.empty_stock=reshufle",
            "--set draw.empty_stock=reshufle: draw.empty_stock: 'reshufle' is not one of: "
            "reshuffle, turn_over, end_all_pay, end_nobody_pays, replay (did you mean 'reshuffle'?)",
        ),
        ("opening.points", "--set opening.points: expected key.path=value, e.g. opening.points=71"),
        ("opening..points=3", "--set opening..points=3: expected key.path=value, e.g. opening.points=71"),
        ("extends=rami51", "--set extends=rami51: extends: cannot be set from the command line"),
        (
            "name=!!python/name:os.system",
            "--set name=!!python/name:os.system: name: unsupported YAML tag '!!python/name:os.system'",
        ),
    ],
)
def test_set_errors(tmp_path, override, expected):
    path = write(tmp_path / "p.yaml", "")
    with pytest.raises(ProfileError) as info:
        load_profile(path, [override])
    assert str(info.value) == expected


@given(st.integers(min_value=0, max_value=500))
def test_set_opening_points_property(points):
    """An opening some lay can reach is taken as set; one beyond every lay is
    refused, located at the --set (rami_core.profile.going_out)."""
    from rami_core.profile.going_out import best_card, reaches

    path = Path(__file__).parent / "golden" / "parts" / "valid.yaml"
    base = load_profile(path)
    most = min(r.lay for r in reaches(base)) * best_card(base)
    if points <= most or base.opening.go_out_below_points:
        assert load_profile(path, [f"opening.points={points}"]).opening.points == points
    else:
        with pytest.raises(ProfileError) as info:
            load_profile(path, [f"opening.points={points}"])
        [problem] = info.value.problems
        assert problem.code == "opening_out_of_reach" and problem.file == f"--set opening.points={points}"


# --------------------------------------------------------------------------- merging property


_keys = st.sampled_from(["a", "b", "c", "d"])
_leaf = st.one_of(st.integers(), st.text(max_size=3), st.lists(st.integers(), max_size=3), st.none())
_tree = st.recursive(_leaf, lambda inner: st.dictionaries(_keys, inner, max_size=4), max_leaves=12)


@given(st.dictionaries(_keys, _tree, max_size=4), st.dictionaries(_keys, _tree, max_size=4))
def test_deep_merge_property(base, over):
    merged = loader.deep_merge(base, over)
    assert set(merged) == set(base) | set(over)
    for key, value in over.items():
        if isinstance(value, dict) and isinstance(base.get(key), dict):
            assert merged[key] == loader.deep_merge(base[key], value)
        else:
            assert merged[key] == value
    for key in set(base) - set(over):
        assert merged[key] == base[key]
    assert loader.deep_merge(base, {}) == base


# --------------------------------------------------------------------------- presets (written by another hand)


@pytest.mark.parametrize("name", PRESETS)
def test_preset_loads_and_round_trips(name, tmp_path):
    profile = load_profile(name)
    dumped = yaml.safe_dump(profile.model_dump(mode="json"), sort_keys=False)
    path = write(tmp_path / f"{name}.yaml", dumped)
    assert load_profile(path) == profile


def test_house_rule_extends_a_preset():
    path = resources.house_dir() / "voleur_table.yaml"
    assert path.is_file()
    text = path.read_text(encoding="utf-8")
    assert "extends: voleur" in text
    assert isinstance(load_profile(path), Profile)


def test_house_file_extending_rami51(tmp_path):
    path = write(tmp_path / "house.yaml", "extends: rami51\nname: ours\nopening:\n  points: 71\n")
    ours, base = load_profile(path), load_profile("rami51")
    assert ours.opening.points == 71
    assert ours.opening.model_copy(update={"points": base.opening.points}) == base.opening
    assert ours.deck == base.deck


# --------------------------------------------------------------------------- errors module


def test_problem_format():
    assert Problem("f.yaml", 2, 1, "openning", "unknown key", "opening").format() == (
        "f.yaml:2: openning: unknown key (did you mean 'opening'?)"
    )
    assert Problem("f.yaml", None, None, "", "no such file").format() == "f.yaml: no such file"
    error = ProfileError([Problem("a", 1, 1, "x", "m"), Problem("a", 3, 1, "y", "n")])
    assert str(error) == "a:1: x: m\na:3: y: n"


def test_rule_error_codes():
    assert ERROR_CODES[0] == "not_your_turn" and ERROR_CODES[-1] == "must_keep_discard"
    assert len(ERROR_CODES) == len(set(ERROR_CODES)) == 16
    error = RuleError("not_opened", "open first")
    assert (error.code, error.message) == ("not_opened", "open first")
    assert RuleError("myplugin.too_early").code == "myplugin.too_early"
    with pytest.raises(InternalError):
        RuleError("no_such_code")


def test_union_field_gives_one_error(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    write(tmp_path / "p.yaml", "name: p\nplugins:\n  demo: 5\n")
    with pytest.raises(ProfileError) as info:
        load_profile("p.yaml")
    (problem,) = info.value.problems
    assert (problem.file, problem.line, problem.key_path) == ("p.yaml", 3, "plugins.demo")
    assert problem.message.startswith("input should be a valid dictionary or ")


def _read_a_long_generated_file(limit: int) -> int:
    """A file of more than `limit` values of its own and 49 aliases (PyYAML's
    dumper anchors repeated objects), read whole: its length in characters."""
    import yaml as pyyaml

    from rami_core.profile.loader.safe_yaml import load_yaml_documents

    step = {"draw": "stock", "player": 0}
    steps = [{"n": i, "cards": ["7H", "8H", "9H"]} for i in range(limit // 5)] + [step] * 50
    text = pyyaml.safe_dump({"steps": steps}, default_flow_style=False)
    assert text.count("*id") == 49
    doc = load_yaml_documents(text, "long.yaml")[0]
    assert len(doc.data["steps"]) == limit // 5 + 50
    assert doc.data["steps"][-1] == step
    return len(text)


def test_a_file_with_more_own_values_than_the_alias_budget_is_read(monkeypatch):
    """The alias guard counts what aliases add, not the file's own values:
    with the budget made small, a file of more values than it is read whole
    (the full-size file of the real budget is the slow test below)."""
    from rami_core.profile.loader import safe_yaml

    monkeypatch.setattr(safe_yaml, "MAX_VALUES", 2_000)
    assert _read_a_long_generated_file(2_000) > 12_000


@pytest.mark.slow
def test_a_large_file_with_a_few_anchors_is_read():
    """The same at the real budget: a long generated file of more than
    100,000 values (more than 600,000 characters) is read whole."""
    from rami_core.profile.loader.safe_yaml import MAX_VALUES

    assert _read_a_long_generated_file(MAX_VALUES) > 600_000


def test_a_profile_of_too_many_values_is_refused(tmp_path):
    from rami_core.profile.loader.safe_yaml import MAX_PROFILE_VALUES

    path = tmp_path / "house.yaml"
    path.write_text("extends: rami51\nx:\n" + "".join(f"  k{i}: 1\n" for i in range(MAX_PROFILE_VALUES + 1)))
    with pytest.raises(ProfileError, match=f"more than {MAX_PROFILE_VALUES} values"):
        load_profile(path)
