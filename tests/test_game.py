"""Play: hands under every ruleset end by a rule, keep every card, agree with the oracle, and
replay exactly; tampered replays are refused with the step and the rule."""

from __future__ import annotations

import json
import multiprocessing
import random
import threading
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from hypothesis import settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, precondition, rule

from bolivia.cards import POSITION_RANK, Card
from bolivia.compare.differences import differing_areas, play_areas
from bolivia.engine.melds import new_meld, verify_meld
from bolivia.errors import Illegal
from bolivia.play.batch import workers
from bolivia.play.batch.replay import ReplayError, verify_replay
from bolivia.play.batch.seeds import derive_seed
from bolivia.play.batch.simulate import RunSpec, play_hand, run
from bolivia.play.bots.simple import GreedyBot, RandomBot
from bolivia.play.table.actions import GoOut, Lay, parse_action
from bolivia.play.table.hand import Hand
from bolivia.play.table.ways_out import ways_out
from bolivia.rules.library import LibrarySpec, shipped_library
from bolivia.verify.oracle import Oracle

from .strategies import SHIPPED_IDS

LIBRARY = shipped_library()
CARDS = Card.all()
ORACLE = Oracle()


def seatings() -> list[tuple[str, int]]:
    return [
        (rid, n)
        for rid in SHIPPED_IDS
        for n in sorted(LIBRARY.load(rid).rules.players.seats)
        if n <= 4
    ]


# --------------------------------------------------------------------------- stateful play


class HandMachine(RuleBasedStateMachine):
    """Random legal actions under a random ruleset, with the invariants checked after each."""

    def __init__(self) -> None:
        super().__init__()
        self.hand: Hand | None = None

    @precondition(lambda self: self.hand is None)
    @rule(seating=st.sampled_from(seatings()), seed=st.integers(0, 2**32))
    def deal(self, seating: tuple[str, int], seed: int) -> None:
        rid, players = seating
        self.hand = Hand.deal(LIBRARY.load(rid), players, random.Random(seed), first=seed % players)

    @precondition(lambda self: self.hand is not None and not self.hand.over)
    @rule(data=st.data())
    def act(self, data: st.DataObject) -> None:
        hand = self.hand
        assert hand is not None
        actions = hand.legal_actions()
        assert actions, "a state with no legal action"
        before = (hand.current, hand.phase)
        action = data.draw(st.sampled_from(actions))
        hand.apply(action)
        if not hand.over and hand.phase == "draw" and before[1] == "play":
            assert hand.current == (before[0] + 1) % hand.players  # turn order

    @precondition(lambda self: self.hand is not None and not self.hand.over)
    @rule(count=st.integers(1, 60), seed=st.integers(0, 1000))
    def run_on(self, count: int, seed: int) -> None:
        """Many random moves at once, so that hands reach their end within the budget."""
        hand = self.hand
        assert hand is not None
        rng = random.Random(seed)
        for _ in range(count):
            if hand.over:
                break
            hand.apply(rng.choice(hand.legal_actions()))

    @precondition(lambda self: self.hand is not None and self.hand.over)
    @rule()
    def score_and_put_away(self) -> None:
        """An ended hand scores through the scoring code, and the next one is dealt."""
        hand = self.hand
        assert hand is not None
        result = hand.result()
        assert result.ended_by in ("went_out", "stock_exhausted")
        assert len(result.scores) == hand.teams
        assert hand.legal_actions() == []
        self.hand = None

    @invariant()
    def cards_accounted_for(self) -> None:
        if self.hand is not None:
            assert self.hand.conserved()

    @invariant()
    def table_melds_are_legal(self) -> None:
        if self.hand is None:
            return
        for team in self.hand.melds:
            for meld in team:
                again = verify_meld(self.hand.ruleset, meld.cards, going_out=True)
                assert again.kind == meld.kind

    @invariant()
    def every_listed_action_verifies(self) -> None:
        hand = self.hand
        if hand is None or hand.over:
            return
        for action in hand.legal_actions():
            hand.verify(action)


