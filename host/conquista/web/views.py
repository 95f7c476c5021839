"""What each audience may see, built by the server (never filtered in the page).

`public_view` is for any screen: it holds no mission, no hand and no token. `seat_view` is one player's private
screen. `host_view` is the set-up screen of the host's phone. All are plain JSON-ready dicts, built on the board's
loop (the only thread that reads the game) and handed to the server already serialised.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from conquista.bots import BOT_NAMES, LEVELS
from conquista.bots.roster import DEFAULT_BOT, bots_of
from conquista.errors import IllegalActionError
from conquista.rules import power_cards
from conquista.rules.actions import Attack, Blitz, ClosingRoll, Deal, Fortify, Place, Roll
from conquista.rules.battle import DiceRule
from conquista.rules.cards import card_symbol, set_kind
from conquista.rules.choices import CardDeck, DealKind
from conquista.rules.engine import Game
from conquista.rules.events import PLACING_PHASES, Phase
from conquista.rules.mapdata import GameMap
from conquista.rules.missions import effective_mission, mission_text
from conquista.rules.odds import battle_losses
from conquista.rules.rulesets import builtin_rulesets, load_ruleset
from conquista.table.colours import Palette, mark, screen_hex, screen_hex_in
from conquista.table.logview import game_over_reason
from conquista.table.referee_records import LastBattle, MessageKind, Status
from conquista.table.table_view import TableView
from conquista.table.tournament_clock import to_json as tournament_json
from conquista.table.wording import NEUTRAL_NAME, owner_name
from conquista.web.layout import CLASSIC_CELLS, board_cells, schematic_points
from conquista.web.phone_buttons import seat_buttons
from conquista.web.phone_words import my_turn_words, waiting_words

if TYPE_CHECKING:
    from conquista.web.wire import SavedChoice

LOG_LINES = 40


@functools.cache
def ruleset_choices() -> list[dict[str, Any]]:
    """The shipped rulesets with their player ranges, for the host's set-up screen."""
    out = []
    for name in builtin_rulesets():
        rules = load_ruleset(name)
        out.append({"name": name, "min": rules.players_min, "max": rules.players_max,
                    "automatic_defence": rules.automatic_defence, "colours": list(rules.colours),
                    "tournament_ending": rules.tournament_ending})
    return out


@dataclass(frozen=True)
class SeatState:
    """What the public may know of a seat: taken by a phone, a bot, a claim waiting for ROLL, the host."""

    phones: frozenset[int] = frozenset()
    bots: frozenset[int] = frozenset()
    claiming: int = -1
    host: int = -1
    remote: frozenset[int] = frozenset()


def _hex(colour: str) -> str:
    """A seat's colour on a screen: sRGB, not the LED's bytes (`colours.SCREEN_RGB`)."""
    return screen_hex(colour)


# The drawn world of a shipped map: an SVG under web/static, made by web/mapgen (make map). A map without one is
# drawn as a schematic from its links (`layout.schematic_points`).
SHAPES = {"classic-42": "/static/classic-42.svg"}
_points: dict[tuple[str, tuple[tuple[int, ...], ...]], dict[str, tuple[float, float]]] = {}


def _schematic(gmap: GameMap) -> dict[str, tuple[float, float]]:
    key = (gmap.name, tuple(tuple(n) for n in gmap.neighbours))
    if key not in _points:     # the spring layout takes a moment: once per map, not once per connection
        _points[key] = schematic_points(gmap)
    return _points[key]


def map_view(game: Game) -> dict[str, Any]:
    """The map's static part (names, continents, links, cells): sent once per connection."""
    gmap = game.map
    cells = board_cells(gmap)
    # The drawn world only for the map it was drawn from: a builder's edit under the same name gets a schematic.
    same = {t.id for t in gmap.territories} == set(CLASSIC_CELLS)
    shapes = SHAPES.get(gmap.name) if same and not gmap.cells else None
    return {
        "name": gmap.name,
        # The URL of the map's SVG, whose paths carry each territory's id; else `points` place a schematic.
        "shapes": shapes,
        "points": None if shapes else {tid: list(p) for tid, p in _schematic(gmap).items()},
        # The Italian names too: a screen that speaks may speak Italian.
        "territories": [{"id": t.id, "name": t.name_en, "name_it": t.name_it,
                         "continent": gmap.continents[t.continent].id,
                         "cell": list(cells[t.id])} for t in gmap.territories],
        "continents": [{"id": c.id, "name": c.name_en, "bonus": c.bonus} for c in gmap.continents],
        "links": [[a, b] for a, around in enumerate(gmap.neighbours) for b in around if a < b],
    }


