"""The phrase table: for each field of the rule tree, a label, the question a player asks
about it, and the words of its answers, each a message of the catalog (``N_``: translated where
it is used, by :mod:`bolivia.rules.phrases`, which writes the answers).

``Phrase.number`` is the template of a count: ``{n:card}`` a count with its noun (the noun's
plural form by the language's rule), ``{n:,}`` a number as the language writes it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from bolivia.language import N_

__all__ = ["CANASTA_KINDS", "CANASTA_WORDS", "NAMES", "PHRASES", "RANKS", "RANK_LETTERS", "Phrase"]


@dataclass(frozen=True)
class Phrase:
    """How one rule reads: its name, its question and its answers.

    ``label``: a name in words.
    ``question``: what a player asks.
    ``words``: the answer per choice value. The keys ``"true"``/``"false"`` are for yes/no,
      ``"none"`` for a missing limit, ``"empty"`` for an empty list or table, ``"0"`` for a zero
      count.
    ``number``: the template for a count.
    ``joiner``: the word that joins a list's items.
    """

    label: str
    question: str
    words: Mapping[str, str] = field(default_factory=dict)
    number: str = "{n:,}"
    joiner: str = "or"


_YES_NO = {"true": N_("yes"), "false": N_("no")}
RANKS = {
    "2": N_("two"),
    "3": N_("three"),
    "4": N_("four"),
    "5": N_("five"),
    "6": N_("six"),
    "7": N_("seven"),
    "8": N_("eight"),
    "9": N_("nine"),
    "10": N_("ten"),
    "J": N_("jack"),
    "Q": N_("queen"),
    "K": N_("king"),
    "A": N_("ace"),
}
_RANKS_PLURAL = {
    "2": N_("twos"),
    "3": N_("threes"),
    "4": N_("fours"),
    "5": N_("fives"),
    "6": N_("sixes"),
    "7": N_("sevens"),
    "8": N_("eights"),
    "9": N_("nines"),
    "10": N_("tens"),
    "J": N_("jacks"),
    "Q": N_("queens"),
    "K": N_("kings"),
    "A": N_("aces"),
}
_THE_RANKS = {
    "2": N_("the twos"),
    "3": N_("the threes"),
    "4": N_("the fours"),
    "5": N_("the fives"),
    "6": N_("the sixes"),
    "7": N_("the sevens"),
    "8": N_("the eights"),
    "9": N_("the nines"),
    "10": N_("the tens"),
    "J": N_("the jacks"),
    "Q": N_("the queens"),
    "K": N_("the kings"),
    "A": N_("the aces"),
}
# the ranks as a card shows them (the letters differ by language: R, D, V in French)
_RANK_LETTERS = {
    **{r: r for r in ("2", "4", "5", "6", "7", "8", "9", "10")},
    # NOTE: the jack as the corner of a card shows it
    "J": N_("J"),
    # NOTE: the queen as the corner of a card shows it
    "Q": N_("Q"),
    # NOTE: the king as the corner of a card shows it
    "K": N_("K"),
    # NOTE: the ace as the corner of a card shows it
    "A": N_("A"),
}
# the names the shipped rulesets give the kinds of canasta (free text in a ruleset file)
NAMES = (
    N_("natural canasta"),
    N_("mixed canasta"),
    N_("escalera"),
    N_("bolivia"),
    N_("samba"),
    N_("wild canasta"),
    N_("black samba"),
    N_("canasta of twos"),
    N_("canasta of four jokers"),
)
_CARD_CLASSES = {
    "wild": N_("a wild card"),
    "red_three": N_("a red three"),
    "black_three": N_("a black three"),
}
_MELD_KINDS = {"group": N_("a group"), "sequence": N_("a sequence"), "wild": N_("a wild meld")}
_CANASTA_KINDS = {
    "natural": N_("natural"),
    "mixed": N_("mixed"),
    "escalera": N_("escalera"),
    "bolivia": N_("wild"),
}
CANASTA_WORDS = _CANASTA_KINDS  # a kind of canasta as a word: natural, mixed, escalera, wild
RANK_LETTERS = _RANK_LETTERS  # a rank as the corner of a card shows it
_TAKE_WAYS = {
    "natural_pair": N_("with two natural cards from the hand matching the top card"),
    "natural_and_wild": N_("with one matching natural card and a wild card from the hand"),
    "onto_meld": N_("by putting the top card onto one of the side's melds"),
    "empty": N_("not at all"),
}
CANASTA_KINDS = {
    "natural": (N_("natural canasta"), N_("a group of one rank without wild cards")),
    "mixed": (N_("mixed canasta"), N_("a group of one rank with wild cards")),
    "escalera": (N_("escalera"), N_("a sequence in one suit")),
    "bolivia": (N_("bolivia"), N_("wild cards only")),
}
_ARTICLE = {"natural": "a", "mixed": "a", "escalera": "an", "bolivia": "a"}


def _canasta_phrases() -> dict[str, Phrase]:
    """The name, size and bonus of each kind of canasta, each a whole message."""
    return {
        "canastas.natural.name": Phrase(
            N_("name of the natural canasta (a group of one rank without wild cards)"),
            N_("What is the canasta of a group of one rank without wild cards called?"),
        ),
        "canastas.natural.size": Phrase(
            N_("cards in a natural canasta"),
            N_("How many cards make a natural canasta (a group of one rank without wild cards)?"),
            number=N_("{n:card}"),
        ),
        "canastas.natural.bonus": Phrase(
            N_("natural canasta bonus"),
            N_(
                "What does a natural canasta (a group of one rank without wild cards) score on "
                "top of its cards?"
            ),
            number=N_("{n:point}"),
        ),
        "canastas.mixed.name": Phrase(
            N_("name of the mixed canasta (a group of one rank with wild cards)"),
            N_("What is the canasta of a group of one rank with wild cards called?"),
        ),
        "canastas.mixed.size": Phrase(
            N_("cards in a mixed canasta"),
            N_("How many cards make a mixed canasta (a group of one rank with wild cards)?"),
            number=N_("{n:card}"),
        ),
        "canastas.mixed.bonus": Phrase(
            N_("mixed canasta bonus"),
            N_(
                "What does a mixed canasta (a group of one rank with wild cards) score on top "
                "of its cards?"
            ),
            number=N_("{n:point}"),
        ),
        "canastas.escalera.name": Phrase(
            N_("name of the escalera (a sequence in one suit)"),
            N_("What is the canasta of a sequence in one suit called?"),
        ),
        "canastas.escalera.size": Phrase(
            N_("cards in an escalera"),
            N_("How many cards make an escalera (a sequence in one suit)?"),
            number=N_("{n:card}"),
        ),
        "canastas.escalera.bonus": Phrase(
            N_("escalera bonus"),
            N_("What does an escalera (a sequence in one suit) score on top of its cards?"),
            number=N_("{n:point}"),
        ),
        "canastas.bolivia.name": Phrase(
            N_("name of the bolivia (wild cards only)"),
            N_("What is the canasta of wild cards only called?"),
        ),
        "canastas.bolivia.size": Phrase(
            N_("cards in a bolivia"),
            N_("How many cards make a bolivia (wild cards only)?"),
            number=N_("{n:card}"),
        ),
        "canastas.bolivia.bonus": Phrase(
            N_("bolivia bonus"),
            N_("What does a bolivia (wild cards only) score on top of its cards?"),
            number=N_("{n:point}"),
        ),
    }


PHRASES: dict[str, Phrase] = {
    "pack.decks": Phrase(
        N_("decks in the pack"),
        N_("How many standard decks are shuffled together?"),
        number=N_("{n:deck}"),
    ),
    "pack.jokers": Phrase(
        N_("jokers in the pack"),
        N_("How many jokers does the pack hold?"),
        {"0": N_("no joker")},
        N_("{n:joker}"),
    ),
    "pack.wild_ranks": Phrase(
        N_("wild ranks"),
        N_("Which cards are wild besides the jokers?"),
        {**_THE_RANKS, "empty": N_("only the jokers")},
        joiner="and",
    ),
    "players.usual": Phrase(
        N_("usual number of players"),
        N_("For how many players is the game written?"),
        number=N_("{n:player}"),
    ),
    "players.seats": Phrase(
        N_("players, sides and cards"),
        N_("How many may play, in how many sides, with how many cards dealt and drawn?"),
    ),
    "deal.upcard": Phrase(
        N_("the upcard"),
        N_("Is a card turned up after the deal to start the discard pile?"),
        _YES_NO,
    ),
    "deal.upcard_covered_if": Phrase(
        N_("first upcard covered"),
        N_("Which card turned up to start the pile is covered by another?"),
        {**_CARD_CLASSES, "empty": N_("no card: the first card turned up stays")},
    ),
    "deal.foot": Phrase(
        N_("the foot"),
        N_("Is each player dealt a second packet, taken up later?"),
        {"none": N_("no: each player holds the cards dealt")},
    ),
    "deal.bonus_piles": Phrase(
        N_("bonus piles"),
        N_("Are packets set aside at the deal for the sides' first melds?"),
        {"empty": N_("no bonus pile")},
        number=N_("{n:card}"),
        joiner="and",
    ),
    "deal.bonus_piles_taken": Phrase(
        N_("bonus piles taken"),
        N_("When does a side take a bonus pile?"),
        {
            "first_meld": N_("with its first meld of the hand"),
            "first_canasta": N_("on completing its first canasta"),
        },
    ),
    "initial_meld.after_first_round": Phrase(
        N_("a round of turns before anyone melds"),
        N_("Must a whole round of turns pass before anyone melds?"),
        _YES_NO,
    ),
    "scoring.exact_deal_bonus": Phrase(
        N_("the dealer's exact take"),
        N_("Does a dealer who takes up exactly the cards the deal needs score a bonus?"),
        {"none": N_("no bonus for it")},
        number=N_("{n:point}"),
    ),
    "melds.group.min_size": Phrase(
        N_("smallest group"), N_("How few cards may a new group hold?"), number=N_("{n:card}")
    ),
    "melds.group.min_natural": Phrase(
        N_("natural cards in a group"),
        N_("How many natural cards must a group hold?"),
        number=N_("{n:natural card}"),
    ),
    "melds.group.max_wild": Phrase(
        N_("wild cards in a group"),
        N_("How many wild cards may a group hold?"),
        {"none": N_("any number"), "0": N_("no wild card")},
        number=N_("at most {n:wild card}"),
    ),
    "melds.group.ratio": Phrase(
        N_("natural against wild cards"),
        N_("How must a group's natural cards outnumber its wild cards?"),
        {
            "any": N_("no rule beyond the limits"),
            "naturals_exceed_wilds": N_("more natural cards than wild cards"),
            "naturals_twice_wilds": N_("at least twice as many natural cards as wild cards"),
        },
    ),
    "melds.group.max_size": Phrase(
        N_("largest group"),
        N_("How many cards may a group hold?"),
        {"none": N_("no limit")},
        N_("at most {n:card}"),
    ),
    "melds.group.wild_onto_canasta": Phrase(
        N_("wild cards onto a canasta"),
        N_("May a wild card be added to a canasta already made?"),
        _YES_NO,
    ),
    "melds.group.duplicate_ranks": Phrase(
        N_("two groups of one rank"), N_("May a side hold two groups of the same rank?"), _YES_NO
    ),
    "melds.group.combine": Phrase(
        N_("joining two groups"),
        N_("May a side join its two groups of one rank into one?"),
        _YES_NO,
    ),
    "melds.group.wild_by_rank": Phrase(
        N_("wild cards by rank"),
        N_("Do groups of some ranks take wild cards by a limit of their own?"),
        {"empty": N_("no: every rank has the same limits")},
    ),
    "melds.group.late_wild_min_natural": Phrase(
        N_("natural cards before a wild card"),
        N_(
            "Once a side has made its first meld, how many natural cards must a group hold to "
            "take a wild card?"
        ),
        {"none": N_("no more than at any other time")},
        number=N_("{n:natural card}"),
    ),
    "melds.sequence.allowed": Phrase(
        N_("sequences"), N_("May a sequence (a run in one suit) be melded?"), _YES_NO
    ),
    "melds.sequence.min_size": Phrase(
        N_("shortest sequence"), N_("How few cards may a new sequence hold?"), number=N_("{n:card}")
    ),
    "melds.sequence.max_size": Phrase(
        N_("longest sequence"),
        N_("How many cards may a sequence hold?"),
        {"none": N_("no limit")},
        N_("at most {n:card}"),
    ),
    "melds.sequence.lowest": Phrase(
        N_("lowest card of a sequence"), N_("What is the lowest card a sequence may hold?"), RANKS
    ),
    "melds.sequence.highest": Phrase(
        N_("highest card of a sequence"), N_("What is the highest card a sequence may hold?"), RANKS
    ),
    "melds.sequence.max_wild": Phrase(
        N_("wild cards in a sequence"),
        N_("How many wild cards may a sequence hold?"),
        {"0": N_("no wild card")},
        N_("at most {n:wild card}"),
    ),
    "melds.sequence.wild_from_size": Phrase(
        N_("sequences holding a wild card"),
        N_("How many cards must a sequence have to hold a wild card?"),
        {"none": N_("any number")},
        N_("{n:card} or more"),
    ),
    "melds.sequence.extend_going_out": Phrase(
        N_("sequences extended in going out"),
        N_(
            "May a player going out add cards to a sequence past its size limit (the ends of an "
            "escalera)?"
        ),
        _YES_NO,
    ),
    "melds.sequence.two_aces": Phrase(
        N_("sequences from ace to ace"),
        N_("May one sequence hold an ace at each end (fourteen cards, ace to ace)?"),
        _YES_NO,
    ),
    "melds.sequence.natural_twos": Phrase(
        N_("a sequence's own two"),
        N_(
            "May the two of a sequence's suit stand in its own place as a natural card, where "
            "twos are wild?"
        ),
        _YES_NO,
    ),
    "melds.wild.allowed": Phrase(
        N_("wild melds"), N_("May wild cards be melded on their own?"), _YES_NO
    ),
    "melds.wild.min_size": Phrase(
        N_("smallest wild meld"),
        N_("How few cards may a new wild meld hold?"),
        number=N_("{n:card}"),
    ),
    "melds.wild.max_size": Phrase(
        N_("largest wild meld"),
        N_("How many cards may a wild meld hold?"),
        {"none": N_("no limit")},
        N_("at most {n:card}"),
    ),
    "melds.wild.unfinished_locks": Phrase(
        N_("locks of an unfinished wild meld"),
        N_("What may a side not do while its wild meld is short of a canasta?"),
        {
            "empty": N_("nothing: an unfinished wild meld locks nothing"),
            "wild_elsewhere": N_("add wild cards to other melds"),
            "going_out": N_("go out"),
        },
        joiner="or",
    ),
    "melds.black_threes.when": Phrase(
        N_("melding black threes"),
        N_("When may black threes be melded on their own?"),
        {
            "never": N_("never"),
            "going_out": N_("only by a player going out"),
            "always": N_("at any time"),
        },
    ),
    "melds.black_threes.min_size": Phrase(
        N_("fewest black threes"),
        N_("How few black threes may be melded together?"),
        number=N_("{n:black three}"),
    ),
    "melds.black_threes.max_size": Phrase(
        N_("most black threes"),
        N_("How many black threes may be melded together?"),
        {"none": N_("as many as there are")},
        N_("at most {n:black three}"),
    ),
    "melds.black_threes.max_wild": Phrase(
        N_("wild cards with black threes"),
        N_("How many wild cards may a meld of black threes hold?"),
        {"0": N_("no wild card")},
        N_("at most {n:wild card}"),
    ),
    **_canasta_phrases(),
    "canastas.special": Phrase(
        N_("special canastas"),
        N_("Which canastas earn a bonus of their own for what they hold, instead of their kind's?"),
        {"empty": N_("no canasta: every canasta earns its kind's bonus")},
    ),
    "initial_meld.bands": Phrase(
        N_("first meld's minimum"),
        N_("How many points must a side's first meld reach, by its score?"),
    ),
    "initial_meld.counts_top_card": Phrase(
        N_("pile's top card toward the first meld"),
        N_("Does the pile's top card count toward the first meld's minimum?"),
        _YES_NO,
    ),
    "initial_meld.several_melds": Phrase(
        N_("several melds toward the first meld"),
        N_("Do several melds laid in one turn count together toward the first meld's minimum?"),
        _YES_NO,
    ),
    "initial_meld.counts_sequences": Phrase(
        N_("sequences toward the first meld"),
        N_("Do sequences count toward the first meld's minimum?"),
        _YES_NO,
    ),
    "initial_meld.counts_wild_melds": Phrase(
        N_("wild melds toward the first meld"),
        N_("Do wild melds count toward the first meld's minimum?"),
        _YES_NO,
    ),
    "initial_meld.counts_bonuses": Phrase(
        N_("canasta bonuses toward the first meld"),
        N_("Do canasta bonuses count toward the first meld's minimum?"),
        _YES_NO,
    ),
    "pile.frozen_when": Phrase(
        N_("what freezes the pile"),
        N_("What freezes the discard pile?"),
        {
            "side_not_melded": N_("for a side that has not melded yet"),
            "contains_wild": N_("when it holds a wild card"),
            "contains_black_three": N_("when it holds a black three"),
            "contains_red_three": N_("when it holds a red three"),
            "always": N_("always"),
            "empty": N_("nothing: it is never frozen"),
        },
    ),
    "pile.take_frozen": Phrase(
        N_("taking a frozen pile"), N_("How may a frozen pile be taken?"), _TAKE_WAYS
    ),
    "pile.take_unfrozen": Phrase(
        N_("taking a pile not frozen"),
        N_("How may a pile that is not frozen be taken?"),
        _TAKE_WAYS,
    ),
    "pile.onto_kinds": Phrase(
        N_("melds the top card may go onto"),
        N_("Onto which of the side's melds may the top card go, to take the pile?"),
        {**_MELD_KINDS, "empty": N_("no meld")},
    ),
    "pile.onto_canasta": Phrase(
        N_("top card onto a canasta"),
        N_("May the top card go onto a canasta already made, to take the pile?"),
        _YES_NO,
    ),
    "pile.blocked_by_top": Phrase(
        N_("top cards that block the pile"),
        N_("Which top card stops anyone taking the pile?"),
        {**_CARD_CLASSES, "empty": N_("no card")},
    ),
    "pile.pair_starts_new_meld": Phrase(
        N_("the pile's pair starts a new meld"),
        N_("Does taking the pile with cards from the hand always start a new meld?"),
        _YES_NO,
    ),
    "pile.take_top.allowed": Phrase(
        N_("taking only the top card"),
        N_("May a player take only the top card of the pile?"),
        _YES_NO,
    ),
    "pile.take_top.onto_kinds": Phrase(
        N_("melds the top card alone may extend"),
        N_("Onto which melds may a top card taken alone go?"),
        {**_MELD_KINDS, "empty": N_("no meld")},
    ),
    "pile.take_top.below_canasta": Phrase(
        N_("top card alone only below a canasta"),
        N_("Must the meld a top card taken alone extends be short of a canasta?"),
        _YES_NO,
    ),
    "pile.one_card_rule": Phrase(
        N_("one card against a one-card pile"),
        N_("Is a player holding a single card barred from taking a pile of a single card?"),
        _YES_NO,
    ),
    "pile.discard_barred": Phrase(
        N_("cards barred from the discard"),
        N_("Which cards may a player not discard, and until when?"),
        {"empty": N_("any card may be discarded")},
    ),
    "pile.black_threes_aside": Phrase(
        N_("black threes taken with the pile"),
        N_("What becomes of black threes taken with the pile?"),
        {"none": N_("they go into the hand, as any card")},
    ),
    "pile.for_first_meld": Phrase(
        N_("pile for the first meld"),
        N_("May the pile be taken to make the side's first meld?"),
        _YES_NO,
    ),
    "red_threes.value": Phrase(
        N_("each red three"), N_("What is each red three worth?"), number=N_("{n:point}")
    ),
    "red_threes.all_value": Phrase(
        N_("all the red threes"),
        N_("What are all the pack's red threes worth, held by one side?"),
        number=N_("{n:point}"),
    ),
    # issue 17 (Brazilian Canasta): red threes by count
    "red_threes.value_by_count": Phrase(
        N_("red threes by count"),
        N_("Do some numbers of red threes held by one side have a value of their own, in all?"),
        {"empty": N_("no: each counts its value, all the pack's together their own")},
    ),
    "red_threes.plus_when": Phrase(
        N_("when red threes count plus"),
        N_("When do a side's red threes count plus (otherwise they count minus)?"),
        {
            "side_melded": N_("once the side has melded"),
            "canastas": N_("once the side has {count:canasta}{including}"),
            "going_out_requirement": N_("once the side's melds meet the going-out requirement"),
            "always": N_("always: they never count minus"),
        },
    ),
    "red_threes.replaced": Phrase(
        N_("red threes replaced"), N_("Is a red three laid out replaced from the stock?"), _YES_NO
    ),
    "red_threes.replaced_from_pile": Phrase(
        N_("red threes from the pile replaced"),
        N_("Is a red three that came with the pile replaced from the stock too?"),
        _YES_NO,
    ),
    "going_out.requirement": Phrase(
        N_("what going out needs"),
        N_("What must a side have melded before it may go out?"),
        {"canastas": N_("{count:canasta}{including}"), "0": N_("nothing")},
    ),
    "going_out.requirement_by_players": Phrase(
        N_("going out by number of players"),
        N_("Does going out need something else for some numbers of players?"),
        {"empty": N_("no: the same for any number of players")},
    ),
    "going_out.keep_cards": Phrase(
        N_("cards kept while the side may not go out"),
        N_("How many cards must a player keep after melding while the side may not go out?"),
        number=N_("{n:card}"),
    ),
    "going_out.discard_required": Phrase(
        N_("a last discard to go out"), N_("Must a player going out discard a last card?"), _YES_NO
    ),
    "going_out.ask_partner": Phrase(
        N_("asking the partner"),
        N_('Does a player ask the partner "may I go out?" first?'),
        {
            "never": N_("never asked"),
            "optional": N_("may ask, and the answer binds"),
            "required": N_("must ask, and the answer binds"),
        },
    ),
    "going_out.bonus": Phrase(
        N_("going-out bonus"), N_("What does going out score?"), number=N_("{n:point}")
    ),
    "going_out.concealed_bonus": Phrase(
        N_("concealed going-out bonus"),
        N_("What does going out concealed (every card melded in one turn) score instead?"),
        number=N_("{n:point}"),
    ),
    "going_out.concealed_when": Phrase(
        N_("who must not have melded, to go out concealed"),
        N_("Going out concealed: who must not have melded before?"),
        {"player_not_melded": N_("the player going out"), "side_not_melded": N_("the whole side")},
    ),
    "stock.short_draw": Phrase(
        N_("drawing from a short stock"),
        N_("What happens when a player must draw more cards than the stock holds?"),
        {"take_remaining": N_("the player takes what is left"), "end_hand": N_("the hand ends")},
    ),
    "stock.exhausted": Phrase(
        N_("once the stock is empty"),
        N_("What happens once the stock is empty?"),
        {
            "end_hand": N_("the hand ends"),
            "take_discards": N_("play goes on with the discards{onto}"),
        },
    ),
    "stock.going_out_bonus_when_exhausted": Phrase(
        N_("going-out bonus after the stock runs out"),
        N_("Does a hand ended by the empty stock still pay a going-out bonus?"),
        _YES_NO,
    ),
    "scoring.card_points": Phrase(N_("card points"), N_("What is each card worth?")),
    "scoring.meld_penalties": Phrase(
        N_("melds left on the table"),
        N_("What do melds left on the table at the end of the hand cost their side?"),
        {"empty": N_("nothing"), **_MELD_KINDS},
    ),
    "scoring.hand_penalties": Phrase(
        N_("ranks kept in hand"),
        N_("What does a player left holding several cards of some ranks cost the side?"),
        {"empty": N_("nothing beyond the cards' points")},
    ),
    "scoring.black_three_in_hand": Phrase(
        N_("black three left in hand"),
        N_("What does a black three left in hand cost?"),
        number=N_("{n:point}"),
    ),
    "game.target": Phrase(
        N_("target score"), N_("What score ends the game?"), number=N_("{n:point}")
    ),
    "game.target_options": Phrase(
        N_("other targets"),
        N_("What other targets may a table choose?"),
        {"empty": N_("no other target")},
        N_("{n:point}"),
    ),
    "game.target_by_players": Phrase(
        N_("target by number of players"),
        N_("Is the target different for some numbers of players?"),
        {"empty": N_("no: the same for any number of players")},
    ),
    "game.hand_cap": Phrase(
        N_("a limit on hands"),
        N_("Does the game stop after a number of hands?"),
        {
            "none": N_("no limit"),
            "draw": N_("after {hands:hand}, as a draw"),
            "leader_wins": N_("after {hands:hand}, won by the leader"),
        },
    ),
    "game.ties": Phrase(
        N_("level leaders"),
        N_("What happens when the leaders are level at the end?"),
        {"draw": N_("the game is a draw"), "play_on": N_("another hand is played")},
    ),
}
