"""The set-up menu on the ring: a pure state machine driven by gestures, shown on the ring and in words."""

from __future__ import annotations

from conquista.dice.sources import SeededDice
from conquista.rules.rulesets import builtin_rulesets, load_ruleset
from conquista.table.colours import OFF, SELECT, Palette, player_rgb
from conquista.table.effects import SetupChosen
from conquista.table.gestures import Button, Hold, Press, Tap, Turn
from conquista.table.inputs import Fault, FaultSource
from conquista.table.referee import Referee
from conquista.table.ring import arcs
from conquista.table.setup_menu import RulesetOption, SetupChoice, SetupMenu, Step
from conquista.table.tournament_clock import TOURNAMENT_SIGNAL
from tests.rules.helpers import dealt

OPTIONS = [RulesetOption.of(name, load_ruleset(name)) for name in builtin_rulesets()]
ROLL, NEXT, CANCEL = Press(Button.ROLL), Press(Button.NEXT), Press(Button.CANCEL)
N = 24


def menu(**kwargs: object) -> SetupMenu:
    return SetupMenu(OPTIONS, **kwargs)  # type: ignore[arg-type]


def test_ruleset_then_players_then_bots_confirmed_with_roll() -> None:
    m = menu(rules="italian")
    assert m.step is Step.RULESET and m.option.name == "italian"
    assert m.handle(Turn(1)) is None and m.option.name != "italian"
    m.handle(Turn(-1))
    assert m.handle(ROLL) is None and m.step is Step.PLAYERS
    m.handle(Turn(1))
    assert m.players == 4
    m.handle(ROLL)
    assert m.step is Step.SEATS
    m.handle(Turn(1))
    m.handle(CANCEL)                              # blue becomes a bot (normal)
    m.handle(Turn(2))
    m.handle(CANCEL)                              # and the fourth seat
    for _ in range(3):                            # ... hard, easy, then a person again
        m.handle(CANCEL)
    assert m.said == "green is a person"
    m.handle(Turn(-2))
    m.handle(CANCEL)
    assert m.said == "blue is a bot (hard)"
    for _ in range(2):
        m.handle(Press(Button.CANCEL))
    assert m.handle(ROLL) == SetupChoice("italian", 4, {})
    m.handle(CANCEL)
    assert m.handle(ROLL) == SetupChoice("italian", 4, {1: "normal"})


def test_the_seat_cycle_offers_every_level() -> None:
    m = menu(rules="italian")
    m.handle(ROLL)
    m.handle(ROLL)
    seen = []
    for _ in range(4):
        m.handle(CANCEL)
        seen.append(m.bots.get(0))
    assert seen == ["normal", "hard", "easy", None]
    assert "CANCEL makes it a person or a normal, hard or easy bot" in m.describe()


def test_players_stay_in_the_rulesets_range() -> None:
    m = menu(rules="italian", players=3)
    m.handle(ROLL)
    low, high = m.option.players_min, m.option.players_max
    m.handle(Turn(50))
    assert m.players == high
    m.handle(Turn(-50))
    assert m.players == low
    classic = next(o for o in OPTIONS if o.name == "classic")
    m.handle(NEXT)
    m.players = high
    while m.option.name != "classic":
        m.handle(Turn(1))
    assert classic.players_min <= m.players <= classic.players_max


def test_next_goes_back_and_bots_past_the_players_are_dropped() -> None:
    m = menu(rules="italian", players=6)
    m.handle(ROLL)
    m.handle(ROLL)
    m.handle(Turn(5))
    m.handle(CANCEL)                              # the sixth seat is a bot
    assert m.bots == {5: "normal"}
    m.handle(NEXT)
    assert m.step is Step.PLAYERS
    m.handle(Turn(-3))
    m.handle(Hold(Button.ROLL))
    assert m.step is Step.SEATS and m.bots == {} and m.cursor == 2
    m.handle(NEXT)
    m.handle(NEXT)
    assert m.step is Step.RULESET
    m.handle(NEXT)
    assert m.step is Step.RULESET and "first step" in m.message
    m.handle(Tap(3))
    assert "set up" in m.message


def test_the_menu_in_words_and_for_the_web() -> None:
    m = menu(rules="italian")
    assert m.describe().startswith("set-up 1/3, the rules: italian") and "ROLL confirms" in m.describe()
    m.handle(ROLL)
    assert "set-up 2/3" in m.describe() and "3 players" in m.describe() and "NEXT goes back" in m.describe()
    m.handle(ROLL)
    m.handle(Turn(1))
    m.handle(CANCEL)
    text = m.describe()
    assert "set-up 3/3" in text and "red person, blue bot (normal), yellow person" in text and "(blue now)" in text
    view = m.view()
    assert view["step"] == "seats" and view["players"] == 3 and view["cursor"] == 1
    assert [s["bot"] for s in view["seats"]] == [None, "normal", None] and view["text"] == text


