"""The messages a screen may send, checked strictly (type, keys, ranges) before anything reaches the board.

A bad message raises `BadMessage`, whose text goes back in an error frame; nothing is queued. The board's loop
checks again what it may do now (whose turn, who is host): this module only knows what is well formed.
"""

from __future__ import annotations

from typing import Any

from conquista.bots import BOT_NAMES
from conquista.bots.roster import DEFAULT_BOT
from conquista.errors import BadMessage as BadMessage
from conquista.rules.textdata import BadText, is_whole, load_json, shown
from conquista.table.colours import Palette
from conquista.table.gestures import Button, Gesture, Hold, LongPress, Press, Tap, Turn
from conquista.web.wire import (
    ClaimSeat,
    Command,
    GameSetUp,
    HostDice,
    HostHints,
    HostLeave,
    HostNewGame,
    HostPause,
    HostRemote,
    RefuseClaim,
    SeatGesture,
    SeatHint,
    SeatTrade,
)

MAX_MESSAGE = 64 * 1024
MAX_SEATS = 10
MAX_CARD = 1_000_000
BUTTONS: dict[str, Gesture] = {"roll": Press(Button.ROLL), "blitz": Hold(Button.ROLL),
                               "cancel": Press(Button.CANCEL), "next": Press(Button.NEXT)}


def parse(text: str) -> dict[str, Any]:
    if len(text.encode()) > MAX_MESSAGE:
        raise BadMessage(f"message larger than {MAX_MESSAGE // 1024} KiB")
    try:
        # Not json.loads: a message nested 10,000 deep raised RecursionError, which ended the socket in a traceback.
        data = load_json(text, one_line=True)
    except BadText as exc:
        raise BadMessage(f"message is not JSON the board reads: {exc}") from None
    if not isinstance(data, dict):
        raise BadMessage("message must be a JSON object")
    return data


def keys(data: dict[str, Any], allowed: set[str]) -> None:
    unknown = sorted(set(data) - allowed)
    if unknown:
        # Only a short, escaped excerpt of what the screen sent goes back (a key may be 64 KB long).
        raise BadMessage(f"unknown key {shown(unknown[0])} in a {shown(data.get('type'))} message")


def whole(data: dict[str, Any], key: str, low: int, high: int) -> int:
    value = data.get(key)
    if not is_whole(value, low, high):
        raise BadMessage(f"{key} must be a whole number from {low} to {high}")
    return value


def _flag(data: dict[str, Any], key: str) -> bool:
    value = data.get(key)
    if not isinstance(value, bool):
        raise BadMessage(f"{key} must be true or false")
    return value


def _set_up(data: dict[str, Any]) -> GameSetUp:
    """A new game's set-up: {"rules", "players", "bots": {"SEAT": "KIND"}, "automatic_defence", "committed_dice",
    "tournament_ending", "palette"}; the board checks the ruleset and the player range."""
    keys(data, {"type", "rules", "players", "bots", "automatic_defence", "committed_dice", "tournament_ending",
                "palette"})
    rules = data.get("rules")
    if not isinstance(rules, str) or not rules.replace("-", "").replace("_", "").isalnum() or len(rules) > 40:
        raise BadMessage("rules must be the name of a shipped ruleset")
    players = whole(data, "players", 2, MAX_SEATS)
    bots = data.get("bots", {})
    if not isinstance(bots, dict):
        raise BadMessage(f'bots must map seats to bot kinds, e.g. {{"1": "{DEFAULT_BOT}"}}')
    chosen: list[tuple[int, str]] = []
    for seat_text, bot in bots.items():
        if not (seat_text.isdigit() and int(seat_text) < players):
            raise BadMessage(f"bots: {shown(seat_text)} is not a seat of {players} players (0–{players - 1})")
        if bot not in BOT_NAMES:
            raise BadMessage(f"bots: the bot of seat {seat_text} must be one of {', '.join(BOT_NAMES)}")
        chosen.append((int(seat_text), bot))
    defence = data.get("automatic_defence")
    if defence is not None and not isinstance(defence, bool):
        raise BadMessage("automatic_defence must be true, false, or left out (as the ruleset says)")
    committed = data.get("committed_dice", False)
    if not isinstance(committed, bool):
        raise BadMessage("committed_dice must be true or false")
    tournament = data.get("tournament_ending")
    if tournament is not None and not isinstance(tournament, bool):
        raise BadMessage("tournament_ending must be true, false, or left out (as the ruleset says)")
    return GameSetUp(rules, players, tuple(sorted(chosen)), defence, committed, tournament_ending=tournament,
                     palette=_palette(data))


