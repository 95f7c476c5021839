"""A whole french-1976-duel played by bots through the simulated board's taps and presses: every territory's LED in
its owner's colour (the neutral army's included), the opponent acting for the neutral army, the terminal view naming
it; and the web's public view."""

from __future__ import annotations

import json

from rich.console import Console

from conquista.rules.events import Phase
from conquista.table.colours import NEUTRAL, player_rgb, screen_hex
from conquista.table.referee import BLINK_PERIOD_S
from conquista.web.views import SeatState, public_view, seat_view
from conquista_sim import SimulatedTable
from conquista_sim.board_view import render
from tests.rules.helpers import NEUTRAL as NEUTRAL_OWNER
from tests.rules.helpers import duel
from tests.sim.test_simulated_table import check_lights


def owner_rgb(table: SimulatedTable, t: int) -> tuple[int, int, int]:
    owner = table.game.owner[t]
    return NEUTRAL if owner == NEUTRAL_OWNER else player_rgb(table.game.rules.colours[owner])


def test_a_whole_duel_through_taps_and_presses() -> None:
    with SimulatedTable("french-1976-duel", 2, seed=5, bots=(0, 1), think_time=0.25) as table:
        game = table.game
        assert game.territory_count == [14, 14, 14]
        assert sum(table.led(game.map.id(t)) == NEUTRAL for t in range(42)) == 14
        neutral_status: set[str] = set()
        steps = 0
        while not table.game.over and steps < 30_000:
            table.advance(0.25)
            steps += 1
            check_lights(table)  # selected territories aside, every LED shows its owner's colour
            game = table.game
            if game.phase in (Phase.NEUTRAL_REINFORCE, Phase.NEUTRAL_ATTACK):
                acting = game.rules.colours[game.to_move]  # type: ignore[index]
                assert acting != game.rules.colours[game.current]
                neutral_status.add(table.status().pending.split(":")[0])
        game = table.game
        assert game.over and game.winner in (0, 1)
        assert neutral_status == {"red acts for the neutral army", "blue acts for the neutral army"}
        table.advance(3.0 + BLINK_PERIOD_S * sum(e.count for e in table.referee.effects))
        for t in range(42):
            assert table.led(game.map.id(t)) == owner_rgb(table, t), game.map.id(t)
        assert set(table.ring()) == {player_rgb(game.rules.colours[game.winner])}


def test_the_terminal_view_names_the_neutral_army() -> None:
    with SimulatedTable(game=duel(Phase.NEUTRAL_REINFORCE, state={"pool": 2})) as table:
        console = Console(width=140, height=40, record=True, color_system=None)
        console.print(render(table, 140, 40))
        text = console.export_text()
        assert "seats: ■R red ■B blue ■N neutral" in text
        assert "blue acts for the neutral army: place 2 armies on neutral territories" in text


def test_the_public_view_names_the_neutral_owner_and_colour() -> None:
    with SimulatedTable(game=duel(Phase.NEUTRAL_ATTACK, armies={"central_america": 4})) as table:
        view = json.loads(json.dumps(public_view(table.referee.view(), SeatState(), 0.0)))
        egypt = view["territories"][table.game.map.index("egypt")]
        assert (egypt["owner"], egypt["colour"], egypt["rgb"]) == (NEUTRAL_OWNER, "neutral", screen_hex("neutral"))
        alaska = view["territories"][table.game.map.index("alaska")]
        assert (alaska["colour"], alaska["rgb"]) == ("red", screen_hex("red"))
        assert view["neutral"] == {"owner": 2, "colour": "neutral", "rgb": screen_hex("neutral"), "mark": "N",
                                   "territories": 13}
        assert view["to_move"] == 1 and view["current"] == 0 and len(view["seats"]) == 2
        assert view["pending"].startswith("blue acts for the neutral army")
        assert seat_view(table.referee.view(), 1)["for_neutral"] and not seat_view(table.referee.view(), 0)["my_turn"]