def test_the_menu_on_the_ring() -> None:
    m = menu(rules="italian")
    ring = m.ring(N, 0.0)
    chosen = arcs(N, len(OPTIONS))[m.index]
    assert all(ring[i] == SELECT for i in list(chosen)[:-1])
    assert sum(1 for c in ring if c == SELECT) == len(chosen) - 1
    m.handle(ROLL)
    ring = m.ring(N, 0.0)
    seats = arcs(N, m.option.players_max)
    red, blue, yellow, green = (player_rgb(c) for c in m.option.colours[:4])
    assert ring[seats[0][0]] == red and ring[seats[2][0]] == yellow and ring[seats[3][0]] != green
    m.handle(ROLL)
    m.handle(CANCEL)                              # red is a bot: a dotted arc; the cursor on it blinks
    seats = arcs(N, 3)
    lit = m.ring(N, 0.1)
    assert [lit[i] for i in seats[0]] == [red, OFF] * 4
    assert all(m.ring(N, 0.4)[i] == OFF for i in seats[0])
    assert [lit[i] for i in seats[1]] == [blue] * 7 + [OFF]


def test_the_referee_shows_the_menu_and_starts_the_chosen_game() -> None:
    ref = Referee(dealt("italian", 3), SeededDice(1), ring_size=N)
    ref.offer_menu(menu(rules="classic", players=2))
    scene = ref.scene(0.1)
    assert set(scene.territories) == {OFF} and scene.attack_dice == (None, None, None)
    assert ref.status().pending.startswith("set-up 1/3") and ref.status().phase == "set-up"
    before = ref.game.digest()
    ref.handle(Tap(ref.game.owner.index(ref.game.current)), 0.5)   # no game yet: a tap places nothing
    assert ref.game.digest() == before and ref.message
    for t, gesture in enumerate((ROLL, ROLL, Turn(1), CANCEL, ROLL)):
        ref.handle(gesture, 1.0 + t)
    # The choice leaves as an effect: the shell deals and starts the game.
    assert ref.take_effects() == [SetupChosen(SetupChoice("classic", 2, {1: "normal"}), 5.0)] and ref.menu is None
    ref.handle(ROLL, 6.0)
    assert not any(isinstance(e, SetupChosen) for e in ref.take_effects())


def test_a_fault_holds_the_menu() -> None:
    ref = Referee(dealt("italian", 3), SeededDice(1))
    ref.offer_menu(menu())
    ref.step(Fault(FaultSource.LINK, "sensor link down"), ref.now)
    ref.handle(ROLL, 1.0)
    assert ref.menu is not None and ref.menu.step is Step.RULESET and "paused" in ref.message


def test_cancel_switches_the_tournament_ending_and_the_palette() -> None:
    m = menu(rules="italian")
    assert not m.tournament and "tournament ending off" in m.describe()
    m.handle(CANCEL)                              # the first step: the tournament ending
    assert m.tournament and "tournament ending is on" in m.said and "tournament ending on" in m.describe()
    ring = m.ring(N, 0.0)
    chosen = arcs(N, len(OPTIONS))[m.index]
    assert ring[chosen[0]] == SELECT and ring[chosen[1]] == TOURNAMENT_SIGNAL and ring[chosen[-1]] == OFF
    m.handle(Turn(1))                             # the switch holds for the ruleset turned to
    assert m.tournament
    m.handle(ROLL)
    red = player_rgb(m.option.colours[0])
    assert m.ring(N, 0.0)[arcs(N, m.option.players_max)[0][0]] == red
    m.handle(CANCEL)                              # the second step: the LEDs' colours
    assert m.palette is Palette.COLOUR_BLIND and "colour-blind LED colours" in m.describe()
    assert m.ring(N, 0.0)[arcs(N, m.option.players_max)[0][0]] == player_rgb(m.option.colours[0],
                                                                              Palette.COLOUR_BLIND)
    assert m.view()["tournament"] is True and m.view()["palette"] == "colour-blind"
    m.handle(ROLL)
    choice = m.handle(ROLL)
    assert choice == SetupChoice(m.option.name, 3, {}, True, Palette.COLOUR_BLIND)
    assert choice.overrides(load_ruleset(m.option.name)) == {"tournament_ending": True}
    assert SetupChoice("italian", 3).overrides(load_ruleset("italian")) == {}


def test_the_menu_starts_from_the_last_choice() -> None:
    m = menu(rules="classic", tournament=True, palette=Palette.COLOUR_BLIND)
    assert m.tournament and m.palette is Palette.COLOUR_BLIND
    m.handle(ROLL)
    m.handle(CANCEL)
    assert m.palette is Palette.STANDARD
