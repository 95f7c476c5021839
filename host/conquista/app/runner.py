"""Connects a board's devices to the referee: sensor and panel events become gestures, scenes become frames.

The real board runs it in poll mode from one loop, so gpiozero's callback threads only queue events and the
referee is only ever touched from that loop.
"""

from __future__ import annotations

from collections.abc import Callable

from conquista.app.board_settings import BoardSettings
from conquista.app.routing import EffectRouter
from conquista.app.sounds import CuePlayer
from conquista.devices.events import ButtonEvent, Edge, EncoderEvent, PanelButton, SensorEvent
from conquista.devices.frames import DiceSide, LedLayout
from conquista.devices.interfaces import ButtonPanel, Clock, LedStrip, SensorSource
from conquista.table.bot_player import BotSeats
from conquista.table.colours import ATTACK_DIE, DEFENCE_DIE
from conquista.table.gestures import Button, Gesture, GestureRecogniser, Turn
from conquista.table.inputs import TICK
from conquista.table.referee import Referee, Scene

TO_REFEREE = {PanelButton.ROLL: Button.ROLL, PanelButton.CANCEL: Button.CANCEL, PanelButton.NEXT: Button.NEXT,
              # Pushing the encoder confirms a count, as ROLL does.
              PanelButton.ENCODER: Button.ROLL}


def paint(layout: LedLayout, scene: Scene) -> bytearray:
    """The strip frame for a scene, through the board profile's layout."""
    frame = layout.blank()
    for t, colour in enumerate(scene.territories):
        layout.paint_territory(frame, t, colour)
    for side, values, colour in ((DiceSide.ATTACK, scene.attack_dice, ATTACK_DIE),
                                 (DiceSide.DEFENCE, scene.defence_dice, DEFENCE_DIE)):
        for die, value in enumerate(values):
            layout.paint_die(frame, side, die, value, colour)
    for position, colour in enumerate(scene.ring):
        layout.paint_ring(frame, position, colour)
    return frame


class ScenePainter:
    """Paints a stream of scenes into frames like `paint`, repainting only the territories, dice and ring LEDs
    whose colour changed since the last scene: most frames change a few territories and the ring, and painting all
    42 territories' LEDs again was most of a frame's cost."""

    def __init__(self, layout: LedLayout) -> None:
        self.layout = layout
        self._frame = layout.blank()
        self._last: Scene | None = None

    def paint(self, scene: Scene) -> bytearray:
        """The strip frame for `scene` (a new bytearray: the strip may keep or limit it)."""
        last = self._last
        if last is None or len(scene.territories) != len(last.territories) or len(scene.ring) != len(last.ring):
            self._frame = paint(self.layout, scene)
        elif scene != last:
            self._repaint(scene, last)
        self._last = scene
        return bytearray(self._frame)

    def _repaint(self, scene: Scene, last: Scene) -> None:
        layout, frame = self.layout, self._frame
        before = last.territories
        for t, colour in enumerate(scene.territories):
            if colour != before[t]:
                layout.paint_territory(frame, t, colour)
        if scene.attack_dice != last.attack_dice or scene.defence_dice != last.defence_dice:
            for side, values, colour in ((DiceSide.ATTACK, scene.attack_dice, ATTACK_DIE),
                                         (DiceSide.DEFENCE, scene.defence_dice, DEFENCE_DIE)):
                for die, value in enumerate(values):
                    layout.paint_die(frame, side, die, value, colour)
        ring = last.ring
        for position, colour in enumerate(scene.ring):
            if colour != ring[position]:
                layout.paint_ring(frame, position, colour)