HandMachine.TestCase.settings = settings(max_examples=20, stateful_step_count=30, deadline=None)
TestHandMachine = HandMachine.TestCase


# --------------------------------------------------------------------------- whole hands


@pytest.mark.parametrize(("rid", "players"), seatings())
def test_random_hands_end_by_a_rule(rid: str, players: int) -> None:
    ruleset = LIBRARY.load(rid)
    for seed in range(3):
        stats, hand = play_hand(ruleset, players, seed, [RandomBot()] * players)
        assert stats.completed, stats.ended_by
        assert stats.conserved
        assert hand.ended_by in ("went_out", "stock_exhausted")


@pytest.mark.parametrize(("rid", "hand_size"), [("samba", 13), ("bolivia-da", 15)])
def test_six_players_sit_as_three_partnerships_of_two(rid: str, hand_size: int) -> None:
    """ref:samba-players: six play Samba in partnerships, read as three sides of two, partners
    with two other players between them; bolivia-da keeps the seating with its 15 cards."""
    hand = Hand.deal(LIBRARY.load(rid), 6, random.Random(0))
    assert hand.teams == 3 and hand.partnerships
    assert hand.team_of == [0, 1, 2, 0, 1, 2]
    assert hand.sizes == [hand_size] * 6
    stats, _ = play_hand(LIBRARY.load(rid), 6, 1, [RandomBot()] * 6)
    assert stats.completed and stats.conserved


@pytest.mark.parametrize(
    "where",
    [
        "counts",
        "pile",
        "negative",
        "rank_counts",
        "suit_masks",
        "sizes",
        "rank_cards",
        "wild_cards",
        "wild_order",
        "red_threes",
        "joker",
    ],
)
def test_the_conservation_check_catches_a_hand_out_of_step(where: str) -> None:
    """After a check that passes (which keeps each player's hand and figures as it found
    them, and passes over a player's found the same), any one of them changed is caught."""
    hand = Hand.deal(LIBRARY.load("bolivia-da"), 4, random.Random(5))
    assert hand.conserved()
    index = next(i for i, n in enumerate(hand.hands[0]) if n and i < 52)
    if where == "counts":  # a card gone from the hand, and nothing else told
        hand.hands[0][index] -= 1
    elif where == "pile":  # a card in the pile and still in the hand
        hand.pile.append(index)
    elif where == "negative":  # one card fewer than none, another one more: the count adds up
        other = next(i for i in range(52) if i != index and hand.hands[0][i] == 0)
        hand.hands[0][other] -= 1
        hand.hands[1][other] += 1
    elif where == "rank_counts":
        hand.rank_counts[0][index >> 2] += 1
    elif where == "suit_masks":
        hand.suit_masks[0][index & 3] ^= 1 << (index >> 2)
    elif where == "rank_cards":  # a kept tuple of the rank's cards missing one
        assert hand.current == 0
        hand._rank_cards[0][index >> 2] = hand.naturals(index >> 2)[1:]
    elif where == "wild_cards":  # a kept tuple of the wild cards with a joker too many
        hand._wild_cards[0] = (*hand.wild_cards(), Card.from_index(52))
    elif where == "wild_order":  # the right wild cards, not the cheaper first
        wilds = hand.wild_cards()
        assert len(set(wilds)) > 1
        hand._wild_cards[0] = wilds[::-1]
    elif where == "red_threes":  # a red three counted laid out and still in the stock
        hand.red_threes[0] += 1
    elif where == "joker":  # a joker too many in the stock, and no other card missing
        hand.stock.append(52)
    else:
        hand.sizes[0] += 1
    assert not hand.conserved()


