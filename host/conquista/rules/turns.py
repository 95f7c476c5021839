"""The turn: setup, reinforcement, card trades, the end of a phase, fortify, card draws, the deal, whose turn it is and
when the game is won. Pure: no I/O, no random, no clock.

Each action has a check, which returns why it is refused (None when it is legal) and changes nothing, and an apply,
which assumes a checked action, changes the position through its recorded primitives and appends the events. The
turn's flow calls the ruleset's features (`Position.features`) at the hooks `TurnFeature` names.
"""

from __future__ import annotations

from typing import Final

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
)
from conquista.rules.events import (
    PHASE_ATTACK,
    PHASE_DRAW,
    PHASE_ELIMINATION_TRADE,
    PHASE_FORTIFY,
    PHASE_NEUTRAL_ATTACK,
    PHASE_NEUTRAL_REINFORCE,
    PHASE_OVER,
    PHASE_REINFORCE,
    PHASE_SETUP,
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
from conquista.rules.missions import mission_complete
from conquista.rules.position import PLACING, Position, Steps, is_index, not_a_whole_number
from conquista.rules.state import TurnState

# The ruleset choices the hot steps test, bound once (as rules/events.py binds the phases): a member read
# from its Enum class costs a lookup through the class each time.
_ON_TERRITORY: Final = BonusPlacement.ON_TERRITORY
_POWER: Final = CardDeck.POWER
_INCOME: Final = CardDraw.INCOME
_ON_CONQUEST: Final = CardDraw.ON_CONQUEST
_PROGRESSIVE: Final = DealKind.PROGRESSIVE
_TAKEN: Final = EliminationTrade.TAKEN
_ADJACENT: Final = FortifyPath.ADJACENT
_MISSIONS: Final = Objective.MISSIONS
_WORLD: Final = Objective.WORLD

# ---------------------------------------------------------------------------------------------------- placing

def check_place(game: Position, action: Place) -> str | None:
    neutral = game.phase is PHASE_NEUTRAL_REINFORCE
    if game.phase not in PLACING and not neutral:
        return "armies are placed only during setup or reinforcement"
    t, count = action.territory, action.count
    if not is_index(t, game.size):
        return game.not_a_territory(t)
    if count.__class__ is not int:
        return not_a_whole_number("the count", count)
    placer = game.neutral if neutral else game.current
    if game.owner[t] != placer:
        return f"{game.tid(t)} is not the neutral army's" if neutral else f"{game.tid(t)} is not yours"
    if not 1 <= count <= game.pool:
        return f"you have {game.pool} armies to place"
    return None if action.fleet is False else _fleet_refusal(game, action, t, neutral)


def _fleet_refusal(game: Position, action: Place, t: int, neutral: bool) -> str | None:
    if action.fleet is not True:  # a field of an action from outside: anything may come
        return f"'fleet' is true or false, not {action.fleet!r}"
    if not game.rules.fleets:
        return f"{game.rules.name} has no fleets"
    if neutral:
        return "the neutral army has no fleets"
    if not game.is_coastal(t):
        return f"{game.tid(t)} has no sea link: a fleet lies only where it can sail"
    return None


def apply_place(game: Position, action: Place, events: list[Event]) -> None:
    t, count, fleet = action.territory, action.count, action.fleet
    neutral_owner = game.neutral
    neutral = game.phase is PHASE_NEUTRAL_REINFORCE and neutral_owner is not None  # that phase is only in such a game
    placer = neutral_owner if neutral_owner is not None and neutral else game.current
    game.change(game.armies, t, game.armies[t] + count)
    if fleet:
        game.change(game.fleets, t, game.fleets[t] + count)
    game.placed_total += count
    game.pool -= count
    # placer: the owner value (the neutral army in its phase)
    events.append(ArmiesPlaced(placer, t, count, True) if fleet else ArmiesPlaced(placer, t, count))
    if neutral:
        if game.pool == 0:
            start_neutral_attack(game, events)
        return
    if game.phase is PHASE_SETUP:
        if game.pool == 0:
            pass_setup_batch(game, events)
        return
    check_win(game, events)


# ------------------------------------------------------------------------------------------------------ trades

def check_trade(game: Position, action: Trade) -> str | None:
    if game.phase is not PHASE_REINFORCE and game.phase is not PHASE_ELIMINATION_TRADE:
        return "cards are traded only before the first attack of the turn"
    if game.rules.card_deck is _POWER:
        return income.check_power_trade(game, action)
    hand = game.hands[game.current]
    cards = action.cards
    if (cards.__class__ is not tuple or len(cards) != 3 or any(c.__class__ is not int for c in cards)
            or len(set(cards)) != 3 or any(c not in hand for c in cards)):
        return "a trade is three different cards from your hand"
    if (game.phase is PHASE_ELIMINATION_TRADE and game.rules.elimination_trade_cards is _TAKEN
            and any(c not in game.turn_state.taken_cards for c in cards)):
        return ("right after an elimination only the cards taken from the beaten player may be traded; the rest of "
                "your hand waits for your next turn")
    kind = cardlib.set_kind(tuple(cardlib.card_symbol(game.map, c) for c in cards))  # type: ignore[arg-type]
    if kind is None or kind not in game.rules.valid_sets:
        return f"not a set in {game.rules.name}"
    return None


def apply_trade(game: Position, action: Trade, events: list[Event]) -> None:
    if game.rules.card_deck is _POWER:
        income.apply_power_trade(game, action, events)
        check_win(game, events)
        return
    me = game.current
    hand = game.hands[me]
    cards = action.cards
    kind = cardlib.set_kind(tuple(cardlib.card_symbol(game.map, c) for c in cards))  # type: ignore[arg-type]
    assert kind is not None  # checked
    armies = game.rules.set_value(kind, game.sets_traded)
    game.sets_traded += 1
    bonus_cards = game.bonus_cards(cards)
    game.keep(hand)
    game.keep(game.discard)
    for c in cards:
        hand.remove(c)
        game.discard.append(c)
    bonus = game.rules.territory_bonus
    on_territory = game.rules.territory_bonus_placement is _ON_TERRITORY
    pool_bonus = 0 if on_territory else bonus * len(bonus_cards)
    events.append(CardsTraded(me, cards, kind, armies, pool_bonus))
    if on_territory:
        for c in bonus_cards:
            game.change(game.armies, c, game.armies[c] + bonus)
            game.placed_total += bonus
            events.append(ArmiesPlaced(me, c, bonus))
    armies += pool_bonus
    game.pool += armies
    check_win(game, events)


# -------------------------------------------------------------------------------------------- ending a phase

def check_end_phase(game: Position, action: EndPhase) -> str | None:
    phase = game.phase
    if phase is PHASE_REINFORCE or phase is PHASE_ELIMINATION_TRADE:
        if game.pool:
            return f"{game.pool} armies are still to place"
        if game.must_trade():
            return f"you hold {len(game.hands[game.current])} cards and must trade"
    elif phase is PHASE_NEUTRAL_REINFORCE:
        return f"{game.pool} neutral armies are still to place"
    elif phase is not PHASE_ATTACK and phase is not PHASE_FORTIFY and phase is not PHASE_NEUTRAL_ATTACK:
        return "this phase ends by itself"
    return None


def apply_end_phase(game: Position, action: EndPhase, events: list[Event]) -> None:
    phase = game.phase
    if phase is PHASE_REINFORCE:
        after_reinforcement(game, events)
    elif phase is PHASE_NEUTRAL_ATTACK:
        game.phase = PHASE_ATTACK
        events.append(PhaseStarted(game.current, PHASE_ATTACK))
    elif phase is PHASE_ELIMINATION_TRADE:
        game.turn_state = game.turn_state._replace(forced_trade_down_to=None, taken_cards=())
        game.phase = PHASE_ATTACK
        events.append(PhaseStarted(game.current, PHASE_ATTACK))
    elif phase is PHASE_ATTACK:
        game.phase = PHASE_FORTIFY
        events.append(PhaseStarted(game.current, PHASE_FORTIFY))
    else:
        end_turn(game, events)


# ----------------------------------------------------------------------------------------------------- fortify

def check_fortify(game: Position, action: Fortify) -> str | None:
    if game.phase is not PHASE_FORTIFY:
        return "armies are moved in the fortify phase"
    s, t, count = action.source, action.target, action.count
    if not is_index(s, game.size):
        return game.not_a_territory(s)
    if not is_index(t, game.size):
        return game.not_a_territory(t)
    if count.__class__ is not int:
        return not_a_whole_number("the count", count)
    if not game.fortify_path_open(s, t):
        how = "adjacent" if game.rules.fortify_path is _ADJACENT else "connected through your territories"
        return f"move between two of your territories that are {how}, from one with at least 2 armies"
    if not 1 <= count < game.armies[s]:
        return f"move 1 to {game.armies[s] - 1} armies, leaving one behind"
    if game.fleets_on or game.one_move:
        most = game.movable(s, t)
        if count > most:
            return game.movable_words(s, t, most)
    return None


def apply_fortify(game: Position, action: Fortify, events: list[Event]) -> None:
    s, t, count = action.source, action.target, action.count
    game.move_units(s, t, count, onward=False)
    events.append(ArmiesMoved(s, t, count))
    done = game.turn_state.fortifies_done + 1
    game.turn_state = game.turn_state._replace(fortifies_done=done)
    check_win(game, events)
    if not game.over and done >= game.rules.fortify_moves:
        end_turn(game, events)


# ------------------------------------------------------------------------------------------------- card draws

def check_draw(game: Position, action: Draw) -> str | None:
    if game.phase is not PHASE_DRAW:
        return "no card draw is awaited"
    pile = game.deck if game.deck else game.discard
    card = action.card
    if card.__class__ is not int or card not in pile:
        return f"card {card!r} is not in the deck"
    return None


def apply_draw(game: Position, action: Draw, events: list[Event]) -> None:
    card = action.card
    deck, discard = game.deck, game.discard
    game.keep(deck)
    if not deck:
        # The empty deck is reshuffled from the discards; which card comes up is the chance outcome itself.
        game.keep(discard)
        deck[:] = discard
        discard.clear()
        events.append(DeckReshuffled(len(deck)))
    deck.remove(card)
    game.keep(game.hands[game.current])
    game.hands[game.current].append(card)
    events.append(CardDrawn(game.current, card))
    if game.draws_due:
        if income.after_due_draw(game, events):
            start_turn(game, game.first_player, events)
    else:
        next_turn(game, events)


# ------------------------------------------------------------------------------------------------ neutral army

def after_reinforcement(game: Position, events: list[Event]) -> None:
    """The current player has placed: while the neutral army stands, the opponent places its reinforcements
    (half the current player's income) and may attack with it before the current player attacks."""
    neutral = game.neutral
    if neutral is None or not game.territory_count[neutral]:
        game.phase = PHASE_ATTACK
        events.append(PhaseStarted(game.current, PHASE_ATTACK))
        return
    armies = game.neutral_reinforcements()
    if not armies:
        start_neutral_attack(game, events)
        return
    game.pool = armies
    game.phase = PHASE_NEUTRAL_REINFORCE
    events.append(NeutralReinforcements(game.opponent(), armies))
    for feature in game.features:
        feature.neutral_reinforcement_announced(game, events)


def start_neutral_attack(game: Position, events: list[Event]) -> None:
    """The neutral turn: skipped when no neutral territory can attack the current player (or a feature skips it)."""
    neutral, me, owner, armies = game.neutral, game.current, game.owner, game.armies
    skipped = any(feature.skips_neutral_attack(game) for feature in game.features)
    protected = game.round <= game.rules.elimination_protection_rounds and game.territory_count[me] == 1
    can_attack = not skipped and not protected and any(
        owner[s] == neutral and armies[s] >= 2 and any(owner[t] == me for t in game.map.neighbours[s])
        for s in range(game.size))
    if can_attack:
        game.phase = PHASE_NEUTRAL_ATTACK
        events.append(PhaseStarted(game.opponent(), PHASE_NEUTRAL_ATTACK))
    else:
        game.phase = PHASE_ATTACK
        events.append(PhaseStarted(game.current, PHASE_ATTACK))


# -------------------------------------------------------------------------------------------------------- deal

def deal(game: Position, deal: Deal) -> None:
    """Deal the board (the game's start: nothing before it is undone). Raises RulesetError for a deal that does not
    fit the ruleset."""
    n = game.size
    order = deal.territory_order
    if sorted(order) != list(range(n)):
        raise RulesetError(f"the deal must list each of the {n} territories once")
    if not 0 <= deal.first_player < game.players:
        raise RulesetError(f"first player {deal.first_player} is not a seat of {game.players}")
    if game.rules.objective is _MISSIONS:
        if len(deal.missions) != game.players or len(set(deal.missions)) != game.players:
            raise RulesetError(f"the deal must give each of the {game.players} players a different mission")
        for m in deal.missions:
            if m not in game.rules.missions:
                raise RulesetError(f"mission {m} is not in ruleset {game.rules.name!r}")
    elif deal.missions:
        raise RulesetError(f"ruleset {game.rules.name!r} has no missions")
    game.missions = tuple(deal.missions)
    game.first_player = deal.first_player
    # The neutral army is dealt its share like a seat, round-robin, with its fixed armies on each territory.
    owners = len(game.territory_count)
    neutral_armies = game.rules.neutral_territory_armies
    if game.rules.deal is _PROGRESSIVE:
        game.undealt = list(order)
        income.distribute(game, None)
        game.current = deal.first_player
        if not income.start_first_draws(game):
            start_turn(game, deal.first_player, [])
        return
    for i, t in enumerate(order):
        seat = (deal.first_player + i) % owners
        game.owner[t] = seat
        game.armies[t] = neutral_armies if seat == game.neutral else 1
        game.territory_count[seat] += 1
    game.placed_total = sum(game.armies)
    start = game.rules.starting_armies[game.players]
    for seat in range(game.players):
        game.reserve[seat] = max(0, start - game.territory_count[seat])
    game.current = deal.first_player
    first_to_place = next_with_reserve(game, deal.first_player, include_self=True)
    if first_to_place is not None:
        game.current = first_to_place
        start_setup_batch(game)
    else:
        start_turn(game, deal.first_player, [])


def next_with_reserve(game: Position, seat: int, include_self: bool = False) -> int | None:
    for step in range(0 if include_self else 1, game.players + 1):
        candidate = (seat + step) % game.players
        if game.reserve[candidate]:
            return candidate
    return None


def start_setup_batch(game: Position) -> None:
    batch = game.rules.initial_placement_batch
    reserve = game.reserve[game.current]
    game.pool = min(batch, reserve) if batch else reserve
    game.change(game.reserve, game.current, reserve - game.pool)
    game.phase = PHASE_SETUP


def pass_setup_batch(game: Position, events: list[Event]) -> None:
    """The current player's setup batch is placed: the next seat with a reserve places, or the first turn starts."""
    nxt = next_with_reserve(game, game.current)
    if nxt is None:
        start_turn(game, game.first_player, events)
    else:
        game.current = nxt
        start_setup_batch(game)
        events.append(PhaseStarted(nxt, PHASE_SETUP))


# ------------------------------------------------------------------------------------------------- turn flow

def end_turn(game: Position, events: list[Event]) -> None:
    """The current player's turn ends: the card earned by a conquest is drawn first, then the turn passes."""
    # A player who leaves draws no card for the turn they leave in (decided 2026-11-26).
    if (game.turn_state.conquered and game.rules.card_draw is _ON_CONQUEST
            and (game.deck or game.discard) and not game.left[game.current]):
        game.phase = PHASE_DRAW
        return
    next_turn(game, events)


def next_turn(game: Position, events: list[Event]) -> None:
    """The turn passes: a feature may pass it itself (the tournament's closing roll, a tie-break round)."""
    for feature in game.features:
        if feature.passes_turn(game, events):
            return
    pass_turn(game, events)


def pass_turn(game: Position, events: list[Event]) -> None:
    """The next seat still playing starts its turn."""
    start_turn(game, next_seat(game), events, previous=game.current)


def next_seat(game: Position) -> int:
    """Who plays the next turn: the next seat still playing (a seat that left is skipped)."""
    seat = game.current
    for step in range(1, game.players + 1):
        candidate = (seat + step) % game.players
        if not game.eliminated[candidate] and not game.left[candidate]:
            break
    return candidate


def start_turn(game: Position, seat: int, events: list[Event], previous: int | None = None) -> None:
    first = game.first_player
    if previous is None or (seat - first) % game.players <= (previous - first) % game.players:
        game.round += 1
        if game.round > 1 and game.undealt:
            income.distribute(game, events)  # the progressive deal: a distribution at the start of every round
    game.turn += 1
    game.current = seat
    game.turn_state = TurnState()
    game.turn_conquests = 0  # counted for the tournament's closing roll
    game.battle = None
    game.pool = game.reinforcements_for(seat)
    game.phase = PHASE_REINFORCE
    events.append(TurnStarted(seat, game.turn, game.round, game.pool))
    if game.rules.card_draw is _INCOME:
        income.start_income_draws(game, game.income_row(seat)[1])


def check_win(game: Position, events: list[Event], seat: int | None = None) -> None:
    me = game.current if seat is None else seat
    if game.left[me]:
        return  # a player who left never wins (their last turn ends as they go)
    if game.rules.objective is _WORLD:
        held = game.territory_count[me]
        reason = "world domination"
        if game.neutral is not None:  # every territory of the opponent: the neutral army may still stand
            held += game.territory_count[game.neutral]
            reason = "every territory of the opponent"
        won = held == game.size
        # Decided 2026-11-26 (progressive deal): nobody else holds a territory, so nobody is left to take the
        # undealt ones from; the game ends rather than deal them to the winner round after round.
        if not won and game.undealt and held + len(game.undealt) == game.size:
            won, reason = True, "the last player holding territories"
    else:
        won = mission_complete(game, me) or len(game.live_players()) == 1
        reason = f"mission {game.missions[me]}"
    if won:
        game.winner = me
        game.over_reason = reason
        game.phase = PHASE_OVER
        events.append(GameOver(me, reason))


def check_win_out_of_turn(game: Position, events: list[Event]) -> None:
    """With `mission_win_out_of_turn`, a mission completed during another player's turn wins at once. Between
    a player's own turns only an elimination can complete their mission (a destroy-colour mission whose colour
    someone else beat becomes a territory count they may already hold), so this runs after one; the other live
    players are checked in seat order."""
    rules = game.rules
    if rules.objective is not _MISSIONS or not rules.mission_win_out_of_turn:
        return
    for seat in range(game.players):
        if (seat != game.current and not game.eliminated[seat] and not game.left[seat]
                and mission_complete(game, seat)):
            game.winner = seat
            game.over_reason = f"mission {game.missions[seat]}"
            game.phase = PHASE_OVER
            events.append(GameOver(seat, game.over_reason))
            return


STEPS: Steps = {Place: (check_place, apply_place), Trade: (check_trade, apply_trade),
                EndPhase: (check_end_phase, apply_end_phase), Fortify: (check_fortify, apply_fortify),
                Draw: (check_draw, apply_draw)}
