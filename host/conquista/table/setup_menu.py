"""The set-up menu on the status ring: a new game chosen at the board with the encoder and the buttons, no phone.

Three steps: the ruleset, the number of players (within the ruleset's range), then who plays each seat, a person
or a bot of a level. Turning the encoder changes the step's choice, ROLL confirms the step, NEXT goes back one. In
the last step the encoder picks a seat and CANCEL goes round a person, a normal bot, a hard bot and an easy bot (the
table's levels, `BOT_CYCLE`); ROLL there starts the game.
CANCEL in the first step switches the tournament ending on and off (docs/rules.md, "Tournament ending"; every
ruleset has it as an option), and in the second the LED palette between the standard colours and the colour-blind
one (the seats' arcs show the palette chosen).
The menu is a pure state machine: gestures in, the chosen set-up out (`handle` returns it), and what the ring and
the words show (`ring`, `describe`, `view`). Starting the game it returns is the app's job.

On the ring: the rulesets as arcs with the chosen one bright (every other LED amber with the tournament ending
on); then one arc per seat up to the ruleset's most players, the seats in play lit in their colours (of the
palette chosen); then one arc per seat in play, a person's arc solid and a bot's dotted (every other LED), the seat
being picked blinking.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping, Sequence
from enum import Enum
from typing import Any

from conquista.bots.roster import DEFAULT_BOT
from conquista.rules.records import frozen_record
from conquista.rules.rulesets import Ruleset
from conquista.table.colours import OFF, RGB, SELECT, Palette, player_rgb, scale
from conquista.table.gestures import Button, Gesture, Hold, Press, Turn
from conquista.table.ring import COUNT_DIM, arc_ring, arcs, blink_on
from conquista.table.setup_choice import SetupChoice as SetupChoice  # its own module: effects carry it
from conquista.table.tournament_clock import TOURNAMENT_SIGNAL
from conquista.table.wording import plural

CURSOR_BLINK_S = 0.6
# What CANCEL makes of a seat in turn, from a person's: the default level first, then the others.
BOT_CYCLE = (DEFAULT_BOT, "hard", "easy")


class Step(Enum):
    RULESET = "ruleset"
    PLAYERS = "players"
    SEATS = "seats"


STEPS = tuple(Step)


@frozen_record
class RulesetOption:
    """What the menu needs of a ruleset."""

    name: str
    players_min: int
    players_max: int
    colours: tuple[str, ...]
    tournament_ending: bool = False    # the ruleset's own setting (the menu starts from it)

    @classmethod
    def of(cls, name: str, rules: Ruleset) -> RulesetOption:
        return cls(name, rules.players_min, rules.players_max, tuple(rules.colours), rules.tournament_ending)


class SetupMenu:
    def __init__(self, options: Sequence[RulesetOption], *, rules: str | None = None, players: int = 3,
                 bots: Mapping[int, str] | None = None, tournament: bool | None = None,
                 palette: Palette = Palette.STANDARD) -> None:
        if not options:
            raise ValueError("the set-up menu needs at least one ruleset")
        self.options = tuple(options)
        names = [o.name for o in self.options]
        self.index = names.index(rules) if rules in names else 0
        self.players = self._within(players)
        self.bots: dict[int, str] = dict(bots or {})
        # None: each ruleset's own setting; the host's switch then holds for every ruleset turned to.
        self.tournament = self.option.tournament_ending if tournament is None else tournament
        self.palette = palette
        self.step = Step.RULESET
        self.cursor = 0
        self.message = ""   # why the last gesture was refused ("" when it was taken)
        self.said = ""      # what the last gesture switched (a notice, not a refusal)

    @property
    def option(self) -> RulesetOption:
        return self.options[self.index]

    def _within(self, players: int) -> int:
        return max(self.option.players_min, min(self.option.players_max, players))

    # ------------------------------------------------------------------------------------------------ input

    def stepped(self, gesture: Gesture) -> tuple[SetupMenu, SetupChoice | None]:
        """The menu after one gesture, as a new menu (the table's state holds menus as values: the one shown is
        never changed in place), and the chosen set-up when ROLL confirms the last step."""
        menu = copy.copy(self)
        menu.bots = dict(self.bots)
        return menu, menu.handle(gesture)

    def handle(self, gesture: Gesture) -> SetupChoice | None:
        """One gesture; returns the chosen set-up when ROLL confirms the last step."""
        self.message = ""
        self.said = ""
        match gesture:
            case Turn(steps):
                self._turn(steps)
            case Press(Button.ROLL) | Hold(Button.ROLL):
                return self._forward()
            case Press(Button.NEXT) | Hold(Button.NEXT):
                if self.step is Step.RULESET:
                    self.message = "this is the first step: ROLL confirms the rules"
                else:
                    self.step = STEPS[STEPS.index(self.step) - 1]
            case Press(Button.CANCEL) | Hold(Button.CANCEL) if self.step is Step.SEATS:
                self._switch_seat(self.cursor)
            case Press(Button.CANCEL) | Hold(Button.CANCEL) if self.step is Step.RULESET:
                self.tournament = not self.tournament
                self.said = f"the tournament ending is {'on' if self.tournament else 'off'}"
            case Press(Button.CANCEL) | Hold(Button.CANCEL):
                self.palette = next(p for p in Palette if p is not self.palette)
                self.said = f"the LEDs show the {self.palette.value} colours"
            case _:
                self.message = "a new game is being set up: turn the knob to choose, ROLL confirms, NEXT goes back"
        return None

    def _switch_seat(self, seat: int) -> None:
        """A person becomes a normal bot, then a hard one, an easy one and a person again (a seat saved with an
        engineer's kind becomes a person)."""
        kind = self.bots.get(seat)
        at = BOT_CYCLE.index(kind) + 1 if kind in BOT_CYCLE else (len(BOT_CYCLE) if kind is not None else 0)
        if at < len(BOT_CYCLE):
            self.bots[seat] = BOT_CYCLE[at]
        else:
            del self.bots[seat]
        self.said = f"{self.seat_colour(seat)} is {self._who(seat)}"

    def _who(self, seat: int) -> str:
        kind = self.bots.get(seat)
        return "a person" if kind is None else f"a bot ({kind})"

    def _turn(self, steps: int) -> None:
        if self.step is Step.RULESET:
            self.index = (self.index + steps) % len(self.options)
            self.players = self._within(self.players)
        elif self.step is Step.PLAYERS:
            self.players = self._within(self.players + steps)
        else:
            self.cursor = (self.cursor + steps) % self.players

    def _forward(self) -> SetupChoice | None:
        if self.step is Step.SEATS:
            return SetupChoice(self.option.name, self.players, dict(sorted(self.bots.items())), self.tournament,
                               self.palette)
        self.step = STEPS[STEPS.index(self.step) + 1]
        if self.step is Step.SEATS:
            self.bots = {seat: kind for seat, kind in self.bots.items() if seat < self.players}
            self.cursor = min(self.cursor, self.players - 1)
        return None

    # ----------------------------------------------------------------------------------------------- output

    def seat_colour(self, seat: int) -> str:
        return self.option.colours[seat]

    def seats_in_words(self) -> str:
        return ", ".join(f"{self.seat_colour(s)} {'person' if s not in self.bots else f'bot ({self.bots[s]})'}"
                         for s in range(self.players))

    def describe(self) -> str:
        """The step in words, for the terminal and the web views."""
        option = self.option
        number = f"set-up {STEPS.index(self.step) + 1}/3"
        if self.step is Step.RULESET:
            others = ", ".join(o.name for o in self.options if o is not option)
            return (f"{number}, the rules: {option.name} ({option.players_min} to {option.players_max} players), "
                    f"tournament ending {'on' if self.tournament else 'off'}; turn the knob for "
                    f"{others or 'no other'}, CANCEL switches the tournament ending, ROLL confirms")
        if self.step is Step.PLAYERS:
            return (f"{number}, {option.name}: {plural(self.players, 'player')} ({option.players_min} to "
                    f"{option.players_max}), {self.palette.value} LED colours; turn the knob to change, CANCEL "
                    f"switches the colours, ROLL confirms, NEXT goes back")
        return (f"{number}, who plays: {self.seats_in_words()}; turn the knob to pick a seat "
                f"({self.seat_colour(self.cursor)} now), CANCEL makes it a person or a normal, hard or easy bot, "
                f"ROLL starts the game, NEXT goes back")

    def view(self) -> dict[str, Any]:
        """The menu for the web views (JSON-ready)."""
        option = self.option
        return {
            "step": self.step.value,
            "number": STEPS.index(self.step) + 1,
            "rules": option.name,
            "rulesets": [o.name for o in self.options],
            "players": self.players,
            "range": [option.players_min, option.players_max],
            "seats": [{"seat": s, "colour": self.seat_colour(s), "bot": self.bots.get(s)}
                      for s in range(self.players)],
            "cursor": self.cursor if self.step is Step.SEATS else None,
            "tournament": self.tournament,
            "palette": self.palette.value,
            "text": self.describe(),
        }

    def ring(self, n: int, now: float) -> tuple[RGB, ...]:
        if self.step is Step.RULESET:
            ring = list(arc_ring(n, [SELECT if i == self.index else scale(SELECT, COUNT_DIM)
                                     for i in range(len(self.options))]))
            if self.tournament:
                chosen = arcs(n, len(self.options))[self.index]
                for i in chosen[1:-1:2]:   # the arc's last LED stays dark, as every arc's
                    ring[i] = TOURNAMENT_SIGNAL
            return tuple(ring)
        colours = [player_rgb(c, self.palette) for c in self.option.colours]
        if self.step is Step.PLAYERS:
            return arc_ring(n, [colours[s] if s < self.players else scale(colours[s], COUNT_DIM)
                                for s in range(self.option.players_max)])
        ring = list(arc_ring(n, colours[: self.players]))
        for seat, arc in enumerate(arcs(n, self.players)):
            for i in arc:
                bot_gap = seat in self.bots and (i - arc[0]) % 2 == 1
                if bot_gap or (seat == self.cursor and not blink_on(now, CURSOR_BLINK_S)):
                    ring[i] = OFF
        return tuple(ring)
