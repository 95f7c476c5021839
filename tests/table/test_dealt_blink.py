"""lamorisse-1954's distributions at the table: newly dealt territories blink in their owner's colour until someone
taps each to say its army is on the board; that tap does nothing else, and play never waits for it. The turn's
income cards are drawn by the referee itself, before the player places."""

from __future__ import annotations

import dataclasses
import random

from conquista.bots import make_bot
from conquista.dice.chance import new_game
from conquista.dice.sources import SeededDice
from conquista.rules.actions import Blitz, Draw, EndPhase, Place
from conquista.rules.engine import Game
from conquista.rules.events import Phase
from conquista.rules.mapdata import load_map
from conquista.rules.rulesets import load_ruleset
from conquista.table.bot_player import BotSeats, gestures_for
from conquista.table.colours import OFF, player_rgb
from conquista.table.dealt import DEAL_BLINK_ON_S
from conquista.table.gestures import Button, Press, Tap
from conquista.table.referee import Referee
from conquista.web.views import SeatState, public_view, seat_view
from tests.rules.helpers import position, tid

ON, OFF_TIME = 0.0, DEAL_BLINK_ON_S + 0.1   # moments when a dealt territory is lit and dark


def fresh(players: int = 3, seed: int = 3) -> Referee:
    game = new_game(load_ruleset("lamorisse-1954"), load_map(), players, random.Random(seed))
    return Referee(game, SeededDice(1))


def colour(game: Game, t: int) -> tuple[int, int, int]:
    return player_rgb(game.rules.colours[game.owner[t]])


def test_the_first_distribution_blinks_in_its_owners_colours() -> None:
    ref = fresh(8)
    game = ref.game
    dealt = [t for t in range(42) if game.owner[t] >= 0]
    assert sorted(ref.dealt.blinking(game)) == dealt and len(dealt) == 32
    lit, dark = ref.scene(ON).territories, ref.scene(OFF_TIME).territories
    for t in range(42):
        if game.owner[t] < 0:
            assert lit[t] == dark[t] == OFF           # not dealt yet: dark all the time
        else:
            assert (lit[t], dark[t]) == (colour(game, t), OFF)
    assert "32 dealt territories blink: put an army on each and tap it" in ref.status().pending
    view = public_view(ref.view(), SeatState(), 0.0)
    assert [t for t, v in enumerate(view["territories"]) if v["blinking"]] == dealt


def test_a_tap_on_a_blinking_territory_only_confirms_and_play_does_not_wait() -> None:
    ref = fresh()
    game = ref.game
    me = game.current
    assert game.phase is Phase.REINFORCE and game.pool == 1
    mine = next(t for t in range(42) if game.owner[t] == me)
    theirs = next(t for t in range(42) if game.owner[t] not in (me, -1))
    log = list(game.log)
    ref.handle(Tap(mine), 1.0)
    assert game.pool == 1 and game.log == log       # nothing placed
    assert ref.message == f"{game.map.territories[mine].name_en}: {game.rules.colours[me]}'s army is on the " \
                          f"board; 11 more territories blink"
    assert mine not in ref.dealt.blinking(game) and ref.scene(OFF_TIME).territories[mine] == colour(game, mine)
    ref.handle(Tap(theirs), 1.1)                    # anyone may confirm any territory
    assert theirs not in ref.dealt.blinking(game) and game.log == log
    ref.handle(Tap(mine), 1.2)                      # now a tap places, the last army: the phase ends by itself
    assert game.pool == 0 and game.log[-2:] == [Place(mine, 1), EndPhase()]
    # The other territories still blink: the game goes on.
    assert game.phase is Phase.ATTACK and len(ref.dealt.blinking(game)) == 10


def _play_round(ref: Referee, now: float) -> float:
    """Every player places on a territory of theirs (confirming it first) and ends the turn, to the next round."""
    game = ref.game
    start = game.round
    while game.round == start:
        now += 0.1
        if game.phase is Phase.REINFORCE and game.pool:
            t = next(t for t in range(42) if game.owner[t] == game.current)
            ref.handle(Tap(t), now)                 # confirms it if it blinks, else places
        else:
            ref.handle(Press(Button.NEXT), now)
    return now


