"""The 1954 patent's distributions: the progressive deal, the round income's power cards, power-card trades.

`deal = "progressive"`: the Deal's territory order is dealt `deal_batch` territories to each player per
distribution, one at a time in seat order from the first player, each with one army; the first distribution is the
game's start, then one more at the start of every round while any territory is left (a last distribution too small
for every player's share goes round-robin as far as it reaches). Power cards (`card_deck = "power"`) are drawn as
chance steps: `power_starting_cards` to each player after the first distribution, then each turn the cards of its
income row. Pure: no I/O, no random, no clock.

Functions of a position that the turn (rules/turns.py) calls: they change the state through the position's
recorded primitives, so `Game.undo` takes them back.
"""

from __future__ import annotations

from conquista.rules import power_cards
from conquista.rules.actions import Trade
from conquista.rules.choices import CardDeck
from conquista.rules.events import CardsTraded, Event, PhaseStarted, TerritoryDealt
from conquista.rules.events import Phase as P
from conquista.rules.position import Position


def distribute(pos: Position, events: list[Event] | None) -> None:
    """One distribution: `deal_batch` territories to each live player, round-robin from the first player."""
    seats = [(pos.first_player + i) % pos.players for i in range(pos.players)]
    seats = [s for s in seats if not pos.eliminated[s] and not pos.left[s]]
    share = min(len(pos.undealt), pos.rules.deal_batch * len(seats))
    if not share or not seats:
        return
    pos.keep(pos.undealt)
    dealt, pos.undealt[:] = pos.undealt[:share], pos.undealt[share:]
    for i, t in enumerate(dealt):
        seat = seats[i % len(seats)]
        pos.change(pos.owner, t, seat)
        pos.change(pos.armies, t, 1)
        pos.change(pos.territory_count, seat, pos.territory_count[seat] + 1)
        pos.placed_total += 1
        if events is not None:
            events.append(TerritoryDealt(seat, t))


def power_cards_left(pos: Position) -> bool:
    return bool(pos.deck or pos.discard)


def start_first_draws(pos: Position) -> bool:
    """After the first distribution: each player is dealt their starting power cards, from the first player.
    False when there are none to deal."""
    due = pos.rules.power_starting_cards if pos.rules.card_deck is CardDeck.POWER else 0
    if not due or not power_cards_left(pos):
        return False
    pos.current = pos.first_player
    pos.draws_due = due
    pos.phase = P.DRAW
    return True


def start_income_draws(pos: Position, cards: int) -> None:
    """The turn's income cards are drawn before the player places; none due (or none left): reinforce."""
    if cards and power_cards_left(pos):
        pos.draws_due = cards
        pos.phase = P.DRAW
    else:
        pos.draws_due = 0
        pos.phase = P.REINFORCE


def after_due_draw(pos: Position, events: list[Event]) -> bool:
    """A card due was drawn: the next one, the next player's first cards, or the turn goes on. True when the first
    distribution's cards are all dealt and the first turn starts (the caller starts it: turns are rules/turns.py's)."""
    pos.draws_due -= 1
    if pos.draws_due and power_cards_left(pos):
        return False
    pos.draws_due = 0
    if pos.turn == 0:  # the first distribution's cards
        nxt = (pos.current + 1) % pos.players
        if nxt != pos.first_player and power_cards_left(pos):
            pos.current = nxt
            pos.draws_due = pos.rules.power_starting_cards
            return False
        return True
    pos.phase = P.REINFORCE
    events.append(PhaseStarted(pos.current, P.REINFORCE))
    return False


def check_power_trade(pos: Position, action: Trade) -> str | None:
    """Why a power-card trade is refused (None: an eagle, or four different figures, from the hand)."""
    cards = action.cards
    hand = pos.hands[pos.current]
    if (cards.__class__ is not tuple or any(c.__class__ is not int for c in cards) or len(set(cards)) != len(cards)
            or any(c not in hand for c in cards)):
        return "a trade is an eagle, or four different figures, from your hand"
    if power_cards.trade_kind(cards) is None:
        return "a trade is an eagle alone, or four different figures (napoleon, grenadier, hussar, cannon)"
    return None


def apply_power_trade(pos: Position, action: Trade, events: list[Event]) -> None:
    """A checked power-card trade: the cards to the discards, their armies to the pool."""
    me, hand = pos.current, pos.hands[pos.current]
    kind = power_cards.trade_kind(action.cards)
    assert kind is not None  # checked
    armies = pos.power_value(action.cards)
    pos.sets_traded += 1
    pos.keep(hand)
    pos.keep(pos.discard)
    for c in action.cards:
        hand.remove(c)
        pos.discard.append(c)
    events.append(CardsTraded(me, action.cards, kind, armies, 0))
    pos.pool += armies