@pytest.mark.parametrize("rid", SHIPPED_IDS)
def test_greedy_hands_agree_with_the_oracle_score(rid: str) -> None:
    ruleset = LIBRARY.load(rid)
    players = ruleset.rules.players.usual
    for seed in range(4):
        stats, hand = play_hand(ruleset, players, seed, [GreedyBot()] * players)
        assert stats.completed
        result = hand.result()
        answer = ORACLE.handle({"op": "score", "ruleset": rid, **hand.score_request()})
        assert answer["ok"], answer
        assert answer["result"]["teams"] == [s.as_dict() for s in result.scores]


def test_the_same_seed_gives_the_same_replay_bytes() -> None:
    ruleset = LIBRARY.load("bolivia-zh")
    lines = [play_hand(ruleset, 4, 7, [GreedyBot()] * 4, record=True)[0].replay for _ in range(2)]
    assert lines[0] == lines[1] and lines[0]
    other = play_hand(ruleset, 4, 8, [GreedyBot()] * 4, record=True)[0].replay
    assert other != lines[0]


@pytest.mark.parametrize("method", ["fork", "spawn"])
def test_simulation_is_the_same_for_any_number_of_workers(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, method: str
) -> None:
    """Forked (where the system allows it) or spawned, two workers play what one does."""
    if method not in multiprocessing.get_all_start_methods():
        pytest.skip(f"this system cannot {method}")
    if method == "fork" and threading.active_count() > 1:
        pytest.skip("an earlier test left a thread running: the workers fork from one thread")
    used: list[str] = []
    monkeypatch.setattr(workers, "start_method", lambda: used.append(method) or method)
    spec = RunSpec(
        "bolivia-da",
        LibrarySpec(),
        4,
        ("greedy",) * 4,
        seed=3,
        hands=6,
        replays=str(tmp_path / "one"),
    )
    one = run(spec, workers=1)
    two = run(replace(spec, replays=str(tmp_path / "two")), workers=2)
    assert used == [method]
    # the command hands its loaded ruleset to a one-worker run (it is not loaded again)
    given = run(replace(spec, replays=str(tmp_path / "given")), ruleset=LIBRARY.load("bolivia-da"))
    for summary in (one, two, given):
        for key in ("seconds", "hands_per_second", "actions_per_second"):
            summary.pop(key)
    assert one == two == given
    for path in sorted((tmp_path / "one").iterdir()):
        for other in ("two", "given"):
            assert path.read_bytes() == (tmp_path / other / path.name).read_bytes()


def test_a_game_runs_to_its_end_and_replays(tmp_path: Path) -> None:
    spec = RunSpec(
        "bolivia-zh-10000",
        LibrarySpec(),
        2,
        ("greedy", "greedy"),
        seed=1,
        games=1,
        replays=str(tmp_path),
    )
    summary = run(spec)
    assert summary["games"] == 1 and summary["games_over"] == 1
    assert summary["completed"] == summary["hands"]
    (path,) = tmp_path.iterdir()
    assert verify_replay(path, LIBRARY) == summary["hands"]


# --------------------------------------------------------------------------- replays


@pytest.fixture(scope="module")
def recorded(tmp_path_factory: pytest.TempPathFactory) -> list[str]:
    ruleset = LIBRARY.load("canasta")
    for seed in range(40):  # a hand in which someone melds and someone goes out
        stats, hand = play_hand(ruleset, 4, derive_seed(5, seed), [GreedyBot()] * 4, record=True)
        if hand.went_out is not None:
            return stats.replay
    raise AssertionError("no hand went out")


def _write(tmp_path: Path, lines: list[str]) -> Path:
    path = tmp_path / "hand.jsonl"
    path.write_text("".join(line + "\n" for line in lines))
    return path


def test_a_recorded_hand_verifies(tmp_path: Path, recorded: list[str]) -> None:
    assert verify_replay(_write(tmp_path, recorded), LIBRARY) == 1


def _steps(lines: list[str]) -> list[dict[str, Any]]:
    return [json.loads(line) for line in lines]


