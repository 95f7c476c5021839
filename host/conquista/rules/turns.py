"""The rules that place, trade and run the turn: setup, reinforcement, card trades, the end of a phase, fortify,
card draws, the deal and whose turn it is. Pure: no I/O, no random, no clock. Each step validates everything before
it changes anything (a refused action leaves the state as it was); with `events` None it only checks.
"""

from __future__ import annotations

from conquista.errors import RulesetError
from conquista.rules import cards as cardlib
from conquista.rules import income
from conquista.rules.actions import Deal, Draw, EndPhase, Fortify, Place, Trade
from conquista.rules.choices import (
    BonusPlacement,
    CardDeck,
    CardDraw,
    DealKind,
    EliminationTrade,
    FortifyPath,
    Objective,
    Rounding,
)
from conquista.rules.events import (
    ArmiesMoved,
    ArmiesPlaced,
    CardDrawn,
    CardsTraded,
    DeckReshuffled,
    Event,
    GameOver,
    NeutralReinforcements,
    PhaseStarted,
    TurnStarted,
)
from conquista.rules.events import Phase as P
from conquista.rules.missions import mission_complete
from conquista.rules.position import PLACING, Position
from conquista.rules.state import TurnState


class TurnRules(Position):
    __slots__ = ()

    def _place(self, action: Place, events: list[Event] | None) -> None:
        neutral = self.phase is P.NEUTRAL_REINFORCE
        if self.phase not in PLACING and not neutral:
            raise self.refusal(action, "armies are placed only during setup or reinforcement")
        t = self._territory(action, action.territory)
        count = self._count(action, action.count, "the count")
        placer = self.neutral if neutral else self.current
        if self.owner[t] != placer:
            raise self.refusal(action, f"{self._tid(t)} is not the neutral army's" if neutral
                             else f"{self._tid(t)} is not yours")
        if not 1 <= count <= self.pool:
            raise self.refusal(action, f"you have {self.pool} armies to place")
        fleet = action.fleet
        if fleet is not False:
            self._check_fleet_placement(action, t, neutral)
        if events is None:
            return
        self.change(self.armies, t, self.armies[t] + count)
        if fleet:
            self.change(self.fleets, t, self.fleets[t] + count)
        self.placed_total += count
        self.pool -= count
        # placer: the owner value (the neutral army in its phase)
        events.append(ArmiesPlaced(placer, t, count, True) if fleet else ArmiesPlaced(placer, t, count))
        if neutral:
            if self.pool == 0:
                self._start_neutral_attack(events)
            return
        if self.phase is P.SETUP:
            if self.pool == 0:
                nxt = self._next_with_reserve(self.current)
                if nxt is None:
                    self._start_turn(self.first_player, events)
                else:
                    self.current = nxt
                    self._start_setup_batch()
                    events.append(PhaseStarted(nxt, P.SETUP))
            return
        self._check_win(events)

    def _check_fleet_placement(self, action: Place, t: int, neutral: bool) -> None:
        if action.fleet is not True:
            raise self.refusal(action, f"'fleet' is true or false, not {action.fleet!r}")
        if not self.rules.fleets:
            raise self.refusal(action, f"{self.rules.name} has no fleets")
        if neutral:
            raise self.refusal(action, "the neutral army has no fleets")
        if not self.is_coastal(t):
            raise self.refusal(action, f"{self._tid(t)} has no sea link: a fleet lies only where it can sail")

    def _trade(self, action: Trade, events: list[Event] | None) -> None:
        if self.phase is not P.REINFORCE and self.phase is not P.ELIMINATION_TRADE:
            raise self.refusal(action, "cards are traded only before the first attack of the turn")
        if self.rules.card_deck is CardDeck.POWER:
            power_kind = income.check_power_trade(self, action)
            if events is not None:
                income.apply_power_trade(self, action, power_kind, events)
                self._check_win(events)
            return
        me = self.current
        hand = self.hands[me]
        cards = action.cards
        if (cards.__class__ is not tuple or len(cards) != 3 or any(c.__class__ is not int for c in cards)
                or len(set(cards)) != 3 or any(c not in hand for c in cards)):
            raise self.refusal(action, "a trade is three different cards from your hand")
        if (self.phase is P.ELIMINATION_TRADE and self.rules.elimination_trade_cards is EliminationTrade.TAKEN
                and any(c not in self.turn_state.taken_cards for c in cards)):
            raise self.refusal(action, "right after an elimination only the cards taken from the beaten player may be "
                                     "traded; the rest of your hand waits for your next turn")
        kind = cardlib.set_kind(tuple(cardlib.card_symbol(self.map, c) for c in cards))  # type: ignore[arg-type]
        if kind is None or kind not in self.rules.valid_sets:
            raise self.refusal(action, f"not a set in {self.rules.name}")
        if events is None:
            return
        armies = self.rules.set_value(kind, self.sets_traded)
        self.sets_traded += 1
        bonus_cards = self._bonus_cards(cards)
        self.keep(hand)
        self.keep(self.discard)
        for c in cards:
            hand.remove(c)
            self.discard.append(c)
        bonus = self.rules.territory_bonus
        on_territory = self.rules.territory_bonus_placement is BonusPlacement.ON_TERRITORY
        pool_bonus = 0 if on_territory else bonus * len(bonus_cards)
        events.append(CardsTraded(me, cards, kind, armies, pool_bonus))
        if on_territory:
            for c in bonus_cards:
                self.change(self.armies, c, self.armies[c] + bonus)
                self.placed_total += bonus
                events.append(ArmiesPlaced(me, c, bonus))
        armies += pool_bonus
        self.pool += armies
        self._check_win(events)

    def _end_phase(self, action: EndPhase, events: list[Event] | None) -> None:
        phase = self.phase
        if phase is P.REINFORCE or phase is P.ELIMINATION_TRADE:
            if self.pool:
                raise self.refusal(action, f"{self.pool} armies are still to place")
            if self.must_trade():
                raise self.refusal(action, f"you hold {len(self.hands[self.current])} cards and must trade")
        elif phase is P.NEUTRAL_REINFORCE:
            raise self.refusal(action, f"{self.pool} neutral armies are still to place")
        elif phase is not P.ATTACK and phase is not P.FORTIFY and phase is not P.NEUTRAL_ATTACK:
            raise self.refusal(action, "this phase ends by itself")
        if events is None:
            return
        if phase is P.REINFORCE:
            self._after_reinforcement(events)
        elif phase is P.NEUTRAL_ATTACK:
            self.phase = P.ATTACK
            events.append(PhaseStarted(self.current, P.ATTACK))
        elif phase is P.ELIMINATION_TRADE:
            self.turn_state = self.turn_state._replace(forced_trade_down_to=None, taken_cards=())
            self.phase = P.ATTACK
            events.append(PhaseStarted(self.current, P.ATTACK))
        elif phase is P.ATTACK:
            self.phase = P.FORTIFY
            events.append(PhaseStarted(self.current, P.FORTIFY))
        else:
            self._end_turn(events)

    def _fortify(self, action: Fortify, events: list[Event] | None) -> None:
        if self.phase is not P.FORTIFY:
            raise self.refusal(action, "armies are moved in the fortify phase")
        s = self._territory(action, action.source)
        t = self._territory(action, action.target)
        count = self._count(action, action.count, "the count")
        if not self.fortify_path_open(s, t):
            how = ("adjacent" if self.rules.fortify_path is FortifyPath.ADJACENT
                   else "connected through your territories")
            raise self.refusal(action, f"move between two of your territories that are {how}, "
                             f"from one with at least 2 armies")
        if not 1 <= count < self.armies[s]:
            raise self.refusal(action, f"move 1 to {self.armies[s] - 1} armies, leaving one behind")
        if self._fleets_on or self._one_move:
            most = self.movable(s, t)
            if count > most:
                raise self.refusal(action, self.movable_words(s, t, most))
        if events is None:
            return
        self.move_units(s, t, count, onward=False)
        events.append(ArmiesMoved(s, t, count))
        done = self.turn_state.fortifies_done + 1
        self.turn_state = self.turn_state._replace(fortifies_done=done)
        self._check_win(events)
        if not self.over and done >= self.rules.fortify_moves:
            self._end_turn(events)

    def _draw(self, action: Draw, events: list[Event] | None) -> None:
        if self.phase is not P.DRAW:
            raise self.refusal(action, "no card draw is awaited")
        pile = self.deck if self.deck else self.discard
        card = action.card
        if card.__class__ is not int or card not in pile:
            raise self.refusal(action, f"card {card!r} is not in the deck")
        if events is None:
            return
        deck, discard = self.deck, self.discard
        self.keep(deck)
        if not deck:
            # The empty deck is reshuffled from the discards; which card comes up is the chance outcome itself.
            self.keep(discard)
            deck[:] = discard
            discard.clear()
            events.append(DeckReshuffled(len(deck)))
        deck.remove(card)
        self.keep(self.hands[self.current])
        self.hands[self.current].append(card)
        events.append(CardDrawn(self.current, card))
        if self.draws_due:
            if income.after_due_draw(self, events):
                self._start_turn(self.first_player, events)
        else:
            self._next_turn(events)

    # ---------------------------------------------------------------------------------------- neutral army

    def _after_reinforcement(self, events: list[Event]) -> None:
        """The current player has placed: while the neutral army stands, the opponent places its reinforcements
        (half the current player's income) and may attack with it before the current player attacks."""
        neutral = self.neutral
        if neutral is None or not self.territory_count[neutral]:
            self.phase = P.ATTACK
            events.append(PhaseStarted(self.current, P.ATTACK))
            return
        armies = self.neutral_reinforcements()
        if not armies:
            self._start_neutral_attack(events)
            return
        self.pool = armies
        self.phase = P.NEUTRAL_REINFORCE
        events.append(NeutralReinforcements(self.opponent(), armies))

    def neutral_reinforcements(self) -> int:
        """Half the current player's income this turn (territories and continents; card sets do not count)."""
        income = self.reinforcements_for(self.current)
        return (income + 1) // 2 if self.rules.neutral_reinforcement_rounding is Rounding.UP else income // 2

    def _start_neutral_attack(self, events: list[Event]) -> None:
        """The neutral turn: skipped when no neutral territory can attack the current player."""
        neutral, me, owner, armies = self.neutral, self.current, self.owner, self.armies
        protected = self.round <= self.rules.elimination_protection_rounds and self.territory_count[me] == 1
        can_attack = not protected and any(
            owner[s] == neutral and armies[s] >= 2 and any(owner[t] == me for t in self.map.neighbours[s])
            for s in range(self._size))
        if can_attack:
            self.phase = P.NEUTRAL_ATTACK
            events.append(PhaseStarted(self.opponent(), P.NEUTRAL_ATTACK))
        else:
            self.phase = P.ATTACK
            events.append(PhaseStarted(self.current, P.ATTACK))

    # ----------------------------------------------------------------------------------------------- deal

    def _deal(self, deal: Deal) -> None:
        n = self._size
        order = deal.territory_order
        if sorted(order) != list(range(n)):
            raise RulesetError(f"the deal must list each of the {n} territories once")
        if not 0 <= deal.first_player < self.players:
            raise RulesetError(f"first player {deal.first_player} is not a seat of {self.players}")
        if self.rules.objective is Objective.MISSIONS:
            if len(deal.missions) != self.players or len(set(deal.missions)) != self.players:
                raise RulesetError(f"the deal must give each of the {self.players} players a different mission")
            for m in deal.missions:
                if m not in self.rules.missions:
                    raise RulesetError(f"mission {m} is not in ruleset {self.rules.name!r}")
        elif deal.missions:
            raise RulesetError(f"ruleset {self.rules.name!r} has no missions")
        self.missions = tuple(deal.missions)
        self.first_player = deal.first_player
        # The neutral army is dealt its share like a seat, round-robin, with its fixed armies on each territory.
        owners = len(self.territory_count)
        neutral_armies = self.rules.neutral_territory_armies
        if self.rules.deal is DealKind.PROGRESSIVE:
            self.undealt = list(order)
            income.distribute(self, None)
            self._patches.clear()  # the deal is the game's start: nothing before it to undo
            self.current = deal.first_player
            if not income.start_first_draws(self):
                self._start_turn(deal.first_player, [])
            return
        for i, t in enumerate(order):
            seat = (deal.first_player + i) % owners
            self.owner[t] = seat
            self.armies[t] = neutral_armies if seat == self.neutral else 1
            self.territory_count[seat] += 1
        self.placed_total = sum(self.armies)
        start = self.rules.starting_armies[self.players]
        for seat in range(self.players):
            self.reserve[seat] = max(0, start - self.territory_count[seat])
        self.current = deal.first_player
        first_to_place = self._next_with_reserve(deal.first_player, include_self=True)
        if first_to_place is not None:
            self.current = first_to_place
            self._start_setup_batch()
        else:
            self._start_turn(deal.first_player, [])

    def _next_with_reserve(self, seat: int, include_self: bool = False) -> int | None:
        for step in range(0 if include_self else 1, self.players + 1):
            candidate = (seat + step) % self.players
            if self.reserve[candidate]:
                return candidate
        return None

    def _start_setup_batch(self) -> None:
        batch = self.rules.initial_placement_batch
        reserve = self.reserve[self.current]
        self.pool = min(batch, reserve) if batch else reserve
        self.change(self.reserve, self.current, reserve - self.pool)
        self.phase = P.SETUP

    # ------------------------------------------------------------------------------------------ turn flow

    def _end_turn(self, events: list[Event]) -> None:
        # A player who leaves draws no card for the turn they leave in (decided 2026-11-26).
        if (self.turn_state.conquered and self.rules.card_draw is CardDraw.ON_CONQUEST
                and (self.deck or self.discard) and not self.left[self.current]):
            self.phase = P.DRAW
            return
        self._next_turn(events)

    def _next_turn(self, events: list[Event]) -> None:
        self._start_turn(self._next_seat(), events, previous=self.current)

    def _next_seat(self) -> int:
        """Who plays the next turn: the next seat still playing (a seat that left is skipped)."""
        seat = self.current
        for step in range(1, self.players + 1):
            candidate = (seat + step) % self.players
            if not self.eliminated[candidate] and not self.left[candidate]:
                break
        return candidate

    def _start_turn(self, seat: int, events: list[Event], previous: int | None = None) -> None:
        first = self.first_player
        if previous is None or (seat - first) % self.players <= (previous - first) % self.players:
            self.round += 1
            if self.round > 1 and self.undealt:
                income.distribute(self, events)  # the progressive deal: a distribution at the start of every round
        self.turn += 1
        self.current = seat
        self.turn_state = TurnState()
        self.battle = None
        self.pool = self.reinforcements_for(seat)
        self.phase = P.REINFORCE
        events.append(TurnStarted(seat, self.turn, self.round, self.pool))
        if self.rules.card_draw is CardDraw.INCOME:
            income.start_income_draws(self, self.income_row(seat)[1])

    def _check_win(self, events: list[Event], seat: int | None = None) -> None:
        me = self.current if seat is None else seat
        if self.left[me]:
            return  # a player who left never wins (their last turn ends as they go)
        if self.rules.objective is Objective.WORLD:
            held = self.territory_count[me]
            reason = "world domination"
            if self.neutral is not None:  # every territory of the opponent: the neutral army may still stand
                held += self.territory_count[self.neutral]
                reason = "every territory of the opponent"
            won = held == self._size
            # Decided 2026-11-26 (progressive deal): nobody else holds a territory, so nobody is left to take the
            # undealt ones from; the game ends rather than deal them to the winner round after round.
            if not won and self.undealt and held + len(self.undealt) == self._size:
                won, reason = True, "the last player holding territories"
        else:
            won = mission_complete(self, me) or len(self.live_players()) == 1
            reason = f"mission {self.missions[me]}"
        if won:
            self.winner = me
            self.over_reason = reason
            self.phase = P.OVER
            events.append(GameOver(me, reason))

    def _check_win_out_of_turn(self, events: list[Event]) -> None:
        """With `mission_win_out_of_turn`, a mission completed during another player's turn wins at once. Between
        a player's own turns only an elimination can complete their mission (a destroy-colour mission whose colour
        someone else beat becomes a territory count they may already hold), so this runs after one; the other live
        players are checked in seat order."""
        rules = self.rules
        if rules.objective is not Objective.MISSIONS or not rules.mission_win_out_of_turn:
            return
        for seat in range(self.players):
            if (seat != self.current and not self.eliminated[seat] and not self.left[seat]
                    and mission_complete(self, seat)):
                self.winner = seat
                self.over_reason = f"mission {self.missions[seat]}"
                self.phase = P.OVER
                events.append(GameOver(seat, self.over_reason))
                return
