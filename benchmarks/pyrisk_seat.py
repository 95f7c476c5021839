# ruff: noqa: UP004, UP010
"""pyrisk's AIs seated in another engine's game: this process holds pyrisk's own `World`, `Player` and `Game`
objects and calls each AI's methods exactly as pyrisk's `Game.play` does, while the moves are made by the engine
that asks (benchmarks/pyrisk_adapter.py). It runs under the interpreter pyrisk was written for (Python 2.7: its
ChronAI calls `reduce` and indexes `dict.keys()`, and AlAI divides armies with `/`, which only Python 2 runs as
pyrisk's own game does), so it is written in the part of Python that 2.7 and 3 share, with no annotations.

One JSON request a line on stdin, one JSON reply a line on stdout; nothing else is written (pyrisk's logging is
disabled before it is imported: the benchmark refuses a seat that writes anything on stderr).

    python2.7 benchmarks/pyrisk_seat.py PYRISK_DIR

Requests (`board` is [[territory name, seat, armies], ...], written into pyrisk's world in place, so an AI's live
iterators over it, such as StupidAI's attack generator, see the board change as they would in pyrisk):

- {"op": "map"}: pyrisk's areas (name, value, territories) and its links, to check the maps are the same
- {"op": "new", "seed": S, "seats": [AI class name or null, ...]}: a new game; every seat is a pyrisk `Player`
  (null: another engine's bot, never asked, but counted by the AIs that look at everyone, as ChronAI does); the
  AIs' `start()` called in seat order; pyrisk's module `random` seeded with S
- {"op": "place", "seat": i, "remaining": n, "board": ...}: `initial_placement(None, n)`, the territory's name
- {"op": "reinforce", "seat": i, "available": n, "board": ...}: `reinforce(n)`, [[name, count], ...], the entries
  pyrisk's loop would apply (the ones it warns about and skips are left out)
- {"op": "attack", "seat": i, "board": ...}: the turn's `attack()` sequence started
- {"op": "next", "board": ...}: the sequence's next attack pyrisk's loop would fight, [source, target], or null
  when the sequence is over (the entries pyrisk warns about and skips are skipped)
- {"op": "go_on", "attackers": a, "defenders": d}: the attack strategy of the current attack (None: go on)
- {"op": "move", "attackers": a}: the move strategy of the current attack, clamped as pyrisk's `combat` clamps it
- {"op": "freemove", "seat": i, "board": ...}: `freemove()`, [source, target, count] or null, checked as pyrisk's
  loop checks it
- {"op": "own_games", "ai": name, "players": n, "games": k, "seed": S}: k games in pyrisk's own
  `Game.play`, every seat the AI; the turns each game lasted (a turn: one `reinforce()` call), for the check
  that the seats above play as pyrisk's loop does
"""

from __future__ import print_function

import importlib
import json
import logging
import random
import sys

NAMES = ("ALPHA", "BRAVO", "CHARLIE", "DELTA", "ECHO", "FOXTROT")


