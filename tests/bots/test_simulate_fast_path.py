"""Issue 31 §4: `simulate` keeps no undo history and hands its ready rolls to the engine without a check
(`Game.drop_undo`, `Game.apply_ready_roll`). It must play exactly the games the table's path plays: the same log and,
after every action, the same state as a game that checks every action and keeps its undo."""

from __future__ import annotations

import random

import pytest

from conquista.bots import make_bot
from conquista.bots.simulate import game_seed, play_game
from conquista.dice.chance import chance_action, new_game
from conquista.dice.ready_rolls import SEEDED, seeded_number, seeded_roll
from conquista.dice.sources import SeededDice
from conquista.errors import IllegalActionError
from conquista.rules.actions import Roll
from conquista.rules.battle import DiceRule, numbered_rolls, resolve_roll, resolver_for
from conquista.rules.engine import Game
from conquista.rules.events import BattleRolled, Phase, TerritoryConquered
from conquista.rules.mapdata import load_map
from conquista.rules.rulesets import load_ruleset

MAP = load_map()


def table_path_game(rules: str, players: int, bots: list[str], seed: str) -> tuple[Game, list[str]]:
    """The game `play_game` plays, played as the table plays: every action by `apply`, undo kept; its digests."""
    rng = random.Random(seed)
    game = new_game(load_ruleset(rules), MAP, players, rng)
    dice = SeededDice(rng=rng)
    seats = [make_bot(bots[i % len(bots)], rng).choose for i in range(players)]
    digests = []
    while game.phase is not Phase.OVER:
        who = game.to_move
        game.apply(seats[who](game) if isinstance(who, int) else chance_action(game, dice))
        digests.append(game.digest())
    return game, digests


@pytest.mark.parametrize(("rules", "players", "bots", "index"), [
    ("classic", 2, ["greedy"], 0), ("classic", 4, ["greedy"], 1), ("italian", 3, ["greedy", "random"], 2),
    ("french-1976-duel", 2, ["greedy"], 3), ("lamorisse-1954", 3, ["greedy"], 4),
])
def test_simulate_plays_the_tables_game(rules: str, players: int, bots: list[str], index: int) -> None:
    seed = game_seed(5, index)
    expected, digests = table_path_game(rules, players, bots, seed)
    result = play_game(load_ruleset(rules), MAP, players, bots, seed)
    assert result.game is not None
    assert result.game.log == expected.log
    assert result.game.digest() == expected.digest()
    assert (result.winner, result.turns, result.actions) == (expected.winner, expected.turn, len(expected.log) - 1)
    # ... and after every action: the game without undo replayed by the fast path step by step.
    replayed = Game(load_ruleset(rules), MAP, players, expected.log[0])  # type: ignore[arg-type]
    replayed.drop_undo()
    for action, digest in zip(expected.log[1:], digests, strict=True):
        if isinstance(action, Roll):
            replayed.apply_ready_roll(action)
        else:
            replayed.apply(action)
        assert replayed.digest() == digest


def test_a_game_without_undo_has_nothing_to_take_back() -> None:
    game = play_game(load_ruleset("classic"), MAP, 2, ["greedy"], "1:0", turn_cap=3).game
    assert game is not None and not game.undoable
    assert not game.can_undo()
    with pytest.raises(IllegalActionError, match="nothing to undo"):
        game.undo()
    assert game.clone().undoable  # a look-ahead's clone takes back as ever


def test_a_roll_that_does_not_fit_is_refused_as_apply_refuses_it() -> None:
    rng = random.Random("fit")
    game = new_game(load_ruleset("classic"), MAP, 2, rng)
    game.drop_undo()
    bot = make_bot("greedy", rng)
    while game.phase is not Phase.ROLL:
        who = game.to_move
        game.apply(bot.choose(game) if isinstance(who, int) else chance_action(game, SeededDice(rng=rng)))
    battle = game.battle
    assert battle is not None
    digest = game.digest()
    for wrong in (Roll((6,) * (battle.attack_dice + 1), (1,) * battle.defend_dice, "seeded"),
                  Roll((7,) * battle.attack_dice, (1,) * battle.defend_dice, "seeded")):
        with pytest.raises(IllegalActionError):
            game.apply_ready_roll(wrong)
        assert game.digest() == digest
    undoable = new_game(load_ruleset("classic"), MAP, 2, random.Random("fit"))
    with pytest.raises(IllegalActionError, match="no battle roll is awaited"):
        undoable.apply_ready_roll(Roll((6,), (1,), "seeded"))