def _owner_rgb(game: Game, owner: int) -> str:
    if owner < 0:
        return "#000000"   # not dealt yet: dark, as on the board
    return screen_hex(owner_name(game, owner))


def _neutral(game: Game) -> dict[str, Any] | None:
    """The neutral army (french-1976-duel): its owner value, colour and territories; None when it does not play."""
    if game.neutral is None:
        return None
    return {"owner": game.neutral, "colour": NEUTRAL_NAME, "rgb": _owner_rgb(game, game.neutral),
            "mark": mark(NEUTRAL_NAME),
            "territories": game.territory_count[game.neutral]}


def _territories(table: TableView) -> list[dict[str, Any]]:
    """Each territory's owner and units. With fleets (lamorisse-1954) `armies` still counts every unit and `fleets`
    how many of them are fleets; with a progressive deal `blinking` says it was just dealt and waits for its army."""
    game = table.game
    out: list[dict[str, Any]] = [
        {"id": game.map.id(t), "owner": game.owner[t] if game.owner[t] >= 0 else None,
         "colour": owner_name(game, game.owner[t]), "rgb": _owner_rgb(game, game.owner[t]),
         "mark": mark(owner_name(game, game.owner[t])) if game.owner[t] >= 0 else "", "armies": game.armies[t]}
        for t in range(game.map.size)]
    if table.menu is not None:
        # No game yet (the set-up menu): the map stays dark, as on the board, with no owner and no count on it.
        for territory in out:
            territory.update(owner=None, colour="", rgb="#000000", mark="", armies=0)
    if game.rules.fleets:
        for t, territory in enumerate(out):
            territory["fleets"] = game.fleets[t]
    if game.rules.deal is DealKind.PROGRESSIVE:
        blinking = set(table.blinking)
        for t, territory in enumerate(out):
            territory["blinking"] = t in blinking
    return out


