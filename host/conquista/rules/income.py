"""The 1954 patent's distributions: the progressive deal, the round income's power cards, power-card trades.

`deal = "progressive"`: the Deal's territory order is dealt `deal_batch` territories to each player per
distribution, one at a time in seat order from the first player, each with one army; the first distribution is the
game's start, then one more at the start of every round while any territory is left (a last distribution too small
for every player's share goes round-robin as far as it reaches). Power cards (`card_deck = "power"`) are drawn as
chance steps: `power_starting_cards` to each player after the first distribution, then each turn the cards of its
income row. Pure: no I/O, no random, no clock.
"""

from __future__ import annotations

from conquista.rules import power_cards
from conquista.rules.actions import Trade
from conquista.rules.choices import CardDeck
from conquista.rules.events import CardsTraded, Event, PhaseStarted, TerritoryDealt
from conquista.rules.events import Phase as P
from conquista.rules.unit_rules import UnitRules


class IncomeRules(UnitRules):
    __slots__ = ()

    def _distribute(self, events: list[Event] | None) -> None:
        """One distribution: `deal_batch` territories to each live player, round-robin from the first player."""
        seats = [(self.first_player + i) % self.players for i in range(self.players)]
        seats = [s for s in seats if not self.eliminated[s] and not self.left[s]]
        share = min(len(self.undealt), self.rules.deal_batch * len(seats))
        if not share or not seats:
            return
        self._keep(self.undealt)
        dealt, self.undealt[:] = self.undealt[:share], self.undealt[share:]
        for i, t in enumerate(dealt):
            seat = seats[i % len(seats)]
            self._set(self.owner, t, seat)
            self._set(self.armies, t, 1)
            self._set(self.territory_count, seat, self.territory_count[seat] + 1)
            self.placed_total += 1
            if events is not None:
                events.append(TerritoryDealt(seat, t))

    def _power_cards_left(self) -> bool:
        return bool(self.deck or self.discard)

    def _start_first_draws(self) -> bool:
        """After the first distribution: each player is dealt their starting power cards, from the first player.
        False when there are none to deal."""
        due = self.rules.power_starting_cards if self.rules.card_deck is CardDeck.POWER else 0
        if not due or not self._power_cards_left():
            return False
        self.current = self.first_player
        self.draws_due = due
        self.phase = P.DRAW
        return True

    def _start_income_draws(self, cards: int) -> None:
        """The turn's income cards are drawn before the player places; none due (or none left): reinforce."""
        if cards and self._power_cards_left():
            self.draws_due = cards
            self.phase = P.DRAW
        else:
            self.draws_due = 0
            self.phase = P.REINFORCE

    def _after_due_draw(self, events: list[Event]) -> None:
        """A card due was drawn: the next one, the next player's first cards, or the turn goes on."""
        self.draws_due -= 1
        if self.draws_due and self._power_cards_left():
            return
        self.draws_due = 0
        if self.turn == 0:  # the first distribution's cards
            nxt = (self.current + 1) % self.players
            if nxt != self.first_player and self._power_cards_left():
                self.current = nxt
                self.draws_due = self.rules.power_starting_cards
                return
            self._start_turn(self.first_player, events)
            return
        self.phase = P.REINFORCE
        events.append(PhaseStarted(self.current, P.REINFORCE))

    def _check_power_trade(self, action: Trade) -> str:
        """The trade's kind ("eagle" or "four_figures"), or the refusal."""
        cards = action.cards
        hand = self.hands[self.current]
        if (cards.__class__ is not tuple or any(c.__class__ is not int for c in cards) or len(set(cards)) != len(cards)
                or any(c not in hand for c in cards)):
            raise self._fail(action, "a trade is an eagle, or four different figures, from your hand")
        kind = power_cards.trade_kind(cards)
        if kind is None:
            raise self._fail(action, "a trade is an eagle alone, or four different figures (napoleon, grenadier, "
                                     "hussar, cannon)")
        return kind

    def _apply_power_trade(self, action: Trade, kind: str, events: list[Event]) -> None:
        me, hand = self.current, self.hands[self.current]
        armies = self.power_value(action.cards)
        self.sets_traded += 1
        self._keep(hand)
        self._keep(self.discard)
        for c in action.cards:
            hand.remove(c)
            self.discard.append(c)
        events.append(CardsTraded(me, action.cards, kind, armies, 0))
        self.pool += armies

    # Defined by TurnRules; declared here for the type checker.
    def _start_turn(self, seat: int, events: list[Event], previous: int | None = None) -> None:
        raise NotImplementedError