def _palette(data: dict[str, Any]) -> Palette | None:
    """The LED palette a set-up asks for ("standard", "colour-blind"), or None to keep the board's."""
    text = data.get("palette")
    if text is None:
        return None
    if not isinstance(text, str) or text not in {p.value for p in Palette}:
        raise BadMessage(f"palette must be one of {', '.join(p.value for p in Palette)}, or left out")
    return Palette(text)


def _tap(data: dict[str, Any], territory_ids: tuple[str, ...]) -> Gesture:
    """A tap on a territory; with "long": true a long press (in a placing phase of a ruleset with fleets it
    places a fleet), as at the board."""
    keys(data, {"type", "territory", "long"})
    territory = data.get("territory")
    if not isinstance(territory, str) or territory not in territory_ids:
        raise BadMessage("territory must be a territory id of the map")
    t = territory_ids.index(territory)
    return LongPress(t) if "long" in data and _flag(data, "long") else Tap(t)


def to_command(data: dict[str, Any], connection: int, seat: int, host: int,
               territory_ids: tuple[str, ...]) -> Command:
    """The board command a message asks for, from a connection holding `seat` (-1: none)."""
    kind = data.get("type")
    if kind == "claim":
        keys(data, {"type", "seat"})
        return ClaimSeat(connection, whole(data, "seat", 0, MAX_SEATS - 1))
    if seat < 0:
        raise BadMessage("only a seated phone can do that: ask for a seat first")
    if kind == "refuse_claim":
        keys(data, {"type"})
        return RefuseClaim(seat)
    if kind == "press":
        keys(data, {"type", "button"})
        button = data.get("button")
        if not isinstance(button, str) or button not in BUTTONS:
            raise BadMessage(f"button must be one of {', '.join(BUTTONS)}")
        return SeatGesture(seat, BUTTONS[button])
    if kind == "turn":
        keys(data, {"type", "steps"})
        return SeatGesture(seat, Turn(whole(data, "steps", -50, 50)))
    if kind == "tap":
        return SeatGesture(seat, _tap(data, territory_ids))
    if kind == "trade":
        keys(data, {"type", "cards"})
        cards = data.get("cards")
        # Three cards make a set; lamorisse-1954's power cards trade an eagle alone or four figures (ids from 100000).
        if not (isinstance(cards, list) and len(cards) in (1, 3, 4)
                and all(is_whole(c, 0, MAX_CARD - 1) for c in cards)):
            raise BadMessage("cards must be a list of three card numbers (a set), or of one or four (power cards)")
        return SeatTrade(seat, tuple(cards), connection)
    if kind == "hint":
        keys(data, {"type"})
        return SeatHint(seat, connection)
    if kind in ("pause", "dice", "remote", "new_game", "resume", "leave", "hints") and seat != host:
        raise BadMessage("only the host's phone can change the game's set-up")
    if kind == "pause":
        keys(data, {"type", "paused"})
        return HostPause(seat, _flag(data, "paused"), connection)
    if kind == "hints":
        keys(data, {"type", "allowed", "leds"})
        return HostHints(seat, _flag(data, "allowed"), _flag(data, "leds"), connection)
    if kind == "dice":
        keys(data, {"type", "physical"})
        return HostDice(seat, _flag(data, "physical"), connection)
    if kind == "new_game":
        return HostNewGame(connection, seat, _set_up(data))
    if kind == "resume":
        keys(data, {"type", "game"})
        return HostNewGame(connection, seat, GameSetUp(resume=whole(data, "game", 1, 2**53)))
    if kind == "leave":
        keys(data, {"type", "seat", "bot"})
        return HostLeave(connection, seat, whole(data, "seat", 0, MAX_SEATS - 1), _flag(data, "bot"))
    if kind == "remote":
        keys(data, {"type", "seat"})
        return HostRemote(connection, seat, whole(data, "seat", 0, MAX_SEATS - 1))
    raise BadMessage(f"unknown message type {shown(kind)}")
