"""A blitz rolls the number of dice the attacker chose, lowered only when the armies left no longer allow it
(decided 2026-11-28; issue 30 item 6): at the simulated board, in the saved log, and for a log written before."""

from __future__ import annotations

import json

from conquista.rules.actions import Blitz, Roll
from conquista.rules.events import Phase
from conquista.rules.serialize import decode_action, encode_action
from conquista.table.ring import arcs
from conquista_sim import SimulatedTable
from tests.rules.helpers import MAP, position


def _blitz_after_minus_one(armies: int) -> SimulatedTable:
    """Alaska (`armies`) selected against Kamchatka (30), the encoder turned once back: one die fewer."""
    game = position("italian", 2, owners={"alaska": 0}, armies={"alaska": armies, "kamchatka": 30}, phase=Phase.ATTACK)
    table = SimulatedTable(game=game)
    table.tap("alaska")
    table.tap("kamchatka")
    table.turn(-1)
    return table


def test_a_blitz_rolls_the_dice_chosen_and_the_status_and_ring_say_so() -> None:
    table = _blitz_after_minus_one(armies=12)
    with table:
        pending = table.status().pending
        assert "ROLL rolls 2 dice, hold ROLL to blitz with them" in pending
        ring = table.ring()
        first, second, third = (ring[arc[0]] for arc in arcs(len(ring), 3))
        assert first == second != third        # two arcs lit of three: the dice the blitz will roll
        table.hold("roll")
        table.advance(30)
        log = table.game.log
        (blitz,) = [a for a in log if isinstance(a, Blitz)]
        assert blitz.dice == 2
        rolls = [a for a in log if isinstance(a, Roll)]
        assert len(rolls) >= 2 and {len(r.attack) for r in rolls} <= {1, 2}
        assert all(len(r.attack) == 2 for r in rolls if len(r.attack) != 1)
        assert max(len(r.attack) for r in rolls) == 2


def test_the_dice_are_lowered_only_when_the_armies_left_do_not_allow_them() -> None:
    table = _blitz_after_minus_one(armies=4)      # 3 dice allowed, 2 chosen
    with table:
        table.hold("roll")
        table.advance(30)
        rolls = [a for a in table.game.log if isinstance(a, Roll)]
        armies = 4
        for roll in rolls:
            assert len(roll.attack) == min(2, armies - 1)
            pairs = zip(sorted(roll.attack, reverse=True), sorted(roll.defend, reverse=True), strict=False)
            armies -= sum(1 for a, d in pairs if a <= d)   # italian: the defender wins ties


def test_the_saved_log_keeps_the_dice_and_an_old_blitz_replays_with_the_most() -> None:
    game = position("italian", 2, owners={"alaska": 0}, armies={"alaska": 12, "kamchatka": 30})
    alaska, kamchatka = MAP.index("alaska"), MAP.index("kamchatka")
    chosen = encode_action(Blitz(alaska, kamchatka, 1, 2), MAP)
    assert chosen["dice"] == 2 and decode_action(json.loads(json.dumps(chosen)), MAP) == Blitz(alaska, kamchatka, 1, 2)
    old = {"type": "blitz", "source": "alaska", "target": "kamchatka", "stop_at": 1}
    assert encode_action(Blitz(alaska, kamchatka, 1), MAP) == old     # the most dice: written as before
    assert decode_action(old, MAP) == Blitz(alaska, kamchatka, 1, None)
    game.apply(decode_action(old, MAP))
    assert game.battle is not None and game.battle.attack_dice == 3
