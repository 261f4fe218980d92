"""The linter: what a valid ruleset may still get wrong.

A ruleset that loads is coherent: :mod:`bolivia.rules.coherence` refuses the impossible. The
linter looks further, for:

- Limits the other rules make unreachable.
- Bands nobody can be in.
- Going-out requirements no side can meet with the cards the pack and the seats give it.
- First melds no cards reach, and games no side can finish.
- Values no source uses.
- The rules a ruleset takes on assumption.

Each finding names the keys involved and why. Errors make a ruleset unplayable as written.
Warnings are worth a look.

>>> from bolivia.rules.library import shipped_library
>>> [f.level for f in lint(shipped_library().load("bolivia-da")) if f.level == "error"]
[]
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterator
from typing import Any

from bolivia.authoring.findings import LEVELS, Finding
from bolivia.authoring.leftovers import leftovers
from bolivia.engine.initial_meld import minimum
from bolivia.engine.melds import group_fault
from bolivia.rules.coherence import (
    achievable_canastas,
    wild_cards_in_pack,
)
from bolivia.rules.library import shipped_library
from bolivia.rules.phrases import a_or_an
from bolivia.rules.provenance import normalize_claim_value, value_text
from bolivia.rules.resolution import NO_REASON
from bolivia.rules.ruleset import Ruleset
from bolivia.rules.sources import Sources, shipped_sources
from bolivia.rules.tree import leaf_paths

__all__ = ["LEVELS", "Finding", "lint"]


def _unreachable_limits(ruleset: Ruleset) -> Iterator[Finding]:
    rules = ruleset.rules
    group = rules.melds.group
    copies = 4 * rules.pack.decks
    wilds = wild_cards_in_pack(rules)
    if group.max_wild is not None and group.max_wild > 0:
        reachable = [
            w
            for w in range(min(group.max_wild, wilds) + 1)
            if any(group_fault(group, n, w, new=False) is None for n in range(1, copies + 1))
        ]
        top = max(reachable, default=0)
        if top < group.max_wild:
            yield Finding(
                "warning",
                (
                    "melds.group.max_wild",
                    "melds.group.ratio",
                    "melds.group.min_natural",
                    "melds.group.max_size",
                ),
                f"a group may hold {group.max_wild} wild cards, but the other group "
                f"rules never let it hold more than {top} (a limit nobody reaches)",
            )
    if group.max_size is not None and group.max_size < rules.canastas.natural.size:
        yield Finding(
            "warning",
            ("melds.group.max_size", "canastas.natural.size"),
            f"groups stop at {group.max_size} cards, below the {rules.canastas.natural.size}"
            " a canasta needs: no group canasta can be made",
        )
    seq = rules.melds.sequence
    if seq.allowed and seq.max_size is not None and seq.max_size < rules.canastas.escalera.size:
        yield Finding(
            "warning",
            ("melds.sequence.max_size", "canastas.escalera.size"),
            f"sequences stop at {seq.max_size} cards, below the "
            f"{rules.canastas.escalera.size} an escalera needs",
        )
    if seq.allowed and seq.max_wild > 0 and rules.melds.sequence.max_wild > wilds:
        yield Finding(
            "warning", ("melds.sequence.max_wild",), f"the pack holds only {wilds} wild cards"
        )
    reason = achievable_canastas(rules)
    for kind, why in reason.items():
        bonus = getattr(rules.canastas, kind).bonus
        if why is not None and bonus:
            yield Finding(
                "warning",
                (f"canastas.{kind}.bonus",),
                f"{a_or_an(kind)} canasta earns {bonus}, but none can be made: {why}",
            )


def _bands(ruleset: Ruleset) -> Iterator[Finding]:
    rules = ruleset.rules
    target = max(
        [rules.game.target, *rules.game.target_by_players.values(), *rules.game.target_options]
    )
    for band in rules.initial_meld.bands[1:]:
        if band.from_score is not None and band.from_score >= target:
            yield Finding(
                "warning",
                ("initial_meld.bands", "game.target"),
                f"the band from {band.from_score} can never apply: the game ends at {target}",
            )
    reachable = achievable_canastas(rules)
    for band in rules.initial_meld.bands:
        if band.canasta and not any(reachable.get(kind) is None for kind in band.canasta):
            yield Finding(
                "warning",
                ("initial_meld.bands", "canastas"),
                f"the band from {band.from_score or 'the lowest score'} asks for a canasta "
                f"({', '.join(band.canasta)}) that no side can make",
            )
    # a band that asks for a canasta asks for something else than points
    minimums = [band.minimum for band in rules.initial_meld.bands[1:] if not band.canasta]
    if any(b < a for a, b in itertools.pairwise(minimums)):
        yield Finding(
            "warning",
            ("initial_meld.bands",),
            "a higher score asks for a smaller first meld than a lower one",
        )


def _going_out(ruleset: Ruleset) -> Iterator[Finding]:
    """A requirement the cards of the pack and the seats can never give one side."""
    rules = ruleset.rules
    canastas = rules.canastas
    for players, seating in sorted(rules.players.seats.items()):
        req = rules.going_out.requirement_by_players.get(players, rules.going_out.requirement)
        needed = req.count * min(
            canastas.natural.size,
            canastas.mixed.size,
            canastas.escalera.size,
            canastas.bolivia.size,
        )
        pack = ruleset.pack.size
        side_cards = pack // seating.teams
        if needed > side_cards:
            yield Finding(
                "error",
                ("going_out.requirement", "players.seats"),
                f"with {players} players a side can hold at most about {side_cards} "
                f"of the {pack} cards, and {req.count} canastas need {needed}",
            )
        bolivias = req.including.get("bolivia", 0)
        wilds = wild_cards_in_pack(rules)
        if bolivias * canastas.bolivia.size > wilds:
            yield Finding(
                "error",
                ("going_out.requirement", "canastas.bolivia.size", "pack"),
                f"{bolivias} bolivias need {bolivias * canastas.bolivia.size} wild "
                f"cards; the pack holds {wilds}",
            )
        escaleras = req.including.get("escalera", 0)
        if escaleras > 4 * rules.pack.decks:
            yield Finding(
                "error",
                ("going_out.requirement", "pack.decks"),
                f"{escaleras} escaleras need more runs of one suit than the pack has",
            )


def _game_end(ruleset: Ruleset) -> Iterator[Finding]:
    """Hands nobody can go out of, games nobody can finish: a first meld no cards reach, or
    no way to score toward the target where no cap ends the game."""
    rules = ruleset.rules
    pack_points = sum(max(0, ruleset.points[c.index]) for c in ruleset.pack.cards())
    first = minimum(ruleset, 0)
    if first > pack_points:
        yield Finding(
            "error",
            ("initial_meld.bands", "scoring.card_points"),
            f"a side's first meld must count {first}, but every card of the pack counts only "
            f"{pack_points}: nobody can ever meld, nor go out",
        )
    canastas = rules.canastas
    gains = [
        ("scoring.card_points", max(ruleset.points)),
        ("going_out.bonus", rules.going_out.bonus),
        ("red_threes.value", rules.red_threes.value),
        *((f"canastas.{k}.bonus", getattr(canastas, k).bonus) for k in _CANASTA_KINDS),
    ]
    if rules.game.hand_cap is None and all(value <= 0 for _, value in gains):
        yield Finding(
            "error",
            ("game.target", "game.hand_cap", *(key for key, _ in gains)),
            f"no card, canasta, red three or going out scores anything, and no cap on hands "
            f"ends the game: no side can reach {rules.game.target}",
        )


_CANASTA_KINDS = ("natural", "mixed", "escalera", "bolivia")


def _keep(ruleset: Ruleset) -> Iterator[Finding]:
    keep = ruleset.rules.going_out.keep_cards
    if keep < 2:
        yield Finding(
            "warning",
            ("going_out.keep_cards",),
            f"a player who may not go out must keep a card to discard and one after "
            f"it; {keep} is read as 2 in play",
        )


def _blocked(ruleset: Ruleset) -> Iterator[Finding]:
    """Rules under which a player can be left without a legal action: the engine then ends the
    hand (``docs/engine.md``, "A player without a legal action"), which a club may not expect."""
    if not ruleset.rules.red_threes.replaced:
        yield Finding(
            "warning",
            ("red_threes.replaced",),
            "red threes laid out are not replaced: a player holding one card who draws only "
            "red threes can neither discard it (that would be going out) nor go out, so the "
            "hand ends there with nobody going out, scored as when the stock runs out",
        )


def _flatten(path: str, value: Any) -> Iterator[tuple[str, Any]]:
    """A table leaf as its entries (``players.seats.4.hand_size`` -> 13); anything else whole."""
    if isinstance(value, dict) and value and not {"rule", "condition"} & set(value):
        for key, sub in value.items():
            yield from _flatten(f"{path}.{key}", sub)
    else:
        yield path, value


SHORT = 80  # characters of a value a finding shows (a list of records reads as a sample)


def _short(text: str) -> str:
    """A value's text for one line of a finding: whole up to :data:`SHORT` characters, else
    its start and how long it is (``bolivia show`` prints it whole)."""
    return text if len(text) <= SHORT else f"{text[: SHORT - 20]}... ({len(text)} characters)"


def _known_values(sources: Sources) -> dict[str, set[str]]:
    """For each rule (each entry of a table), every value some claim or shipped ruleset gives."""
    known: dict[str, set[str]] = {}
    wildcards: list[tuple[str, str]] = []

    def add(path: str, value: Any) -> None:
        for sub, item in _flatten(path, value):
            if "*" in sub:
                wildcards.append((sub, value_text(item)))
            else:
                known.setdefault(sub, set()).add(value_text(item))

    for claim in sources.claims.values():
        for path, value in claim.fixes.items():
            add(path, normalize_claim_value(path, value))
            for alt in claim.alternatives.get(path, ()):
                add(path, normalize_claim_value(path, alt))
    library = shipped_library()
    for rid in library.ids():
        ruleset = library.load(rid)
        if ruleset.shipped and "/house/" not in str(ruleset.path):
            for path in leaf_paths():
                add(path, ruleset.value(path))
    for pattern, value in wildcards:
        regex = re.compile("^" + re.escape(pattern).replace(r"\*", "[^.]+") + "$")
        for sub in list(known):
            if regex.match(sub):
                known[sub].add(value)
    return known


def _deliberate(ruleset: Ruleset, path: str) -> bool:
    """A value the ruleset's own file sets as a house rule, with its reason: meant, not a slip."""
    prov = ruleset.provenance[path]
    return path in ruleset.own_leaves and prov.status == "house" and prov.reason != NO_REASON


