"""The rule tree: every choice a rulebook makes, as typed data.

The rulebooks are those of Bolivia, Samba and Canasta. A ruleset file sets these fields.
Through ``extends`` it sets only the ones that differ from its base.
:mod:`bolivia.rules.ruleset` merges the chain and validates the result into :class:`Rules`.
Records are frozen and strict: a string where a number belongs is an error, not a conversion.

Merging follows the shape of the tree. A section (a record) merges key by key with the
base's. Anything else is a *leaf*, replaced whole: a number, a choice, a list, a table keyed
by data, or a named choice such as ``red_threes.plus_when``. Leaves are also the unit of
provenance. Each resolved leaf knows the claim it encodes or why it is assumed.

Every number has a range, shown in the JSON Schema and ``rulesets/FIELDS.md`` (the value
types and their checks are in :mod:`bolivia.rules.fields`):

- A count of cards: at most what the largest pack holds (``MAX_CARDS``).
- A count of canastas: at most what those cards make (``MAX_CANASTAS``).
- Points and bonuses: within ``MAX_POINTS``.
- Scores and targets: within ``MAX_SCORE``.
- A cap on hands: at most ``MAX_HANDS``.

No table or loop built from a rule grows past these. No sum of scores leaves the range a float
can hold.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import AfterValidator, BeforeValidator, Field

from bolivia.cards import RANKS
from bolivia.rules.fields import (
    CANASTA_KINDS,
    CARD_CLASSES,
    MAX_CANASTAS,
    MAX_CARDS,
    MAX_DECKS,
    MAX_HANDS,
    MAX_JOKERS,
    MAX_POINTS,
    MAX_SCORE,
    MELD_KINDS,
    POINT_KEYS,
    ByPlayers,
    CanastaCount,
    CanastaKindName,
    CanastaNamed,
    CardClass,
    CardCount,
    CardPoints,
    MeldKind,
    MeldSize,
    PlayerCount,
    PointKey,
    Points,
    PositiveCanastaCount,
    PositiveCardCount,
    Rank,
    Record,
    Score,
    Suggested,
    Target,
    distinct_keys,
    no_repeats,
    number_key,
    rank_or_key,
)

__all__ = [
    "CANASTA_KINDS",
    "CARD_CLASSES",
    "MAX_CANASTAS",
    "MAX_CARDS",
    "MAX_DECKS",
    "MAX_HANDS",
    "MAX_JOKERS",
    "MAX_POINTS",
    "MAX_SCORE",
    "MELD_KINDS",
    "POINT_KEYS",
    "Band",
    "BlackThreeMelds",
    "BlackThreesAside",
    "CanastaKind",
    "Canastas",
    "Choice",
    "Deal",
    "DiscardBar",
    "Foot",
    "Game",
    "GoingOut",
    "GroupMelds",
    "HandCap",
    "HandPenalty",
    "InitialMeld",
    "MeldPenalty",
    "Melds",
    "Pack",
    "Pile",
    "Players",
    "RankWild",
    "Record",
    "RedThrees",
    "Requirement",
    "Rules",
    "Scoring",
    "Seating",
    "SequenceMelds",
    "SpecialCanasta",
    "Stock",
    "Suggested",
    "TakeTop",
    "WildMelds",
]


# --------------------------------------------------------------------------- pack and deal


class Pack(Record):
    """The cards played with."""

    decks: Annotated[int, Field(ge=1, le=MAX_DECKS)] = Field(
        description="Standard 52-card decks shuffled together; each card exists this many times."
    )
    jokers: Annotated[int, Field(ge=0, le=MAX_JOKERS)] = Field(
        description="Jokers in the whole pack."
    )
    wild_ranks: Annotated[tuple[Rank, ...], AfterValidator(no_repeats)] = Field(
        description="Ranks that are wild besides the jokers (jokers are always wild); "
        "each rank at most once.",
        json_schema_extra={"uniqueItems": True},
    )


class Seating(Record):
    """How a given number of players sits, is dealt and draws."""

    teams: Annotated[int, Field(ge=2, le=8)] = Field(
        description="Sides scoring separately; players sit alternately, seat i plays for side "
        "i mod teams. Fewer teams than players means partnerships."
    )
    hand_size: PositiveCardCount = Field(description="Cards dealt to each player.")
    draw: PositiveCardCount = Field(description="Cards drawn from the stock in a normal turn.")


class Players(Record):
    usual: PlayerCount = Field(description="The number of players the rulebook is written for.")
    seats: Annotated[dict[PlayerCount, Seating], ByPlayers] = Field(
        description="One entry per number of players allowed (a table, replaced whole)."
    )


class Foot(Record):
    """A second packet dealt face down to each player, taken into the hand later (issue 42:
    Pennies from Heaven's eleven cards; Hand and Foot's foot)."""

    cards: PositiveCardCount = Field(description="Cards in each player's packet.")
    taken: Literal["canasta", "hand_played_out"] = Field(
        description="When the packet joins the player's hand: as soon as the player completes a "
        "canasta for the side (canasta), or as soon as the player's hand is played out "
        "(hand_played_out). Until then the player cannot go out. A packet still aside when the "
        "hand ends is turned up: its red threes are laid out, its other cards count as cards "
        "held."
    )


class Deal(Record):
    # issue 42 (Modern American Canasta): no card turned up; the first discard starts the pile
    upcard: bool = Field(
        default=True,
        description="Whether a card of the stock is turned up after the deal to start the pile "
        "(false: the pile starts empty, with the first player's discard).",
    )
    upcard_covered_if: tuple[CardClass, ...] = Field(
        description="Cards that, turned up to start the pile, are covered by another card "
        "turned up on them (they stay in the pile)."
    )
    # issue 42 (Pennies from Heaven): each player's foot
    foot: Foot | None = Field(
        default=None,
        description="A second packet dealt face down to each player after the hands, and when "
        "it joins the hand (null: none).",
    )
    # issue 42 (Modern American Canasta): bonus piles of four and three cards
    bonus_piles: tuple[PositiveCardCount, ...] = Field(
        default=(),
        description="Packets set aside face down at the deal, in order: the player whose step "
        "meets bonus_piles_taken for a side takes the first packet still there into the hand at "
        "once (empty: none). A packet nobody takes stays out of play.",
    )
    bonus_piles_taken: Literal["first_meld", "first_canasta"] = Field(
        default="first_meld",
        description="When a side takes a bonus pile: with the step that is its first meld of the "
        "hand, or with the step that completes its first canasta. A side that may still take one "
        "cannot go out before it has.",
    )


# --------------------------------------------------------------------------- melds


class RankWild(Record):
    """A rank whose groups take wild cards by a limit of their own (issue 42: Modern American
    Canasta's sevens and aces)."""

    max_wild: CardCount = Field(description="Most wild cards in a group of this rank.")
    first_meld: bool = Field(
        default=False,
        description="Whether a group of this rank laid in the side's first meld of the hand may "
        "take wild cards within the group limits instead, and keeps that freedom after.",
    )


class GroupMelds(Record):
    """Melds of one rank, natural cards with wild cards."""

    min_size: MeldSize = Field(description="Fewest cards in a new group.")
    min_natural: PositiveCardCount = Field(description="Fewest natural cards a group holds.")
    max_wild: CardCount | None = Field(
        description="Most wild cards in a group; null for no fixed limit."
    )
    ratio: Literal["any", "naturals_exceed_wilds", "naturals_twice_wilds"] = Field(
        description="How naturals must relate to wilds: any; naturals outnumber wilds; naturals "
        "at least twice the wilds."
    )
    max_size: PositiveCardCount | None = Field(
        description="Most cards in a group (null: it may grow past a canasta without limit)."
    )
    wild_onto_canasta: bool = Field(
        description="Whether a wild card may be added to a group that is already a canasta."
    )
    duplicate_ranks: bool = Field(
        description="Whether a side may hold two or more separate groups of the same rank."
    )
    combine: bool = Field(
        description="Whether a side holding two groups of the same rank may join them into "
        "one (within the group limits), as a move of its own."
    )
    # issue 42 (Modern American Canasta): limits of wild cards by rank and by the first meld
    wild_by_rank: Annotated[dict[Rank, RankWild], distinct_keys(rank_or_key)] = Field(
        default_factory=dict,
        max_length=13,
        description="Ranks whose groups take wild cards by a limit of their own, below the "
        "group limits (empty: none).",
    )
    late_wild_min_natural: MeldSize | None = Field(
        default=None,
        description="Natural cards a group must hold to take a wild card once the side has "
        "made its first meld of the hand (null: no more than min_natural).",
    )


class SequenceMelds(Record):
    """Melds of one suit in unbroken rank order (a seven-card one is an escalera)."""

    allowed: bool = Field(description="Whether sequences may be melded at all.")
    min_size: MeldSize = Field(description="Fewest cards in a new sequence.")
    max_size: PositiveCardCount | None = Field(
        description="Most cards in a sequence (null: no limit)."
    )
    lowest: Rank = Field(
        description="Lowest rank a sequence may hold (A: the ace below the two, aces low; "
        "threes and wild ranks inside the span take their place, a wild rank's filled by a "
        "wild card)."
    )
    highest: Rank = Field(
        description="Highest rank a sequence may hold (A: aces high; with lowest A too, an "
        "ace may stand at either end)."
    )
    max_wild: CardCount = Field(description="Most wild cards in a sequence.")
    # issue 42: "one wild card, in a seven-card canasta only"
    wild_from_size: MeldSize | None = Field(
        default=None,
        description="Fewest cards a sequence holding a wild card may have (null: any size it "
        "may have; 7 with max_wild 1: one wild card, in a seven-card sequence or longer only).",
    )
    # issue 17 (Brazilian Canasta): an escalera extended in going out
    extend_going_out: bool = Field(
        default=False,
        description="Whether a player going out may add cards to the side's sequences past "
        "max_size (to the ends of an escalera, within lowest and highest), on that turn only.",
    )
    # issue 17 (Brazilian Canastra): a sequence from ace to ace
    two_aces: bool = Field(
        default=False,
        description="Whether one sequence may hold an ace at each end (ace to ace, fourteen "
        "cards); only with lowest and highest both A.",
    )
    # issue 42 (Brazilian Canastra): a run through its own two
    natural_twos: bool = Field(
        default=False,
        description="Whether the two of a sequence's suit may stand in the two's place as a "
        "natural card, not one of its wild cards (where twos are wild and the span holds the "
        "two's place; another two may then be its wild card).",
    )

    def span(self) -> tuple[int, int]:
        """The positions (:data:`bolivia.cards.POSITION_RANK`) of the lowest and the highest
        card of a sequence: 0 for an ace low, ``r + 1`` for rank index ``r``."""
        low = 0 if self.lowest == "A" else RANKS.index(self.lowest) + 1
        return low, RANKS.index(self.highest) + 1

    def longest(self) -> int:
        """The most positions one sequence may fill: its span's, but 13 where the ace may
        stand at either end and not at both (``two_aces``)."""
        low, high = self.span()
        size = high - low + 1
        return size if size < 14 or self.two_aces else 13


class WildMelds(Record):
    """Melds of wild cards only (seven of them are a bolivia)."""

    allowed: bool = Field(description="Whether wild cards may be melded on their own.")
    min_size: MeldSize = Field(description="Fewest cards in a new wild meld.")
    max_size: PositiveCardCount | None = Field(
        description="Most cards in a wild meld (null: no limit)."
    )
    # issue 42 (Modern American Canasta): an unfinished wild meld locks the side
    unfinished_locks: Annotated[
        tuple[Literal["wild_elsewhere", "going_out"], ...], AfterValidator(no_repeats)
    ] = Field(
        default=(),
        description="What a side may not do while it has a wild meld short of a canasta: add "
        "wild cards to its other melds (wild_elsewhere), go out (going_out).",
        json_schema_extra={"uniqueItems": True},
    )


class BlackThreeMelds(Record):
    when: Literal["never", "going_out", "always"] = Field(
        description="When black threes may be melded as a group of their own."
    )
    min_size: MeldSize = Field(description="Fewest black threes in the meld.")
    max_size: PositiveCardCount | None = Field(
        description="Most black threes in the meld (null: any)."
    )
    max_wild: CardCount = Field(description="Most wild cards in a black-three meld.")


class Melds(Record):
    group: GroupMelds
    sequence: SequenceMelds
    wild: WildMelds
    black_threes: BlackThreeMelds


class CanastaKind(Record):
    name: str = Field(min_length=1, max_length=40, description="What the ruleset calls it.")
    size: MeldSize = Field(description="Cards that make the meld a canasta.")
    bonus: Points = Field(description="Points the canasta scores on top of its cards.")


class SpecialCanasta(Record):
    """A canasta of one kind whose cards make it worth a bonus of its own (a canasta of aces,
    seven twos, a sequence holding one wild card): it matches a canasta of ``kind`` whose
    composition meets every condition given here (a condition left null does not apply)."""

    name: str = Field(min_length=1, max_length=40, description="What the ruleset calls it.")
    kind: CanastaKindName = Field(description="The kind of canasta it is a special case of.")
    rank: Rank | None = Field(
        default=None, description="The rank of the group (natural and mixed only; null: any)."
    )
    min_size: MeldSize | None = Field(
        default=None, description="Fewest cards it holds (null: the kind's canasta size)."
    )
    min_wild: CardCount = Field(default=0, description="Fewest wild cards it holds.")
    max_wild: CardCount | None = Field(
        default=None, description="Most wild cards it holds (null: no limit)."
    )
    min_jokers: CardCount = Field(default=0, description="Fewest jokers it holds.")
    max_jokers: CardCount | None = Field(
        default=None, description="Most jokers it holds (null: no limit)."
    )
    bonus: Points = Field(
        description="Points it scores on top of its cards, instead of the kind's."
    )


class Canastas(Record):
    """Canastas by kind: natural and mixed groups, escaleras (sequences), bolivias (wild)."""

    natural: CanastaKind
    mixed: CanastaKind
    escalera: CanastaKind
    bolivia: CanastaKind
    special: tuple[SpecialCanasta, ...] = Field(
        description="Canastas paid a bonus of their own by what they hold, in order: a canasta "
        "takes the bonus of the first entry it matches, else its kind's (a list, replaced whole "
        "or edited by entry)."
    )


# --------------------------------------------------------------------------- initial meld


class Band(Record):
    from_score: Score | None = Field(
        alias="from",
        description="The side's total score at which this band starts (null: the first band, "
        "every score below the next band).",
    )
    minimum: Points = Field(description="Points the side's first meld of a hand must reach.")
    # issue 17 (Brazilian Canasta): first melds made of melds
    canasta: Annotated[tuple[CanastaKindName, ...], AfterValidator(no_repeats)] = Field(
        default=(),
        description="Kinds of canasta one of which the first meld must hold (empty: none "
        "needed); the minimum then counts the melds of the turn as it always does.",
        json_schema_extra={"uniqueItems": True},
    )


class InitialMeld(Record):
    bands: tuple[Band, ...] = Field(
        min_length=1, description="The minimum by the side's score, lowest band first."
    )
    counts_top_card: bool = Field(
        description="Whether the pile's top card, taken to meld, counts toward the minimum."
    )
    several_melds: bool = Field(
        description="Whether several melds laid in the same turn count together."
    )
    counts_sequences: bool = Field(description="Whether sequences count toward the minimum.")
    counts_wild_melds: bool = Field(description="Whether wild-only melds count toward it.")
    counts_bonuses: bool = Field(description="Whether canasta bonuses count toward it.")
    # issue 42 (a Danish family's Canasta): a round of turns before anyone melds
    after_first_round: bool = Field(
        default=False,
        description="Whether nobody may meld, take the pile or go out in the hand's first round "
        "of turns (each player's first turn is a draw and a discard).",
    )


# --------------------------------------------------------------------------- discard pile

PileCondition = Literal[
    "side_not_melded", "contains_wild", "contains_black_three", "contains_red_three", "always"
]
TakeWay = Literal["natural_pair", "natural_and_wild", "onto_meld"]
# a card a bar keeps from the discard: a rank (a red three is never held), or the black threes
BarredCard = Literal[
    "black_three", "2", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A", "JK"
]


class DiscardBar(Record):
    """Cards a player may not discard until a condition holds (Pennies from Heaven's sevens,
    Cuban Canasta's black threes in the first round);
    how the engine reads a hand of barred cards: :mod:`bolivia.engine.discard`."""

    cards: Annotated[tuple[BarredCard, ...], AfterValidator(no_repeats)] = Field(
        min_length=1,
        description="The cards barred: ranks, black_three, JK (jokers).",
        json_schema_extra={"uniqueItems": True},
    )
    until: Literal["never", "side_canasta", "every_side_canasta", "first_round"] = Field(
        description="When the bar lifts: never, once the player's side has the canasta named in "
        "canasta, once every side has one, or once the hand's first round of turns is over "
        "(every player has had a turn)."
    )
    canasta: CanastaNamed | None = Field(
        default=None, description="The canasta it waits for: a kind or a special canasta's name."
    )
    going_out: bool = Field(
        default=False, description="Whether they stay barred, once it lifts, to go out with."
    )


class BlackThreesAside(Record):
    """Black threes taken with the pile, set aside out of play and scored for the side that
    took them (Cuban Canasta: 5 each, 100 for all four)."""

    value: Points = Field(description="What each black three set aside scores.")
    all_value: Points | None = Field(
        default=None,
        description="What a side scores that set aside every black three of the pack (null: "
        "value for each).",
    )


class TakeTop(Record):
    """Taking only the pile's top card, instead of drawing, to extend a side's meld."""

    allowed: bool = Field(description="Whether the top card alone may be taken.")
    onto_kinds: tuple[MeldKind, ...] = Field(
        description="Kinds of the side's melds the top card may extend."
    )
    below_canasta: bool = Field(description="Whether the meld extended must not yet be a canasta.")


class Pile(Record):
    frozen_when: tuple[PileCondition, ...] = Field(
        description="Conditions that freeze the pile (for a side: side_not_melded)."
    )
    take_frozen: tuple[TakeWay, ...] = Field(
        description="Ways a frozen pile may be taken (empty: not at all)."
    )
    take_unfrozen: tuple[TakeWay, ...] = Field(description="Ways an unfrozen pile may be taken.")
    onto_kinds: tuple[MeldKind, ...] = Field(
        description="Kinds of the side's melds the top card may go onto (way onto_meld)."
    )
    onto_canasta: bool = Field(
        description="Whether the top card may go onto a meld that is already a canasta."
    )
    blocked_by_top: tuple[CardClass, ...] = Field(
        description="Top cards that stop anyone taking the pile."
    )
    pair_starts_new_meld: bool = Field(
        description="Whether taking with cards from the hand always starts a new meld, even "
        "when the side already has a group of that rank."
    )
    take_top: TakeTop
    one_card_rule: bool = Field(
        description="Whether a player holding one card is barred from taking a one-card pile."
    )
    # issue 42 (Pennies from Heaven): sevens kept from the discard
    discard_barred: tuple[DiscardBar, ...] = Field(
        default=(), description="Cards a player may not discard, each with what lifts the bar."
    )
    # issue 42 (Cuban Canasta): black threes taken with the pile go out of play, for points
    black_threes_aside: BlackThreesAside | None = Field(
        default=None,
        description="Black threes taken with the pile: set aside for points (null: into the "
        "hand, as any card).",
    )
    # issue 17 (Brazilian Canasta): no pile for the first meld
    for_first_meld: bool = Field(
        default=True,
        description="Whether the pile may be taken to make the side's first meld (false: a "
        "side that has not melded draws, and makes its first meld from the hand).",
    )


# --------------------------------------------------------------------------- threes


class Choice(Record):
    """A named choice with parameters (its first field names the choice); a leaf, replaced whole."""


class PlusWhenSideMelded(Choice):
    condition: Literal["side_melded"]


class PlusWhenCanastas(Choice):
    condition: Literal["canastas"]
    count: PositiveCanastaCount = Field(
        description="Canastas the side needs for its red threes to count plus."
    )
    # issue 42 (Pennies from Heaven): a canasta of sevens for red threes to count plus
    including: dict[CanastaNamed, PositiveCanastaCount] = Field(
        default_factory=dict,
        description="Canastas of given kinds, or special canastas by name, that must be among "
        "them (as going_out.requirement's including).",
    )


class PlusWhenGoingOut(Choice):
    condition: Literal["going_out_requirement"]


class PlusAlways(Choice):
    condition: Literal["always"]


PlusWhen = Annotated[
    PlusWhenSideMelded | PlusWhenCanastas | PlusWhenGoingOut | PlusAlways,
    Field(discriminator="condition"),
]


_red_count_key = number_key("a number of red threes")
RedThreeCount = Annotated[int, BeforeValidator(_red_count_key), Field(ge=1, le=MAX_CARDS)]


class RedThrees(Record):
    value: Points = Field(description="Points for each red three.")
    all_value: Points = Field(
        description="Points for all the pack's red threes held by one side (instead of each)."
    )
    # issue 17 (Brazilian Canasta): values by count
    value_by_count: Annotated[dict[RedThreeCount, Points], distinct_keys(_red_count_key)] = Field(
        default_factory=dict,
        description="Points in all for a side holding exactly this many red threes, instead "
        "of value each (a table keyed by the count, replaced whole; empty: value each, "
        "all_value for all the pack's). A count of all the pack's red threes listed here is "
        "worth what the table says, not all_value.",
    )
    plus_when: PlusWhen = Field(
        description="When a side's red threes count plus; otherwise they count minus."
    )
    replaced: bool = Field(description="Whether a red three laid out is replaced from the stock.")
    replaced_from_pile: bool = Field(
        description="Whether a red three that came with the pile is replaced too."
    )


# --------------------------------------------------------------------------- going out


class CanastaRequirement(Choice):
    rule: Literal["canastas"]
    count: CanastaCount = Field(description="Canastas the side must have.")
    including: dict[CanastaNamed, PositiveCanastaCount] = Field(
        default_factory=dict,
        description="Canastas of given kinds, or special canastas by their name in "
        "canastas.special, that must be among them. A canasta that matches a special canasta "
        "named here counts toward that name, not toward its kind (a canasta of sevens is not "
        "also the natural canasta a rulebook asks for beside it).",
    )


Requirement = Annotated[CanastaRequirement, Field(discriminator="rule")]


class GoingOut(Record):
    requirement: Requirement = Field(description="What the side's melds must include to go out.")
    requirement_by_players: Annotated[dict[PlayerCount, Requirement], ByPlayers] = Field(
        description="A different requirement for some numbers of players."
    )
    keep_cards: CardCount = Field(
        description="Cards a player must keep in hand after melding while the side may not go out."
    )
    discard_required: bool = Field(description="Whether going out needs a final discard.")
    ask_partner: Literal["never", "optional", "required"] = Field(
        description="Whether a player asks the partner before going out (the answer binds)."
    )
    bonus: Points = Field(description="Bonus for going out.")
    concealed_bonus: Points = Field(
        description="Bonus for going out concealed (instead of the plain bonus)."
    )
    concealed_when: Literal["player_not_melded", "side_not_melded"] = Field(
        description="Who must not have melded before for going out in one turn to be concealed."
    )


# --------------------------------------------------------------------------- stock, scoring, game


class ExhaustedEndHand(Choice):
    rule: Literal["end_hand"]


class ExhaustedTakeDiscards(Choice):
    rule: Literal["take_discards"]
    must_take_onto_meld: bool = Field(
        description="Whether a player must take a discard that goes onto the side's meld."
    )


Exhausted = Annotated[ExhaustedEndHand | ExhaustedTakeDiscards, Field(discriminator="rule")]


class Stock(Record):
    short_draw: Literal["take_remaining", "end_hand"] = Field(
        description="What a player does who must draw more cards than the stock holds."
    )
    exhausted: Exhausted = Field(
        description="Play once the stock is empty: end the hand, or go on taking discards "
        "until a player cannot or will not."
    )
    going_out_bonus_when_exhausted: bool = Field(
        description="Whether a hand ended by the empty stock still pays a going-out bonus."
    )


class MeldPenalty(Record):
    """A cost at the end of a hand for each meld of some kinds left on the table short of a
    size (issue 17: Brazilian Canasta's short sequences, other rulebooks' unfinished
    canastas)."""

    kinds: Annotated[tuple[MeldKind, ...], AfterValidator(no_repeats)] = Field(
        min_length=1,
        description="Kinds of meld the penalty is for (group, sequence, wild).",
        json_schema_extra={"uniqueItems": True},
    )
    fewer_than: MeldSize | None = Field(
        description="The meld holds fewer cards than this (null: any meld that is no canasta)."
    )
    # issue 42 (Modern American Canasta): penalties by rank
    ranks: Annotated[tuple[Rank, ...], AfterValidator(no_repeats)] = Field(
        default=(),
        description="Ranks of group the penalty is for (empty: every meld of its kinds).",
        json_schema_extra={"uniqueItems": True},
    )
    natural_only: bool = Field(
        default=False, description="Whether only a meld with no wild card in it pays it."
    )
    points: Points = Field(description="Points the side loses for each such meld.")


class HandPenalty(Record):
    """A cost at the end of a hand for a player left holding several cards of some ranks
    (issue 42: Modern American Canasta's sevens and aces kept in hand)."""

    ranks: Annotated[tuple[Rank, ...], AfterValidator(no_repeats)] = Field(
        min_length=1,
        description="Ranks whose cards are counted.",
        json_schema_extra={"uniqueItems": True},
    )
    at_least: PositiveCardCount = Field(
        description="Cards of those ranks a player must hold at the end to pay it."
    )
    points: Points = Field(description="Points the player's side loses.")


class Scoring(Record):
    card_points: Annotated[dict[PointKey, CardPoints], distinct_keys(rank_or_key)] = Field(
        description="Points of each card melded, by rank (3: a black three; JK: a joker); "
        "left in hand, the same points count minus."
    )
    black_three_in_hand: Points = Field(
        description="Points lost for each black three left in hand."
    )
    # issue 17 (Brazilian Canasta): melds left on the table at the end of the hand
    meld_penalties: tuple[MeldPenalty, ...] = Field(
        default=(),
        max_length=16,
        description="Costs at the end of the hand for melds left on the table: each meld that "
        "is no canasta pays the first entry it fits, if any (a list, replaced whole; empty: "
        "none).",
    )
    hand_penalties: tuple[HandPenalty, ...] = Field(
        default=(),
        max_length=16,
        description="Costs at the end of the hand for cards kept in hand: each player pays "
        "every entry whose ranks they hold enough of, on top of the cards' points (a list, "
        "replaced whole; empty: none).",
    )
    # issue 42 (a Danish family's Canasta): the dealer's exact take
    exact_deal_bonus: Points | None = Field(
        default=None,
        description="What the dealer's side scores, among its bonuses, when the dealer takes up "
        "from the pack exactly the cards the deal needs (null: nothing). A deftness of hands: "
        "scored where a score request says the take was exact (exact_deal); simulated deals, "
        "shuffled and dealt by the computer, never meet it.",
    )


class HandCap(Record):
    hands: Annotated[int, Field(ge=1, le=MAX_HANDS)] = Field(
        description="Hands after which the game stops."
    )
    outcome: Literal["draw", "leader_wins"] = Field(description="The result when it stops.")


class Game(Record):
    target: Target = Field(description="The score that ends the game.")
    target_options: tuple[Target, ...] = Field(
        description="Other targets the rulebook allows a table to choose."
    )
    target_by_players: Annotated[dict[PlayerCount, Target], ByPlayers] = Field(
        description="A different target for some numbers of players."
    )
    hand_cap: HandCap | None = Field(description="A limit on the number of hands, or null.")
    ties: Literal["draw", "play_on"] = Field(
        description="When the leaders are level at the end: a draw, or another hand."
    )


class Rules(Record):
    """Every rule of one ruleset, resolved."""

    pack: Pack
    players: Players
    deal: Deal
    melds: Melds
    canastas: Canastas
    initial_meld: InitialMeld
    pile: Pile
    red_threes: RedThrees
    going_out: GoingOut
    stock: Stock
    scoring: Scoring
    game: Game