def test_an_illegal_meld_slipped_in_is_named(tmp_path: Path, recorded: list[str]) -> None:
    records = _steps(recorded)
    index = next(
        i for i, r in enumerate(records) if r["type"] == "action" and r["action"]["type"] == "lay"
    )
    cards = records[index]["action"]["melds"][0]
    records[index]["action"]["melds"][0] = [*cards, "2C", "2D", "2H", "2S"][: len(cards) + 4]
    path = _write(tmp_path, [json.dumps(r) for r in records])
    with pytest.raises(ReplayError) as info:
        verify_replay(path, LIBRARY)
    message = str(info.value)
    assert f"{path}:{index + 1}: step {records[index]['step']}" in message
    assert ("illegal" in message and "[rule " in message) or "does not hold" in message


def test_a_card_from_nowhere_is_named(tmp_path: Path, recorded: list[str]) -> None:
    records = _steps(recorded)
    index = next(
        i
        for i, r in enumerate(records)
        if r["type"] == "action" and r["action"]["type"] == "discard"
    )
    hand_line = records[0]
    held = set(hand_line["deck"])
    stranger = next(c for c in ("JK", "AS", "KH", "5D") if c in held)
    records[index]["action"]["card"] = stranger
    path = _write(tmp_path, [json.dumps(r) for r in records])
    with pytest.raises(ReplayError, match=rf"step {records[index]['step']} .*illegal"):
        verify_replay(path, LIBRARY)


def test_a_wrong_score_is_named(tmp_path: Path, recorded: list[str]) -> None:
    records = _steps(recorded)
    records[-1]["scores"][0]["total"] += 5
    path = _write(tmp_path, [json.dumps(r) for r in records])
    with pytest.raises(ReplayError, match=r"recorded scores .* differs from the replayed"):
        verify_replay(path, LIBRARY)


def test_a_tampered_deck_is_named(tmp_path: Path, recorded: list[str]) -> None:
    records = _steps(recorded)
    records[0]["deck"][0] = records[0]["deck"][1]
    path = _write(tmp_path, [json.dumps(r) for r in records])
    with pytest.raises(ReplayError, match="the deal cannot be replayed"):
        verify_replay(path, LIBRARY)


def test_a_changed_ruleset_is_named(tmp_path: Path, recorded: list[str]) -> None:
    records = _steps(recorded)
    records[0]["digest"] = "0" * 64
    path = _write(tmp_path, [json.dumps(r) for r in records])
    with pytest.raises(ReplayError, match="digests differ"):
        verify_replay(path, LIBRARY)


# --------------------------------------------------------------------------- differential play


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("bolivia-zh", "bolivia-ko"),
        ("bolivia-zh", "bolivia-zh-10000"),
        ("bolivia-da", "bolivia-da-100"),
        ("bolivia-da", "bolivia-zh"),
        ("samba", "bolivia-da"),
    ],
)
def test_one_action_log_under_two_rulesets(a: str, b: str) -> None:
    """Where the compare module says two rulesets rule play alike, every action of a hand
    played under one is legal under the other; where scoring agrees too, so do the scores."""
    first, second = LIBRARY.load(a), LIBRARY.load(b)
    play_alike = not play_areas(first, second)
    score_alike = not differing_areas(first, second) or differing_areas(first, second) == [
        "game end"
    ]
    for seed in range(3):
        stats, played = play_hand(first, 4, seed, [GreedyBot()] * 4, record=True)
        if not play_alike:
            continue
        again = Hand(second, 4, played.deck, played.first, played.team_scores)
        for line in stats.replay[1:-1]:
            record = json.loads(line)
            again.apply(parse_action(record["action"]))  # legal under b too
        assert again.over and again.ended_by == played.ended_by
        if score_alike:
            assert again.result() == played.result()
    if not play_alike:
        # the areas differ: at least one kind of move is ruled differently, and the engine
        # refuses under b some action that a was dealt and allowed
        assert play_areas(first, second)


