"""Engine profiles: ``bolivia profile`` finds the rule values an engine plays by.

Generated house rulesets (one to eight fields changed, every rule area; ``tests/houses.py``),
served by the built-in oracle under the base's id, are recovered field for field with no
false field (the benchmark ``benchmarks/profile_recovery.py`` runs two dozen); an engine that
answers only some ops, one with a behaviour no field describes, and the cap on questions are
profiled as they should be; and through the command line, the profile written is a ruleset
that validates, and ``bolivia conform --ruleset PROFILE.yaml`` passes against the engine.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from bolivia.profiles.battery import Battery
from bolivia.profiles.profile import Profile, ProfileError, _battery, profile_engine, profile_id
from bolivia.profiles.report import describe_change, profile_json, profile_text, profile_yaml
from bolivia.rules.library import Library, shipped_library
from bolivia.rules.ruleset import Ruleset
from bolivia.rules.variants import same_value, with_values
from bolivia.verify.conformance import (
    EngineFailure,
    InProcessEngine,
    Suite,
    load_suite,
    shipped_suites,
)
from bolivia.verify.oracle import Oracle
from tests.drawn import drawn_houses, judged
from tests.houses import houses
from tests.test_hardening_output import bolivia

ROOT = Path(__file__).resolve().parent.parent
LIBRARY = shipped_library()
SUITES = [load_suite(path) for path in shipped_suites()]
DA = LIBRARY.load("bolivia-da")
# the deviations of the Go engine the issue names that are rule values
GO_LIKE = {
    "players.seats": {
        str(n): {"teams": t, "hand_size": 15, "draw": 1}
        for n, t in ((2, 2), (3, 3), (4, 2), (5, 5), (6, 3))
    },
    "initial_meld.bands": [b for b in DA.value("initial_meld.bands") if b["minimum"] != 150],
    "red_threes.all_value": 800,
    "going_out.bonus": 100,
    "scoring.black_three_in_hand": 5,
    "melds.group.max_wild": 3,
}


@pytest.fixture(scope="module")
def battery() -> Battery:
    return _battery(DA, SUITES)


def serving(ruleset: Ruleset, as_id: str = "bolivia-da") -> InProcessEngine:
    oracle = Oracle(LIBRARY)
    oracle.register(with_values(ruleset, {}, as_id))
    return InProcessEngine(oracle)


def profiled(engine: Any, **options: Any) -> Profile:
    return profile_engine(
        engine, LIBRARY, SUITES, name="test engine", as_id="bolivia-da", **options
    )


class _Stops(InProcessEngine):
    """An engine that answers ``answers`` requests, then dies on every one (issue 41)."""

    def __init__(self, engine: InProcessEngine, answers: int) -> None:
        self.__dict__.update(engine.__dict__)
        self.left = answers

    def ask(self, request: dict[str, Any]) -> dict[str, Any]:
        self.left -= 1
        if self.left < 0:
            raise EngineFailure("exit", "the engine exited (status 1) instead of answering")
        return super().ask(request)


def test_an_engine_that_stops_answering_is_not_said_to_implement_anything_exactly() -> None:
    profile = profiled(_Stops(serving(DA), 40))
    assert profile.answered == 40 and profile.stopped.startswith("gave up on the engine")
    headline = profile_text(profile)[0]
    assert "stopped answering after 40 answers (gave up on the engine" in headline
    assert "on the 40 answers it gave" not in headline and "exactly" not in headline
    assert "differs from bolivia-da in no rule value those answers show" in headline
    assert profile_json(profile, None)["stopped"] == profile.stopped


# the first, second, fourth and eighth of the benchmark's: 1, 2, 4 and 8 fields changed (one
# item each, a minute or more of work apiece, so that the workers share them); the eighth,
# two minutes of CPU alone, under the thorough profile only (CI's time)
@pytest.mark.parametrize(
    "number", [0, 1, 3, *([7] if os.environ.get("HYPOTHESIS_PROFILE") == "thorough" else [])]
)
def test_generated_house_rulesets_are_recovered_field_for_field(
    battery: Battery, number: int
) -> None:
    house = list(houses(battery, number + 1))[number]
    profile = profiled(serving(house.ruleset))
    found = {c.path: c.value for c in profile.changes}
    # a field found in place of the house's is one the answers do not tell from it: the
    # profile says so (a special canasta for every natural canasta paying 5,000 is a
    # natural canasta's bonus of 5,000), and names the house's among its equivalents
    missed, instead = set(house.changes) - set(found), set(found) - set(house.changes)
    said = {p for c in profile.changes if c.path in instead for p, _ in c.equivalents}
    assert len(missed) == len(instead) and missed <= said, (house.changes, found)
    assert not profile.behaviours
    for path, value in found.items():
        if path in house.changes:
            assert same_value(value, house.changes[path]) or path.startswith("melds.sequence")


@pytest.mark.parametrize(("base_id", "picked"), [("bolivia-fr", (1, 3)), ("samba", (3,))])
def test_house_rulesets_drawn_from_each_fields_range_are_recovered_with_their_values(
    base_id: str, picked: tuple[int, ...]
) -> None:
    # drawn independently of the search's candidates (tests/drawn.py): a bolivia canasta's
    # bonus of 3,510, all red threes 1,980, going out 560, a target for six players only
    battery = _battery(LIBRARY.load(base_id), SUITES)
    houses_drawn = list(drawn_houses(battery, max(picked)))
    for n in picked:
        house = houses_drawn[n - 1]
        profile = profile_engine(
            serving(house.ruleset, base_id), LIBRARY, SUITES, name="house", as_id=base_id
        )
        counts = judged(battery, house, profile)
        # recovered, or named beside an equivalent no answer tells from it (a target for four
        # players in bolivia-fr, whose only seating is four, is its target)
        assert counts["recovered"] + counts["equivalent"] == len(house.changes), (
            house.changes,
            profile.changes,
        )
        assert not counts["false"] and not profile.behaviours


def test_the_issue_example_reads_as_the_issue_says() -> None:
    profile = profiled(serving(with_values(DA, GO_LIKE, "go")))
    assert {c.path for c in profile.changes} == set(GO_LIKE)
    text = profile_text(profile)[0]
    for words in (
        "implements bolivia-da except: ",
        "players.seats draw 1 (not 2)",
        "initial_meld.bands has no 150 band",
        "red_threes.all_value 800 (not 1000)",
        "going_out.bonus 100 (not 200)",
        "melds.group.max_wild 3 (not 2)",
    ):
        assert words in text
    data = profile_json(profile)
    assert data["counts"]["asked"] == profile.asked >= len(profile_json(profile)["changes"])
    assert data["profile"] == "test-engine-profile" and data["seconds"] >= 0


def test_an_engine_that_implements_the_base_exactly() -> None:
    profile = profiled(serving(DA))
    assert not profile.changes and not profile.behaviours and not profile.undetermined
    assert profile.answered > 1000  # the suites, the witnesses and the survey
    assert (
        f"implements bolivia-da exactly, on the {profile.answered} answers"
        in profile_text(profile)[0]
    )


class Dead(InProcessEngine):
    """An engine that dies on every question."""

    def exchange(self, request: dict[str, Any], budget: float | None = None) -> Any:
        raise EngineFailure("exit", "the engine exited (status 3) instead of answering")


def test_an_engine_that_answers_nothing_is_said_so() -> None:
    profile = profiled(Dead())
    assert profile.answered == 0 and profile.asked == 3  # given up on after three in a row
    lines = profile_text(profile)
    assert "answered no question" in lines[0]
    assert any("gave up on the engine" in line for line in lines)
    assert any("3 unanswered: the engine exited" in line for line in lines)


class Partial(InProcessEngine):
    """An engine that has not written some ops: it answers them ``unsupported``."""

    def __init__(self, ruleset: Ruleset, missing: set[str]) -> None:
        super().__init__(serving(ruleset).oracle)
        self.missing = missing

    def ask(self, request: dict[str, Any]) -> dict[str, Any]:
        if request.get("op") in self.missing:
            error = {"code": "unsupported", "message": "not written yet"}
            return {"id": request.get("id"), "ok": False, "error": error}
        return super().ask(request)


def test_a_partial_engine_is_profiled_on_what_it_answers() -> None:
    changes = {"going_out.bonus": 100, "melds.group.max_wild": 3, "pack.decks": 2}
    engine = Partial(with_values(DA, changes, "p"), {"score", "act", "moves", "card_points"})
    profile = profiled(engine)
    assert {c.path for c in profile.changes} == {"melds.group.max_wild", "pack.decks"}
    # the bonuses are shown by score only
    assert "going_out.bonus" in profile.undetermined
    assert "canastas.natural.bonus" in profile.undetermined
    assert "melds.group.max_wild" not in profile.undetermined
    assert not profile.behaviours
    assert "could not be determined" in "\n".join(profile_text(profile))
    # the runner counts an unsupported answer as a skip, with the engine's message as reason
    assert any("unsupported" in line and "not written yet" in line for line in profile.unanswered)


class Odd(InProcessEngine):
    """An engine with a rule of its own: a group of three eights is never legal."""

    def ask(self, request: dict[str, Any]) -> dict[str, Any]:
        answer = super().ask(request)
        cards = request.get("cards")
        eights = isinstance(cards, list) and all(str(c).startswith("8") for c in cards)
        if request.get("op") == "meld" and eights and len(cards) == 3 and answer["ok"]:
            answer["result"].update(legal=False, kind=None, canasta=None)
        return answer


def test_behaviours_no_field_explains_are_listed_with_their_cases() -> None:
    engine = Odd(serving(with_values(DA, {"going_out.bonus": 100}, "o")).oracle)
    profile = profiled(engine)
    assert [c.path for c in profile.changes] == ["going_out.bonus"]
    assert len(profile.behaviours) == 1
    (behaviour,) = profile.behaviours
    assert behaviour.about.startswith("meld: different value for legal")
    text = profile_yaml(profile)
    assert "# Behaviours no rule field describes:" in text
    assert "and 1 behaviour no rule field describes" in profile_text(profile)[0]


def test_the_cap_on_questions_is_said(battery: Battery) -> None:
    profile = profiled(serving(DA), max_questions=50)
    assert profile.asked == 50 and profile.not_asked > 0
    assert "the cap of 50 questions was reached" in "\n".join(profile_text(profile))
    assert profile.undetermined  # what the questions not asked would have shown


def test_engines_that_cannot_be_profiled_as_asked() -> None:
    engine = serving(DA)
    with pytest.raises(ProfileError, match="does not answer for nosuch"):
        profile_engine(engine, LIBRARY, SUITES, name="x", as_id="nosuch")
    engine.rulesets = {"their-own"}
    with pytest.raises(ProfileError, match="claims none of the rulesets"):
        profile_engine(engine, LIBRARY, SUITES, name="x")


def test_the_closest_claimed_ruleset_is_the_base() -> None:
    oracle = Oracle(LIBRARY)
    oracle.register(with_values(LIBRARY.load("samba"), {}, "bolivia-da"))  # samba, as da
    engine = InProcessEngine(oracle)
    engine.rulesets = {"bolivia-da", "samba"}
    profile = profile_engine(engine, LIBRARY, SUITES, name="x")
    assert profile.asked_as == "samba" and not profile.changes
    assert profile.screened["samba"][0] == 0 < profile.screened["bolivia-da"][0]


def test_the_base_is_the_claimed_ruleset_of_fewest_changes_and_a_tie_is_said() -> None:
    # going out pays 150: one change from bolivia-da (200) and one from bolivia-da-100 (100)
    house = with_values(DA, {"going_out.bonus": 150}, "house")
    oracle = Oracle(LIBRARY)
    for rid in ("bolivia-da", "bolivia-da-100"):
        oracle.register(with_values(house, {}, rid))
    engine = InProcessEngine(oracle)
    engine.rulesets = {"bolivia-da", "bolivia-da-100"}
    profile = profile_engine(engine, LIBRARY, SUITES, name="x")
    assert [(c.path, c.value) for c in profile.changes] == [("going_out.bonus", 150)]
    assert profile.screened == {"bolivia-da": (1, 0), "bolivia-da-100": (1, 0)}
    assert set(profile.ties) | {profile.asked_as} == {"bolivia-da", "bolivia-da-100"}
    assert "a tie: as many changes" in "\n".join(profile_text(profile))


@pytest.mark.parametrize(
    ("path", "old", "new", "text"),
    [
        ("going_out.bonus", 200, 100, "going_out.bonus 100 (not 200)"),
        ("melds.group.max_wild", 2, None, "melds.group.max_wild none (not 2)"),
        (
            "pile.blocked_by_top",
            ["wild"],
            ["wild", "red_three"],
            "pile.blocked_by_top with red_three",
        ),
        (
            "players.seats",
            {"2": {"draw": 2}, "4": {"draw": 2}},
            {"2": {"draw": 2}},
            "players.seats has no 4",
        ),
        (
            "scoring.card_points",
            {"JK": 50, "2": 20},
            {"JK": 50, "2": 10},
            "scoring.card_points.2 10 (not 20)",
        ),
    ],
)
def test_changes_in_words(path: str, old: Any, new: Any, text: str) -> None:
    assert describe_change(path, old, new) == text


def test_profile_ids() -> None:
    assert profile_id("Go Bolivia 1.2 (beta)") == "go-bolivia-1.2-beta-profile"
    assert profile_id("\x1b[31m") == "31m-profile"
    assert profile_id("") == "engine-profile"


def _bolivia(*args: str) -> subprocess.CompletedProcess[str]:
    return bolivia(*args, cwd=ROOT)


def test_through_the_command_line_the_profile_is_a_ruleset_conform_passes(
    tmp_path: Path,
) -> None:
    house = tmp_path / "house" / "go-like.yaml"
    house.parent.mkdir()
    with_values(DA, GO_LIKE, "go-like")  # valid
    from bolivia.authoring.house import nest_paths

    document = {"id": "go-like", "extends": "bolivia-da", **nest_paths(GO_LIKE)}
    document["provenance"] = {"extends": {"house": "a test engine"}} | {
        path: {"house": "a test engine"} for path in GO_LIKE
    }
    house.write_text(json.dumps(document), encoding="utf-8")
    engine = f"{sys.executable} {ROOT / 'tests' / 'serve_as.py'} {house}"
    out = tmp_path / "profile.yaml"
    done = _bolivia("profile", "--engine", engine, "--out", str(out), "--json")
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    assert {c["field"] for c in data["changes"]} == set(GO_LIKE)
    assert data["asked_as"] == "bolivia-da" and data["written"] == str(out)
    assert data["engine"].startswith("bolivia ")  # the oracle's hello
    assert _bolivia("validate", str(out)).returncode == 0
    checked = _bolivia("conform", "--engine", engine, "--ruleset", str(out))
    assert checked.returncode == 0, checked.stdout[-2000:]
    assert " 0 failed" in checked.stdout
    against_da = _bolivia("conform", "--engine", engine, "--ruleset", "bolivia-da")
    assert against_da.returncode == 1
    again = _bolivia("profile", "--engine", engine, "--out", str(out))
    assert again.returncode == 1 and "exists already" in again.stderr
    missing = _bolivia("profile", "--engine", "/nonexistent/engine")
    assert missing.returncode == 2 and "--engine" in missing.stderr
    assert "Traceback" not in missing.stderr + again.stderr


def test_conform_derives_expectations_for_a_profile(tmp_path: Path) -> None:
    from bolivia.verify.expected import NoCases, plan_for

    profile = tmp_path / "p.yaml"
    profile.write_text(
        "id: p\nextends: bolivia-da\ngoing_out: {bonus: 100}\n"
        "provenance:\n  extends: {house: x}\n  going_out.bonus: {house: x}\n",
        encoding="utf-8",
    )
    library = Library([tmp_path])
    planned = plan_for(SUITES, [str(profile)], library)
    assert {ruleset for _, _, ruleset, _ in planned} == {"bolivia-da"}
    changed = [
        case.expect["bolivia-da"]
        for _, case, _, _ in planned
        if case.id == "going-out-bonus-escalera"
    ]
    assert changed[0]["teams"][0]["going_out"] == 100
    assert len(planned) == len(plan_for(SUITES, ["bolivia-da"], library))
    with pytest.raises(NoCases, match="nosuch"):
        plan_for(SUITES, ["nosuch"], library)
    by_id = plan_for(SUITES, ["bolivia-da-100"], library)  # a library id: asked as itself
    assert {ruleset for _, _, ruleset, _ in by_id} == {"bolivia-da-100"}


def test_suites_are_what_the_battery_is_built_from() -> None:
    assert all(isinstance(s, Suite) for s in SUITES)


def test_a_canasta_paid_a_bonus_of_its_own_is_read_as_a_special_canasta() -> None:
    # a house Bolivia paying 3,000 for a bolivia of five twos and two jokers: the special
    # canastas' suite asks for such a bolivia's bonus, 2,500 in bolivia-da
    special = {"name": "mixed bolivia", "kind": "bolivia", "min_jokers": 2, "max_jokers": 2}
    house = with_values(DA, {"canastas.special": [{**special, "bonus": 3000}]}, "house")
    profile = profiled(serving(house))
    found = {c.path: c.value for c in profile.changes}
    assert set(found) == {"canastas.special"}, found
    (entry,) = found["canastas.special"]
    assert {k: entry[k] for k in ("kind", "min_jokers", "max_jokers", "bonus")} == {
        "kind": "bolivia",
        "min_jokers": 2,
        "max_jokers": 2,
        "bonus": 3000,
    }
    assert entry["name"] == "mixed bolivia"  # as the engine called it
    assert not profile.behaviours
    text = profile_text(profile)[0]
    assert "canastas.special with a mixed bolivia paying 3000" in text, text


def test_a_kind_renamed_and_paid_otherwise_is_read_with_its_equal_special_canasta() -> None:
    # the natural canasta called "clean one" and paid 650: no answer tells it from a special
    # canasta of that name every natural canasta matches, paying 650; the profile says both
    house = with_values(
        DA, {"canastas.natural.name": "clean one", "canastas.natural.bonus": 650}, "house"
    )
    profile = profiled(serving(house))
    assert not profile.behaviours
    said = {(c.path, json.dumps(c.value, sort_keys=True)) for c in profile.changes}
    for change in profile.changes:
        said |= {(p, json.dumps(v, sort_keys=True)) for p, v in change.equivalents}
        said |= {(p, json.dumps(v, sort_keys=True)) for t in change.together for p, v in t}
    assert ("canastas.natural.name", '"clean one"') in said, said
    assert ("canastas.natural.bonus", "650") in said, said
    text = "\n".join(profile_text(profile))
    assert "clean one" in text and "650" in text
    if any(c.path == "canastas.special" for c in profile.changes):  # the one-change reading
        assert "or, as well (no answer tells which): canastas.natural.name clean one" in text
        assert " and canastas.natural.bonus 650 (not 500)" in text, text


def test_a_pair_that_starts_a_new_group_is_told_from_two_groups_of_a_rank() -> None:
    # in a pickup, a pair starting a new group beside the side's group of that rank is what
    # two groups of a rank allow too; a group laid from the hand tells them apart
    fr = LIBRARY.load("bolivia-fr")
    house = with_values(fr, {"pile.pair_starts_new_meld": True}, "house")
    profile = profile_engine(
        serving(house, "bolivia-fr"), LIBRARY, SUITES, name="house", as_id="bolivia-fr"
    )
    assert {c.path: c.value for c in profile.changes} == {"pile.pair_starts_new_meld": True}
    assert not any(c.equivalents for c in profile.changes)
