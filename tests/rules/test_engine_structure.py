"""The engine's shape (issue 23): a position with the move stack, the rules as a check and an apply per action in the
module of their concept, the ruleset's features at the turn flow's named hooks, and no module of rules/ reading
another's private names."""

from __future__ import annotations

import ast
import dataclasses
import json
import os
import random
from pathlib import Path

import pytest

from conquista.rules import actions, combat, table_features, tournament, turns
from conquista.rules.actions import Action, Attack, Blitz, Deal, EndPhase, Fortify, Occupy, Place
from conquista.rules.engine import Game, features_of
from conquista.rules.events import Event, Phase
from conquista.rules.position import Position, TurnFeature
from conquista.rules.rulesets import load_ruleset
from conquista.rules.table_features import NeutralStepsNeverWait
from conquista.rules.tournament import TournamentEnding
from tests.rules.helpers import MAP, dealt

PACKAGE = Path(__file__).resolve().parents[2] / "host" / "conquista"


def _defined_names(tree: ast.Module) -> set[str]:
    """Every name a module defines: its functions, classes, their methods and the attributes it assigns."""
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.ClassDef):
            names.add(node.name)
        elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store):
            names.add(node.attr)
        elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            names.add(node.id)
    return names


def private_names_borrowed(modules: list[Path]) -> dict[str, list[str]]:
    """Per module: the private names (one leading underscore, not a dunder) it reads or imports that another of
    `modules` defines and it does not."""
    trees = {path.name: ast.parse(path.read_text(encoding="utf-8")) for path in modules}
    defined = {name: _defined_names(tree) for name, tree in trees.items()}
    borrowed: dict[str, list[str]] = {}
    for name, tree in trees.items():
        elsewhere = {n for other, names in defined.items() if other != name for n in names} - defined[name]
        found = []
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom):
                found += [f"import {a.name}" for a in node.names if a.name.startswith("_")]
            elif (isinstance(node, ast.Attribute) and node.attr.startswith("_") and not node.attr.startswith("__")
                    and node.attr in elsewhere):
                found.append(f"line {node.lineno}: .{node.attr}")
        if found:
            borrowed[name] = found
    return borrowed


def test_no_module_of_the_rules_reads_another_ones_private_names() -> None:
    assert private_names_borrowed(sorted((PACKAGE / "rules").glob("*.py"))) == {}


def test_the_check_finds_a_borrowed_private_name(tmp_path: Path) -> None:
    (tmp_path / "lender.py").write_text("class Lender:\n    def _setup(self):\n        self._size = 1\n")
    (tmp_path / "borrower.py").write_text(
        "from lender import _secret\n\ndef f(game):\n    game._setup()\n    return game._replace(a=1)\n")
    (tmp_path / "owner.py").write_text("def g(game):\n    game._size = 2\n    return game._size\n")
    assert private_names_borrowed(sorted(tmp_path.glob("*.py"))) == {
        "borrower.py": ["import _secret", "line 4: ._setup"]}


def test_each_action_has_one_check_and_apply_in_the_module_of_its_concept() -> None:
    tables = [turns.STEPS, combat.STEPS, tournament.STEPS, table_features.STEPS]
    claimed = [kind for table in tables for kind in table]
    assert len(claimed) == len(set(claimed))   # no action refereed in two places
    # Every action class (read from the module: under the compiled core the `Action` union is loosened to Any), but
    # the deal, which is the game's start rather than a step.
    every = {c for c in vars(actions).values() if dataclasses.is_dataclass(c) and c.__module__ == actions.__name__}
    assert set(claimed) == every - {Deal} and len(every) == 15
    for table in tables:
        for check, apply in table.values():
            assert check.__name__.startswith("check_") and apply.__name__.startswith("apply_")
            assert check.__module__ == apply.__module__


def test_the_ruleset_selects_the_features_of_the_turn_flow() -> None:
    assert features_of(load_ruleset("classic")) == ()
    tournament = features_of(load_ruleset("classic", {"tournament_ending": True}))
    assert [type(f) for f in tournament] == [TournamentEnding]
    duel = features_of(load_ruleset("french-1976-duel"))
    assert [type(f) for f in duel] == [NeutralStepsNeverWait]
    assert features_of(load_ruleset("french-1976-duel", {"neutral_steps_never_wait": False})) == ()
    assert features_of(load_ruleset("italian")) == ()            # the decision, but no neutral army to apply it to
    game = dealt("classic", 3, tournament_ending=True)
    assert [type(f) for f in game.features] == [TournamentEnding]
    assert [type(f) for f in game.clone().features] == [TournamentEnding]
    assert [type(f) for f in Game.from_snapshot(game.snapshot(), game.rules, MAP).features] == [TournamentEnding]


