"""What a strong player does whatever the tries of the round ahead say (the hard bot's rules of thumb): the
round-ahead tries (`hard_attack.weigh`) see one round only, where a card pays when its set is traded, a continent's
bonus is paid every turn and armies kept at home win nothing; tuned on seeds the benchmarks do not use.

- Break a continent: another seat holding a whole continent is paid its bonus at the start of its turn; an attack
  into it that takes a territory at `BREAK_ODDS` or better is made first, before the bonus is paid.
- Take the card: a turn with a conquest earns a card (worth a third of a set, in armies: `card_armies`); while the
  turn has none, an attack at `CARD_ODDS` or better whose expected losses are below what the card and the
  territory are worth is made rather than stopping.
- Never move in and straight back out: a fortify move from a territory conquered this turn back into the
  territory the attack came from (the move-in undone) is not made.

Each rule reads only the board, the turn and the rules (nothing of another seat's secrets).
"""

from __future__ import annotations

from conquista.bots.planner_odds import odds_for
from conquista.rules.actions import Action, Attack, Blitz, Fortify
from conquista.rules.choices import CardDeck, CardDraw, TradeValues
from conquista.rules.engine import Game

CARD_ODDS = 0.5      # the least chance of a conquest made for the card
BREAK_ODDS = 0.45    # the least chance of an attack made to break a continent
TERRITORY = 1.0      # armies' worth of a territory taken, besides its card


def card_armies(game: Game) -> float:
    """What the card a conquest earns is worth, in armies: a third of the set it helps make (the next set's
    value where sets grow; the mean set's where they do not), and a little for the territory bonus it may bring."""
    rules = game.rules
    if rules.card_deck is not CardDeck.TERRITORY:
        return 1.0
    if rules.trade_values is TradeValues.INCREMENTAL:
        value = float(rules.set_value(rules.valid_sets[0], game.sets_traded))
    else:
        values = [rules.set_values[k] for k in rules.valid_sets if k in rules.set_values]
        value = sum(values) / len(values) if values else 6.0
    return value / 3.0 + rules.territory_bonus / 3.0


def card_due(game: Game) -> bool:
    """The turn has no conquest yet and a conquest would earn a card."""
    return (not game.turn_state.conquered and game.rules.card_draw is CardDraw.ON_CONQUEST
            and bool(game.deck or game.discard))


def _attack(game: Game, source: int, target: int) -> Action:
    if game.rules.blitz:
        return Blitz(source, target, 1)
    return Attack(source, target, game.max_attack_dice(source))


def _land_attacks(game: Game, me: int) -> list[tuple[int, int, float, float]]:
    """Every attack `me` may start by land on another seat's territory: (source, target, chance, expected losses)
    of a blitz to the end. With fleets or the neutral army the rules are left to the tries (their battles differ)."""
    if game.rules.fleets or game.neutral is not None:
        return []
    owner, armies, neighbours = game.owner, game.armies, game.map.neighbours
    odds = odds_for(game.rules)
    out = []
    for s, holder in enumerate(owner):
        if holder != me or armies[s] < 2:
            continue
        for t in neighbours[s]:
            if owner[t] == me or owner[t] < 0 or not game.attack_allowed(s, t):
                continue
            chance, lost, _ = odds.blitz(armies[s], armies[t], 1)
            out.append((s, t, chance, lost))
    return out


def held_continents(game: Game, me: int) -> list[int]:
    """The continents another seat holds whole, with a bonus to be paid at its turn."""
    owner = game.owner
    out = []
    for c, continent in enumerate(game.map.continents):
        holder = owner[continent.territories[0]]
        if (holder != me and holder >= 0 and continent.bonus > 0
                and all(owner[t] == holder for t in continent.territories)):
            out.append(c)
    return out


def break_attack(game: Game, me: int) -> Action | None:
    """The attack that best breaks another seat's continent at `BREAK_ODDS` or better (the bonus saved, in
    armies, times the chance, less the armies it expects to lose), or None."""
    if not game.rules.continent_bonuses:
        return None
    continents = held_continents(game, me)
    if not continents:
        return None
    territories = game.map.territories
    bonus = {c: game.map.continents[c].bonus for c in continents}
    best: tuple[float, int, int] | None = None
    for s, t, chance, lost in _land_attacks(game, me):
        c = territories[t].continent
        if c not in bonus or chance < BREAK_ODDS:
            continue
        gain = chance * (bonus[c] + TERRITORY) - lost
        if best is None or gain > best[0]:
            best = (gain, s, t)
    return None if best is None else _attack(game, best[1], best[2])


def card_attack(game: Game, me: int) -> Action | None:
    """While the turn's card is still to be earned: the attack at `CARD_ODDS` or better worth the most (the card
    and the territory, times the chance, less the expected losses), if it is worth anything; else None."""
    if not card_due(game):
        return None
    worth = card_armies(game) + TERRITORY
    best: tuple[float, int, int] | None = None
    for s, t, chance, lost in _land_attacks(game, me):
        if chance < CARD_ODDS:
            continue
        gain = chance * worth - lost
        if gain > 0 and (best is None or gain > best[0]):
            best = (gain, s, t)
    return None if best is None else _attack(game, best[1], best[2])


def moves_back(action: Action, conquered_from: dict[int, int]) -> bool:
    """`action` moves armies out of a territory conquered this turn back where its attack came from
    (`conquered_from`: conquered territory → the source of its attack)."""
    return isinstance(action, Fortify) and conquered_from.get(action.source) == action.target
