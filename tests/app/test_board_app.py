"""The real board's composition root, with only the libraries faked at their boundary: gpiozero's MockFactory as
the default pin factory, a fake rpi_ws281x module, and the simulated Pico (the real firmware code) on loopback."""

from __future__ import annotations

import random
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from conquista.app.board import open_devices, run_board
from conquista.devices.clock import MonotonicClock
from conquista.dice.chance import new_game
from conquista.dice.sources import SeededDice
from conquista.errors import ConquistaError
from conquista.hardware.profile import load_profile
from conquista.rules.events import Phase
from conquista.rules.mapdata import load_map
from conquista.rules.rulesets import load_ruleset
from conquista.table.gestures import Button, HeldDown, Press
from conquista.table.referee import Referee
from conquista_sim.pico import SimulatedPico

FAKES = Path(__file__).resolve().parents[1] / "devices" / "fakes"


@pytest.fixture
def fake_pi(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """gpiozero's default pins are mock pins and rpi_ws281x is the fake library, for this test only."""
    from gpiozero import Device  # type: ignore[import-untyped]
    from gpiozero.pins.mock import MockFactory, MockPWMPin  # type: ignore[import-untyped]

    monkeypatch.syspath_prepend(str(FAKES))
    sys.modules.pop("rpi_ws281x", None)
    factory = MockFactory(pin_class=MockPWMPin)
    monkeypatch.setattr(Device, "pin_factory", factory)
    yield
    factory.close()
    sys.modules.pop("rpi_ws281x", None)


@pytest.fixture
def pico() -> Iterator[SimulatedPico]:
    simulated = SimulatedPico(debounce_ms=5).start()
    yield simulated
    simulated.stop()


def switch_off(referee: Referee, now: float) -> None:
    """As the players switch the board off: NEXT held down asks, ROLL answers yes (the board stops after a pass)."""
    if not referee.view().power_question:
        referee.step(HeldDown(Button.NEXT), now)
    referee.step(Press(Button.ROLL), now)


def test_a_tap_on_the_pico_places_an_army_on_the_real_path(fake_pi: None, pico: SimulatedPico) -> None:
    game_map = load_map()
    profile = load_profile(None, game_map)
    game = new_game(load_ruleset("classic"), game_map, 2, random.Random(4))
    seat = game.current
    territory = game.owner.index(seat)
    pool = game.pool
    stop = threading.Event()
    result: list[object] = []

    def board() -> None:
        result.append(run_board(game, profile, SeededDice(1), sensors_url=pico.url, should_stop=stop.is_set))

    thread = threading.Thread(target=board)
    thread.start()
    try:
        deadline = time.monotonic() + 10
        key = profile.sensors.key_of_territory[territory]
        while game.pool == pool and time.monotonic() < deadline:
            pico.press(key)
            time.sleep(0.15)
            pico.release(key)
            time.sleep(0.3)
    finally:
        stop.set()
        thread.join(10)
    assert game.phase is Phase.SETUP and game.pool < pool and game.armies[territory] >= 2


def test_missing_pico_is_one_clear_error(fake_pi: None) -> None:
    profile = load_profile()
    with pytest.raises(ConquistaError, match=r"cannot open socket://127\.0\.0\.1:9"):
        open_devices(profile, MonotonicClock(), "socket://127.0.0.1:9")


def test_devices_open_and_close(fake_pi: None, pico: SimulatedPico) -> None:
    devices = open_devices(load_profile(), MonotonicClock(), pico.url)
    try:
        assert devices.strip.length == 150 and devices.buzzer is not None
        devices.strip.show(bytes(450))
    finally:
        devices.close()


def test_the_board_journals_and_offers_to_resume(fake_pi: None, pico: SimulatedPico, tmp_path: Path) -> None:
    from conquista.journal import offer_resume, open_for_play

    game_map = load_map()
    profile = load_profile(None, game_map)
    game = new_game(load_ruleset("classic"), game_map, 2, random.Random(4))
    start = open_for_play(tmp_path, None, print)
    assert start.game is None and start.offer is None
    territory = game.owner.index(game.current)
    key = profile.sensors.key_of_territory[territory]
    pool = game.pool
    stop = threading.Event()
    thread = threading.Thread(target=lambda: run_board(game, profile, SeededDice(1), sensors_url=pico.url,
                                                       should_stop=stop.is_set, journal=start.journal))
    thread.start()
    try:
        deadline = time.monotonic() + 10
        while game.pool == pool and time.monotonic() < deadline:
            pico.press(key)
            time.sleep(0.15)
            pico.release(key)
            time.sleep(0.3)
    finally:
        stop.set()
        thread.join(10)
        start.journal.close()
    placed = len(game.log)
    assert placed >= 2
    # The power comes back: the unfinished game is rebuilt from the journal and offered at the board.
    again = open_for_play(tmp_path, None, print)
    assert again.offer is not None and again.game is not None
    assert again.game.digest() == game.digest()
    asked: list[str] = []

    class Table:
        def step(self, item: object, _now: float) -> list[object]:
            asked.append(item.question.text)   # type: ignore[attr-defined]
            return []

        def view(self) -> object:
            return type("View", (), {"now": 0.0})()

    offer_resume(Table(), again.journal, again.offer, lambda: game)  # type: ignore[arg-type]
    assert asked and "ROLL resumes" in asked[0]
    again.journal.close()


def test_switching_off_saves_the_game_then_darkens_the_leds(fake_pi: None, pico: SimulatedPico,
                                                             tmp_path: Path) -> None:
    from conquista.journal import GameJournal

    game_map = load_map()
    game = new_game(load_ruleset("classic"), game_map, 2, random.Random(4))
    journal = GameJournal(tmp_path)
    order: list[tuple[str, bool]] = []
    close = journal.close

    def lit() -> bool:
        import rpi_ws281x  # the fake library, on the path for this test

        return any(rpi_ws281x.instances[-1].pixels)

    def closing() -> None:
        order.append(("journal", lit()))
        close()

    journal.close = closing  # type: ignore[method-assign]

    referee = run_board(game, load_profile(None, game_map), SeededDice(1), sensors_url=pico.url, journal=journal,
                        on_step=switch_off)
    assert referee.view().power_off and order == [("journal", True)]   # the journal closed while the LEDs were lit
    assert not lit()                                             # ... then they went dark


def test_the_web_app_starts_after_the_first_frame(fake_pi: None, pico: SimulatedPico) -> None:
    """`after_first_frame` (play starts its web app there) runs once, when the strip already shows the board."""
    game_map = load_map()
    game = new_game(load_ruleset("classic"), game_map, 2, random.Random(4))
    seen: list[bool] = []

    def lit() -> bool:
        import rpi_ws281x  # the fake library, on the path for this test

        return any(rpi_ws281x.instances[-1].pixels)

    run_board(game, load_profile(None, game_map), SeededDice(1), sensors_url=pico.url, on_step=switch_off,
              after_first_frame=lambda: seen.append(lit()))
    assert seen == [True]


def test_the_buttons_and_the_buzzer_can_wait_for_the_first_frame(fake_pi: None, pico: SimulatedPico) -> None:
    """`play`'s opening: gpiozero's pins are claimed at open_deferred(), and a press then reaches the push."""
    from gpiozero import Device

    from conquista.devices.deferred import DeferredBuzzer, DeferredPanel, DeferredSensors
    from conquista.devices.events import ButtonEvent, Edge, PanelButton

    profile = load_profile()
    pushed: list[object] = []
    devices = open_devices(profile, MonotonicClock(), pico.url, push=pushed.append, after_first_frame=True)
    try:
        assert isinstance(devices.panel, DeferredPanel) and isinstance(devices.buzzer, DeferredBuzzer)
        assert not devices.panel.opened and not devices.buzzer.opened
        # The Pi drives this strip: the Pico's link waits too (its import and handshake), and opens first.
        assert isinstance(devices.sensors, DeferredSensors) and not devices.sensors.opened
        assert devices.link is None
        factory = Device.pin_factory

        def claimed(pin: int) -> bool:
            return any(pin in info.names for info in factory.pins)

        assert not claimed(profile.buttons.roll) and not claimed(profile.buzzer_pin or 0)
        devices.open_deferred()
        assert devices.panel.opened and devices.buzzer.opened and devices.deferred == []
        assert devices.sensors.opened
        assert claimed(profile.buttons.roll) and claimed(profile.buzzer_pin or 0)
        roll = factory.pin(profile.buttons.roll)
        roll.drive_low()
        deadline = time.monotonic() + 5
        while not any(isinstance(e, ButtonEvent) for e in pushed) and time.monotonic() < deadline:
            time.sleep(0.01)
        assert any(isinstance(e, ButtonEvent) and e.button is PanelButton.ROLL and e.edge is Edge.PRESS
                   for e in pushed)
    finally:
        devices.close()
