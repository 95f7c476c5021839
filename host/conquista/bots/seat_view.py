"""What one seat may know of a game, as a game a bot can play ahead on: a copy in which everything hidden from the
seat (the other seats' missions and cards, the deck's order, the territories still to deal) is made up afresh.

The made-up parts depend only on what the seat may see and on the generator passed in: two games that differ only
in what is hidden from the seat give the same copy. A bot that looks ahead on these copies cannot be steered by
another player's secrets.
"""

from __future__ import annotations

import random

from conquista.rules.engine import Game


def seat_view(game: Game, me: int, rng: random.Random) -> Game:
    """A copy of `game` as `me` may imagine it: hidden cards, missions and deal order shuffled by `rng`."""
    view = game.clone()
    missions = view.missions
    if missions and me < len(missions):
        # Any mission but the seat's own may be another's (an eliminated seat's too: nobody showed it).
        others = sorted(m for m in game.rules.missions if m != missions[me])
        rng.shuffle(others)
        view.missions = tuple(m if seat == me else others[seat % len(others)] for seat, m in enumerate(missions))
    hands = view.hands
    unseen = sorted([*view.deck, *(card for seat, hand in enumerate(hands) if seat != me for card in hand)])
    rng.shuffle(unseen)
    for seat, hand in enumerate(hands):
        if seat != me:
            hands[seat] = [unseen.pop() for _ in hand]
    view.deck = unseen
    if view.undealt:
        undealt = sorted(view.undealt)
        rng.shuffle(undealt)
        view.undealt = undealt
    return view
