"""The game log: the save format. JSON Lines: a header line, then one line per applied action (dice included).

Lines with a "meta" key (e.g. the revealed seed of committed dice) are not actions and replay skips them.
`replay()` applies every action to a fresh game and so rebuilds the state exactly.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from conquista.errors import ConquistaError, LogError
from conquista.rules.actions import Action, Deal
from conquista.rules.engine import Game
from conquista.rules.mapdata import GameMap, load_map
from conquista.rules.ruleset import Ruleset
from conquista.rules.rulesets import ruleset_from_dict
from conquista.rules.serialize import DecodeError, decode_action, encode_action
from conquista.rules.textdata import BadText, load_json, read_utf8, shown

LOG_FORMAT = "conquista-log"
LOG_VERSION = 1


@dataclass
class LogHeader:
    rules: Ruleset
    game_map: GameMap
    players: int
    dice: dict[str, Any] = field(default_factory=dict)
    extra: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {
            "format": LOG_FORMAT,
            "version": LOG_VERSION,
            "ruleset_name": self.rules.name,
            "ruleset": self.rules.to_dict(),
            "map": {"name": self.game_map.name, "sha256": self.game_map.sha256},
            "players": self.players,
            "dice": self.dice,
            **self.extra,
        }


def header_for(game: Game, dice: dict[str, Any] | None = None) -> LogHeader:
    return LogHeader(game.rules, game.map, game.players, dice or {})


def dump_lines(game: Game, dice: dict[str, Any] | None = None) -> list[str]:
    """The whole log of `game` as JSON lines (header first)."""
    lines = [json.dumps(header_for(game, dice).to_json(), ensure_ascii=False)]
    lines.extend(json.dumps(encode_action(a, game.map), ensure_ascii=False) for a in game.log)
    return lines


def write_log(path: str | Path, game: Game, dice: dict[str, Any] | None = None) -> None:
    Path(path).write_text("\n".join(dump_lines(game, dice)) + "\n", "utf-8")


def parse_header(obj: Any, where: str, game_map: GameMap | None = None) -> LogHeader:
    if not isinstance(obj, dict) or obj.get("format") != LOG_FORMAT:
        raise LogError(f"{where}: not a conquista game log (the first line has no \"format\": \"{LOG_FORMAT}\")")
    if obj.get("version") != LOG_VERSION:
        raise LogError(f"{where}: log version {obj.get('version')!r} is not supported (expected {LOG_VERSION})")
    if not isinstance(obj.get("ruleset"), dict):
        raise LogError(f"{where}: the header's 'ruleset' must be an object of parameters, got "
                       f"{shown(obj.get('ruleset'))}")
    try:
        rules = ruleset_from_dict({**obj["ruleset"], "name": obj["ruleset_name"]}, f"in {where}")
    except KeyError as exc:
        raise LogError(f"{where}: the header has no {exc.args[0]!r}") from None
    except ConquistaError as exc:
        raise LogError(f"{where}: {exc}") from None
    map_info = obj.get("map", {})
    the_map = game_map if game_map is not None else load_map()
    wanted = map_info.get("sha256") if isinstance(map_info, dict) else None
    if wanted and wanted != the_map.sha256:
        raise LogError(f"{where}: the game was played on map {map_info.get('name')!r} with a different file; "
                       f"pass that map file with --map")
    players = obj.get("players")
    if not isinstance(players, int) or isinstance(players, bool) or \
            not rules.players_min <= players <= rules.players_max:
        raise LogError(f"{where}: the header's 'players' must be a whole number from {rules.players_min} to "
                       f"{rules.players_max} (the ruleset's), got {shown(players)}")
    dice = obj.get("dice", {}) or {}
    if not isinstance(dice, dict):
        raise LogError(f"{where}: the header's 'dice' must be an object like {{\"source\": \"os\"}}, got "
                       f"{shown(dice)}")
    extra = {k: v for k, v in obj.items()
             if k not in ("format", "version", "ruleset_name", "ruleset", "map", "players", "dice")}
    return LogHeader(rules, the_map, players, dice, extra)


def replay(header: LogHeader, actions: Iterable[Action]) -> Game:
    """Rebuild a game from its header and actions (the first action is the deal)."""
    it = iter(actions)
    deal = next(it, None)
    if not isinstance(deal, Deal):
        raise LogError("a game log's first action must be the deal")
    game = Game(header.rules, header.game_map, header.players, deal)
    for action in it:
        game.apply(action)
    return game


def read_log(path: str | Path, game_map: GameMap | None = None) -> tuple[LogHeader, Game]:
    """Read and replay a log file. Errors name the file, the line and the reason."""
    where = str(path)
    try:
        text = read_utf8(path)
    except OSError as exc:
        raise LogError(f"{where}: cannot read the log ({exc.strerror})") from None
    except BadText:
        raise LogError(f"{where}: not a conquista game log (not UTF-8 text)") from None
    return parse_log_lines(text.splitlines(), where, game_map)


class BadLine(ValueError):
    """A line of a JSON-lines log that is not one JSON value: its number (from 1) and why."""

    def __init__(self, number: int, reason: str) -> None:
        super().__init__(f"line {number}: {reason}")
        self.number, self.reason = number, reason


def json_lines(lines: Iterable[str]) -> Iterator[tuple[int, Any]]:
    """The one reader of a JSON-lines log (a game log, a saved game's lines): each line's number (from 1) and JSON
    value, blank lines skipped; a line that is not one JSON value raises `BadLine`. Its readers say the error in
    their own words (`parse_log_lines`, the dice audit's `parse_records`)."""
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            yield number, load_json(line, one_line=True)
        except BadText as exc:
            raise BadLine(number, str(exc)) from None


def parse_log_lines(lines: list[str], where: str, game_map: GameMap | None = None,
                    watch: Callable[[int, Action, Game, bool], None] | None = None) -> tuple[LogHeader, Game]:
    """Replay log lines. `watch(line, action, game, applied)` is called before (applied=False) and after
    (applied=True) each action after the deal, for readers that need the state around every action."""
    header: LogHeader | None = None
    game: Game | None = None
    numbered = json_lines(lines)
    while True:
        try:
            number, obj = next(numbered)
        except StopIteration:
            break
        except BadLine as exc:
            raise LogError(f"{where}, line {exc.number}: {exc.reason}") from None
        if header is None:
            header = parse_header(obj, f"{where}, line {number}", game_map)
            continue
        if isinstance(obj, dict) and "meta" in obj:
            continue
        try:
            action = decode_action(obj, header.game_map)
        except DecodeError as exc:
            raise LogError(f"{where}, line {number}: {exc}") from None
        try:
            if game is None:
                if not isinstance(action, Deal):
                    raise LogError(f"{where}, line {number}: the first action must be the deal")
                game = Game(header.rules, header.game_map, header.players, action)
                continue
            if watch is not None:
                watch(number, action, game, False)
            game.apply(action)
            if watch is not None:
                watch(number, action, game, True)
        except LogError:
            raise
        except ConquistaError as exc:
            raise LogError(f"{where}, line {number}: {exc}") from None
    if header is None:
        raise LogError(f"{where}: the log is empty")
    if game is None:
        raise LogError(f"{where}: the log has a header but no deal")
    return header, game
