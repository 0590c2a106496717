"""The learning environments follow PettingZoo's and Gymnasium's conventions:
classic observations, fresh deals on reset(), render rules, state(), infos,
the clock's timeout, the compact action space, the checkers.

Needs the `rl` extra."""

from __future__ import annotations

import itertools
import random

import pytest

np = pytest.importorskip("numpy", reason="the [rl] extra is not installed (pip install -e '.[rl]')")
pytest.importorskip("pettingzoo", reason="the [rl] extra is not installed (pip install -e '.[rl]')")

from rami_core import rl  # noqa: E402
from rami_core.files.resources import preset_names  # noqa: E402
from rami_core.game.state import OVER  # noqa: E402
from rami_core.rl.layout import TIMEOUT  # noqa: E402


def _hands(env):
    return [list(h) for h in env.game.state.hands]


def _random_steps(env, n: int, rng: random.Random) -> None:
    for _ in range(n):
        obs, _, term, trunc, _ = env.last()
        if term or trunc:
            return
        env.step(int(rng.choice(list(np.flatnonzero(obs["action_mask"])))))


def test_reset_without_a_seed_deals_anew_and_a_seed_replays():
    env = rl.env("rami51", seed=5)
    env.reset(seed=5)
    first = _hands(env)
    env.reset()
    second = _hands(env)
    env.reset()
    third = _hands(env)
    assert first != second and second != third and first != third
    env.reset(seed=5)
    assert _hands(env) == first
    env.reset()
    assert _hands(env) == second  # the stream starts again from the seed
    # the constructor's seed is the first deal of the stream
    env2 = rl.env("rami51", seed=5)
    env2.reset()
    assert _hands(env2) == first


def test_unseeded_environments_deal_differently_and_seeded_ones_alike():
    """Gymnasium's convention: no seed, fresh randomness from the OS; a seed, the same deals."""
    import gymnasium as gym

    unseeded = [rl.env("rami51"), rl.env("rami51")]
    for e in unseeded:
        e.reset()
    assert _hands(unseeded[0]) != _hands(unseeded[1])
    seeded = [rl.env("rami51", seed=9), rl.env("rami51", seed=9)]
    for e in seeded:
        e.reset()
    assert _hands(seeded[0]) == _hands(seeded[1])
    # a vector of unseeded environments: each its own deal
    vec = gym.vector.SyncVectorEnv([lambda: rl.single_agent_env("classic")] * 2)
    obs, _ = vec.reset()
    assert not np.array_equal(obs["observation"][0], obs["observation"][1])
    obs, _ = vec.reset(seed=4)  # seeds 4 and 5: reproducible
    again = gym.vector.SyncVectorEnv([lambda: rl.single_agent_env("classic")] * 2)
    np.testing.assert_array_equal(again.reset(seed=4)[0]["observation"], obs["observation"])


def test_gymnasium_reset_without_a_seed_deals_anew():
    env = rl.single_agent_env("classic", seed=2)
    env.reset(seed=2)
    a = _hands(env.aec)
    env.reset()
    b = _hands(env.aec)
    env.reset(seed=2)
    assert a != b and _hands(env.aec) == a


def test_classic_observation_and_its_layout():
    env = rl.env("rami51", players=3, seed=1)
    env.reset()
    _random_steps(env, 20, random.Random(1))
    agent = env.agent_selection
    obs = env.observe(agent)
    assert set(obs) == {"observation", "action_mask"}
    assert env.observation_space(agent).contains(obs)
    layout = rl.observation_layout("rami51", players=3)
    assert layout.size == obs["observation"].shape[0]
    fields = layout.unpack(obs["observation"])
    direct = env.fields(agent)
    for name, value in direct.items():
        assert np.array_equal(
            fields[name], np.clip(value, layout.fields[name].low, layout.fields[name].high)
        ), name
    assert fields["hand"].sum() == len(env.game.state.hands[env.game.state.turn])
    scaled = rl.env("rami51", players=3, seed=1, scaled=True)
    scaled.reset()
    sobs = scaled.observe(scaled.agent_selection)
    assert sobs["observation"].dtype == np.float32
    assert scaled.observation_space(scaled.agent_selection).contains(sobs)
    assert float(sobs["observation"].max()) <= 1.0


def test_step_before_reset_is_a_clear_error():
    env = rl.env("classic")
    with pytest.raises(Exception, match="reset"):
        env.step(0)
    gym_env = rl.single_agent_env("classic")
    with pytest.raises(RuntimeError, match="reset"):
        gym_env.step(0)


def test_render_rules(capsys):
    env = rl.env("classic", seed=3, render_mode="ansi")
    env.reset()
    text = env.render()
    assert isinstance(text, str)
    from rami_core.cards import format_card

    hand = env.game.state.hands[env.game.state.turn]
    assert all(format_card(c) in text for c in hand), "the ansi text shows the seat's hand"
    human = rl.env("classic", seed=3, render_mode="human")
    human.reset()
    capsys.readouterr()
    assert human.render() is None
    assert "hand of seat_" in capsys.readouterr().out
    gym_env = rl.single_agent_env("classic", render_mode="ansi")
    assert gym_env.render_mode == "ansi"
    gym_env.reset(seed=1)
    assert isinstance(gym_env.render(), str)


