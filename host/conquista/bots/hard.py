"""The hard bot: the planner's way of playing, chosen a turn at a time by trying the turn out ahead.

At the start of each of its turns it imagines the game as its seat may know it (`seat_view`: the other players'
missions and cards and the deck made up afresh, never read), then plays the coming round out on that copy several
times: its own turn in each of a few ways of playing (`PLANS`: steady as the planner, bold, careful), the other
players' turns as the planner would play them, the dice rolled by its own generator. Each try ends when its next
turn would start (or the game ends) and is scored by how much of the table's strength it then holds (its armies and
the reinforcements it would get, against everyone's; a win counts as all of it, a loss as none). The way of playing
with the best average is played for the real turn. The same dice are used for every way of playing, so the
comparison is between the ways and not between lucky and unlucky rolls.

Within the turn the same trying-out weighs the planner's choices against a few others (`weigh`): where the turn's
reinforcements go in the duel (`hard_place`; a set-up placed in one go too, tried through everyone's first turn) and
each attack (`hard_attack`). The planner's choice is kept unless another is clearly better. Its fortify move is the
planner's: weighed the same way, it won 2 points more of 200 seeded duels (± 6) for a tenth more thinking.

Everything is decided from the position and what the seat may know: the copies' made-up parts and the dice come from
a generator seeded with public facts (the turn, the seat, the armies on the board), so the same position always
gives the same choice. Each decision has a hard cap (`ROLLOUT_ACTIONS` steps per try), so no turn hangs.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from conquista.bots.hard_attack import Weighed, candidates, stalling, tries_within, weigh
from conquista.bots.hard_place import placements
from conquista.bots.hard_rules import break_attack, card_armies, card_attack, moves_back
from conquista.bots.lookahead import clear_gain, play_round, public_seed, strength_share
from conquista.bots.planner import PlannerBot
from conquista.bots.planner_values import Objective, objective_for
from conquista.bots.seat_view import seat_view
from conquista.dice.sources import SeededDice
from conquista.rules.actions import Action, Attack, Blitz, EndPhase, Place
from conquista.rules.engine import Game
from conquista.rules.events import Phase

ROLLOUTS = 4              # tries of the coming round per way of playing (8 took 0.44 s CPU a turn, issue 38)
ROLLOUT_ACTIONS = 800     # the most steps one try plays (a round of 6 players is about 250)
# The most game steps all the tries of one turn may play, told in steps and not in time (the bots read no clock):
# its turn plan's, its reinforcements' and its attacks'. A step of a try costs 38-60 µs CPU on the benchmark
# machine (the more the busier it is), so 8000 steps keep the worst turn under 0.5 s there (issue 38; before the
# budget, a duel's turn with a long round ran to 11900 steps and 0.45 s; at 10000 the worst was 0.55 s, busy). The
# turn plan may use 5/8 of it (fewer tries of a long round); the reinforcements, weighed in the duel, half of what
# is left; the attacks the rest, each attack weighed only while its tries fit (then the planner's choice). Earlier,
# against the planner 1 against 1 on seeds the benchmark does not use: 45 of 100 games won with 5000 attack steps a
# turn, 55 with 20000.
TURN_STEPS = 8000
# Tries of everyone's first turn for each placement of a set-up placed in one go (the classic game's): in the duel on
# seeds the benchmark does not use, 119 of 200 games won with it against 102 without; with the reinforcements weighed
# too, 134 of 200.
SETUP_ROLLOUTS = 8
# Tries of the round ahead for each placement weighed at the start of a turn, in the duel only: against the planner,
# 1 against 1 on seeds the benchmark does not use, 124 of 200 games won with it against 102 without (the same deals,
# seats swapped). With four players a round is four turns long: weighing them too took the thinking to 0.26 s a turn.
PLACE_ROLLOUTS = 8
PLACE_PLAYERS = 2         # the most players for which the reinforcements are weighed


@dataclass(frozen=True)
class Plan:
    """A way of playing a turn: the planner with an army lost costing `loss` times more and a territory taken
    worth `worth` times more."""

    name: str
    words: str      # how a player would say it
    loss: float
    worth: float


PLANS = (Plan("steady", "steadily", 1.0, 1.0), Plan("bold", "boldly", 0.6, 1.4),
         Plan("careful", "carefully", 1.6, 0.7), Plan("all-out", "all out", 0.35, 2.0),
         Plan("holding", "holding back", 3.0, 0.5))
# The ways tried once the table stalls (`hard_attack.stalling`): none that waits. Scored a round ahead, carefully and
# holding back win whenever an exchange of armies costs more than the territory it takes, so four hard bots
# turtled: in one game of the benchmark's deals hard held back 81 turns of 146. Among planners, who fight each
# other, waiting is what wins: 1 hard against 3 planners, 40 italian games on seeds the benchmark does not use, 16
# won with the five ways, 13 with these three.
STALLED_PLANS = (PLANS[0], PLANS[1], PLANS[3])


@dataclass(frozen=True)
class Choice:
    """The way of playing chosen for a turn, with the average share of strength each way reached."""

    plan: Plan
    scores: tuple[tuple[Plan, float], ...]
    tries: int
    steps: int      # the game steps its tries played, all told (at most tries × plans × the cap)

    def words(self, attacking: bool = True) -> str:
        """The tries and the choice in words; `attacking`: the turn attacks (a bold way of playing that finds no
        attack worth making is not said to be played)."""
        scores = dict(self.scores)
        steady, best = scores[PLANS[0]], scores[self.plan]
        others = ", ".join(f"{p.words} {s:.1%}" for p, s in self.scores if p is not self.plan)
        said = (f"tried the round ahead {self.tries} times each way: playing {self.plan.words} it keeps "
                f"{best:.1%} of the table's strength ({others})")
        if self.plan is not PLANS[0]:
            why = (f"{(best - steady) * 100:.1f} points more than steadily, more than the dice's spread over the "
                   "same tries")
            if not attacking:
                return f"{said}; playing {self.plan.words} did best ({why}), but no attack is worth making now"
            return f"{said}; it plays {self.plan.words}: {why}"
        rival, score = max(((p, s) for p, s in self.scores if p is not self.plan), key=lambda ps: ps[1])
        if round(score, 3) > round(steady, 3):   # "kept more" only where the shares said show it
            return (f"{said}; {rival.words} kept more on average, but by less than the dice's spread over the same "
                    "tries: it plays steadily")
        return f"{said}; it plays steadily: no other way did better"


def choose_plan(game: Game, me: int, rollouts: int = ROLLOUTS, cap: int = ROLLOUT_ACTIONS,
                budget: int | None = None) -> Choice:
    """The way of playing whose tries of the coming round end with the most strength on average (of `PLANS`, or
    `STALLED_PLANS` once the table stalls); with a `budget` (steps, all tries told) a long round is tried fewer
    times (`tries_within`, from the first try's length)."""
    plans = STALLED_PLANS if stalling(game) else PLANS
    rng = random.Random(public_seed(game, me))
    views = [seat_view(game, me, rng) for _ in range(rollouts)]
    seeds = [rng.random() for _ in range(rollouts)]
    others = PlannerBot()
    objective = objective_for(game, me)
    scores: list[list[float]] = []
    steps = 0
    for plan in plans:
        bots = dict.fromkeys(range(game.players), others)
        bots[me] = PlannerBot(plan.loss, plan.worth)
        tries: list[float] = []
        while len(tries) < rollouts:
            copy = views[len(tries)].clone()
            steps += play_round(copy, me, bots, SeededDice(rng=random.Random(seeds[len(tries)])), cap)
            tries.append(strength_share(copy, me, objective))
            if not scores and len(tries) == 1:
                rollouts = tries_within(budget, steps, len(plans), rollouts)
        scores.append(tries)
    best = max(range(len(plans)), key=lambda i: (clear_gain(scores[0], scores[i]), -i))
    totals = tuple((plan, sum(tries) / rollouts) for plan, tries in zip(plans, scores, strict=True))
    return Choice(plans[best], totals, rollouts, steps)


def _attacking(game: Game, action: Attack | Blitz) -> str:
    name = game.map.territories
    return f"attacking {name[action.target].name_en} from {name[action.source].name_en}"


def attack_words(game: Game, weighed: Weighed) -> str:
    """Why the tries changed the planner's attack, in words."""
    scores = dict(weighed.scores)

    def said(action: Action) -> str:
        return _attacking(game, action) if isinstance(action, Blitz | Attack) else "stopping here"

    return (f"tried its next attack: {said(weighed.action)} keeps {scores[weighed.action]:.0%} of the table's "
            f"strength, {said(weighed.planned)} {scores[weighed.planned]:.0%}")


def shared(rollouts: int, game: Game) -> int:
    """The tries of a decision with more players, whose rounds are longer: `2 / players` of them, at least 2 (as the
    attacks' budget), so a turn's thinking stays about the same."""
    return max(2, rollouts * 2 // max(2, game.players))


def untouched(game: Game, me: int) -> bool:
    """Nothing of the seat's set-up placed yet: one army on each of its territories."""
    return all(armies == 1 for t, armies in enumerate(game.armies) if game.owner[t] == me)


def place_words(game: Game, weighed: Weighed) -> str:
    """Why the tries changed the planner's placement, in words."""
    scores = dict(weighed.scores)
    action = weighed.action
    assert isinstance(action, Place)   # placements() offers placements only
    name = game.map.territories[action.territory].name_en
    return (f"tried where to place its {action.count} armies: all on {name} keeps {scores[action]:.0%} of the "
            f"table's strength, placing as usual {scores[weighed.planned]:.0%}")


class HardBot:
    def __init__(self, rollouts: int = ROLLOUTS, cap: int = ROLLOUT_ACTIONS, turn_steps: int = TURN_STEPS,
                 place_rollouts: int = PLACE_ROLLOUTS, setup_rollouts: int = SETUP_ROLLOUTS) -> None:
        self.rollouts, self.cap, self.turn_steps = rollouts, cap, turn_steps
        self.place_rollouts, self.setup_rollouts = place_rollouts, setup_rollouts
        self._placed = False       # this turn's first placement has been weighed
        self._steady = PlannerBot()
        self._turn: tuple[int, int, int] | None = None   # (game, turn, seat) the choice below is for
        self._choice: Choice | None = None
        self._bot = self._steady
        self._reason: str | None = None
        self._objective: Objective | None = None
        self.attack_steps = 0      # steps the attacks of this turn have tried so far
        self._place_steps = 0      # ... and its reinforcements
        self._attack_limit = turn_steps   # what the turn plan and the reinforcements left of the turn's steps
        self._try_steps = 1        # the steps of one try this turn (the turn plan's, then the last attack's)
        self._conquered_from: dict[int, int] = {}   # this turn's conquests: territory → where the attack came from
        self._plan_unsaid = False  # a way of playing other than steadily, said once the turn attacks (or not)

    def choose(self, game: Game) -> Action:
        phase = game.phase
        if phase is Phase.DEFEND or game.players < 2 or (
                game.neutral is not None and game.acting_owner() == game.neutral):
            return self._steady.choose(game)
        if phase is Phase.SETUP:
            return self._setup(game)
        me = game.current
        key = (id(game), game.turn, me)
        if key != self._turn:
            self._start_turn(game, me, key)
        if phase is Phase.ATTACK:
            return self._attack_turn(game, me)
        action = self._bot.choose(game)
        if phase is Phase.OCCUPY and game.battle is not None:
            self._conquered_from[game.battle.target] = game.battle.source
        elif phase is Phase.FORTIFY and moves_back(action, self._conquered_from):
            return EndPhase()   # the move-in undone: the armies were better left where they stood
        if (phase is Phase.REINFORCE and not self._placed and isinstance(action, Place) and self.place_rollouts
                and game.players <= PLACE_PLAYERS and not game.rules.fleets):
            self._placed = True
            return self._place(game, me, action)
        return action

    def _start_turn(self, game: Game, me: int, key: tuple[int, int, int]) -> None:
        self._turn = key
        self._choice = choose_plan(game, me, self.rollouts, self.cap, self.turn_steps * 5 // 8)
        plan = self._choice.plan
        self._bot = PlannerBot(plan.loss, plan.worth)
        self._plan_unsaid = plan is not PLANS[0]
        self._reason = None if self._plan_unsaid else f"{game.rules.colours[me]} {self._choice.words()}"
        self._objective = objective_for(game, me)
        self.attack_steps = 0
        self._place_steps = 0
        self._placed = False
        self._attack_limit = self.turn_steps - self._choice.steps
        self._try_steps = max(1, self._choice.steps // (self._choice.tries * len(self._choice.scores)))
        self._conquered_from = {}

    def _attack_turn(self, game: Game, me: int) -> Action:
        """A continent broken first, then the tries' attack (the planner's once the budget is spent), then, rather
        than stop, the attack that takes the turn's card (`hard_rules`)."""
        action = break_attack(game, me)
        if action is not None:
            self._say_rule(game, me, action, "breaks a continent before its bonus is paid")
        else:
            action = self._attack(game, me)
            if isinstance(action, EndPhase):
                card = card_attack(game, me)
                if card is not None:
                    action = card
                    self._say_rule(game, me, action, f"takes the turn's card (worth {card_armies(game):.0f} "
                                   "armies) rather than stop")
        if self._plan_unsaid and self._choice is not None:
            self._plan_unsaid = False
            self._say(game, me, self._choice.words(attacking=not isinstance(action, EndPhase)))
        return action

    def _say_rule(self, game: Game, me: int, action: Action, why: str) -> None:
        if isinstance(action, Attack | Blitz):
            self._say(game, me, f"{why}: {_attacking(game, action)}")

    def _setup(self, game: Game) -> Action:
        """A set-up placed in one go (the classic game's) is weighed as a turn's reinforcements are, each try played
        on through the first turn of each seat; a set-up placed a few armies at a time is the planner's."""
        action = self._steady.choose(game)
        me = game.current
        if (not self.setup_rollouts or game.rules.initial_placement_batch or game.rules.fleets
                or not isinstance(action, Place) or not untouched(game, me)):
            return action
        choices = placements(game, me, self._steady, action)
        if len(choices) < 2:
            return action
        bots = dict.fromkeys(range(game.players), self._steady)
        weighed = weigh(game, me, choices, bots, objective_for(game, me), shared(self.setup_rollouts, game), self.cap,
                        "setup", 2, self.turn_steps)
        if weighed.action != weighed.planned:
            self._say(game, me, place_words(game, weighed))
        return weighed.action

    def _place(self, game: Game, me: int, planned: Place) -> Action:
        choices = placements(game, me, self._bot, planned)
        if len(choices) < 2:
            return planned
        bots = dict.fromkeys(range(game.players), self._steady)
        bots[me] = self._bot
        assert self._objective is not None   # set with the turn's plan
        weighed = weigh(game, me, choices, bots, self._objective, shared(self.place_rollouts, game), self.cap,
                        "place", budget=self._attack_limit // 2)
        self._attack_limit -= weighed.steps
        self._place_steps = weighed.steps
        if weighed.action != weighed.planned:
            self._say(game, me, place_words(game, weighed))
        return weighed.action

    def _attack(self, game: Game, me: int) -> Action:
        """The tries' attack while two tries of each candidate fit in what is left of the turn's steps (tries as
        long as the last ones), else the planner's."""
        choices = candidates(game, me, self._bot)
        if len(choices) < 2:
            return choices[0]
        left = self._attack_limit - self.attack_steps
        if left < len(choices) * 2 * self._try_steps:
            return choices[0]
        bots = dict.fromkeys(range(game.players), self._steady)
        bots[me] = self._bot
        assert self._objective is not None   # set with the turn's plan
        tries = max(2, self.rollouts // 2)
        weighed = weigh(game, me, choices, bots, self._objective, tries, self.cap, budget=left)
        self.attack_steps += weighed.steps
        self._try_steps = max(1, weighed.steps // (len(choices) * weighed.tries))
        if weighed.action != weighed.planned:
            self._say(game, me, attack_words(game, weighed))
        return weighed.action

    def _say(self, game: Game, me: int, words: str) -> None:
        """Adds why it changed the planner's choice to what it has still to say (its turn plan, said at the same
        decision, is kept)."""
        if self._reason is None:
            self._reason = f"{game.rules.colours[me]} {words}"
        else:
            self._reason = f"{self._reason}; then it {words}"

    @property
    def turn_steps_used(self) -> int:
        """The steps all the tries of the current turn have played so far (its plan's, reinforcements', attacks')."""
        plan = self._choice.steps if self._choice is not None else 0
        return plan + self._place_steps + self.attack_steps

    @property
    def choice(self) -> Choice | None:
        """The way of playing chosen for the current turn (None before its first turn)."""
        return self._choice

    def take_reason(self) -> str | None:
        """Why it plays this turn as it does, in words, once per turn (for the table's log)."""
        reason, self._reason = self._reason, None
        return reason