def public_view(table: TableView, seats: SeatState, turn_seconds: float | None = None,
                now: float | None = None) -> dict[str, Any]:
    """Any screen's view of the table at one version. `turn_seconds`: how long the turn has gone at `now`, the
    board's clock (by default the table's own count at the view's moment). Times are sent as moments on that clock
    (`started`, `deadline`, `ends_at`): a screen counts from them with the board's "now" that comes with every
    frame, so every screen shows the same time however late it opened."""
    if now is None:
        now = table.now
    if turn_seconds is None:
        turn_seconds = table.turn_seconds(now)
    game = table.game
    colours = game.rules.colours
    status = table.status
    attack, defend = table.dice
    return recoloured({
        "rules": game.rules.name,
        # A territory's owner is a seat, or the neutral army (an owner past the seats, named "neutral").
        "territories": _territories(table),
        "neutral": _neutral(game),
        "seats": [{"seat": s, "colour": colours[s], "rgb": _hex(colours[s]), "mark": mark(colours[s]),
                   "cards": len(game.hands[s]),
                   "territories": game.territory_count[s], "eliminated": game.eliminated[s], "left": game.left[s],
                   "bot": s in seats.bots, "phone": s in seats.phones, "host": s == seats.host,
                   "remote": s in seats.remote, "claiming": s == seats.claiming, **seat_figures(table, s)}
                  for s in range(game.players)],
        "current": game.current,
        # Whose turn it is, for every screen's heading: during a defence still the attacker's (the defender only
        # answers: `to_move`).
        "turn_of": table.turn_of,
        # A seat, or "chance" / "terminal" when no seat acts.
        "to_move": game.to_move if isinstance(game.to_move, int) else game.to_move.value,
        "phase": status.phase,
        "pending": status.pending,
        "message": status.message,
        "message_kind": status.message_kind.value,    # "refusal" is shown in refusal red, the others plainly
        # The selected territories by map id (the referee keeps -1 for "none"; a screen never sees it).
        "selection": [game.map.id(t) for t in (table.source, table.target) if t >= 0],
        "dice": {"attack": [d for d in attack if d is not None], "defence": [d for d in defend if d is not None]},
        "log": list(table.log[-LOG_LINES:]),
        # The turn's time left, with a turn time limit (None without one): the referee's clock, which stops for
        # questions and faults.
        "clock": clock_view(table, status, turn_seconds, now),
        # The tournament ending's clock, stage and points (None without it): docs/playing.md.
        "tournament": tournament_view(table, status),
        "winner": game.winner,
        "over": game.over,
        # How the game was won, in words ("mission: ...", "every territory"), for every screen's end.
        "won_how": game_over_reason(game, game.winner, game.over_reason) if game.winner is not None else "",
        "fault": table.fault,
        # The set-up menu on the board's ring, in words and as data, while a new game is chosen there.
        "menu": table.menu_view() if table.menu is not None else None,
        # The last roll (for a screen that announces battles): counted, so a roll like the one before is news;
        # with the seats on each side and whether it was rolled in this turn (an older one is not shown as news).
        "roll": _rolled(game, last_roll(game), table.last_battle, table.playing),
        # The chance that the attack chosen now takes its target (a blitz to the end), as the attacker's phone has it.
        "odds": table.chance if game.phase in (Phase.ATTACK, Phase.NEUTRAL_ATTACK) and
        table.target >= 0 and table.menu is None else None,
        # When the game is over: the luck report, every mission revealed.
        "luck": luck_view(game, dict(table.hints_asked)),
        # The moment on the board's clock the open seat claim expires (None: none open): the claimer's countdown.
        "claim_deadline": _moment(table.claim_deadline()),
        # The waits every screen counts down, as moments on the board's clock (None: not waiting).
        "countdowns": countdowns(table),
        # At the end: the game's story, for the TV's chart.
        "story": story_view(game),
        "palette": table.palette.value,
    }, table.palette)


def recoloured(view: dict[str, Any], palette: Palette) -> dict[str, Any]:
    """The public view's seats and territories in the host's palette's screen colours (the colour-blind one)."""
    if palette is not Palette.COLOUR_BLIND:
        return view
    for item in [*view["seats"], *view["territories"]]:
        if item.get("colour") and item.get("owner", 0) is not None:
            item["rgb"] = screen_hex_in(item["colour"], palette)
    return view


def seat_figures(table: TableView, seat: int) -> dict[str, Any]:
    """A seat's public figures for the TV's player panels: its armies on the board, the armies it would receive at
    its next turn's start (territories and continents; a card set's armies not counted), the continents it holds."""
    game = table.game
    owner, armies = game.owner, game.armies
    out = game.eliminated[seat] or table.menu is not None
    held = [c.id for c in game.map.continents if all(owner[t] == seat for t in c.territories)]
    return {"armies": 0 if out else sum(a for t, a in enumerate(armies) if owner[t] == seat),
            "income": 0 if out else game.reinforcements_for(seat),
            "continents": [] if out else held}


def countdowns(table: TableView) -> dict[str, Any]:
    """The defender's time to choose its dice (then the board rolls the most for it) and the seat claim's time to
    be granted with ROLL, as moments on the board's clock, with whose they are."""
    defend = table.defend_deadline()
    battle = table.game.battle
    claim = table.claim_deadline()
    return {"defend": None if defend is None or battle is None else
            {"deadline": round(defend, 2), "seat": table.game.owner[battle.target], "seconds": table.defend_timeout_s},
            "claim": None if claim is None else
            {"deadline": round(claim, 2), "seat": table.claim_seat, "seconds": table.claim_timeout_s}}


def _moment(at: float | None) -> float | None:
    """A moment on the board's clock as a screen gets it (rounded: a countdown shows whole seconds)."""
    return None if at is None else round(at, 2)


