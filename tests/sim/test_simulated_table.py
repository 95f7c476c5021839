"""The simulated board end to end: mock pins → real adapters → referee → LED layout → strip."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from conquista.errors import ConquistaError
from conquista.hardware.profile import ProfileError
from conquista.rules.actions import Roll
from conquista.rules.events import Phase
from conquista.rules.rulesets import builtin_rulesets, load_ruleset
from conquista.table.colours import ILLEGAL, NEUTRAL, player_rgb
from conquista.table.referee import BLINK_PERIOD_S
from conquista_sim import SimulatedTable


def owner_colour(table: SimulatedTable, territory: int) -> tuple[int, int, int]:
    game = table.game
    owner = game.owner[territory]
    return NEUTRAL if owner == game.neutral else player_rgb(game.rules.colours[owner])


def check_lights(table: SimulatedTable) -> None:
    """Every territory shows its owner's colour (selected ones pulse in it), the dice panel shows the last roll,
    and the board state is what the engine gets by replaying the table's own log."""
    game = table.game
    selected = {table.referee.source, table.referee.target}
    if game.phase is Phase.OCCUPY:
        assert game.battle is not None
        selected |= {game.battle.target}
    for t in range(game.map.size):
        tid = game.map.id(t)
        if t in selected:
            continue
        assert table.led(tid) in (owner_colour(table, t), (0, 0, 0), ILLEGAL), tid
    rolls = [a for a in game.log if isinstance(a, Roll)]
    if rolls:
        attack, defend = table.dice_panel()
        # Each side's dice sorted high to low, as they are compared.
        assert tuple(v for v in attack if v) == tuple(sorted(rolls[-1].attack, reverse=True))
        assert tuple(v for v in defend if v) == tuple(sorted(rolls[-1].defend, reverse=True))
    assert sum(game.armies) == game.placed_total - game.lost_total


@pytest.mark.parametrize("rules", builtin_rulesets())
def test_complete_game_through_taps_and_presses(rules: str) -> None:
    ruleset = load_ruleset(rules)
    players = min(ruleset.players_max, max(3, ruleset.players_min))  # the duel: 2 players and the neutral army
    with SimulatedTable(rules, players, seed=11, bots=range(players), think_time=0.25) as table:
        steps = 0
        while not table.game.over and steps < 20_000:
            table.advance(0.25)
            steps += 1
            check_lights(table)
        assert table.game.over
        # After the animations settle (a long last blitz blinks once per army lost) every territory shows
        # exactly its owner's colour.
        table.advance(3.0 + BLINK_PERIOD_S * sum(e.count for e in table.referee.effects))
        for t in range(table.game.map.size):
            assert table.led(table.game.map.id(t)) == owner_colour(table, t)
        winner = player_rgb(table.game.rules.colours[table.game.winner])
        assert set(table.ring()) == {winner}
        budget = table.board.strip.budget
        assert all(budget.current_ma(frame) <= budget.supply_ma + 1e-6 for frame in table.board.strip.frames)


def test_a_person_and_two_bots() -> None:
    with SimulatedTable("italian", 3, seed=3, bots=(1, 2), think_time=0.3) as table:
        # Setup: the person places when it is their turn; the bots place by themselves as time passes.
        while table.game.phase is Phase.SETUP:
            if table.game.current == 0:
                mine = table.game.map.id(table.game.owner.index(0))
                table.tap(mine)
            else:
                table.advance(0.3)
        while table.game.current != 0:
            table.advance(0.3)
        status = table.status()
        assert status.player == 0 and status.phase == "reinforce" and "place" in status.pending
        own = [table.game.map.id(t) for t in range(42) if table.game.owner[t] == 0]
        pool = table.game.pool
        table.tap(own[0])
        table.turn(pool - 1)
        assert table.game.pool == 0
        assert table.status().phase == "attack"          # the last army placed: the attack begins by itself
        table.press("cancel")                             # and CANCEL still takes that army back
        assert table.game.pool == 1 and table.status().phase == "reinforce"
        table.tap(own[0])
        assert table.status().phase == "attack"


@pytest.mark.parametrize("phase", ["setup", "reinforce", "attack", "fortify"])
def test_illegal_taps_flash_red_and_leave_the_game_unchanged(phase: str) -> None:
    with SimulatedTable("classic", 3, seed=5, bots=(0, 1, 2), think_time=0.2) as table:
        while table.game.phase.value != phase:
            table.advance(0.2)
        table.bots = frozenset()  # stop the bots so nothing moves while we look
        game = table.game
        enemy = next(t for t in range(42) if game.owner[t] != game.current)
        before = game.digest()
        table.tap(game.map.id(enemy))
        assert table.game.digest() == before
        assert table.led(game.map.id(enemy)) == ILLEGAL
        assert table.status().message
        table.advance(1.0)
        assert table.led(game.map.id(enemy)) == owner_colour(table, enemy)


def test_taps_travel_through_the_matrix_keys() -> None:
    """The reference profile's sensors are a Pico key matrix: a tap is a key press and release on it."""
    with SimulatedTable("classic", 2, seed=1) as table:
        assert table.board.keys is not None
        mine = table.game.map.id(table.game.owner.index(table.game.current))
        pool = table.game.pool
        table.tap(mine)
        assert table.game.pool == pool - 1 and not table.board.keys.down


def test_broken_profile_is_named(tmp_path: Path) -> None:
    bad = tmp_path / "board.toml"
    bad.write_text("[strip]\nlength = 'long'\n")
    with pytest.raises(ProfileError) as err:
        SimulatedTable("classic", 2, board=bad)
    assert str(bad) in str(err.value)


def test_bad_arguments() -> None:
    with pytest.raises(ConquistaError, match="2–6 players, not 9"):
        SimulatedTable("classic", 9)
    with pytest.raises(ConquistaError, match="bot seat 5"):
        SimulatedTable("classic", 2, bots=(5,))
    with SimulatedTable("classic", 2) as table, pytest.raises(ConquistaError, match="unknown button"):
        table.press("jump")


def test_taps_through_the_real_serial_link() -> None:
    """sensors="serial": a simulated Pico runs the firmware's own modules; taps become KEY frames on a loopback
    port, decoded by SerialSensorSource and mapped by the profile, exactly as on a board."""
    with SimulatedTable("classic", 2, seed=1, sensors="serial") as table:
        assert table.linked is not None and table.linked.link.ok
        seat = table.game.current
        mine = table.game.map.id(table.game.owner.index(seat))
        pool = table.game.pool
        table.tap(mine)
        table.tap(mine)
        assert table.game.pool == pool - 2
        assert table.linked.link.counters().as_dict()["frames"] > 0


def test_link_fault_holds_the_game() -> None:
    with SimulatedTable("classic", 2, seed=1, sensors="serial") as table:
        assert table.linked is not None
        table.linked.pico.stop()  # type: ignore[union-attr]  # the Pico goes silent
        deadline = time.monotonic() + 5
        while not table.referee.fault and time.monotonic() < deadline:
            table.advance(0.1)
            time.sleep(0.05)
        assert "sensor link" in table.referee.fault
        before = table.game.digest()
        table.press("next")
        assert table.game.digest() == before and "paused" in table.status().message
