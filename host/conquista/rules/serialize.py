"""Actions to and from JSON objects, with territory and card ids (not engine indices) so a log reads plainly."""

from __future__ import annotations

from typing import Any

from conquista.errors import DecodeError as DecodeError
from conquista.rules import power_cards
from conquista.rules.actions import (
    Action,
    Attack,
    Blitz,
    ClockOut,
    ClosingRoll,
    Deal,
    Defend,
    Draw,
    EndPhase,
    Fortify,
    Leave,
    Occupy,
    Place,
    Roll,
    TimeOut,
    Trade,
)
from conquista.rules.mapdata import GameMap
from conquista.rules.textdata import is_whole, shown


def card_id(game_map: GameMap, card: int) -> str:
    if power_cards.is_power(card):
        return power_cards.name(card)
    return game_map.id(card) if card < game_map.size else f"jolly{card - game_map.size + 1}"


def _card_index(game_map: GameMap, name: Any) -> int:
    if isinstance(name, str) and name.startswith("jolly") and name[5:].isdigit():
        number = name[5:]
        if not (number.isascii() and len(number) <= 3 and 1 <= int(number)):
            raise DecodeError(f"unknown card {shown(name)} (the jollies are jolly1, jolly2, ...)")
        return game_map.size + int(number) - 1
    if isinstance(name, str) and (card := power_cards.index(name)) is not None:
        return card
    return _territory(game_map, name)


def _territory(game_map: GameMap, name: Any) -> int:
    if not isinstance(name, str):
        raise DecodeError(f"territory must be an id string, got {shown(name)}")
    try:
        return game_map.index(name)
    except Exception:
        raise DecodeError(f"unknown territory {shown(name)}") from None


def encode_action(action: Action, game_map: GameMap) -> dict[str, Any]:
    tid = game_map.id
    match action:
        case Deal(order, first, missions):
            return {"type": "deal", "order": [tid(t) for t in order], "first_player": first,
                    "missions": list(missions)}
        case Place(t, c, fleet):
            placed = {"type": "place", "territory": tid(t), "count": c}
            return {**placed, "fleet": True} if fleet else placed
        case Trade(cards):
            return {"type": "trade", "cards": [card_id(game_map, c) for c in cards]}
        case EndPhase():
            return {"type": "end_phase"}
        case Attack(s, t, d):
            return {"type": "attack", "source": tid(s), "target": tid(t), "dice": d}
        case Blitz(s, t, k, None):
            return {"type": "blitz", "source": tid(s), "target": tid(t), "stop_at": k}
        case Blitz(s, t, k, d):
            return {"type": "blitz", "source": tid(s), "target": tid(t), "stop_at": k, "dice": d}
        case Defend(d):
            return {"type": "defend", "dice": d}
        case Roll(a, d, src):
            return {"type": "roll", "attack": list(a), "defend": list(d), "source": src}
        case Occupy(c):
            return {"type": "occupy", "count": c}
        case Fortify(s, t, c):
            return {"type": "fortify", "source": tid(s), "target": tid(t), "count": c}
        case Draw(c):
            return {"type": "draw", "card": card_id(game_map, c)}
        case Leave(seat):
            return {"type": "leave", "seat": seat}
        case TimeOut():
            return {"type": "time_out"}
        case ClockOut():
            return {"type": "clock_out"}
        case ClosingRoll(dice, src):
            return {"type": "closing_roll", "dice": list(dice), "source": src}
    raise TypeError(f"not an action: {action!r}")


NUMBER_MAX = 1_000_000   # no count, die, seat or mission of a game comes near it (armies are at most 1000 each)


def _int(obj: dict[str, Any], key: str) -> int:
    value = obj.get(key)
    if not is_whole(value, 0, NUMBER_MAX):
        raise DecodeError(f"{key!r} must be a whole number from 0 to {NUMBER_MAX}, got {shown(value)}")
    return value


def _ints(obj: dict[str, Any], key: str) -> tuple[int, ...]:
    value = obj.get(key)
    if not isinstance(value, list) or len(value) > 100 or not all(is_whole(v, 0, NUMBER_MAX) for v in value):
        raise DecodeError(f"{key!r} must be a list of whole numbers from 0 to {NUMBER_MAX}, got {shown(value)}")
    return tuple(value)


def decode_action(obj: Any, game_map: GameMap) -> Action:
    if not isinstance(obj, dict) or "type" not in obj:
        raise DecodeError("an action is an object with a 'type'")
    kind = obj["type"]
    if kind == "deal":
        order = obj.get("order")
        if not isinstance(order, list):
            raise DecodeError("'order' must list territory ids")
        return Deal(tuple(_territory(game_map, t) for t in order), _int(obj, "first_player"),
                    _ints(obj, "missions"))
    if kind == "place":
        fleet = obj.get("fleet", False)
        if not isinstance(fleet, bool):
            raise DecodeError(f"'fleet' must be true or false, got {shown(fleet)}")
        return Place(_territory(game_map, obj.get("territory")), _int(obj, "count"), fleet)
    if kind == "trade":
        cards = obj.get("cards")
        if not isinstance(cards, list):
            raise DecodeError("'cards' must list card ids")
        return Trade(tuple(_card_index(game_map, c) for c in cards))
    if kind == "end_phase":
        return EndPhase()
    if kind == "attack":
        return Attack(_territory(game_map, obj.get("source")), _territory(game_map, obj.get("target")),
                      _int(obj, "dice"))
    if kind == "blitz":
        # "dice" is absent from logs written before a blitz kept the attacker's choice: the most dice, as then.
        return Blitz(_territory(game_map, obj.get("source")), _territory(game_map, obj.get("target")),
                     _int(obj, "stop_at"), _int(obj, "dice") if "dice" in obj else None)
    if kind == "defend":
        return Defend(_int(obj, "dice"))
    if kind == "roll":
        source = obj.get("source", "manual")
        if not isinstance(source, str):
            raise DecodeError("'source' must be a string")
        return Roll(_ints(obj, "attack"), _ints(obj, "defend"), source)
    if kind == "occupy":
        return Occupy(_int(obj, "count"))
    if kind == "fortify":
        return Fortify(_territory(game_map, obj.get("source")), _territory(game_map, obj.get("target")),
                       _int(obj, "count"))
    if kind == "draw":
        return Draw(_card_index(game_map, obj.get("card")))
    if kind == "leave":
        return Leave(_int(obj, "seat"))
    if kind == "time_out":
        return TimeOut()
    if kind == "clock_out":
        return ClockOut()
    if kind == "closing_roll":
        source = obj.get("source", "manual")
        if not isinstance(source, str):
            raise DecodeError("'source' must be a string")
        return ClosingRoll(_ints(obj, "dice"), source)
    raise DecodeError(f"unknown action type {shown(kind)}")