class TableRunner:
    def __init__(self, referee: Referee, layout: LedLayout, strip: LedStrip,
                 recogniser: GestureRecogniser | None = None, sounds: CuePlayer | None = None,
                 bots: BotSeats | None = None, settings: BoardSettings | None = None,
                 router: EffectRouter | None = None) -> None:
        self.referee = referee
        self.settings = settings   # keeps the LED palette the host chooses for the next games and runs
        self.bots = bots
        self.sounds = sounds
        # The referee's effects leave through it after every input and before every frame: the journal first.
        self.router = router if router is not None else EffectRouter(sounds=sounds)
        self.layout = layout
        self.strip = strip
        self.recogniser = recogniser if recogniser is not None else GestureRecogniser()
        self.painter = ScenePainter(layout)
        self._shown: Scene | None = None

    def on_sensor(self, event: SensorEvent) -> None:
        if event.edge is Edge.PRESS:
            self.recogniser.territory_down(event.territory, event.time)
            return
        gesture = self.recogniser.territory_up(event.territory, event.time)
        if gesture is not None:
            self.handle(gesture, event.time)

    def on_panel(self, event: ButtonEvent | EncoderEvent) -> None:
        if isinstance(event, EncoderEvent):
            self.handle(Turn(event.steps), event.time)
            return
        button = TO_REFEREE[event.button]
        if event.edge is Edge.PRESS:
            chord = self.recogniser.button_down(button, event.time)   # ROLL and NEXT together: a seat's grant
            if chord is not None:
                self.handle(chord, event.time)
            return
        gesture = self.recogniser.button_up(button, event.time)
        if gesture is not None:
            self.handle(gesture, event.time)

    def handle(self, gesture: Gesture, now: float) -> None:
        """A gesture to the referee, and what it gave out routed at once (the journal first)."""
        self.referee.step(gesture, now)
        self.router.route(self.referee, now)

    def route(self, now: float) -> None:
        """Route what the referee gave out (e.g. after an input handed to it directly: a link's fault)."""
        self.router.route(self.referee, now)

    def pump(self, sensors: SensorSource, panel: ButtonPanel) -> int:
        """Handle every queued input event; returns how many there were."""
        handled = 0
        for sensor_event in sensors.poll():
            self.on_sensor(sensor_event)
            handled += 1
        for panel_event in panel.poll():
            self.on_panel(panel_event)
            handled += 1
        return handled

    def render(self, now: float) -> None:
        """Send the frame for `now`, changed or not."""
        self.router.route(self.referee, now)   # nothing is shown that the journal does not have
        scene = self._shown = self.referee.view().scene(now)
        self.strip.show(self.painter.paint(scene))

    def show_if_changed(self, now: float) -> bool:
        """Send the frame for `now` only when the scene differs from the last one sent; True when sent."""
        self.router.route(self.referee, now)   # nothing is shown that the journal does not have
        scene = self.referee.view().scene(now)
        if scene == self._shown:
            return False
        self._shown = scene
        self.strip.show(self.painter.paint(scene))
        return True

    def show_pass(self, now: float, on_step: Callable[[Referee, float], None] | None = None, *,
                  always: bool = False) -> int:
        """The frames of one pass at `now`, as the board's loop and the simulator both show them: the frame if the
        scene changed (`always`: even if not; the simulator sends one for every move of its hands), then `on_step`
        (the phones' commands in, their views out: the board's lights never wait for them), then the frame again if
        a phone's command changed the table. Each frame is routed first, so no light shows an action the journal
        does not have. Returns how many frames were sent."""
        if always:
            self.render(now)
            shown = 1
        else:
            shown = int(self.show_if_changed(now))
        if on_step is not None:
            referee = self.referee
            version = referee.view().version
            on_step(referee, now)
            if referee.view().version != version:   # a phone's command changed the table: its frame now
                shown += self.show_if_changed(now)
        return shown

    def step(self, sensors: SensorSource, panel: ButtonPanel, clock: Clock) -> None:
        """One pass of a polling loop: inputs, a button held down, time-outs, the bots' gestures, one frame."""
        self.pump(sensors, panel)
        now = clock.now()
        self.advance(now)
        self.render(now)

    def advance(self, now: float, perform: Callable[[Gesture, float], float] | None = None) -> None:
        """Time passing at `now`: a button held down, time-outs, the bots' gestures, the buzzer's cues. The board
        and the simulator both run this step; what each part gave out is routed before the next (the journal
        first). `perform` makes a bot's gesture and returns the time it ended (the simulator makes it with its
        simulated hands, which take time, and routes as it shows each frame); by default it goes straight to the
        referee."""
        held = self.recogniser.poll(now)
        if held is not None:
            self.handle(held, now)
        self.referee.step(TICK, now)
        self.router.route(self.referee, now)   # the buzzer follows here too
        if self.bots is not None:
            gesture = self.bots.next_gesture(self.referee, now)
            if gesture is not None:
                ended = self._gesture(gesture, now) if perform is None else perform(gesture, now)
                self.bots.rested(ended)
        self.keep_settings()

    def _gesture(self, gesture: Gesture, now: float) -> float:
        self.handle(gesture, now)
        return now

    def keep_settings(self) -> None:
        """Save the board's settings that changed (the LED palette the host chose) for the next runs."""
        if self.settings is not None:
            self.settings.keep(self.referee.view().palette)
