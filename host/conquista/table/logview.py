"""A game's log in words, for `make run`, `simulate --show-log` and `replay`."""

from __future__ import annotations

from collections.abc import Iterator

from conquista.rules.actions import Action, Deal
from conquista.rules.engine import Game
from conquista.rules.events import (
    ArmiesMoved,
    ArmiesPlaced,
    BattleRolled,
    CardDrawn,
    CardsTraded,
    ClosingRolled,
    DeckReshuffled,
    Event,
    GameOver,
    NeutralArmyDefeated,
    NeutralReinforcements,
    NeutralStepsEnded,
    Phase,
    PhaseStarted,
    PlayerEliminated,
    PlayerLeft,
    TerritoryConquered,
    TerritoryDealt,
    TieBreakRound,
    TournamentClockOut,
    TurnStarted,
    TurnTimedOut,
)
from conquista.rules.fleet_battle import fleet_handicaps
from conquista.rules.missions import MISSIONS, Mission, effective_mission, mission_text
from conquista.table.wording import owner_name, phase_words, plural, set_words


def describe_event(game: Game, event: Event) -> str | None:
    name = game.map.territories

    def who(owner: int) -> str:
        return owner_name(game, owner)

    match event:
        case TurnStarted(p, turn, rnd, armies):
            return f"— turn {turn} (round {rnd}): {who(p)} receives {plural(armies, 'army')}"
        case ArmiesPlaced(p, t, c, fleet):
            return f"  {who(p)} places {plural(c, 'fleet' if fleet else 'army')} on {name[t].name_en}"
        case CardsTraded(p, cards, kind, armies, bonus):
            # The pool grows by the set's value and the territory bonus: say both, or the sum looks wrong.
            gain = f"{armies} + {bonus} territory bonus = {plural(armies + bonus, 'army')}" if bonus \
                else plural(armies, "army")
            return f"  {who(p)} trades {set_words(kind)} for {gain}"
        case BattleRolled(s, t, a, d, al, dl, af, df) if af or df:
            return _fleet_battle(game, event)
        case BattleRolled(s, t, a, d, al, dl):
            return f"  {name[s].name_en} attacks {name[t].name_en}: {_dice(a)} vs {_dice(d)} → {_result(al, dl)}"
        case TerritoryConquered(t, _s, p, previous, _moved):
            # How many armies move in is the next line (the occupation's ArmiesMoved counts them all).
            return f"  {who(p)} conquers {name[t].name_en} from {who(previous)}"
        case PlayerEliminated(p, by, cards):
            return f"  {who(p)} is eliminated by {who(by)}, who takes {plural(cards, 'card')}"
        case ArmiesMoved(s, t, c):
            how = (f"{plural(c, 'fleet')} sail{'s' if c == 1 else ''}" if game.sails(s, t)
                   else f"{plural(c, 'army')} move{'s' if c == 1 else ''}")
            return f"  {how} from {name[s].name_en} to {name[t].name_en}"
        case CardDrawn(p, _c):
            return f"  {who(p)} draws a card"
        case DeckReshuffled(n):
            return f"  the deck is reshuffled: {plural(n, 'card')}"
        case PhaseStarted(p, Phase.NEUTRAL_ATTACK):
            return f"  {who(p)} acts for the neutral army: its attacks"
        case PhaseStarted(p, phase):
            return f"  {who(p)}: {phase_words(phase.value)}"
        case NeutralReinforcements(p, armies):
            return f"  the neutral army receives {plural(armies, 'army')}, placed by {who(p)}"
        case NeutralArmyDefeated(p):
            return f"  {who(p)} takes the neutral army's last territory: a plain duel from now on"
        case GameOver(p, reason):
            return f"*** {who(p)} wins: {game_over_reason(game, p, reason)}"
        case PlayerLeft(p):
            return f"  {who(p)} leaves the game: their armies stay and only defend"
        case TurnTimedOut(p):
            return f"  {who(p)}'s time is up: the turn passes"
        case TournamentClockOut(rnd):
            return f"  the tournament clock runs out: round {rnd} is the second-to-last, round {rnd + 1} the last"
        case ClosingRolled(p, dice, number, ends):
            verdict = "the game ends" if ends else "the game goes on"
            return f"  closing roll after {who(p)}'s turn: {_dice(dice)} against {number}: {verdict}"
        case TieBreakRound(players):
            return "  a tie on points and armies: one more round for " + ", ".join(who(p) for p in players)
        case NeutralStepsEnded(p, timed_out):
            return (f"  {who(p)}'s time for the neutral army is up: its steps end" if timed_out
                    else f"  {who(p)} has left: the neutral army plays no step for them")
        case TerritoryDealt(p, t):
            return f"  {who(p)} is dealt {name[t].name_en}, with 1 army"


