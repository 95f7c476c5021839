"""The closed choices of a ruleset, one enum per parameter. Each holds only the values the engine implements.

They are `StrEnum`s: a ruleset file and a game log carry the plain word ("missions"), and a value compares equal to
its word, so the logs and their digests read the same as when these were strings. A word the engine does not
implement is refused on load with the parameter named and the words it accepts.
"""

from __future__ import annotations

from enum import StrEnum


class DealKind(StrEnum):
    """All territories one at a time round-robin at the start, or (lamorisse-1954) `deal_batch` territories to each
    player per distribution, a distribution at the start of every round while any territory is left."""

    ROUND_ROBIN = "round_robin"
    PROGRESSIVE = "progressive"


class Objective(StrEnum):
    MISSIONS = "missions"
    WORLD = "world"


class CardDraw(StrEnum):
    """One card at the end of a turn with a conquest, or (lamorisse-1954) the cards of the round income only."""

    ON_CONQUEST = "on_conquest"
    INCOME = "income"


class CardDeck(StrEnum):
    """Territory cards with jollies traded in sets of three, or the 1954 power cards: four different figures make
    an army, an eagle alone makes `power_eagle_armies`."""

    TERRITORY = "territory"
    POWER = "power"


class TradeTiming(StrEnum):
    BEFORE_FIRST_ATTACK = "before_first_attack"


class TradeValues(StrEnum):
    FIXED = "fixed"
    INCREMENTAL = "incremental"


class BonusPlacement(StrEnum):
    ANYWHERE = "anywhere"
    ON_TERRITORY = "on_territory"


class EliminationTrade(StrEnum):
    """Which cards a player may trade at once after eliminating another: any set of the hand, or only sets made of
    the cards just taken from the beaten player."""

    ANY = "any"
    TAKEN = "taken"


class Ties(StrEnum):
    """Who loses a tied pair of dice: the attacker ("defender" wins it), or nobody: the pair is rolled again."""

    DEFENDER = "defender"
    REROLL = "reroll"


class OccupationMinimum(StrEnum):
    LAST_DICE = "last_dice"
    ONE = "one"


class FortifyPath(StrEnum):
    ADJACENT = "adjacent"
    CONNECTED = "connected"


class BattleKind(StrEnum):
    STANDARD = "standard"


class Rounding(StrEnum):
    """How half of an odd number of armies is rounded (the neutral army's reinforcements)."""

    DOWN = "down"
    UP = "up"


class FleetHandicap(StrEnum):
    """Which fleet's die counts less against an army (lamorisse-1954): in every battle between a fleet and an army,
    or only when the fleet attacks [interpretation: the patent says "in caso di attacco"]."""

    EVERY_BATTLE = "every_battle"
    ATTACKING_FLEET = "attacking_fleet"


# The enum of each parameter, by the name its annotation carries in `Ruleset`.
CHOICE_TYPES: dict[str, type[StrEnum]] = {cls.__name__: cls for cls in (
    DealKind, Objective, CardDraw, CardDeck, TradeTiming, TradeValues, BonusPlacement, EliminationTrade, Ties,
    OccupationMinimum, FortifyPath, BattleKind, Rounding, FleetHandicap)}