def test_going_out_is_one_verified_action() -> None:
    ruleset = LIBRARY.load("canasta")
    for seed in range(60):
        _, hand = play_hand(ruleset, 4, seed, [GreedyBot()] * 4)
        if hand.went_out is not None:
            break
    else:
        raise AssertionError("no hand went out")
    fresh = Hand.deal(ruleset, 4, random.Random(0))
    with pytest.raises(Illegal, match=r"a turn starts"):
        fresh.verify(GoOut())
    with pytest.raises(Illegal):
        fresh.verify(Lay(((),)))


@pytest.mark.parametrize("rid", SHIPPED_IDS)
def test_greedy_bots_go_out_under_every_ruleset(rid: str) -> None:
    """The going-out path works everywhere, asking the partner first where a ruleset
    requires it (bolivia-fr)."""
    ruleset = LIBRARY.load(rid)
    ended = [
        play_hand(ruleset, 4, derive_seed(9, i), [GreedyBot()] * 4, check="none")[1]
        for i in range(12)
    ]
    assert any(hand.ended_by == "went_out" for hand in ended)


def test_a_required_question_comes_before_going_out() -> None:
    ruleset = LIBRARY.load("bolivia-fr")
    for i in range(40):
        stats, hand = play_hand(ruleset, 4, derive_seed(9, i), [GreedyBot()] * 4, record=True)
        if hand.ended_by == "went_out":
            kinds = [json.loads(line)["action"]["type"] for line in stats.replay[1:-1]]
            assert kinds[-3:] == ["ask", "answer", "go_out"]
            return
    raise AssertionError("no hand went out")


@pytest.mark.parametrize("rid", ["canasta", "samba", "bolivia-zh", "bolivia-da"])
def test_the_quick_bounds_never_hide_a_way_out(rid: str) -> None:
    """Before and during the search for a way out, two quick necessary conditions cut it short
    (a card with nowhere to go beyond the discard; too few canastas within reach); in every
    play state of these hands with up to 9 cards, the search with them and without them
    gives the same answer."""
    ruleset = LIBRARY.load(rid)
    checked = 0
    bots = [GreedyBot(), RandomBot()]
    for seed in range(6):
        hand = Hand.deal(ruleset, 4, random.Random(seed))
        rng = random.Random(seed)
        while not hand.over:
            if hand.phase == "play" and hand.sizes[hand.current] <= 9:
                team = hand.melds[hand.team]
                args = (ruleset, team, hand.hands[hand.current])
                kwargs: dict[str, Any] = {
                    "players": 4,
                    "first_minimum": hand.first_minimum_for(team),
                }
                found = bool(ways_out(*args, **kwargs))
                assert found == bool(ways_out(*args, **kwargs, bounded=False))
                checked += found
            hand.apply(bots[seed % 2].choose(hand, hand.choices(), rng))
    assert checked