def test_a_numbered_roll_is_the_seeded_dice_roll_with_its_losses() -> None:
    """`seeded_number` draws what `seeded_roll` draws, and `apply_roll_number` applies the roll it names: the same
    log and state as `apply` of the seeded dice's own Roll, for every count of dice a battle rolls."""
    rules = load_ruleset("classic")
    for attack, defend in [(1, 1), (2, 1), (3, 1), (1, 2), (2, 2), (3, 2), (3, 3)]:
        for draw_seed in range(30):
            number = seeded_number(random.Random(draw_seed).random, attack, defend)
            roll = seeded_roll(random.Random(draw_seed).random, attack, defend)
            assert roll is not None
            entry = numbered_rolls(resolver_for(DiceRule.of(rules)), SEEDED).entry(attack, defend, number)
            assert entry == (roll, resolve_roll(roll.attack, roll.defend))
    rng = random.Random("numbered")
    fast = new_game(rules, MAP, 3, rng)
    fast.drop_undo()
    checked = fast.clone()
    bot = make_bot("greedy", rng)
    rolls = 0
    while fast.phase is not Phase.OVER and rolls < 200:
        if fast.phase is Phase.ROLL:
            battle = fast.battle
            assert battle is not None
            number = seeded_number(rng.random, battle.attack_dice, battle.defend_dice)
            split = 6 ** battle.defend_dice
            faces = (_faces(number // split, battle.attack_dice), _faces(number % split, battle.defend_dice))
            fast.apply_roll_number(number, SEEDED)
            checked.apply(Roll(faces[0], faces[1], SEEDED))
            rolls += 1
        else:
            action = bot.choose(fast) if isinstance(fast.to_move, int) else chance_action(fast, SeededDice(rng=rng))
            fast.apply(action)
            checked.apply(action)
        assert fast.log == checked.log
        assert fast.digest() == checked.digest()
    assert rolls == 200


def _faces(number: int, dice: int) -> tuple[int, ...]:
    """The faces of a numbered roll's side: its base-6 digits plus one, the first die first."""
    return tuple(number // 6 ** (dice - 1 - i) % 6 + 1 for i in range(dice))


def test_a_number_that_names_no_roll_is_refused() -> None:
    rng = random.Random("fit")
    game = new_game(load_ruleset("classic"), MAP, 2, rng)
    game.drop_undo()
    bot = make_bot("greedy", rng)
    with pytest.raises(IllegalActionError, match="no battle roll is awaited"):
        game.apply_roll_number(0, SEEDED)
    while game.phase is not Phase.ROLL:
        who = game.to_move
        game.apply(bot.choose(game) if isinstance(who, int) else chance_action(game, SeededDice(rng=rng)))
    battle = game.battle
    assert battle is not None
    digest, log = game.digest(), list(game.log)
    for wrong in (-1, 6 ** (battle.attack_dice + battle.defend_dice), True, 1.0):
        with pytest.raises(IllegalActionError, match="numbered 0 to"):
            game.apply_roll_number(wrong, SEEDED)  # type: ignore[arg-type]
        assert game.digest() == digest and game.log == log


def test_the_tables_roll_keeps_its_event_and_its_undo_record() -> None:
    """Only a game without undo skips a roll's and a conquest's events and change records (`settle_roll` given no
    events): the table's path, undo kept, returns every roll's BattleRolled and every TerritoryConquered, and takes
    every roll back exactly, a conquest's too."""
    rng = random.Random("records")
    game = new_game(load_ruleset("classic"), MAP, 3, rng)
    dice = SeededDice(rng=rng)
    bot = make_bot("greedy", rng)
    rolls = conquests = 0
    while game.phase is not Phase.OVER and rolls < 150:
        who = game.to_move
        if game.phase is not Phase.ROLL:
            game.apply(bot.choose(game) if isinstance(who, int) else chance_action(game, dice))
            continue
        battle = game.battle
        assert battle is not None
        before, log = game.digest(), list(game.log)
        roll = dice.roll_action(battle.attack_dice, battle.defend_dice)
        events = game.apply(roll)
        rolled = events[0]
        assert isinstance(rolled, BattleRolled)
        assert (rolled.source, rolled.target, rolled.attack, rolled.defend) == (
            battle.source, battle.target, roll.attack, roll.defend)
        assert (rolled.attacker_losses, rolled.defender_losses) == resolve_roll(roll.attack, roll.defend)
        conquests += any(isinstance(event, TerritoryConquered) for event in events)
        after = game.digest()
        assert game.undo() == roll
        assert game.digest() == before and game.log == log
        game.apply(roll)
        assert game.digest() == after
        rolls += 1
    assert rolls == 150 and conquests > 10
