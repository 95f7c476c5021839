"""Whole lamorisse-1954 games played by bots through the simulated board's taps, long presses and presses: every LED
in its owner's colour (dark while not dealt, blinking while its army waits to be placed), fleets placed with long
presses and sea attacks made, newly dealt territories confirmed by taps; the terminal and the web show armies and
fleets apart."""

from __future__ import annotations

import json
import re

import pytest
from rich.console import Console

from conquista.rules.actions import Attack, Blitz, Place
from conquista.rules.events import Phase
from conquista.table.colours import OFF, player_rgb
from conquista.table.dealt import DEAL_BLINK_ON_S, DEAL_BLINK_PERIOD_S
from conquista.table.referee import BLINK_PERIOD_S
from conquista.web.views import SeatState, public_view, seat_view
from conquista_sim import SimulatedTable
from conquista_sim.board_view import render
from tests.sim.test_simulated_table import check_lights


class Watch:
    """What the board showed and did over a game, checked at every step."""

    def __init__(self, table: SimulatedTable) -> None:
        self.table = table
        self.blinked: dict[int, int] = {}     # territory → owner, every territory that blinked
        self.confirmed = 0                    # stopped blinking by a tap (same owner)
        self.blinking = set(table.referee.dealt.blinking(table.game))
        self.blinked.update((t, table.game.owner[t]) for t in self.blinking)

    def step(self) -> None:
        table, game = self.table, self.table.game
        check_lights(table)
        now = table.clock.now()
        busy = {table.referee.source, table.referee.target, *(e.territory for e in table.referee.effects)}
        if game.battle is not None:
            busy |= {game.battle.source, game.battle.target}
        blinking = set(table.referee.dealt.blinking(game))
        for t in range(game.map.size):
            owner, led = game.owner[t], table.led(game.map.id(t))
            if owner < 0:
                assert led == OFF, game.map.id(t)                  # not dealt: dark
            elif t in blinking and t not in busy:
                lit = now % DEAL_BLINK_PERIOD_S < DEAL_BLINK_ON_S
                assert led == (player_rgb(game.rules.colours[owner]) if lit else OFF), game.map.id(t)
        for t in self.blinking - blinking:
            self.confirmed += game.owner[t] == self.blinked[t]
        for t in blinking - self.blinking:
            self.blinked[t] = game.owner[t]
        self.blinking = blinking


def play(players: int, seed: int, max_steps: int = 40_000) -> tuple[SimulatedTable, Watch]:
    table = SimulatedTable("lamorisse-1954", players, seed=seed, bots=range(players), think_time=0.25)
    watch = Watch(table)
    steps = 0
    while not table.game.over and steps < max_steps:
        table.advance(0.25)
        steps += 1
        watch.step()
    return table, watch


@pytest.mark.parametrize(("players", "seed"), [(3, 11), (8, 11)])
def test_a_whole_lamorisse_game_through_taps_long_presses_and_presses(players: int, seed: int) -> None:
    table, watch = play(players, seed)
    with table:
        game = table.game
        assert game.over and game.winner is not None and not game.undealt
        # Every territory was dealt once and blinked until a bot tapped it (bots confirm before they act).
        assert len(watch.blinked) == game.map.size == watch.confirmed
        fleets_placed = [a for a in game.log if isinstance(a, Place) and a.fleet]
        assert fleets_placed and any(re.fullmatch(r"\w+ places \d+ fleets? on .+", line) for line in table.log)
        sea_attacks = [a for a in game.log if isinstance(a, Attack | Blitz)
                       and game.map.is_sea_link(a.source, a.target)]
        assert sea_attacks and any(re.match(r"\w+'s fleet in .+ attacks ", line) for line in table.log)
        table.advance(3.0 + BLINK_PERIOD_S * sum(e.count for e in table.referee.effects))
        winner = player_rgb(game.rules.colours[game.winner])
        assert {table.led(game.map.id(t)) for t in range(game.map.size)} == {winner}
        assert set(table.ring()) == {winner}


def _a_moment_with_fleets(table: SimulatedTable) -> int:
    """Play until a territory holds both armies and fleets; return it."""
    for _ in range(20_000):
        game = table.game
        both = [t for t in range(game.map.size) if 0 < game.fleets[t] < game.armies[t]]
        if both and game.phase is not Phase.OCCUPY:
            return both[0]
        table.advance(0.25)
    raise AssertionError("no territory held armies and fleets")


def test_the_terminal_and_the_web_show_armies_and_fleets_apart() -> None:
    with SimulatedTable("lamorisse-1954", 3, seed=2, bots=range(3), think_time=0.25) as table:
        t = _a_moment_with_fleets(table)
        game = table.game
        label = f"{game.armies[t] - game.fleets[t]}+{game.fleets[t]}f"
        for width, height in ((140, 40), (80, 24)):
            console = Console(width=width, height=height, record=True, color_system=None)
            console.print(render(table, width, height))
            text = console.export_text()
            assert label in text and "3+2f: 3 armies, 2 fleets" in text
            assert len(text.rstrip("\n").split("\n")) <= height - 1
        view = json.loads(json.dumps(public_view(table.referee.view(), SeatState(), 0.0)))
        assert [v["fleets"] for v in view["territories"]] == game.fleets
        assert [v["armies"] for v in view["territories"]] == game.armies
        assert seat_view(table.referee.view(), 0)["fleets"] is True


def test_other_rulesets_show_no_fleets() -> None:
    with SimulatedTable("italian", 3, seed=2) as table:
        view = public_view(table.referee.view(), SeatState(), 0.0)
        assert all(set(v) == {"id", "owner", "colour", "rgb", "mark", "armies"} for v in view["territories"])
        assert "fleets" not in seat_view(table.referee.view(), 0)
        console = Console(width=140, height=40, record=True, color_system=None)
        console.print(render(table, 140, 40))
        assert "fleets" not in console.export_text() and "units:" not in console.export_text()