def clock_view(table: TableView, status: Status, turn_seconds: float, now: float) -> dict[str, Any]:
    """The turn's clock: when the turn started on the board's clock (`started`, none during the set-up menu); with a
    time limit the seconds left as the referee counts them, and while that clock runs the moment it runs out
    (`deadline`): a stopped clock (a question, a fault) has none, and a screen shows `left` without counting."""
    game = table.game
    left = status.time_left
    running = left is not None and table.clock_running
    return {"turn": game.turn, "round": game.round, "seconds": round(turn_seconds, 1),
            "started": None if table.menu is not None else round(now - turn_seconds, 2),
            "limit": game.rules.turn_time_limit_s or None,
            "left": None if left is None else round(left, 1),
            "deadline": round(table.now + left, 2) if running and left is not None else None}


def tournament_view(table: TableView, status: Status) -> dict[str, Any] | None:
    """The tournament's clock, stage and points, and its closing rolls so far (counted, so a screen that
    announces them knows a new one; the last one's dice). While its clock runs, the moment on the board's clock it
    runs out (`ends_at`)."""
    game = table.game
    view = tournament_json(status.tournament)
    if view is None:
        return None
    left = view["seconds_left"]
    running = not table.fault and table.menu is None and not game.over
    view["ends_at"] = round(table.now + float(left), 2) if running and isinstance(left, int | float) else None
    rolls = [a for a in game.log if isinstance(a, ClosingRoll)] if game.clock_out_round else []
    view["closing"] = {"count": len(rolls), "dice": list(rolls[-1].dice)} if rolls else None
    return view


def last_roll(game: Game) -> dict[str, Any] | None:
    """How many rolls the game has had, and the last one's battle: the territories and the armies each side lost
    (by the ruleset's dice; a fleet's handicap aside, as the dice panel shows them)."""
    rolls = 0
    last: Roll | None = None
    where: tuple[int, int] | None = None
    for action in reversed(game.log):
        if isinstance(action, Roll):
            rolls += 1
            last = last or action
        elif last is not None and where is None and isinstance(action, Attack | Blitz):
            where = (action.source, action.target)   # the attack (or blitz) the last roll belongs to
    if last is None or where is None:
        return None
    lost = battle_losses(last.attack, last.defend, DiceRule.of(game.rules))
    return {"count": rolls, "source": game.map.id(where[0]), "target": game.map.id(where[1]),
            "attack": sorted(last.attack, reverse=True), "defence": sorted(last.defend, reverse=True),
            "lost": list(lost)}


def _rolled(game: Game, roll: dict[str, Any] | None, battle: LastBattle | None,
            playing: bool = True) -> dict[str, Any] | None:
    """The last roll with its sides and whether it was rolled in this turn, from the battle the referee kept
    (`Referee.last_battle`: the defender is the seat that held the target when the dice were rolled). A position
    only shown (a replay) has none kept: the sides are then the territories' owners now. `shown`: every screen shows
    it as news (rolled in this turn of a game being played); one of an earlier turn is shown on none."""
    if roll is None:
        return None
    source, target = game.map.index(roll["source"]), game.map.index(roll["target"])
    defender: int | None
    if battle is not None and (battle.source, battle.target) == (source, target):
        attacker, defender, this_turn = battle.attacker, battle.defender, battle.turn == (game.turn, game.current)
    else:
        attacker = game.owner[source]
        defender = game.owner[target] if game.owner[target] != attacker else None
        this_turn = True
    roll.update(attacker=owner_name(game, attacker), defender=None if defender is None else owner_name(game, defender),
                conquered=game.owner[target] == attacker, this_turn=this_turn, shown=this_turn and playing)
    return roll


_LUCK: dict[tuple[Any, ...], dict[str, Any]] = {}


def luck_view(game: Game, hints: dict[int, int] | None = None) -> dict[str, Any] | None:
    """The luck report of a finished game (conquista.dice.luck), with each seat's mission revealed and the hints
    each seat asked for; None while it goes on. Computed once per game end: the views are rebuilt on every change."""
    if not game.over or not game.log or not isinstance(game.log[0], Deal):
        return None
    key = (id(game), len(game.log), tuple(sorted((hints or {}).items())))
    if key not in _LUCK:
        # Imported at a game's end: the dice audit behind it is not what the web app needs to start serving.
        from conquista.dice.luck import luck_report

        _LUCK.clear()
        report = luck_report(game, hints=hints)
        view = report.to_json()
        view["lines"] = report.lines()
        _LUCK[key] = view
    return _LUCK[key]