@pytest.mark.parametrize("rid", [*SHIPPED_IDS, "brazilian-canastra"])
def test_the_move_generator_lists_every_lay_of_its_policy(rid: str) -> None:
    """In every play state of these hands, the single new melds the bots' short list holds are
    exactly those of its policy that the rules allow: all the naturals of a rank with none to three
    of the cheapest wild cards, and each run of one suit as long as the size limit lets it be
    (every window of that length) -- found here by brute force over the hand, each tried with
    ``verify``."""
    ruleset = LIBRARY.load(rid)
    wild = ruleset.wild
    low, high = ruleset.sequence_positions  # positions: an ace low at 0, high at 13
    rule = ruleset.rules.melds.sequence
    checked = 0
    for seed in range(4):
        hand = Hand.deal(ruleset, 4, random.Random(seed))
        rng = random.Random(seed)
        bot = RandomBot()
        while not hand.over:
            actions = hand.choices()
            if hand.phase == "play" and hand.asked is None and not hand.committed:
                cards = hand.hand_cards()
                wilds = sorted(
                    (c for c in cards if wild[c.index]),
                    key=lambda c: ruleset.wild_indices.index(c.index),
                )
                policy: set[tuple[Card, ...]] = set()
                for r in range(13):
                    naturals = tuple(c for c in cards if c.index >> 2 == r and not wild[c.index])
                    if naturals and r != 1:
                        policy.update(
                            naturals + tuple(wilds[:w]) for w in range(min(3, len(wilds)) + 1)
                        )
                if rule.allowed:
                    # at most 13 cards: a run from ace to ace needs both aces
                    longest = min(rule.max_size or 13, high - low + 1, 13)
                    for s in range(4):
                        held = [
                            p
                            for p in range(low, high + 1)
                            if hand.hands[hand.current][POSITION_RANK[p] * 4 + s]
                            and not wild[POSITION_RANK[p] * 4]
                        ]
                        runs: list[list[int]] = []
                        for p in held:
                            if runs and runs[-1][-1] == p - 1:
                                runs[-1].append(p)
                            else:
                                runs.append([p])
                        for run in runs:
                            size = min(len(run), longest)
                            policy.update(
                                tuple(
                                    sorted(
                                        CARDS[POSITION_RANK[p] * 4 + s] for p in run[i : i + size]
                                    )
                                )
                                for i in range(len(run) - size + 1)
                            )
                allowed = set()
                for meld in policy:
                    if hand.sizes[hand.current] - len(meld) < hand.keep:
                        continue  # going below the keep-cards minimum: a way out, offered whole
                    made = new_meld(ruleset, meld)
                    if made is not None and made.naturals > sum(
                        1 for c in meld if not wild[c.index]
                    ):
                        # read as a run through its own two (melds.sequence.natural_twos): a
                        # run no policy of the bots lays (its twos are wild cards to them)
                        continue
                    try:
                        hand.verify(Lay((meld,)))
                    except Illegal:
                        continue
                    allowed.add(meld)
                listed = {
                    a.melds[0]
                    for a in actions
                    if isinstance(a, Lay)
                    and len(a.melds) == 1
                    and not all(wild[c.index] for c in a.melds[0])
                }
                assert listed == allowed, (hand.steps, listed ^ allowed)
                checked += 1
            hand.apply(bot.choose(hand, actions, rng))
    assert checked


def test_a_hand_cut_by_a_cap_is_named_and_strict_fails(monkeypatch: pytest.MonkeyPatch) -> None:
    """A hand stopped by the step cap is not a hand that ended by a rule: the summary counts
    it, a warning names it, and --strict exits 1 (here with the cap lowered to force it)."""
    from click.testing import CliRunner

    from bolivia.cli import cli
    from bolivia.play.batch import simulate

    args = ["simulate", "canasta", "--hands", "3", "--bots", "random", "--json"]
    fine = CliRunner().invoke(cli, [*args, "--strict"])
    assert fine.exit_code == 0, fine.output
    assert json.loads(fine.stdout)["not_ended_by_a_rule"] == 0
    monkeypatch.setattr(simulate, "STEP_LIMIT", 5)
    cut = CliRunner().invoke(cli, [*args, "--strict"])
    assert cut.exit_code == 1
    assert json.loads(cut.stdout)["ended_by"] == {"step_limit": 3}
    assert "warning: 3 hands did not end by a rule (step_limit: 3)" in cut.stderr
    assert CliRunner().invoke(cli, args).exit_code == 0  # counted and said, not fatal


def test_a_game_stopped_by_the_hand_cap_is_named(monkeypatch: pytest.MonkeyPatch) -> None:
    from bolivia.play.batch import simulate

    monkeypatch.setattr(simulate, "GAME_HAND_LIMIT", 1)
    spec = RunSpec("bolivia-da", LibrarySpec(), 4, ("greedy",) * 4, 3, games=2, check="none")
    summary = run(spec)
    assert summary["games_stopped"] == {"hand_limit": 2}
    assert summary["game_hand_limit"] == 1