def _unusual(ruleset: Ruleset, sources: Sources) -> Iterator[Finding]:
    known = _known_values(sources)
    for path in leaf_paths():
        if path.endswith(".name") or _deliberate(ruleset, path):
            continue  # a name is for people, and a house value is meant
        for sub, item in _flatten(path, ruleset.value(path)):
            value = value_text(item)
            seen = known.get(sub)
            if seen is None:
                yield Finding(
                    "warning", (sub,), f"{value}: no source or shipped ruleset has this rule at all"
                )
            elif value not in seen:
                shown = sorted(seen)
                sample = ", ".join(_short(v) for v in shown[:5]) + (
                    " ..." if len(shown) > 5 else ""
                )
                yield Finding(
                    "warning",
                    (sub,),
                    f"{_short(value)} is a value no source or shipped ruleset uses "
                    f"(they use: {sample})",
                )


def _order(ruleset: Ruleset) -> Iterator[Finding]:
    """Legal values that read backwards: a prize lower than the lesser one it tops."""
    rules = ruleset.rules
    out, canastas, threes = rules.going_out, rules.canastas, rules.red_threes
    if out.bonus > out.concealed_bonus:
        yield Finding(
            "warning",
            ("going_out.bonus", "going_out.concealed_bonus"),
            f"going out pays {out.bonus}, more than going out concealed ({out.concealed_bonus}),"
            " the harder way out",
        )
    if canastas.mixed.bonus > canastas.natural.bonus:
        yield Finding(
            "warning",
            ("canastas.mixed.bonus", "canastas.natural.bonus"),
            f"a mixed canasta pays {canastas.mixed.bonus}, more than a natural one "
            f"({canastas.natural.bonus})",
        )
    sequence = rules.melds.sequence
    if sequence.extend_going_out and (sequence.max_size is None or not sequence.allowed):
        yield Finding(
            "warning",
            ("melds.sequence.extend_going_out", "melds.sequence.max_size"),
            "sequences may be extended past their size in going out, but no size limit "
            "holds them back otherwise",
        )
    if sequence.two_aces and sequence.max_size is not None and sequence.max_size < 14:
        yield Finding(
            "warning",
            ("melds.sequence.two_aces", "melds.sequence.max_size"),
            f"a sequence may run from ace to ace, but holds at most {sequence.max_size} cards: "
            "an ace at each end needs fourteen",
        )
    allowed = {
        "group": True,
        "sequence": rules.melds.sequence.allowed,
        "wild": rules.melds.wild.allowed,
    }
    for i, penalty in enumerate(rules.scoring.meld_penalties):
        never = [kind for kind in penalty.kinds if not allowed[kind]]
        if never:
            yield Finding(
                "warning",
                ("scoring.meld_penalties", f"melds.{never[0]}.allowed"),
                f"penalty {i + 1} is for {', '.join(never)} melds, which may not be melded",
            )
    count = 2 * rules.pack.decks  # red threes in the pack
    unreached = sorted(n for n in threes.value_by_count if n > count)
    if unreached:
        yield Finding(
            "warning",
            ("red_threes.value_by_count", "pack.decks"),
            f"the pack holds {count} red threes: no side holds "
            f"{', '.join(str(n) for n in unreached)}",
        )
    # all the pack's red threes listed in the table pay what it says: all_value is not read
    if count not in threes.value_by_count and threes.all_value < threes.value * count:
        yield Finding(
            "warning",
            ("red_threes.all_value", "red_threes.value"),
            f"all {count} red threes pay {threes.all_value}, less than {count} of "
            f"{threes.value} each ({threes.value * count})",
        )