_STORY: dict[tuple[int, int], dict[str, Any] | None] = {}


def story_view(game: Game) -> dict[str, Any] | None:
    """The story of a finished game for the TV's end screen: each seat's territories at the start of every turn
    (and at the end), and who was eliminated by whom at which turn; found by replaying its actions once, at its end.
    None while it goes on, or for a position with no history (built from a snapshot)."""
    if not game.over or len(game.log) < 2 or not isinstance(game.log[0], Deal):
        return None
    key = (id(game), len(game.log))
    if key not in _STORY:
        _STORY.clear()
        fresh = Game(game.rules, game.map, game.players, game.log[0])
        turns: list[list[int]] = []      # [turn, territories of seat 0, 1, ...]
        out: list[dict[str, Any]] = []
        try:
            for action in game.log[1:]:
                before = list(fresh.eliminated)
                fresh.apply(action)
                if not turns or turns[-1][0] != fresh.turn:
                    turns.append([fresh.turn, *fresh.territory_count[:game.players]])
                for seat, gone in enumerate(fresh.eliminated):
                    if gone and not before[seat]:
                        by = fresh.eliminated_by[seat] if seat < len(fresh.eliminated_by) else None
                        out.append({"turn": fresh.turn, "seat": seat, "by": by if isinstance(by, int) else None})
        except IllegalActionError:
            _STORY[key] = None           # a position whose log is no history to tell
            return None
        turns.append([fresh.turn, *fresh.territory_count[:game.players]])
        _STORY[key] = {"turns": turns, "eliminated": out, "rounds": game.round, "last_turn": game.turn}
    return _STORY[key]


def mission_progress(game: Game, seat: int) -> dict[str, Any]:
    """The mission in words and how far the seat is (e.g. continents held of those needed)."""
    m = effective_mission(game, seat)
    text = mission_text(game.missions[seat], game.rules.colours)
    owner = game.owner
    if m.destroy_colour is not None:
        # The meter fills as the target loses territories: taken of the most it held at the deal (or now).
        left = game.territory_count[m.destroy_colour]
        target = game.rules.colours[m.destroy_colour]
        most = max(left, _dealt_count(game, m.destroy_colour))
        return {"text": text, "meters": [{"label": f"{target} territories taken ({left} left)",
                                          "have": most - left, "need": most}]}
    if m.territories:
        held = sum(1 for t in range(game.map.size) if owner[t] == seat and game.armies[t] >= m.min_armies)
        label = "territories held" + (f" with {m.min_armies}+ armies" if m.min_armies > 1 else "")
        if m.number >= 9:  # a destroy mission that cannot be met (the colour is yours, absent, or beaten by another)
            text = f"Conquer {m.territories} territories (your mission, “{text}”, can no longer be met)"
        return {"text": text, "meters": [{"label": label, "have": held, "need": m.territories}]}
    whole = {c.id for c in game.map.continents if all(owner[t] == seat for t in c.territories)}
    meters = []
    for cid in m.continents:
        continent = game.map.continent_by_id(cid)
        mine = sum(1 for t in continent.territories if owner[t] == seat)
        meters.append({"label": continent.name_en, "have": mine, "need": len(continent.territories)})
    if m.extra_continents:
        others = len(whole - set(m.continents))
        meters.append({"label": "another whole continent", "have": min(others, m.extra_continents),
                       "need": m.extra_continents})
    return {"text": text, "meters": meters}


_DEALT: dict[tuple[str, int, Deal], tuple[int, ...]] = {}


def _dealt_count(game: Game, seat: int) -> int:
    """How many territories `seat` held right after the deal (0 for a position without a deal)."""
    deal = game.log[0] if game.log else None
    if not isinstance(deal, Deal):
        return 0
    key = (game.rules.name, game.players, deal)
    if key not in _DEALT:
        if len(_DEALT) > 16:
            _DEALT.clear()
        _DEALT[key] = tuple(Game(game.rules, game.map, game.players, deal).territory_count)
    counts = _DEALT[key]
    return counts[seat] if seat < len(counts) else 0


