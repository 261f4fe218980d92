"""The report's play section: columns compared on the same deals, the family corrected and
named, no claim its intervals do not support, games to the target, and a house ruleset
against its base (with the warning when no bot reacts to the changed rule)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings

from bolivia.compare.findings import Comparison, build
from bolivia.compare.paired import paired_figures
from bolivia.compare.play_text import figure_text
from bolivia.compare.playing import PlayJob, Runs, run_jobs
from bolivia.compare.report import render_markdown
from bolivia.rules.library import Library, LibrarySpec, shipped_library
from tests.strategies import played_deals

LIBRARY = shipped_library()
BOTS = ("expert", "greedy")  # the play's mechanics, not the search's strength, are tested here


def _section(markdown: str) -> str:
    return markdown.split("## 5. Play", 1)[1].split("## 6.", 1)[0]


@settings(max_examples=20, deadline=None)
@given(played_deals())
def test_identical_columns_never_come_out_different(deals: list) -> None:  # type: ignore[type-arg]
    runs = Runs(BOTS)
    for column in ("a", "b"):
        for bot in BOTS:
            runs.deals[(bot, column)] = list(deals)
    paired = paired_figures(runs, ["a", "b"])
    assert paired and not any(p.shown for p in paired)
    said = ("the same on all", "none of the deals ended under both")  # the second: none ended
    assert all(p.same and any(s in figure_text(p) for s in said) for p in paired)


def test_rulesets_with_identical_rules_play_identically() -> None:
    jobs = [
        PlayJob(rid, LibrarySpec(), 4, bot, 9, index)
        for rid in ("bolivia-ko", "bolivia-zh")
        for bot in BOTS
        for index in range(2)
    ]
    runs = Runs(BOTS)
    for job, result in zip(jobs, run_jobs(jobs, 1), strict=True):
        runs.add(job, result, job.ruleset)
    assert not any(p.shown for p in paired_figures(runs, ["bolivia-ko", "bolivia-zh"]))


def _house(tmp_path: Path, text: str, **options: Any) -> Comparison:
    (tmp_path / "ours.yaml").write_text(text)
    library = Library([tmp_path])
    house = library.load("ours")
    assert house.base is not None
    chosen = {"hands": 6, "games": 2, "seed": 2, "bots": BOTS, **options}
    return build([house.base, house], where=LibrarySpec((str(tmp_path),)), **chosen)


def test_a_house_rule_no_bot_reacts_to_is_named_in_a_warning(tmp_path: Path) -> None:
    comparison = _house(
        tmp_path,
        "id: ours\nextends: bolivia-zh\ngame: {target: 10000}\n"
        "provenance:\n  extends: {house: ours}\n  game.target: {house: shorter evenings}\n",
    )
    assert all(h.identical_play and h.identical_scores for h in comparison.play.house)
    section = _section(render_markdown(comparison, {}))
    assert "**Warning.** Play is identical on every deal under every bot" in section
    assert "no bot reacts to" in section and "target" in section.split("no bot reacts to")[1]
    assert "0 of 6 deals end with another winner" in section


def test_a_house_rule_that_changes_play_gets_no_warning(tmp_path: Path) -> None:
    comparison = _house(
        tmp_path,
        "id: ours\nextends: bolivia-da\nmelds: {group: {max_wild: 1}}\n"
        "provenance:\n  extends: {house: ours}\n  melds.group.max_wild: {house: fewer wilds}\n",
    )
    assert not all(h.identical_play for h in comparison.play.house)
    section = _section(render_markdown(comparison, {}))
    assert "**Warning.**" not in section and "deals end with another winner" in section


def test_precision_chooses_the_deals_within_its_bounds_and_says_when_one_is_hit(
    tmp_path: Path,
) -> None:
    comparison = _house(
        tmp_path,
        "id: ours\nextends: bolivia-da\nmelds: {group: {max_wild: 1}}\n"
        "provenance:\n  extends: {house: ours}\n  melds.group.max_wild: {house: fewer wilds}\n",
        games=0,
        precision=1.0,
        bounds=(3, 5),
    )
    sizing = comparison.play.sizing
    assert sizing.deals == 5 and sizing.bound_hit and sizing.wanted > 5
    assert all(p.hands == 5 for p in comparison.play.stats)
    section = _section(render_markdown(comparison, {}))
    assert "between 3 and 5 deals; the upper bound was hit" in section


def test_the_command_line_defaults_are_the_comparison_defaults() -> None:
    from bolivia.cli import compare_command
    from bolivia.compare.findings import DEFAULT_DEALS, DEFAULT_GAMES, PRECISION_BOUNDS

    defaults = {p.name: p.default for p in compare_command.params}
    assert (defaults["hands"], defaults["games"]) == (DEFAULT_DEALS, DEFAULT_GAMES)
    precision = next(p for p in compare_command.params if p.name == "precision")
    assert f"between {PRECISION_BOUNDS[0]:,} and {PRECISION_BOUNDS[1]:,} deals" in (
        precision.help or ""
    )


def test_play_told_to_stop_raises_at_its_next_result() -> None:
    import threading

    from bolivia.compare.playing import Stopped

    stop = threading.Event()
    job = PlayJob("bolivia-da", LibrarySpec(), 4, "greedy", 1, 0)
    results = run_jobs([job, job], 1, stop=stop)
    assert next(results).completed
    stop.set()
    with pytest.raises(Stopped):
        next(results)


def test_a_failure_beside_the_play_stops_the_play(monkeypatch: pytest.MonkeyPatch) -> None:
    """With workers, the deals are played while witnesses are found; when finding them fails,
    the error comes out and no more deals are played."""
    import bolivia.compare.findings as findings

    def broken(*args: object) -> None:
        raise RuntimeError("no witnesses today")

    monkeypatch.setattr(findings, "find_witnesses", broken)
    library = shipped_library()
    rulesets = [library.load("bolivia-da"), library.load("bolivia-fr")]
    played: list[int] = []
    with pytest.raises(RuntimeError, match="no witnesses today"):
        build(rulesets, hands=400, games=10, bots=BOTS, workers=2, progress=played.append)
    assert len(played) < 2 * (2 * 400 + 10)


def test_a_house_rule_in_the_rules_table_says_its_reason_or_that_none_was_given(
    tmp_path: Path,
) -> None:
    from types import SimpleNamespace

    from bolivia.compare.context import _status_words
    from bolivia.compare.findings import RuleRow

    (tmp_path / "bare.yaml").write_text("id: bare\nextends: bolivia-da\ngoing_out: {bonus: 100}\n")
    library = Library([tmp_path])  # the shipped rulesets, the house examples among them
    noted, bare = library.load("bolivia-da-100"), library.load("bare")
    row = RuleRow(
        "going_out.bonus",
        "going out",
        {"bolivia-da-100": "100", "bare": "100"},
        {"bolivia-da-100": "house", "bare": "house"},
        {"bolivia-da-100": [], "bare": []},
        False,
    )
    comparison: Any = SimpleNamespace(
        rulesets=[noted, bare], ids=["bolivia-da-100", "bare"], sources=library.sources
    )
    said = _status_words(comparison, row, "bolivia-da-100")
    assert said.startswith("a house rule: our table pays 100 for going out"), said
    assert _status_words(comparison, row, "bare") == "a house rule, no reason given"
