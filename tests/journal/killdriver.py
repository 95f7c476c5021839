"""The referee process of the kill -9 test: bots play game after game through the referee, with a journal.

    python -m tests.journal.killdriver DATA_DIR SEED GAMES [--table]

It resumes the unfinished game if there is one, then plays until GAMES games have ended, starting each new game
the way CANCEL at the resume prompt does (journal.start + referee.reset). Bots act through gestures, as at the
table; after each gesture the frame is drawn (`referee.scene`, or with --table the whole simulated board: mock
pins, strip and all, which is several times slower). On stdout, one flushed line each:

    resumed ID ACTIONS DIGEST   the state rebuilt from the journal, before anything else happens
    new ID ACTIONS DIGEST       a new game was started (nothing to resume, or the previous game ended)
    shown ID ACTIONS DIGEST     a frame showing this state was drawn (the line is written after the frame)
    over ID ACTIONS DIGEST      the game ended
The parent kills this process at a random moment and checks the journal against these lines.
"""

from __future__ import annotations

import os
import random
import sys
from collections.abc import Callable

from conquista.bots import GreedyBot
from conquista.dice.chance import new_game
from conquista.dice.sources import SeededDice
from conquista.journal import GameJournal
from conquista.rules.engine import Game
from conquista.rules.mapdata import load_map
from conquista.rules.rulesets import load_ruleset
from conquista.table.bot_player import gestures_for
from conquista.table.referee import Referee

RULES, PLAYERS = "classic", 2     # the shortest bot games of the built-in rulesets
DEFENCE = {"automatic_defence": True}  # these games are about the journal: no defender's choice


def main(argv: list[str]) -> None:
    data_dir, seed, games = argv[0], int(argv[1]), int(argv[2])
    on_table = "--table" in argv
    out = sys.stdout

    def say(kind: str, game_id: int | None, actions: int, digest: str) -> None:
        out.write(f"{kind} {game_id} {actions} {digest}\n")
        out.flush()

    journal = GameJournal(data_dir)
    assert not journal.fault, journal.fault
    saved = journal.latest_unfinished()
    game = journal.resume(saved.id) if saved is not None else None
    if game is not None:
        say("resumed", journal.game_id, len(game.log), game.digest())
    rng = random.Random(seed)
    last: list[tuple[int | None, int]] = [(None, -1)]

    def shown(state: Game) -> None:
        key = (journal.game_id, len(state.log))
        if key != last[0]:
            last[0] = key
            say("shown", *key, state.digest())

    play: Callable[[], None]
    if on_table:
        from conquista_sim import SimulatedTable

        table = SimulatedTable(RULES, PLAYERS, seed, range(PLAYERS), think_time=0.05, game=game, journal=journal)
        referee, clock = table.referee, table.clock.now
        strip = table.board.strip
        show = strip.show

        def painted(frame: bytearray) -> None:
            show(frame)
            shown(table.game)

        strip.show = painted  # type: ignore[method-assign]
        play = table.play_bots_until_over
    else:
        if game is None:
            game = new_game(load_ruleset(RULES, DEFENCE), load_map(), PLAYERS, rng)
        referee = Referee(game, SeededDice(rng=rng))
        journal.attach(referee)
        # Routed before the first frame, as the board's runner does: a resumed game waiting for its roll is answered
        # when the referee is made, and that roll may end the game before any gesture (its row would otherwise be
        # journaled into the next game).
        journal.follow(referee.take_effects())
        bot = GreedyBot()
        now = [0.0]
        clock = lambda: now[0]  # noqa: E731

        def play() -> None:
            while not referee.game.over:
                for gesture in gestures_for(referee, bot.choose(referee.game)):
                    now[0] += 0.1
                    referee.handle(gesture, now[0])
                    journal.follow(referee.take_effects())   # the shell's router: the journal first
                    referee.scene(now[0])      # the frame: what the LEDs would show now
                    shown(referee.game)

    if saved is None:
        say("new", journal.game_id, len(referee.game.log), referee.game.digest())
    for _ in range(games):
        play()
        say("over", journal.game_id, len(referee.game.log), referee.game.digest())
        fresh = new_game(load_ruleset(RULES, DEFENCE), referee.game.map, PLAYERS, random.Random(rng.random()))
        journal.start(fresh)
        referee.reset(fresh, clock())
        say("new", journal.game_id, len(fresh.log), fresh.digest())
    journal.close()
    os._exit(0)   # skip the mock pins' thread joins: the parent only waits for this process to end


if __name__ == "__main__":
    main(sys.argv[1:])
