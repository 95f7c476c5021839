"""Headless whole games between bots: the engine's workout and its benchmark."""

from __future__ import annotations

import gc
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from conquista.bots import make_bot
from conquista.dice.chance import chance_action, new_game
from conquista.dice.ready_rolls import SEEDED, seeded_number
from conquista.dice.sources import SeededDice
from conquista.rules.engine import Game
from conquista.rules.events import Phase
from conquista.rules.mapdata import GameMap
from conquista.rules.ruleset import Ruleset

ROLL, OVER, ATTACK, OCCUPY = Phase.ROLL, Phase.OVER, Phase.ATTACK, Phase.OCCUPY


@dataclass
class GameResult:
    winner: int | None   # None when cut at the turn cap
    turns: int
    actions: int
    cut: bool
    game: Game | None = None


@dataclass
class SimulationReport:
    rules: str
    players: int
    bots: list[str]
    seed: int
    games: int
    seconds: float
    actions: int
    mean_turns: float
    wins: list[int]
    cut_at_turn_cap: int
    results: list[GameResult] = field(default_factory=list, repr=False)

    @property
    def games_per_second(self) -> float:
        return self.games / self.seconds if self.seconds else 0.0

    @property
    def actions_per_second(self) -> float:
        return self.actions / self.seconds if self.seconds else 0.0

    def to_json(self) -> dict[str, object]:
        return {
            "rules": self.rules,
            "players": self.players,
            "bots": self.bots,
            "seed": self.seed,
            "games": self.games,
            "seconds": round(self.seconds, 4),
            "games_per_second": round(self.games_per_second, 2),
            "actions": self.actions,
            "actions_per_second": round(self.actions_per_second, 1),
            "mean_turns": round(self.mean_turns, 2),
            "wins": self.wins,
            "cut_at_turn_cap": self.cut_at_turn_cap,
        }


def game_seed(seed: int, index: int) -> str:
    """Each game's own seed: game i of a run is the same whatever the other games did."""
    return f"{seed}:{index}"


def play_game(rules: Ruleset, game_map: GameMap, players: int, bots: Sequence[str], seed: int | str,
              turn_cap: int = 0) -> GameResult:
    rng = random.Random(seed)
    game = new_game(rules, game_map, players, rng)
    game.drop_undo()  # nothing in a simulated game is taken back, and what simulate writes is its log
    dice = SeededDice(rng=rng)
    seats = [make_bot(bots[i % len(bots)], rng).choose for i in range(players)]
    apply, apply_roll, draw = game.apply, game.apply_roll_number, rng.random
    actions = 0
    # Without a neutral army the attacks and their move-ins (a third of a game's actions) are the current player's:
    # `to_move` is asked only at the other steps.
    own_fights = game.neutral is None
    # The hot loop of every simulation: a battle roll (every other action of a game) is asked of the dice directly,
    # the rest as `to_move` says.
    while True:
        phase = game.phase
        if phase is ROLL:
            battle = game.battle
            assert battle is not None
            # The seeded dice's own roll_action, drawn as a number that the engine looks up
            number = seeded_number(draw, battle.attack_dice, battle.defend_dice)
            if number >= 0:
                apply_roll(number, SEEDED)
            else:
                apply(dice.roll_action(battle.attack_dice, battle.defend_dice))
        elif phase is OVER:
            break
        else:
            if turn_cap and game.turn > turn_cap:
                return GameResult(None, turn_cap, actions, True, game)
            if own_fights and (phase is ATTACK or phase is OCCUPY):
                apply(seats[game.current](game))
            else:
                who = game.to_move
                apply(seats[who](game) if isinstance(who, int) else chance_action(game, dice))
        actions += 1
    return GameResult(game.winner, game.turn, actions, False, game)


def simulate(rules: Ruleset, game_map: GameMap, players: int, games: int, seed: int, bots: Sequence[str],
             turn_cap: int = 0, keep_games: bool = False,
             progress: Callable[[int], None] | None = None) -> SimulationReport:
    wins = [0] * players
    total_actions = total_turns = cut = 0
    results: list[GameResult] = []
    started = time.perf_counter()
    # A game makes no reference cycles (tests/bots/test_simulate_speed.py): reference counting frees each one, and the
    # cyclic collector would only walk the growing undo histories again and again (6-17 % of a run). Paused while the
    # games run, as it was after.
    collecting = gc.isenabled()
    gc.disable()
    try:
        _play_all(rules, game_map, players, games, seed, bots, turn_cap, keep_games, progress, results)
    finally:
        if collecting:
            gc.enable()
    seconds = time.perf_counter() - started
    for result in results:
        total_actions += result.actions
        total_turns += result.turns
        if result.winner is None:
            cut += 1
        else:
            wins[result.winner] += 1
    return SimulationReport(rules.name, players, list(bots), seed, games, seconds, total_actions,
                            total_turns / games if games else 0.0, wins, cut, results)


def _play_all(rules: Ruleset, game_map: GameMap, players: int, games: int, seed: int, bots: Sequence[str],
              turn_cap: int, keep_games: bool, progress: Callable[[int], None] | None,
              results: list[GameResult]) -> None:
    for i in range(games):
        result = play_game(rules, game_map, players, bots, game_seed(seed, i), turn_cap)
        if not keep_games:
            result.game = None
        results.append(result)
        if progress:
            progress(i + 1)
