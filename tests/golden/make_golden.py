"""Regenerate the golden transcripts. Run only when a change of the engine's behaviour is intended:
`.venv/bin/python tests/golden/make_golden.py`, then review the diff of expected.json. Name transcripts
(`make_golden.py french-1976-duel-2p.jsonl`) to write only those and leave the others as they are."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from conquista.bots.simulate import play_game
from conquista.rules.gamelog import write_log
from conquista.rules.mapdata import load_map
from conquista.rules.rulesets import load_ruleset

HERE = Path(__file__).resolve().parent
GAMES = [("italian", 3, ["greedy"], "golden-1"), ("classic", 2, ["greedy", "random"], "golden-2"),
         ("french-1976", 4, ["greedy"], "golden-3"), ("french-1976-domination", 3, ["greedy"], "golden-4"),
         ("french-1976-duel", 2, ["greedy", "random"], "golden-5"), ("lamorisse-1954", 8, ["greedy"], "golden-6")]


def main(only: list[str]) -> None:
    game_map = load_map()
    expected = json.loads((HERE / "expected.json").read_text()) if only else {}
    for name, players, bots, seed in GAMES:
        if only and f"{name}-{players}p.jsonl" not in only:
            continue
        result = play_game(load_ruleset(name), game_map, players, bots, seed, turn_cap=300)
        assert result.game is not None
        path = HERE / f"{name}-{players}p.jsonl"
        write_log(path, result.game, {"source": "seeded"})
        expected[path.name] = {"digest": result.game.digest(), "winner": result.winner, "turns": result.turns,
                               "actions": len(result.game.log)}
    (HERE / "expected.json").write_text(json.dumps(expected, indent=1) + "\n")


if __name__ == "__main__":
    main(sys.argv[1:])