def _assumptions(ruleset: Ruleset) -> Iterator[Finding]:
    """Two short lines: the values taken on assumption, and those the file sets without a
    word of provenance (house rules, no reason given)."""
    assumed = tuple(path for path, prov in ruleset.provenance.items() if prov.status == "assumed")
    if assumed:
        inherited = sum(1 for path in assumed if path not in ruleset.own_leaves)
        yield Finding(
            "note",
            assumed,
            f"{len(assumed)} values rest on assumptions no source of {ruleset.id} states"
            + (f" ({inherited} of them inherited)" if inherited else "")
            + f"; bolivia show {ruleset.id} gives the reasons",
        )
    unstated = tuple(
        path
        for path in ruleset.own_leaves
        if ruleset.provenance[path].status == "house"
        and ruleset.provenance[path].reason == NO_REASON
    )
    link = ruleset.extends_provenance
    if link is not None and link.reason == NO_REASON:
        unstated = ("extends", *unstated)
    if unstated:
        yield Finding(
            "note",
            unstated,
            f"{len(unstated)} set without provenance, taken as house rules with no reason "
            "given (provenance: {KEY: {house: <reason>}} says why)",
        )


def _by_rank(ruleset: Ruleset) -> Iterator[Finding]:
    """Rules by rank that can never apply, or change nothing: a rank no group is of, a limit
    no lower than every group's, a late minimum of naturals no higher than the first, a
    penalty by rank for melds that have none, more cards kept than the pack holds."""
    rules = ruleset.rules
    group = rules.melds.group
    never = {*rules.pack.wild_ranks, "3"}  # wild cards, and threes (laid out or black threes)
    for rank, limit in group.wild_by_rank.items():
        if rank in never:
            yield Finding(
                "warning",
                ("melds.group.wild_by_rank", "pack.wild_ranks"),
                f"no group is of rank {rank}: its limit of wild cards never applies",
            )
        elif group.max_wild is not None and limit.max_wild >= group.max_wild:
            yield Finding(
                "warning",
                ("melds.group.wild_by_rank", "melds.group.max_wild"),
                f"rank {rank} may hold {limit.max_wild} wild cards, no fewer than any group "
                f"({group.max_wild}): its limit changes nothing",
            )
    late = group.late_wild_min_natural
    if late is not None and late <= group.min_natural:
        yield Finding(
            "warning",
            ("melds.group.late_wild_min_natural", "melds.group.min_natural"),
            f"after the first meld a group takes a wild card with {late} natural cards, no more "
            f"than every group holds ({group.min_natural}): it changes nothing",
        )
    for i, penalty in enumerate(rules.scoring.meld_penalties):
        if (penalty.ranks or penalty.natural_only) and "group" not in penalty.kinds:
            yield Finding(
                "warning",
                ("scoring.meld_penalties",),
                f"penalty {i + 1} names ranks or natural melds but is not for groups: only "
                "groups have a rank, and a wild meld is never natural",
            )
    for i, kept in enumerate(rules.scoring.hand_penalties):
        # a hand holds four of a rank per deck, of threes the two black ones
        held = sum(rules.pack.decks * (2 if rank == "3" else 4) for rank in kept.ranks)
        if kept.at_least > held:
            yield Finding(
                "warning",
                ("scoring.hand_penalties", "pack.decks"),
                f"hand penalty {i + 1} needs {kept.at_least} cards of "
                f"{', '.join(kept.ranks)} in one hand; the pack holds {held}",
            )