def test_a_new_round_deals_more_which_blink_and_the_referee_draws_the_income_cards() -> None:
    ref = fresh()
    game = ref.game
    assert [len(h) for h in game.hands] == [4, 4, 4]   # the first distribution's power cards, drawn at once
    assert sum(isinstance(a, Draw) for a in game.log) == 12
    before = {t for t in range(42) if game.owner[t] >= 0}
    _play_round(ref, 1.0)
    new = {t for t in range(42) if game.owner[t] >= 0} - before
    assert len(new) == 12 and new <= set(ref.dealt.blinking(game))
    dark = ref.scene(OFF_TIME).territories
    assert all(dark[t] == OFF for t in new)
    # 8 territories: 1 army and 3 cards, drawn before the player places; the board never stops at a draw.
    seat = game.current
    assert game.phase is Phase.REINFORCE and game.pool == 1 and len(game.hands[seat]) == 7
    who = game.rules.colours[seat]
    assert ref.log[-5:] == [f"— turn 4 (round 2): {who} receives 1 army", *[f"{who} draws a card"] * 3,
                            f"{who}: reinforce"]
    assert len(seat_view(ref.view(), seat)["cards"]) == 7   # the player's phone shows them


def test_a_territory_that_changes_hands_stops_blinking() -> None:
    game = position("lamorisse-1954", owners={"kamchatka": 0}, armies={"kamchatka": 6},
                    state={"fleets": [0] * 42})
    ref = Referee(game, SeededDice(1))
    assert ref.dealt.blinking(game) == []           # a game under way: its armies are on the board already
    for name in ("yakutsk", "irkutsk"):             # as a distribution would: dealt to blue, not confirmed
        ref.state = dataclasses.replace(ref.state, dealt=ref.state.dealt.dealt(tid(name), 1))
    ref.apply_action(Blitz(tid("kamchatka"), tid("yakutsk"), 1), 1.0)
    assert game.owner[tid("yakutsk")] == 0 and game.phase is Phase.OCCUPY
    assert ref.dealt.blinking(game) == [tid("irkutsk")]


def test_only_a_fresh_progressive_deal_blinks() -> None:
    ref = fresh()
    game = ref.game
    assert ref.dealt.blinking(game)
    ref.reset(game, 5.0)                             # the same fresh game taken over again: it blinks again
    assert len(ref.dealt.blinking(game)) == 12
    _play_round(ref, 6.0)
    ref.reset(game, 20.0)                           # a game under way resumed: nothing blinks
    assert ref.dealt.blinking(game) == []
    italian = new_game(load_ruleset("italian"), load_map(), 3, random.Random(1))
    assert Referee(italian, SeededDice(1)).dealt.blinking(italian) == []
    assert "blinking" not in public_view(Referee(italian, SeededDice(1)).view(), SeatState(), 0.0)["territories"][0]


def test_bots_confirm_their_own_blinking_territories() -> None:
    ref = fresh()
    game = ref.game
    person = game.current
    bots = BotSeats(lambda kind: make_bot(kind, random.Random(0)), {s: "greedy" for s in range(3) if s != person})
    theirs = {t for t in ref.dealt.blinking(game) if game.owner[t] != person}
    taps = []
    now = 1.0
    while (gesture := bots.next_gesture(ref, now)) is not None:   # the person is to move: bots only confirm
        taps.append(gesture)
        ref.handle(gesture, now)
        bots.rested(now)
        now += bots.think_s
    assert {g.territory for g in taps if isinstance(g, Tap)} == theirs and len(taps) == 8
    assert all(game.owner[t] == person for t in ref.dealt.blinking(game)) and game.current == person
    # A bot's action on a territory still blinking taps it first: the first tap confirms, the second acts.
    mine = ref.dealt.blinking(game)[0]
    assert gestures_for(ref, Place(mine, 1)) == [Tap(mine), Tap(mine)]
