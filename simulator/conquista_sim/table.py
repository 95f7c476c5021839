"""`SimulatedTable`: the whole board in memory, driven the way hands drive a real one.

Taps move mock GPIO pins (or fake matrix keys) under the *real* input adapters; their events pass through the
same gesture recogniser and referee as on the board; the referee's scene is painted through the board profile's
LED layout into an in-memory strip that applies the same brightness and current limit as the real one. Bots sit
at the table: their moves become taps and presses, made as the simulated clock advances.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from types import TracebackType
from typing import TYPE_CHECKING

from conquista.app.build import build_table
from conquista.app.sounds import CuePlayer
from conquista.bots import make_bot
from conquista.bots.roster import DEFAULT_BOT
from conquista.devices.events import PanelButton
from conquista.devices.frames import DiceSide
from conquista.dice.chance import new_game
from conquista.dice.sources import DiceSource, SeededDice
from conquista.errors import ConquistaError
from conquista.hardware.profile import BoardProfile, load_profile
from conquista.rules.engine import Game
from conquista.rules.mapdata import GameMap, load_map
from conquista.rules.rulesets import load_ruleset
from conquista.table.bot_player import BotSeats
from conquista.table.colours import RGB
from conquista.table.gestures import Chord, Gesture, GestureRecogniser, HeldDown, Hold, LongPress, Press, Tap, Turn
from conquista.table.inputs import Fault, FaultSource
from conquista.table.referee import Referee, Scene, Status
from conquista_sim.devices import FakeBoard, FakeClock

if TYPE_CHECKING:
    from conquista.app.routing import EffectRouter
    from conquista.journal import GameJournal
    from conquista.web.companion import Companion
    from conquista_sim.linked import LinkedSensors

BUTTONS = {"roll": PanelButton.ROLL, "cancel": PanelButton.CANCEL, "next": PanelButton.NEXT,
           "encoder": PanelButton.ENCODER}
TAP_S = 0.12          # how long a simulated finger rests on a sensor or button
LONG_PRESS_S = 1.0


class SimulatedTable:
    """A simulated board with a referee. Territory ids are the map's ids (e.g. "alaska")."""

    def __init__(self, rules: str = "italian", players: int = 3, seed: int = 1,
                 bots: Iterable[int] | Mapping[int, str] = (), *,
                 board: str | Path | None = None, map_path: str | Path | None = None, think_time: float = 0.6,
                 physical_dice: bool = False, dice: DiceSource | None = None,
                 on_line: Callable[[str], None] | None = None, game: Game | None = None,
                 journal: GameJournal | None = None, sensors: str | None = None,
                 bot_kinds: Mapping[int, str] | None = None) -> None:
        game_map: GameMap = game.map if game is not None else load_map(map_path)
        self.profile: BoardProfile = load_profile(board, game_map)
        self.clock = FakeClock()
        self.board = FakeBoard(self.profile, self.clock, defer_gpio=True)
        source: DiceSource = dice if dice is not None else SeededDice(seed)  # deals, draws and rolls the game
        if game is None:
            game = self._deal(rules, players, game_map, source)
        # Seat → bot kind; a plain list of seats gets normal bots. The bots' own choices (the random bot's) come from
        # a generator of their own: they are a player's decisions, not the game's chance.
        bot_rng = random.Random(seed ^ 0x5EA7)
        kinds = {seat: (bot_kinds or {}).get(seat, kind) for seat, kind in kinds_of(bots).items()}
        self.bot_seats = BotSeats(lambda kind: make_bot(kind, bot_rng), kinds, think_s=think_time)
        for seat in self.bots:
            if not 0 <= seat < game.players:
                self.board.close()
                raise ConquistaError(f"bot seat {seat} is not a seat of {game.players} players "
                                     f"(seats are 0..{game.players - 1})")
        self.on_line = on_line
        # The buzzer cues play on the board's mock piezo (`board.buzzer_frequency`), as they would on a Pi.
        self.sounds = CuePlayer(self.board.buzzer, muted=self.profile.buzzer_muted)
        table = build_table(game, self.profile, source,
                            self.board.strip, physical_dice=physical_dice, journal=journal,
                            recogniser=GestureRecogniser(long_press_s=LONG_PRESS_S * 0.8), sounds=self.sounds,
                            bots=self.bot_seats)
        self.referee, self.layout, self.runner = table.referee, table.layout, table.runner
        self.journal = journal
        self.recogniser = self.runner.recogniser
        self.linked = self._link(sensors)
        self._lines_seen = 0
        self.frames_shown = 0
        # Runs on the board's loop after each frame (the web app's phones act and their views are published:
        # `add_phones`), or whatever else a test hangs there.
        self.on_step: Callable[[Referee, float], None] | None = None
        self.phones: list[Companion] = []
        if self.linked is None:
            self.board.sensors.set_listener(self.runner.on_sensor)
        self.board.panel.set_listener(self.runner.on_panel)
        self._render()

    def _deal(self, rules: str, players: int, game_map: GameMap, source: DiceSource) -> Game:
        ruleset = load_ruleset(rules)
        try:
            ruleset.check_players(players)
        except ConquistaError:
            self.board.close()
            raise
        return new_game(ruleset, game_map, players, source)

    def _link(self, sensors: str | None) -> LinkedSensors | None:
        """sensors="serial" or a socket:// URL: taps travel through the real link from a (simulated) Pico."""
        if sensors is None:
            return None
        from conquista_sim.linked import LinkedSensors  # the serial link is loaded only when it is used

        try:
            return LinkedSensors(self.profile, sensors, self.clock.now, self._link_fault)
        except BaseException:
            self.board.close()
            raise

    # --------------------------------------------------------------------------------------- hands

    def tap(self, territory_id: str) -> None:
        self._touch(territory_id, TAP_S)

    def long_press(self, territory_id: str) -> None:
        self._touch(territory_id, LONG_PRESS_S)

    def press(self, button: str) -> None:
        self._push(button, TAP_S)

    def press_together(self, first: str, second: str) -> None:
        """Press two buttons at once (ROLL and NEXT: grant the seat a phone asks for)."""
        buttons = [self._button(first), self._button(second)]
        for button in buttons:
            self.board.press(button)
        self.clock.advance(TAP_S)
        for button in buttons:
            self.board.release(button)
        self._render()

    def hold(self, button: str, seconds: float = LONG_PRESS_S) -> None:
        """Hold a button down for `seconds` (NEXT for 5 s asks to switch the board off)."""
        self._push(button, seconds)

    def turn(self, steps: int) -> None:
        self.board.turn(steps)
        self._render()

    def advance(self, seconds: float, step: float = 0.05) -> None:
        """Let simulated time pass: animations run, time-outs fire, bots think and act."""
        end = self.clock.now() + seconds
        while self.clock.now() < end - 1e-9:
            self.clock.advance(min(step, end - self.clock.now()))
            if self.linked is not None:
                for event in self.linked.poll():  # keys pressed on an external sim-mcu
                    self.runner.on_sensor(event)
            # The board's own step (app/runner.py): held buttons, time-outs, the bots, the cues, the settings.
            self.runner.advance(self.clock.now(), perform=self._bot_gesture)
            self._render()

    def play_bots_until_over(self, max_seconds: float = 36_000.0) -> None:
        """Advance time until the game ends (every seat must be a bot) or `max_seconds` pass."""
        waited = 0.0
        while not self.game.over and waited < max_seconds:
            self.advance(self.think_time)
            waited += self.think_time

    def _touch(self, territory_id: str, seconds: float) -> None:
        territory = self.game.map.index(territory_id)
        if self.linked is not None:
            if self.linked.pico is None:
                key = self.profile.sensors.key_of_territory[territory]
                name = self.game.map.territories[territory].name_en
                raise ConquistaError(f"the sensors are an external simulated Pico: tap {name} there by typing "
                                     f"`tap {key}` in the sim-mcu terminal; the game goes on here")
            for event in self.linked.touch(territory, seconds):
                self.runner.on_sensor(event)
            self.clock.advance(seconds)
        else:
            self.board.press_territory(territory)
            self.clock.advance(seconds)
            self.board.release_territory(territory)
        self._render()

    def _link_fault(self, text: str) -> None:
        self.referee.step(Fault(FaultSource.LINK, text or None), self.clock.now())
        self.runner.route(self.clock.now())

    @property
    def router(self) -> EffectRouter:
        """Where the referee's effects leave (app/routing.py): the journal first, then the shell's decisions,
        phones, terminal, buzzer."""
        return self.runner.router

    def add_phones(self, companion: Companion) -> None:
        """The web app serves this table: after each frame the phones' commands are taken (each one's effects
        routed through the table's router, the journal first) and their views published."""
        self.router.add_phones(companion)
        self.phones.append(companion)

    @property
    def version(self) -> int:
        """Moves whenever the table changed: a screen redraws when it moves."""
        return self.referee.view().version

    @staticmethod
    def _button(name: str) -> PanelButton:
        try:
            return BUTTONS[name]
        except KeyError:
            raise ConquistaError(f"unknown button {name!r}; buttons: {', '.join(BUTTONS)}") from None

    def _push(self, name: str, seconds: float) -> None:
        button = self._button(name)
        self.board.press(button)
        self.clock.advance(seconds)
        self._poll_held()
        self.board.release(button)
        self._render()

    def _poll_held(self) -> None:
        """A button still held down long enough (NEXT: the power-off question) acts before its release."""
        gesture = self.recogniser.poll(self.clock.now())
        if gesture is not None:
            self.runner.handle(gesture, self.clock.now())

    # ---------------------------------------------------------------------------------------------- bots

    @property
    def bots(self) -> frozenset[int]:
        """The seats bots play (`bot_seats.kinds` says which bot)."""
        return self.bot_seats.seats

    @bots.setter
    def bots(self, seats: Iterable[int] | Mapping[int, str]) -> None:
        self.bot_seats.seat(kinds_of(seats))

    @property
    def bot_kinds(self) -> dict[int, str]:
        """Each bot seat's kind (conquista.bots.BOT_NAMES)."""
        return dict(self.bot_seats.kinds)

    @bot_kinds.setter
    def bot_kinds(self, kinds: Mapping[int, str]) -> None:
        self.bot_seats.seat(dict(kinds))

    @property
    def think_time(self) -> float:
        return self.bot_seats.think_s

    @think_time.setter
    def think_time(self, seconds: float) -> None:
        self.bot_seats.think_s = seconds

    def _bot_gesture(self, gesture: Gesture, now: float) -> float:
        """A bot's gesture for the runner's step: made with the simulated hands; returns when they let go."""
        self._perform(gesture)
        return self.clock.now()

    def _perform(self, gesture: Gesture) -> None:
        """A bot's gesture, made with the same simulated hands as a person's."""
        match gesture:
            case Tap(territory):
                self.tap(self.game.map.id(territory))
            case LongPress(territory):
                self.long_press(self.game.map.id(territory))
            case Press(button):
                self.press(button.value)
            case Hold(button) | HeldDown(button):
                self.hold(button.value)
            case Chord():
                self.press_together("roll", "next")
            case Turn(steps):
                self.turn(steps)

    # ---------------------------------------------------------------------------------------------- lights

    def _render(self) -> None:
        """The board loop's frames (app/runner.py `show_pass`): the frame, then the phones, then the frame again if
        a phone changed the table. A frame is sent after every move of the hands, changed or not: tests and
        pictures read the strip after each."""
        now = self.clock.now()
        self.frames_shown += self.runner.show_pass(now, self._after_frame, always=True)
        if self.on_line is not None:
            self._emit_lines(final=False)

    def _after_frame(self, referee: Referee, now: float) -> None:
        for companion in self.phones:
            companion.step(referee, now)
        if self.on_step is not None:
            self.on_step(referee, now)

    def _emit_lines(self, final: bool) -> None:
        # The log's last line may still grow (placements on one territory read as one line), so it is passed on
        # only once a later line follows it, or at `flush_lines()`.
        view = self.referee.view()
        assert self.on_line is not None
        lines = view.log_from(self._lines_seen)
        for line in lines[:len(lines) - (0 if final else 1)]:
            self.on_line(line)
            self._lines_seen += 1

    def flush_lines(self) -> None:
        """Pass the log's last line to `on_line` too (at the end of a script)."""
        if self.on_line is not None:
            self._emit_lines(final=True)

    def refresh(self) -> None:
        """Paint a frame now (e.g. after the set-up menu was offered)."""
        self._render()

    def switch_off(self) -> None:
        """The players switched the board off (`referee.power_off`): the journal is closed, then the LEDs go
        dark, as on the real board (which then runs its shutdown command)."""
        if self.journal is not None:
            self.journal.close()
        self.board.strip.show(bytes(3 * self.board.strip.length))

    def paint(self, scene: Scene) -> bytearray:
        """The strip frame for a scene, through the board profile's layout (the runner's painter: only what
        changed since the last frame is painted again)."""
        return self.runner.painter.paint(scene)

    # ----------------------------------------------------------------------------------------------- views

    @property
    def game(self) -> Game:
        """The engine state, for assertions (do not change it: the table's lights would disagree)."""
        return self.referee.view().game

    def led(self, territory_id: str) -> RGB:
        """The colour the referee sent to the territory's LEDs in the last frame."""
        frame = self.board.strip.last_requested
        assert frame is not None
        return self.layout.territory_color(frame, self.game.map.index(territory_id))

    def dice_panel(self) -> tuple[tuple[int | None, ...], tuple[int | None, ...]]:
        """The values the dice panel shows, read back from the last frame: (attack dice, defence dice)."""
        frame = self.board.strip.last_requested
        assert frame is not None
        return (tuple(self.layout.die_value(frame, DiceSide.ATTACK, d) for d in range(3)),
                tuple(self.layout.die_value(frame, DiceSide.DEFENCE, d) for d in range(3)))

    def ring(self) -> tuple[RGB, ...]:
        frame = self.board.strip.last_requested
        assert frame is not None
        return tuple(self.layout.ring_color(frame, i) for i in range(self.layout.ring_length))

    def status(self) -> Status:
        return self.referee.view().status

    @property
    def log(self) -> list[str]:
        return list(self.referee.view().whole_log())

    def close(self) -> None:
        if self.linked is not None:
            self.linked.close()
        self.board.close()

    def __enter__(self) -> SimulatedTable:
        return self

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.close()


def kinds_of(bots: Iterable[int] | Mapping[int, str]) -> dict[int, str]:
    """Seat → bot kind, from a mapping or from a list of seats (the default bot)."""
    if isinstance(bots, Mapping):
        return dict(bots)
    return {seat: DEFAULT_BOT for seat in bots}