def test_state_is_every_observation_and_the_stock():
    env = rl.env("rami51", seed=4)
    env.reset()
    _random_steps(env, 10, random.Random(2))
    state = env.state()
    assert env.state_space.contains(state)
    n = env.observation_layout.size
    for i, agent in enumerate(env.possible_agents):
        assert np.array_equal(state[i * n : (i + 1) * n], env.observe(agent)["observation"])
    assert state[2 * n :].sum() == len(env.game.state.stock)


def test_info_on_termination_and_truncation():
    env = rl.env("rami51", seed=6, max_turns=3)
    env.reset()
    _random_steps(env, 400, random.Random(3))
    agent = env.agent_selection
    assert env.truncations[agent]
    info = env.infos[agent]
    assert info["round_end"] == "truncated" and info["winner"] is None
    assert len(info["penalties"]) == 2 and all(p > 0 for p in info["penalties"])
    # a round played out: its outcome in every seat's info
    env = rl.env("classic", seed=3, actions="compact", max_turns=None)
    env.reset()
    rng = random.Random(0)
    for _ in range(5000):
        obs, _, term, trunc, info = env.last()
        if term or trunc:
            break
        legal = list(np.flatnonzero(obs["action_mask"]))
        melds = [a for a in legal if a < 5 or a >= env.compact.group]  # lay when one can: rounds end sooner
        env.step(int(rng.choice(melds if melds and rng.random() < 0.9 else legal)))
    assert env.game.state.phase == OVER
    assert all(env.infos[a]["winner"] == env.game.state.winner for a in env.possible_agents)
    assert env.infos[agent]["round_end"] == env.game.state.round_end


def test_the_timeout_is_never_the_agents_and_the_clock_plays_it():
    env = rl.env("rami51", seed=7, turn_substeps=1)
    env.reset()
    rng = random.Random(4)
    turns = []
    for _ in range(30):
        obs, _, term, trunc, _ = env.last()
        if term or trunc:
            break
        assert not obs["action_mask"][TIMEOUT]
        turns.append(env.game.state.turn)
        env.step(int(rng.choice(list(np.flatnonzero(obs["action_mask"])))))
    # no seat played more than one sub-step in a row: the clock ended its turn after the draw
    run = longest = 1
    for a, b in itertools.pairwise(turns):
        run = run + 1 if a == b else 1
        longest = max(longest, run)
    assert longest == 1
    assert any(type(a).__name__ == "Timeout" for a in env.game.log)


@pytest.mark.parametrize("variant", ["rami51", "classic", "voleur"])
def test_compact_actions_play_what_the_engine_accepts(variant):
    """Every legal compact index plays an engine action the engine accepts (or
    grows a lay a witness holds); random compact play never meets a refusal."""
    env = rl.env(variant, seed=8, actions="compact")
    env.reset()
    raw = env.unwrapped
    rng = random.Random(5)
    steps = 0
    for _ in range(120):
        obs, _, term, trunc, _ = env.last()
        if term or trunc:
            env.reset()
            continue
        mask, plans = raw.compact.plans(raw.oracle, raw.draft)
        full = raw.oracle.mask(raw.draft) if raw.draft.empty else None
        assert set(np.flatnonzero(mask)) == set(plans)
        for i, plan in plans.items():
            if plan.full >= 0 and full is not None:
                assert full[plan.full], raw.describe(i)
        env.step(int(rng.choice(list(np.flatnonzero(obs["action_mask"])))))
        steps += 1
    assert steps > 50
    sizes = {"rami51": 187, "classic": 187, "voleur": 240}
    assert raw.action_size == sizes[variant]


def test_compact_groups_make_an_opening():
    """Groups from the ranked list, then the commit: an opening laid."""
    env = rl.env("rami51", seed=1, actions="compact")
    env.reset()
    raw = env.unwrapped
    rng = random.Random(6)
    for _ in range(3000):
        obs, _, term, trunc, _ = env.last()
        if term or trunc:
            env.reset()
            continue
        legal = list(np.flatnonzero(obs["action_mask"]))
        if 3 in legal:  # commit the lay
            seat = raw.game.state.turn
            env.step(3)
            assert raw.game.state.opened[seat]
            return
        groups = [a for a in legal if raw.compact.group <= a < raw.compact.group + raw.compact.groups]
        env.step(int(groups[0] if groups else rng.choice(legal)))
    pytest.fail("no opening laid in 3000 compact sub-steps")