def _natural_twos(ruleset: Ruleset) -> Iterator[Finding]:
    """A run's own natural two where no two can stand as one: twos not wild, or no sequence
    reaching the two's place."""
    rules = ruleset.rules
    sequence = rules.melds.sequence
    if not sequence.natural_twos:
        return
    low, high = sequence.span()
    if "2" not in rules.pack.wild_ranks:
        why = "twos are not wild (pack.wild_ranks), so a two is always a natural card"
    elif not sequence.allowed:
        why = "sequences may not be melded"
    elif not low <= 1 <= high:
        why = f"no sequence reaches the two's place (it runs from {sequence.lowest})"
    else:
        return
    yield Finding(
        "warning",
        ("melds.sequence.natural_twos",),
        f"a run's own two may stand as a natural card, but {why}: it changes nothing",
    )


def lint(ruleset: Ruleset, sources: Sources | None = None) -> list[Finding]:
    """Every finding, errors first."""
    sources = sources if sources is not None else shipped_sources()
    found = [
        *_going_out(ruleset),
        *_game_end(ruleset),
        *_unreachable_limits(ruleset),
        *_bands(ruleset),
        *_keep(ruleset),
        *_blocked(ruleset),
        *_by_rank(ruleset),
        *leftovers(ruleset),
        *_order(ruleset),
        *_natural_twos(ruleset),
        *_unusual(ruleset, sources),
        *_assumptions(ruleset),
    ]
    return sorted(found, key=lambda f: LEVELS.index(f.level))