def _card(game: Game, card: int) -> dict[str, Any]:
    if power_cards.is_power(card):  # lamorisse-1954: a figure or an eagle, no territory
        return {"card": card, "territory": power_cards.figure(card).capitalize(), "symbol": "power card"}
    name = game.map.territories[card].name_en if card < game.map.size else "Jolly"
    return {"card": card, "territory": name, "symbol": card_symbol(game.map, card)}


def _sets(game: Game, seat: int, trades: tuple[tuple[int, ...], ...]) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    if game.rules.card_deck is CardDeck.POWER:  # an eagle alone, or four different figures
        for cards in trades:
            kind = power_cards.trade_kind(cards)
            assert kind is not None
            out.append({"cards": list(cards), "kind": kind.replace("_", " "), "armies": game.power_value(cards)})
        out.sort(key=lambda s: -int(s["armies"]))
        return out
    for cards in trades:
        kind = set_kind(tuple(card_symbol(game.map, c) for c in cards))  # type: ignore[arg-type]
        assert kind is not None
        # trade_value counts the territory bonus for the player to move; others see what the set itself gives.
        armies = game.trade_value(cards) if seat == game.current else game.rules.set_value(kind, game.sets_traded)
        out.append({"cards": list(cards), "kind": kind.replace("_", " "), "armies": armies})
    out.sort(key=lambda s: -int(s["armies"]))  # the best first, as ROLL at the board would trade
    return out


def seat_view(table: TableView, seat: int, remote: bool = False) -> dict[str, Any]:
    """One player's private screen: mission, hand, sets, and the counts that matter for their move now. `remote`:
    the seat plays from the board page's map, away from the board."""
    game = table.game
    private = table.private(seat)
    phase = game.phase
    mine = game.to_move == seat
    view: dict[str, Any] = {
        "seat": seat,
        "colour": game.rules.colours[seat],
        # In the host's palette, as the public view draws this seat (the colour-blind one's screen colours).
        "rgb": screen_hex_in(game.rules.colours[seat], table.palette),
        "mark": mark(game.rules.colours[seat]),
        "mission": mission_progress(game, seat) if private.has_mission else None,
        "cards": [_card(game, c) for c in private.hand],
        "sets": _sets(game, seat, private.trades),
        "forced_trade": mine and game.must_trade(),
        "my_turn": mine,
        # "What would hard do?" may be asked now (the host allows hints, and the board waits for this seat).
        "hint_ready": private.may_ask_hint,
        # Acting for the neutral army (the duel): the armies it commands now are the neutral army's.
        "for_neutral": mine and game.neutral is not None and game.acting_owner() == game.neutral,
        # In the phone's words (conquista.web.phone_words): what to do now, or who plays.
        "pending": my_turn_words(table, remote) if mine else "",
        "waiting": "" if mine else waiting_words(table),
        # Only a refusal is shown as one (in refusal red); a notice (a seat granted, a time-out) is plain words.
        "refused": table.message if mine and table.message_kind is MessageKind.REFUSAL else "",
        "said": table.message if mine and table.message_kind is not MessageKind.REFUSAL else "",
        "to_place": game.pool if mine and phase in PLACING_PHASES else 0,
        "can_trade": mine and phase in (Phase.REINFORCE, Phase.ELIMINATION_TRADE) and bool(game.valid_trades()),
        "dice": None,
        "move_in": None,
        "odds": None,
        # The territories a tap may use now, by map id: where to place, the sources, or the selected source's
        # targets; a phone lists them so a small map need not be hit exactly.
        "legal": legal_taps(table) if mine else [],
        # The buttons that act now, each with its label (web/phone_buttons.py): the phone offers only these.
        "buttons": seat_buttons(table, seat),
        # The moment on the board's clock this seat's defence runs out (the board then rolls for it): a countdown.
        "defend_deadline": _moment(table.defend_deadline()) if mine else None,
    }
    if mine and phase in (Phase.ATTACK, Phase.NEUTRAL_ATTACK) and table.target >= 0:
        view["dice"] = {"attack": table.selection.count, "max": game.max_attack_dice(table.source)}
        view["odds"] = table.chance
    elif mine and phase is Phase.DEFEND:
        most = game.max_defend_dice(game.battle.target) if game.battle else 0
        view["dice"] = {"defend": table.defence, "max": most}
    elif mine and phase is Phase.OCCUPY:
        low, high = game.occupy_range()
        view["move_in"] = {"count": table.selection.count, "min": low, "max": high}
    if game.rules.fleets:
        _with_fleets(table, view, mine)
    return view