# A feature is engine code: under the compiled core (`make test-fast`) `TurnFeature` is a compiled class, which a class
# defined here (interpreted) may not extend. The features' flow is the same source either way.
interpreted_only = pytest.mark.skipif(bool(os.environ.get("CONQUISTA_EXPECT_COMPILED")),
                                      reason="a test's own TurnFeature cannot extend the compiled one")


class _Recorder(TurnFeature):
    """A feature that only notes each time the flow asks whether it passes the turn."""

    def __init__(self) -> None:
        self.asked: list[int] = []

    def passes_turn(self, pos: Position, events: list[Event]) -> bool:
        self.asked.append(pos.current)
        return False


class _Holder(TurnFeature):
    """A feature that takes every turn's passing over, and holds the game at the closing roll (as the tournament
    ending's own feature does: a feature changes the position, as the rule steps do)."""

    def passes_turn(self, pos: Position, events: list[Event]) -> bool:
        pos.phase = Phase.CLOSING_ROLL
        return True


def _play_to_fortify(game: Game) -> None:
    while game.phase is not Phase.FORTIFY:
        actions = game.legal_actions()
        attacks = [a for a in actions if isinstance(a, Attack | Blitz)]
        game.apply(EndPhase() if EndPhase() in actions and not attacks else actions[0])


@interpreted_only
def test_the_turn_flow_asks_its_features_at_the_end_of_each_turn() -> None:
    game = dealt("classic", 3)
    while game.phase is Phase.SETUP:
        game.apply(next(a for a in game.legal_actions() if isinstance(a, Place)))
    recorder = _Recorder()
    game.features = (recorder,)
    first = game.current
    _play_to_fortify(game)
    game.apply(EndPhase())
    while game.phase is Phase.DRAW:
        game.apply(game.legal_actions()[0])
    assert recorder.asked == [first] and game.current != first and game.phase is Phase.REINFORCE


@interpreted_only
def test_a_feature_that_passes_the_turn_itself_stops_the_flow_there() -> None:
    game = dealt("classic", 3)
    while game.phase is Phase.SETUP:
        game.apply(next(a for a in game.legal_actions() if isinstance(a, Place)))
    game.features = (_Holder(),)
    first, turn = game.current, game.turn
    _play_to_fortify(game)
    game.apply(EndPhase())
    while game.phase is Phase.DRAW:
        game.apply(game.legal_actions()[0])
    assert game.phase is Phase.CLOSING_ROLL and game.current == first and game.turn == turn


def _probes(game: Game, rng: random.Random) -> list[Action]:
    """Legal and refused actions of every kind the position could meet."""
    t = [rng.randrange(MAP.size) for _ in range(6)]
    return [*game.legal_actions(), Place(t[0], 1), Place(t[1], 99), Place(t[2], 1, True), Attack(t[0], t[3], 3),
            Blitz(t[1], t[4], 1), Fortify(t[2], t[5], 1), Occupy(2), EndPhase(), Place(-1, 1), Attack(True, 1, 1)]


def test_checking_never_changes_the_game() -> None:
    """`check` runs no step: not one change recorded, the state as it was, for every legal action and refused probes
    alike, through whole turns of four rulesets."""
    rng = random.Random(5)
    for rules, players in (("classic", 3), ("italian", 4), ("lamorisse-1954", 3), ("french-1976-duel", 2)):
        game = dealt(rules, players)
        for _ in range(120):
            if game.over:
                break
            before, changes = json.dumps(game.snapshot()), len(game.changes)
            answers = [game.check(a) for a in _probes(game, rng)]
            assert json.dumps(game.snapshot()) == before and len(game.changes) == changes
            assert all(a is None for a in answers[:len(game.legal_actions())])
            actions = game.legal_actions()
            game.apply(actions[rng.randrange(len(actions))])
