"""A resumed game keeps every setting it was started with (issue 39 §1): physical dice, hints (and on the LEDs),
the defender's and a claim's time-outs, written with the game when they change and given back on resume; the dice
source of the log header; and a damaged settings row is left out with one warning naming the key."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from conquista.cli.table_dice import TableDice
from conquista.dice.sources import DiceKind
from conquista.journal import GameJournal
from conquista.journal.table_settings import TableSettings, settings_of
from conquista.table.inputs import SetHints, SetPhysicalDice, SetTimeOuts
from tests.journal.helpers import attach, bot_referee, play

CHANGES = {
    "physical_dice": (SetPhysicalDice(True), lambda r: r.physical_dice, True),
    "hints": (SetHints(False, False), lambda r: r.hints_allowed, False),
    "hint_leds": (SetHints(True, True), lambda r: r.hint_leds, True),
    "defend_s": (SetTimeOuts(defend_s=42.0), lambda r: r.defend_timeout_s, 42.0),
    "claim_s": (SetTimeOuts(claim_s=7.0), lambda r: r.claims.timeout_s, 7.0),
}


@pytest.mark.parametrize("setting", sorted(CHANGES))
def test_a_resumed_game_keeps_the_setting(tmp_path: Path, setting: str) -> None:
    change, read, wanted = CHANGES[setting]
    journal = GameJournal(tmp_path)
    referee = bot_referee(3, "italian", 3)
    attach(journal, referee)
    now = play(referee, 10)
    referee.step(change, now)
    play(referee, 5, now)      # the next action writes it
    assert read(referee) == wanted
    journal.close()
    again = GameJournal(tmp_path)
    game = again.resume(1)
    fresh = bot_referee(3, "italian", 3)
    assert read(fresh) != wanted            # a new referee has the command line's setting
    fresh.game = game
    for item in again.table_inputs():      # as app.build.follow_journal hands them over
        fresh.step(item, 0.0)
    assert read(fresh) == wanted and again.table_inputs() == []
    assert again.table_settings == settings_of(referee.view())
    again.close()


@pytest.mark.parametrize(("started", "resumed"), [("os", "seeded"), ("seeded", "os")])
def test_a_resumed_game_keeps_its_dice_source(started: str, resumed: str) -> None:
    dice = TableDice(resumed, 5, None, print)
    journal = type("J", (), {"dice": lambda self: {"source": started}, "journal": None})()
    dice.journal = journal  # type: ignore[assignment]
    dice.resume(bot_referee(1, "italian", 3).game)
    assert dice.chance.source.name == DiceKind(started).value


def test_a_damaged_setting_is_left_out_with_one_warning(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    journal = GameJournal(tmp_path)
    referee = bot_referee(3, "italian", 3)
    attach(journal, referee)
    now = play(referee, 10)
    referee.step(SetPhysicalDice(True), now)
    play(referee, 5, now)
    journal.close()
    with sqlite3.connect(tmp_path / "games.sqlite3") as conn:
        conn.execute("""UPDATE table_settings SET settings = '{"physical_dice": true, "defend_s": -3, "colour": 1}'""")
    again = GameJournal(tmp_path)
    again.resume(1)
    assert again.table_settings == TableSettings(physical_dice=True)
    assert any("'defend_s' is -3" in w for w in again.warnings)
    assert any("unknown key 'colour'" in w for w in again.warnings)
    again.close()


def test_a_table_built_for_a_resumed_game_plays_on_with_physical_dice(tmp_path: Path) -> None:
    """`sim --physical-dice`, power cut, `sim --resume 1`: the table built to follow the journal (app.build) types the
    dice in again, though the resuming command line does not say --physical-dice."""
    from conquista.app.build import build_table
    from conquista.dice.sources import SeededDice
    from conquista.hardware.profile import load_profile
    from conquista_sim.devices import MemoryStrip

    journal = GameJournal(tmp_path)
    referee = bot_referee(3, "italian", 3)
    attach(journal, referee)
    now = play(referee, 10)
    referee.step(SetPhysicalDice(True), now)
    play(referee, 5, now)
    journal.close()
    again = GameJournal(tmp_path)
    game = again.resume(1)
    profile = load_profile(None, game.map)
    table = build_table(game, profile, SeededDice(1), MemoryStrip.from_profile(profile), journal=again)
    assert table.referee.physical_dice and again.warnings == []
    again.close()


def test_a_roll_waiting_for_physical_dice_at_the_power_cut_is_typed_in_again(tmp_path: Path) -> None:
    """Ctrl-C (or the power) while the attacker types the dice in: the resumed table asks for the dice again rather
    than rolling them itself (the saved settings are taken before the pending chance step is answered)."""
    from conquista.app.build import build_table
    from conquista.bots import GreedyBot
    from conquista.dice.sources import SeededDice
    from conquista.hardware.profile import load_profile
    from conquista.rules.actions import Roll
    from conquista.rules.events import Phase
    from conquista.table.bot_player import gestures_for
    from conquista_sim.devices import MemoryStrip
    from tests.journal.helpers import handle

    journal = GameJournal(tmp_path)
    referee = bot_referee(3, "italian", 3)
    attach(journal, referee)
    referee.step(SetPhysicalDice(True), 0.0)
    bot, now = GreedyBot(), 0.0
    while not referee.view().typing_dice:
        assert not referee.game.over and len(referee.game.log) < 400, "no attack came"
        for gesture in gestures_for(referee, bot.choose(referee.game)):
            now += 0.1
            handle(referee, gesture, now)
            if referee.view().typing_dice:
                break
    saved = len(referee.game.log)
    journal.close()   # the cut: the attack is saved, its roll was never typed in
    again = GameJournal(tmp_path)
    game = again.resume(1)
    assert game.phase is Phase.ROLL and len(game.log) == saved
    profile = load_profile(None, game.map)
    table = build_table(game, profile, SeededDice(9), MemoryStrip.from_profile(profile), journal=again)
    view = table.referee.view()
    assert view.typing_dice and view.physical_dice
    assert len(view.game.log) == saved and not isinstance(view.game.log[-1], Roll)
    # Resumed from the host's phone instead: the game starts with its settings (StartedGame.settings).
    other = bot_referee(4, "italian", 3)
    other.start(game, 1.0, "saved game 1 resumed", settings=(SetPhysicalDice(True),))
    assert other.view().typing_dice and len(other.view().game.log) == saved
    again.close()
