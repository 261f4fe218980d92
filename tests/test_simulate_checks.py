"""The card-conservation check of simulation, by mode: after every action (``every``), after
every action of one hand in 16 and at the end of every hand (``sampled``, the default), at the
end of every hand (``end``), never (``none``); a fault that outlives an action is caught by
every mode but ``none``."""

from __future__ import annotations

from typing import Any

import pytest
from click.testing import CliRunner

from bolivia.cli import cli
from bolivia.play.batch.seeds import derive_seed
from bolivia.play.batch.simulate import CHECK_SAMPLE, checks_every_action, play_hand
from bolivia.play.bots.simple import GreedyBot
from bolivia.play.table.hand import Hand
from bolivia.rules.library import shipped_library

SAMBA = shipped_library().load("samba")


def _count_checks(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    calls = [0]
    real = Hand.conserved

    def counted(self: Hand) -> bool:
        calls[0] += 1
        return real(self)

    monkeypatch.setattr(Hand, "conserved", counted)
    return calls


def _seed(every: bool) -> int:
    """A hand seed that the sample takes (``every``) or leaves."""
    return next(
        s for s in (derive_seed(7, i) for i in range(1000)) if (s % CHECK_SAMPLE == 0) == every
    )


@pytest.mark.pure_only
@pytest.mark.parametrize(
    ("mode", "sampled", "expected"),
    [
        ("every", False, "each action"),
        ("sampled", True, "each action"),
        ("sampled", False, "deal and end"),
        ("end", True, "deal and end"),
        ("none", True, "never"),
    ],
)
def test_each_mode_checks_where_it_says(
    monkeypatch: pytest.MonkeyPatch, mode: str, sampled: bool, expected: str
) -> None:
    calls = _count_checks(monkeypatch)
    stats, _ = play_hand(SAMBA, 4, _seed(sampled), [GreedyBot()] * 4, check=mode)
    assert stats.completed and stats.conserved
    want = {"each action": stats.actions + 1, "deal and end": 2, "never": 0}[expected]
    assert calls[0] == want


def test_the_sample_is_one_hand_in_sixteen_by_seed() -> None:
    seeds = [derive_seed(1, i) for i in range(4000)]
    taken = sum(checks_every_action("sampled", s) for s in seeds)
    assert 4000 / CHECK_SAMPLE * 0.8 < taken < 4000 / CHECK_SAMPLE * 1.2
    assert all(checks_every_action("every", s) for s in seeds[:50])
    assert not any(checks_every_action("end", s) for s in seeds[:50])
    with pytest.raises(ValueError, match="check is one of"):
        checks_every_action("sometimes", 1)


@pytest.mark.pure_only
@pytest.mark.parametrize(("mode", "caught"), [("every", True), ("end", True), ("none", False)])
def test_a_lost_card_is_caught_by_every_mode_that_checks(
    monkeypatch: pytest.MonkeyPatch, mode: str, caught: bool
) -> None:
    """A fault in the engine: the tenth action also drops a card from the stock."""
    real = Hand.apply
    done = [0]

    def faulty(self: Hand, action: Any) -> None:
        real(self, action)
        done[0] += 1
        if done[0] == 10 and self.stock:
            self.stock.pop(0)

    monkeypatch.setattr(Hand, "apply", faulty)
    stats, _ = play_hand(SAMBA, 4, _seed(False), [GreedyBot()] * 4, check=mode)
    assert stats.conserved is not caught


@pytest.mark.parametrize("args", [["--check", "every"], ["--check", "end"], ["--no-check"]])
def test_the_command_takes_the_modes(args: list[str]) -> None:
    done = CliRunner().invoke(cli, ["simulate", "samba", "--hands", "3", "--json", *args])
    assert done.exit_code == 0, done.output
    assert '"conservation_failures": 0' in done.output


def test_an_unknown_mode_is_a_usage_error() -> None:
    done = CliRunner().invoke(cli, ["simulate", "samba", "--check", "often"])
    assert done.exit_code == 2
    assert "often" in done.output


def test_the_old_spelling_still_works_says_so_and_is_not_in_the_help() -> None:
    """``--no-check`` is ``--check none`` (one spelling for each choice): kept one release,
    with a note on standard error, and no longer shown by --help."""
    done = CliRunner().invoke(cli, ["simulate", "samba", "--hands", "2", "--json", "--no-check"])
    assert done.exit_code == 0, done.output
    assert "note: --no-check is now --check none" in done.stderr
    assert '"check": "none"' in done.stdout
    shown = CliRunner().invoke(cli, ["simulate", "--help"]).output
    assert "--no-check" not in shown and "--check" in shown
