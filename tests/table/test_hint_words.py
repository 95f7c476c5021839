"""A hint's words (issue 40): a placement covers every army left to place, not the first few; "kept more, but it
plays steadily" only where another way's share said is higher."""

from __future__ import annotations

import re

from conquista.bots.hard import PLANS, Choice, HardBot
from conquista.rules.actions import Place
from conquista.rules.events import Phase
from conquista.table.hints import hint_for
from tests.rules.helpers import position

ROLLOUTS, CAP, ATTACKS = 2, 300, 400


def test_a_placement_hint_places_every_army_left() -> None:
    game = position("italian", 3, owners={"china": 0, "siam": 0, "india": 0, "indonesia": 1, "ukraine": 1},
                    armies={"china": 3, "siam": 2, "india": 2}, phase=Phase.REINFORCE, current=0,
                    state={"pool": 16})
    hint = hint_for(game, 0, HardBot(ROLLOUTS, CAP, ATTACKS))
    assert isinstance(hint.action, Place)
    said = hint.words.split(";")[0]
    assert said.startswith("hard would place 16 armies"), said
    counts = [int(n) for n in re.findall(r"(\d+) on ", said)] or [16]
    assert sum(counts) == 16, said
    names = {game.map.territories[t].name_en for t in hint.territories}
    assert all(name in said for name in names) and len(names) == len(counts), (said, names)


def test_a_placement_of_one_territory_says_it_once() -> None:
    game = position("italian", 3, owners={"china": 0}, armies={"china": 3}, phase=Phase.REINFORCE, current=0,
                    state={"pool": 3})
    said = hint_for(game, 0, HardBot(ROLLOUTS, CAP, ATTACKS)).words.split(";")[0]
    assert said.startswith("hard would place 3 armies"), said


def test_kept_more_only_when_the_share_said_is_higher() -> None:
    steady, bold, careful, all_out, holding = PLANS
    level = Choice(steady, ((steady, 0.3504), (bold, 0.30), (careful, 0.30), (all_out, 0.30), (holding, 0.35041)),
                   2, 10)
    assert level.words().endswith("it plays steadily: no other way did better"), level.words()
    higher = Choice(steady, ((steady, 0.35), (bold, 0.30), (careful, 0.30), (all_out, 0.30), (holding, 0.36)), 2, 10)
    words = higher.words()
    assert "holding back 36.0%" in words and "holding back kept more on average" in words, words
    assert words.endswith("it plays steadily"), words