def legal_taps(table: TableView) -> list[str]:
    """The territories that a tap may use in the step now, from the game's legal actions."""
    game = table.game
    phase = game.phase
    found: set[int] = set()
    if phase in PLACING_PHASES:
        found = {a.territory for a in game.legal_actions() if isinstance(a, Place)}
    elif phase in (Phase.ATTACK, Phase.NEUTRAL_ATTACK, Phase.FORTIFY):
        moves = [a for a in game.legal_actions() if isinstance(a, (Attack, Fortify))]
        source = table.source
        if source >= 0 and table.target < 0:
            found = {a.target for a in moves if a.source == source}
        elif source < 0:
            found = {a.source for a in moves}
    return [game.map.id(t) for t in sorted(found)]


def _with_fleets(table: TableView, view: dict[str, Any], mine: bool) -> None:
    """A ruleset with fleets (lamorisse-1954): a long press on a territory places a fleet (`fleets`), and the counts
    to move say which units move (`units`: "armies" or "fleets"), the fortify move with its most (`move`)."""
    game = table.game
    view["fleets"] = True
    view["move"] = None
    battle = game.battle
    if view["move_in"] is not None and battle is not None:
        view["move_in"]["units"] = "fleets" if game.sails(battle.source, battle.target) else "armies"
    if mine and game.phase is Phase.FORTIFY and table.target >= 0:
        s, t = table.source, table.target
        view["move"] = {"count": table.selection.count, "max": game.movable(s, t),
                        "units": "fleets" if game.sails(s, t) else "armies"}


def host_view(table: TableView, seats: SeatState, *, players: int, paused: bool, can_set_up: bool = False,
              bot_kinds: Mapping[int, str] | None = None, saved: Sequence[SavedChoice] = ()) -> dict[str, Any]:
    """The set-up screen: a game (ruleset, players, which seats bots play and which bot, automatic defence,
    committed dice) or a saved game to resume, when the command line did not set one up; the dice, pause, remote
    seats."""
    rules = table.game.rules
    kinds = bot_kinds or {}
    return {
        "can_set_up": can_set_up,
        "rulesets": ruleset_choices() if can_set_up else [],
        "bot_names": list(BOT_NAMES) if can_set_up else [],
        "bot_levels": list(LEVELS) if can_set_up else [],   # what the host's form offers: easy, normal, hard
        "saved": [{"id": g.id, "rules": g.rules, "players": g.players, "turn": g.turn, "last_played": g.last_played,
                   "bots": len(bots_of(g.seats))} for g in saved] if can_set_up else [],
        "rules": rules.name,
        "players": players,
        "bots": sorted(seats.bots),
        "bot_kinds": {str(seat): kinds.get(seat, DEFAULT_BOT) for seat in sorted(seats.bots)},
        "switches": {"automatic defence": rules.automatic_defence, "tournament ending": rules.tournament_ending,
                     "physical dice": table.physical_dice,
                     "committed dice": table.dice_name == "committed"},
        "paused": paused,
        # A game is being played (not the set-up menu's stand-in, not over): starting another stops it.
        "playing": table.playing,
        "palette": table.palette.value,
        "palettes": [p.value for p in Palette],
        "menu": table.menu_view() if table.menu is not None else None,
        # A player leaving (docs/rules.md, "Table features"): who may still leave, and whether a bot can take a seat
        # instead.
        "may_leave": table.game.active_players() if rules.players_may_leave else [],
        "bot_takeover": table.bots_available,
        # Hints for a learner ("what would hard do?"): allowed for the table, and shown on the LEDs too.
        "hints": {"allowed": table.hints_allowed, "leds": table.hint_leds},
    }