class Seats(object):
    def __init__(self, game_module, world_module):
        self.game_module = game_module
        self.world_module = world_module
        self.game = None
        self.players = []
        self.sequence = None
        self.current = None      # the attack being fought: (source, target, attack strategy, move strategy)
        self.seat = 0
        self.quick = False       # pyrisk's battle simulation runs as `quick_simulate` (checked the same)

    def handle(self, request):
        op = request["op"]
        if "board" in request:
            self.write_board(request["board"])
        if "seat" in request:
            self.seat = request["seat"]
        return getattr(self, "op_" + op)(request)

    def write_board(self, board):
        territories = self.game.world.territories
        for name, seat, armies in board:
            t = territories[name]
            t.owner = self.players[seat]
            t.forces = armies

    def ai(self):
        return self.players[self.seat].ai

    def op_map(self, request):
        areas = [[name, value, sorted(names)] for name, (value, names) in self.world_module.AREAS.items()]
        world = self.game_module.World()
        world.load(self.world_module.AREAS, self.world_module.CONNECT)
        links = sorted(sorted([t.name, c.name]) for t in world.territories.values() for c in t.connect)
        return {"areas": sorted(areas), "links": links}

    def op_new(self, request):
        random.seed(request["seed"])
        module = self.world_module
        game = self.game_module.Game(curses=False, color=False, delay=0, wait=False, deal=False,
                                     connect=module.CONNECT, cmap=module.MAP, ckey=module.KEY, areas=module.AREAS)
        classes = {}
        for seat, name in enumerate(request["seats"]):
            if name is None:
                ai_class = importlib.import_module("ai").AI
            else:
                if name not in classes:
                    classes[name] = getattr(importlib.import_module("ai." + name[:-2].lower()), name)
                ai_class = classes[name]
            game.add_player(NAMES[seat], ai_class)
        game.turn_order = list(NAMES[: len(request["seats"])])
        self.game = game
        self.players = [game.players[name] for name in game.turn_order]
        for i, player in enumerate(self.players):
            player.color = i + 1
            player.ord = ord("\\/-|+*"[i])
            if request["seats"][i] is not None:
                player.ai.start()
        return True

    def op_place(self, request):
        choice = self.ai().initial_placement(None, request["remaining"])
        t = self.game.world.territory(choice)
        if t is None or t.owner != self.players[self.seat]:
            return None
        return t.name

    def op_reinforce(self, request):
        choices = self.ai().reinforce(request["available"])
        out = []
        for tt, ff in choices.items():
            t = self.game.world.territory(tt)
            f = int(ff)
            if t is None or t.owner != self.players[self.seat] or f < 0:
                continue
            out.append([t.name, f])
        return out

    def op_attack(self, request):
        self.sequence = iter(self.ai().attack())
        self.current = None
        return True

    def op_next(self, request):
        world, me = self.game.world, self.players[self.seat]
        for src, target, attack, move in self.sequence:
            st = world.territory(src)
            tt = world.territory(target)
            if st is None or tt is None or st.owner != me or tt.owner == me or tt not in st.connect:
                continue
            self.current = (st, tt, attack, move)
            return [st.name, tt.name]
        self.current = None
        return None

    def op_go_on(self, request):
        attack = self.current[2]
        return attack is None or bool(attack(request["attackers"], request["defenders"]))

    def op_move(self, request):
        n_atk = request["attackers"]
        strategy = self.current[3]
        move = n_atk - 1 if strategy is None else strategy(n_atk)
        return int(max(min(n_atk - 1, 3), min(move, n_atk - 1)))

    def op_freemove(self, request):
        move = self.ai().freemove()
        if not move:
            return None
        src, target, count = move
        world, me = self.game.world, self.players[self.seat]
        st, tt, f = world.territory(src), world.territory(target), int(count)
        if st is None or tt is None or st.owner != me or tt.owner != me or not 0 <= f < st.forces:
            return None
        return [st.name, tt.name, f]

    def op_quick(self, request):
        return self.quick

    def op_own_games(self, request):
        random.seed(request["seed"])
        base = getattr(importlib.import_module("ai." + request["ai"][:-2].lower()), request["ai"])
        turns = [0]

        class Counted(base):
            def reinforce(self, available):
                turns[0] += 1
                return base.reinforce(self, available)

        module, out = self.world_module, []
        for _ in range(request["games"]):
            turns[0] = 0
            game = self.game_module.Game(curses=False, color=False, delay=0, wait=False, deal=False,
                                         connect=module.CONNECT, cmap=module.MAP, ckey=module.KEY,
                                         areas=module.AREAS)
            for name in NAMES[: request["players"]]:
                game.add_player(name, Counted)
            game.play()
            out.append(turns[0])
        return out