def test_an_unmasked_action_ends_the_episode_by_default_or_raises_if_asked():
    """PettingZoo's classic `env()`: TerminateIllegalWrapper by default."""
    env = rl.env("classic", seed=1)
    env.reset()
    obs, *_ = env.last()
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    mover = env.agent_selection
    env.step(illegal)  # PettingZoo logs "Illegal move made"
    assert all(env.terminations.values())
    assert env._cumulative_rewards[mover] == -1
    assert all(env._cumulative_rewards[a] == 0 for a in env.possible_agents if a != mover)
    older = rl.env("classic", seed=1, terminate_illegal=True, illegal_reward=-5)
    older.reset()
    older.step(illegal)
    assert older._cumulative_rewards[mover] == -5
    for plain in (
        rl.env("classic", seed=1, illegal="raise"),
        rl.env("classic", seed=1, terminate_illegal=False),
    ):
        plain.reset()
        with pytest.raises(ValueError, match="not legal"):
            plain.step(illegal)
    with pytest.raises(ValueError, match="illegal must be"):
        rl.env("classic", illegal="ignore")
    gym_env = rl.single_agent_env("classic", seed=1)
    gym_env.reset(seed=1)
    bad = int(np.flatnonzero(~gym_env.action_masks())[0])
    _, reward, term, _, info = gym_env.step(bad)
    assert term and reward == -1.0 and info["illegal_action"] == bad
    raising = rl.single_agent_env("classic", seed=1, illegal="raise")
    raising.reset(seed=1)
    with pytest.raises(ValueError, match="not legal"):
        raising.step(bad)


@pytest.mark.parametrize("variant", preset_names())
def test_gymnasium_check_env_passes_on_the_default_single_agent_env(variant):
    from gymnasium.utils.env_checker import check_env

    check_env(rl.single_agent_env(variant), skip_render_check=True)


def test_checkers_pass_on_classic():
    from rami_core.rl import checks

    names = ["api_test", "api_test_compact", "seed_test", "render_test", "gymnasium_check_env"]
    import io

    out = io.StringIO()
    assert checks.run(["classic"], names, out=out) == 0, out.getvalue()
    assert "ok   classic render_test" in out.getvalue()


def test_checkers_over_processes_report_in_order():
    """`--jobs`: one task per check of a profile, their reports in the order of one process."""
    import io
    import re

    from rami_core.rl import checks

    out = io.StringIO()
    failed = checks.run_parallel(
        ["classic", "rami51"], ["render_test", "gymnasium_check_env"], False, 2, out=out
    )
    assert failed == 0, out.getvalue()
    lines = [re.sub(r" \([0-9.]+ s\)", "", line) for line in out.getvalue().splitlines()]
    assert lines == [
        "ok   classic render_test",
        "ok   classic gymnasium_check_env",
        "ok   rami51 render_test",
        "ok   rami51 gymnasium_check_env",
    ]


def _first_legal(observation, mask) -> int:
    return int(np.flatnonzero(mask)[0])


def _last_legal(observation, mask) -> int:
    return int(np.flatnonzero(mask)[-1])


def test_opponents_may_be_policies_playing_sub_steps():
    """A policy `(observation, mask) -> action` at a seat plays as an agent of the
    AEC environment would: the same game as both seats stepped by hand."""
    env = rl.single_agent_env("classic", seed=3, opponents=_last_legal, max_turns=60)
    obs, _ = env.reset(seed=3)
    done = False
    while not done:
        obs, _, term, trunc, _ = env.step(_first_legal(obs["observation"], obs["action_mask"]))
        done = term or trunc
    aec = rl.raw_env("classic", max_turns=60)
    aec.reset(seed=3)
    policies = {"seat_0": _first_legal, "seat_1": _last_legal}
    for agent in aec.agent_iter():
        o, _, t, u, _ = aec.last()
        aec.step(None if t or u else policies[agent](o["observation"], o["action_mask"]))
    assert env.aec.game.log == aec.game.log


def test_opponents_mix_bots_and_policies_and_a_bad_policy_is_named():
    seen = []

    def policy(observation, mask):
        seen.append((observation.shape, mask.shape))
        return _first_legal(observation, mask)

    env = rl.single_agent_env("rami51", players=3, seed=1, opponents=["greedy", policy], max_turns=30)
    obs, _ = env.reset()
    for _ in range(200):
        obs, _, term, trunc, _ = env.step(_first_legal(None, obs["action_mask"]))
        if term or trunc:
            break
    assert seen and seen[0] == (
        env.observation_space["observation"].shape,
        env.action_space.shape or (env.action_space.n,),
    )
    assert env.aec.external_seats == frozenset({1})
    bad = rl.single_agent_env(
        "classic", seed=1, seat=1, opponents=lambda o, m: int(np.flatnonzero(m == 0)[0])
    )
    with pytest.raises(ValueError, match="policy of seat 0"):
        obs, _ = bad.reset()
        for _ in range(50):  # until seat 0 plays
            obs, *_ = bad.step(_first_legal(None, obs["action_mask"]))
    with pytest.raises(TypeError, match="a bot's name, a saved model's path"):
        rl.single_agent_env("classic", opponents=[3])
