"""A line per player under the terminal's board, as every digital Risk shows one (issue 39 §7): territories,
armies, cards in hand, the next turn's income, the continents held, and what plays the seat (a person or a bot of
which level). Public only: the cards are counted, never named."""

from __future__ import annotations

from collections.abc import Mapping

from rich.text import Text

from conquista.rules.engine import Game
from conquista.table.colours import mark, screen_rgb


def continents_held(game: Game, seat: int) -> list[str]:
    owner = game.owner
    return [continent.name_en for continent in game.map.continents
            if all(owner[t] == seat for t in continent.territories)]


def player_lines(game: Game, bots: Mapping[int, str]) -> Text:
    """One line per seat; `bots`: each bot seat's level."""
    out = Text()
    for seat in range(game.players):
        colour = game.rules.colours[seat]
        owned = [t for t in range(game.map.size) if game.owner[t] == seat]
        r, g, b = screen_rgb(colour)
        out.append(f"■{mark(colour)} {colour:<7}", style=f"bold rgb({r},{g},{b})")
        if game.eliminated[seat]:
            out.append(" out of the game")
        else:
            cards = len(game.hands[seat])
            held = continents_held(game, seat)
            out.append(f" {len(owned):>2} territories · {sum(game.armies[t] for t in owned):>3} armies · "
                       f"{cards} card{'' if cards == 1 else 's'} · income {game.reinforcements_for(seat)}"
                       f"{' · holds ' + ', '.join(held) if held else ''}")
        out.append(f" · {bots[seat]} bot" if seat in bots else " · person")
        if seat < game.players - 1:
            out.append("\n")
    return out
