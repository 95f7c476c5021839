"""Words shared by every message a person reads: counts with the right plural, territories by their display name,
seats by their colour. Engine messages name territories by id and seats by number; `readable` translates them.
"""

from __future__ import annotations

import re

from conquista.rules.mapdata import GameMap
from conquista.rules.position import Position

NEUTRAL_NAME = "neutral"  # the neutral army's name wherever a seat is named by its colour

# Nouns whose plural is not the noun plus "s".
_IRREGULAR = {"die": "dice", "army": "armies"}
_SINGULAR = {"armies": "army", "dice": "die", "cards": "card", "fleets": "fleet"}


def plural(count: int, noun: str) -> str:
    """`plural(1, "army")` is "1 army", `plural(3, "army")` "3 armies"; likewise die/dice, card/cards."""
    return f"{count} {noun if count == 1 else _IRREGULAR.get(noun, noun + 's')}"


NOBODY = "nobody"   # the owner of a territory not dealt yet

# The engine's names of phases and card sets (keys of rulesets and logs), as a person at the table reads them.
PHASE_WORDS = {
    "setup": "initial placement", "reinforce": "reinforce", "attack": "attack", "defend": "defence",
    "roll": "battle roll", "occupy": "moving in", "elimination_trade": "trading down after an elimination",
    "fortify": "fortify", "draw": "card draw", "over": "game over",
    "neutral_reinforce": "placing the neutral army's reinforcements", "neutral_attack": "the neutral army's attacks",
}
SET_WORDS = {
    "three_cannons": "three cannons", "three_infantry": "three infantry", "three_cavalry": "three cavalry",
    "one_each": "one of each kind", "jolly_pair": "a jolly and two equal cards",
    "jolly_mixed": "a jolly and two different cards", "jolly_jolly": "two jollies and a card",
    "eagle": "an eagle", "four_figures": "the four figures (Napoleon, grenadier, hussar, cannon)",
}


def percent(chance: float, space: str = "") -> str:
    """A chance in whole percents that never rounds to a certainty it is not: 0.996 is ">99%", 0.004 "<1%"
    (`space` goes before the sign: "78 %")."""
    if 0 < chance < 0.005:
        return f"<1{space}%"
    if 0.995 <= chance < 1:
        return f">99{space}%"
    return f"{round(chance * 100)}{space}%"


def phase_words(phase: str) -> str:
    """A phase's value ("neutral_reinforce") in words; a value without words of its own loses its underscores."""
    return PHASE_WORDS.get(phase, phase.replace("_", " "))


def set_words(kind: str) -> str:
    """A card set's kind ("jolly_mixed") in words."""
    return SET_WORDS.get(kind, kind.replace("_", " "))


def owner_name(game: Position, owner: int) -> str:
    """An owner by its colour: a seat's colour, "neutral" for the neutral army (an owner past the seats), or
    "nobody" for a territory not dealt yet (lamorisse-1954's progressive deal: the engine keeps -1 there)."""
    if owner < 0:
        return NOBODY
    return NEUTRAL_NAME if owner == game.neutral else game.rules.colours[owner]


def readable(text: str, game_map: GameMap, colours: tuple[str, ...]) -> str:
    """`text` with every territory id replaced by its English name and "player N" (1-based) by the seat's colour."""
    names = {t.id: t.name_en for t in game_map.territories}
    pattern = r"\b(" + "|".join(re.escape(tid) for tid in sorted(names, key=len, reverse=True)) + r")\b"
    text = re.sub(pattern, lambda m: names[m.group(1)], text)

    def seat(match: re.Match[str]) -> str:
        number = int(match.group(1))
        return colours[number - 1] if 1 <= number <= len(colours) else match.group(0)

    text = re.sub(r"\bplayer (\d+)\b", seat, text)
    # Engine messages count with a fixed plural ("you have 1 armies to place"): one of anything is singular here.
    return re.sub(r"(?<![\d.])\b1 (armies|dice|cards|fleets)( are\b)?",
                  lambda m: f"1 {_SINGULAR[m.group(1)]}{' is' if m.group(2) else ''}", text)