def quick_simulate(cls, n_atk, n_def, tests=1000):
    """pyrisk's `AI.simulate` (ai/__init__.py) without its interpreter overhead: the same battles from the same
    random numbers, drawn in the same order (Python 2.7's `randint(1, 6)` is `1 + int(random() * 6)`: one draw a
    die), so the same results and the same generator state after. ChronAI spends nearly all its time there once
    the cards have brought hundreds of armies: a profile of one 4-player game, 166 s of 171 s in 61,576 battles
    never met before (110 million dice). `same_as_pyrisk` checks the two agree before this one is used."""
    cache = cls._sim_cache
    if (n_atk, n_def) in cache:
        return cache[(n_atk, n_def)]
    draw = random.random
    a_total = d_total = victory = 0
    for _ in range(tests):
        a, d = n_atk, n_def
        while a > 1 and d > 0:
            # The attacker's dice (min(a - 1, 3) of them) as pyrisk sorts them, the highest two kept: the defender
            # rolls two at most, and only that many pairs are compared.
            a1 = int(draw() * 6)
            a2 = -1
            if a > 2:
                a2 = int(draw() * 6)
                if a2 > a1:
                    a1, a2 = a2, a1
                if a > 3:
                    a3 = int(draw() * 6)
                    if a3 > a1:
                        a1, a2 = a3, a1
                    elif a3 > a2:
                        a2 = a3
            d1 = int(draw() * 6)
            d2 = -1
            if d > 1:
                d2 = int(draw() * 6)
                if d2 > d1:
                    d1, d2 = d2, d1
            if a1 > d1:
                d -= 1
            else:
                a -= 1
            if a2 >= 0 and d2 >= 0:
                if a2 > d2:
                    d -= 1
                else:
                    a -= 1
        if d == 0:
            a_total += a
            victory += 1
        else:
            d_total += d
    cache[(n_atk, n_def)] = (float(victory) / tests, (float(a_total) / victory) if victory else 0,
                             (float(d_total) / (tests - victory)) if tests - victory else 0)
    return cache[(n_atk, n_def)]


CHECKED_BATTLES = ((1, 1), (2, 1), (2, 2), (3, 1), (3, 2), (4, 1), (4, 2), (5, 5), (12, 9), (7, 30), (60, 55))


def same_as_pyrisk(ai_class):
    """`quick_simulate` gives what pyrisk's own `simulate` gives and leaves the generator as it does, over a
    range of battles (200 tries each, from one seed); the generator's state is put back as it was."""
    saved_state, saved_cache = random.getstate(), ai_class._sim_cache
    try:
        results = []
        for simulate in (ai_class.simulate, lambda a, d, tests: quick_simulate(ai_class, a, d, tests)):
            random.seed(38)
            ai_class._sim_cache = {}
            out = [simulate(a, d, tests=200) for a, d in CHECKED_BATTLES]
            results.append((out, random.getstate()))
        return results[0] == results[1]
    finally:
        random.setstate(saved_state)
        ai_class._sim_cache = saved_cache


def use_quick_simulate():
    """pyrisk's `AI.simulate` replaced by `quick_simulate` if they agree (else pyrisk's own is kept: Python 3
    draws `randint`'s numbers otherwise); whether it was."""
    try:
        ai_class = importlib.import_module("ai").AI
    except (ImportError, AttributeError):     # not pyrisk's whole tree (the tests' two-territory stand-in)
        return False
    if not same_as_pyrisk(ai_class):
        return False
    ai_class.simulate = classmethod(quick_simulate)
    return True


def main():
    logging.disable(logging.CRITICAL)   # before pyrisk is imported: nothing of its logs is formatted or written
    sys.path.insert(0, sys.argv[1])
    game_module = importlib.import_module("game")
    world_module = importlib.import_module("world")
    seats = Seats(game_module, world_module)
    seats.quick = use_quick_simulate()
    while True:
        line = sys.stdin.readline()
        if not line:
            return 0
        reply = seats.handle(json.loads(line))
        sys.stdout.write(json.dumps(reply) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    sys.exit(main())
