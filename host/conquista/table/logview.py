"""A game's log in words, for `make run`, `simulate --show-log` and `replay`."""

from __future__ import annotations

from collections.abc import Iterator

from conquista.rules.actions import Action, Deal
from conquista.rules.engine import Game
from conquista.rules.events import (
    ArmiesMoved,
    ArmiesPlaced,
    BattleRolled,
    CardDrawn,
    CardsTraded,
    DeckReshuffled,
    Event,
    GameOver,
    PhaseStarted,
    PlayerEliminated,
    TerritoryConquered,
    TurnStarted,
)
from conquista.rules.missions import mission_text


def describe_event(game: Game, event: Event) -> str | None:
    name = game.map.territories
    colour = game.rules.colours

    def who(seat: int) -> str:
        return f"{colour[seat]}"

    match event:
        case TurnStarted(p, turn, rnd, armies):
            return f"— turn {turn} (round {rnd}): {who(p)} receives {armies} armies"
        case ArmiesPlaced(p, t, c):
            return f"  {who(p)} places {c} on {name[t].name_en}"
        case CardsTraded(p, cards, kind, armies, bonus):
            # The pool grows by the set's value and the territory bonus: say both, or the sum looks wrong.
            gain = f"{armies} + {bonus} territory bonus = {armies + bonus}" if bonus else f"{armies}"
            return f"  {who(p)} trades {kind.replace('_', ' ')} for {gain} armies"
        case BattleRolled(s, t, a, d, al, dl):
            return (f"  {name[s].name_en} attacks {name[t].name_en}: {list(a)} vs {list(d)} → "
                    f"attacker −{al}, defender −{dl}")
        case TerritoryConquered(t, _s, p, _prev, moved):
            return f"  {who(p)} conquers {name[t].name_en} ({moved} move in)"
        case PlayerEliminated(p, by, cards):
            return f"  {who(p)} is eliminated by {who(by)}, who takes {cards} cards"
        case ArmiesMoved(s, t, c):
            return f"  {c} armies now on {name[t].name_en} (from {name[s].name_en})"
        case CardDrawn(p, _c):
            return f"  {who(p)} draws a card"
        case DeckReshuffled(n):
            return f"  the deck is reshuffled ({n} cards)"
        case PhaseStarted(p, phase):
            return f"  {who(p)}: {phase.value}"
        case GameOver(p, reason):
            return f"*** {who(p)} wins ({reason})"


def describe_game(game: Game) -> Iterator[str]:
    """Replay `game`'s log and describe every event (the game itself is not changed)."""
    deal = game.log[0]
    assert isinstance(deal, Deal)
    fresh = Game(game.rules, game.map, game.players, deal)
    yield f"{game.rules.name}, {game.players} players: " + ", ".join(
        f"{game.rules.colours[p]} {fresh.territory_count[p]} territories" for p in range(game.players))
    if fresh.missions:
        for p, m in enumerate(fresh.missions):
            yield f"  (secret) {game.rules.colours[p]}: {mission_text(m, game.rules.colours)}"
    actions: list[Action] = game.log[1:]
    for action in actions:
        for event in fresh.apply(action):
            line = describe_event(fresh, event)
            if line:
                yield line
    if not fresh.over:
        yield f"(game not finished: turn {fresh.turn}, {fresh.phase.value})"