def game_over_reason(game: Game, seat: int, reason: str) -> str:
    """The engine's reason ("mission 10") in words: the winner's mission is no secret once the game is over."""
    if game.missions and reason.startswith("mission"):
        return f"mission complete, {mission_as_it_stands(game, seat)}"
    return reason


def _dice(values: tuple[int, ...], handicap: int = 0) -> str:
    """Highest first, as the dice panel shows them and as they are compared (dice typed in come in any order)."""
    return " ".join(str(v) for v in sorted(values, reverse=True)) + (f" (−{handicap})" if handicap else "")


def _result(attacker_losses: int, defender_losses: int) -> str:
    if not attacker_losses and not defender_losses:
        return "a tie, rolled again"
    return f"attacker −{attacker_losses}, defender −{defender_losses}"


def _fleet_battle(game: Game, event: BattleRolled) -> str:
    """A battle with a fleet on either side (lamorisse-1954): "red's fleet in Alaska attacks Kamchatka"; a fleet's
    die that counts less against an army shows its handicap ("6 (−2) vs 5")."""
    name = game.map.territories
    s, t = event.source, event.target
    attacker = f"{owner_name(game, game.owner[s])}'s fleet in {name[s].name_en}" if event.attack_fleet \
        else name[s].name_en
    defender = f"the fleet in {name[t].name_en}" if event.defend_fleet else name[t].name_en
    attack_handicap, defence_handicap = fleet_handicaps(game.rules, event.attack_fleet, event.defend_fleet)
    return (f"  {attacker} attacks {defender}: {_dice(event.attack, attack_handicap)} vs "
            f"{_dice(event.defend, defence_handicap)} → {_result(event.attacker_losses, event.defender_losses)}")


def describe_game(game: Game, *, reveal: bool = True) -> Iterator[str]:
    """Replay `game`'s log and describe every event (the game itself is not changed); `reveal=False` leaves out
    the secret missions."""
    deal = game.log[0]
    assert isinstance(deal, Deal)
    fresh = Game(game.rules, game.map, game.players, deal)
    yield f"{game.rules.name}, {game.players} players: " + ", ".join(
        f"{owner_name(fresh, p)} {fresh.territory_count[p]} territories" for p in range(len(fresh.territory_count)))
    if fresh.missions and reveal:
        for p in range(game.players):
            yield f"  secret mission of {game.rules.colours[p]}: {mission_as_it_stands(fresh, p)}"
    actions: list[Action] = game.log[1:]
    for action in actions:
        for event in fresh.apply(action):
            line = describe_event(fresh, event)
            if line:
                yield line
    if not fresh.over:
        yield f"game not finished: turn {fresh.turn}, {phase_words(fresh.phase.value)}"


def mission_as_it_stands(game: Game, seat: int) -> str:
    """A seat's mission in words; a destroy mission that cannot be met reads as its fallback territory count."""
    dealt = MISSIONS[game.missions[seat]]
    mission = effective_mission(game, seat)
    if dealt.destroy_colour is not None and mission.destroy_colour is None:
        target = game.rules.colours[dealt.destroy_colour]
        return f"Conquer {mission.territories} territories (instead of destroying {target}: " \
               f"{_why_not(game, seat, dealt)})"
    return mission_text(dealt.number, game.rules.colours)


def _why_not(game: Game, seat: int, dealt: Mission) -> str:
    target = dealt.destroy_colour
    assert target is not None
    if target == seat:
        return "that is its own colour"
    if target >= game.players:
        return "that colour is not in play"
    return "another player destroyed it"
