"""`conquista odds`: exact blitz odds for one attack, or the N×N table of conquest chances (and its heatmap); in a
ruleset with fleets, of a battle between a fleet and an army (`--attacker fleet`, `--defender fleet`)."""

from __future__ import annotations

import argparse
import json
import sys
from fractions import Fraction
from pathlib import Path
from typing import Any

from conquista.errors import ConquistaError
from conquista.rules.battle import HANDICAP_RANGE, DiceRule
from conquista.rules.choices import FleetHandicap, Ties
from conquista.rules.fleet_battle import battle_rule
from conquista.rules.odds import BattleOdds, blitz_odds, odds_table, roll_odds
from conquista.rules.ruleset import Ruleset
from conquista.rules.rulesets import RANGES, SHIPPED_RULESETS, load_ruleset

# Survivor counts less likely than this are left out of the text listing (--json lists them all).
LISTING_FLOOR = 0.005
UNITS = ("army", "fleet")
# Beyond these the answer takes more than a few seconds (exact fractions grow huge); no board holds that many.
MAX_ARMIES = 1000
MAX_ARMIES_EXACT = 300
MAX_TABLE = 200
MAX_TABLE_EXACT = 100


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = subparsers.add_parser(
        "odds", help="chance that a blitz conquers, survivors and expected losses; or the N×N table",
        description="ATTACKING counts every army on the attacking territory, including the one that must stay "
                    "behind. The defender rolls the maximum dice (automatic defence). In a ruleset with fleets "
                    "(lamorisse-1954), --attacker fleet and --defender fleet ask for a battle of fleets: a fleet's "
                    "die counts the ruleset's fleet_die_handicap less against an army.")
    p.add_argument("attacking", nargs="?", type=int, metavar="ATTACKING",
                   help="armies on the attacking territory (including the one that stays behind)")
    p.add_argument("defending", nargs="?", type=int, metavar="DEFENDING", help="armies on the target")
    p.add_argument("--rules", default="italian",
                   help=f"ruleset: {', '.join(SHIPPED_RULESETS)}, or a .toml file of your own (default: italian)")
    p.add_argument("--stop-at", type=int, default=1, metavar="K",
                   help="stop the blitz when the attacking territory is down to K armies (default: 1)")
    p.add_argument("--exact", action="store_true", help="exact fractions instead of floats")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument("--table", type=int, metavar="N",
                   help="print the N×N table of conquest chances (ATTACKING and DEFENDING 1..N)")
    p.add_argument("--plot", metavar="FILE.png", help="with --table: draw the table as a heatmap picture")
    for side, whose in (("attacker", "attacking territory"), ("defender", "target")):
        p.add_argument(f"--{side}", choices=UNITS, default="army",
                       help=f"the units of the {whose}: armies (default) or, in a ruleset with fleets, fleets")
    _register_dice_rule(p)
    p.set_defaults(handler=run)


# The battle-rule options: (option, ruleset parameter, range); each overrides the ruleset's own value.
_DICE_OPTIONS = (("--attack-dice", "attacker_dice_max", RANGES["attacker_dice_max"]),
                 ("--defence-dice", "defender_dice_max", RANGES["defender_dice_max"]),
                 ("--attack-handicap", "attack_die_handicap", HANDICAP_RANGE),
                 ("--defence-handicap", "defence_die_handicap", HANDICAP_RANGE))


def _register_dice_rule(p: argparse.ArgumentParser) -> None:
    p.add_argument("--ties", choices=[t.value for t in Ties],
                   help="who a tied pair of dice goes to: the defender, or nobody (reroll: rolled again); "
                        "default: the ruleset's")
    helps = ("most attack dice", "most defence dice", "each attack die counts N less (a fleet: --attacker fleet)",
             "each defence die counts N less")
    for (option, _name, (low, high)), text in zip(_DICE_OPTIONS, helps, strict=True):
        p.add_argument(option, type=int, metavar="N", help=f"{text}, {low}..{high}; default: the ruleset's")


def _dice_overrides(args: argparse.Namespace) -> dict[str, Any]:
    """The ruleset parameters the battle-rule options set, each checked against its range."""
    overrides: dict[str, Any] = {}
    if args.ties is not None:
        overrides["ties"] = args.ties
    for option, name, (low, high) in _DICE_OPTIONS:
        value = getattr(args, option[2:].replace("-", "_"))
        if value is None:
            continue
        if not low <= value <= high:
            raise ConquistaError(f"{option} must be {low} to {high}, not {value}")
        overrides[name] = value
    return overrides


def _rule_note(rule: DiceRule) -> str:
    """The battle rule in words when it is not the standard tie rule with no handicap."""
    notes = ["ties re-rolled"] if rule.ties is Ties.REROLL else []
    notes += [f"each {side} die counts {n} less" for side, n in
              (("attack", rule.attack_die_handicap), ("defence", rule.defence_die_handicap)) if n]
    return f" ({', '.join(notes)})" if notes else ""


def _battle(args: argparse.Namespace, rules: Ruleset) -> tuple[DiceRule, str]:
    """The dice rule of the battle asked for, and its units in words ("" for armies on both sides): a fleet's
    handicap comes from the ruleset (`fleet_battle.battle_rule`)."""
    attack_fleet, defend_fleet = args.attacker == "fleet", args.defender == "fleet"
    if not attack_fleet and not defend_fleet:
        return DiceRule.of(rules), ""
    if not rules.fleets:
        which = "--attacker fleet" if attack_fleet else "--defender fleet"
        raise ConquistaError(f"{which}: ruleset {rules.name} has no fleets (fleets = false); ask a ruleset with "
                             f"fleets, e.g. --rules lamorisse-1954")
    words = f"{'a fleet' if attack_fleet else 'an army'} attacking {'a fleet' if defend_fleet else 'an army'}"
    if attack_fleet != defend_fleet:
        handicap = rules.fleet_handicap is FleetHandicap.EVERY_BATTLE or attack_fleet
        words += (f": the fleet's die counts {rules.fleet_die_handicap} less" if handicap and
                  rules.fleet_die_handicap else ": no handicap (only an attacking fleet's die counts less)")
    return battle_rule(rules, attack_fleet, defend_fleet), words


def run(args: argparse.Namespace) -> int:
    rules = load_ruleset(args.rules, _dice_overrides(args) or None)
    rule, units = _battle(args, rules)
    if args.stop_at < 1:
        raise ConquistaError(f"--stop-at must be at least 1 (one army always stays behind), not {args.stop_at}")
    if args.table is not None:
        if args.attacking is not None:
            raise ConquistaError("give either ATTACKING DEFENDING or --table N, not both")
        return _run_table(args, rules, rule, units)
    if args.plot:
        raise ConquistaError("--plot draws the table: use it with --table N")
    if args.attacking is None or args.defending is None:
        raise ConquistaError("give ATTACKING and DEFENDING (e.g. `conquista odds 10 6`), or --table N")
    cap = MAX_ARMIES_EXACT if args.exact else MAX_ARMIES
    if not 1 <= args.attacking <= cap:
        raise ConquistaError(f"ATTACKING counts the armies on a territory, at least 1 and at most {cap}"
                             f"{_exact_note(args.exact)}, "
                             f"not {args.attacking}")
    if not 0 <= args.defending <= cap:
        raise ConquistaError(f"DEFENDING must be 0 or more and at most {cap}{_exact_note(args.exact)}, "
                             f"not {args.defending}")
    if args.stop_at > args.attacking:
        raise ConquistaError(f"--stop-at {args.stop_at} is more than the {args.attacking} attacking armies: "
                             f"there would be no battle; give --stop-at 1..{args.attacking}")
    odds = blitz_odds(rule, args.attacking, args.defending, args.stop_at, exact=args.exact)
    if args.json:
        print(json.dumps(_odds_json(rules, rule, (args.attacker, args.defender), odds, args.exact), indent=2))
    else:
        _print_odds(rules, rule, units, odds, args.exact)
    return 0


def _exact_note(exact: bool) -> str:
    return " with --exact" if exact else ""


def _plot_path(text: str) -> Path:
    """Where --plot writes: refuses a directory, and adds .png when no picture format is named."""
    path = Path(text)
    if path.is_dir():
        raise ConquistaError(f"--plot {text} is a directory; give a picture file, e.g. --plot {path / 'odds.png'}")
    if not path.suffix:
        # matplotlib would add .png itself; choosing it here lets the message name the file really written.
        path = path.with_name(path.name + ".png")
    if not path.parent.is_dir():
        raise ConquistaError(f"--plot {text}: the directory {path.parent} does not exist; create it or give "
                             "another path")
    return path


def _number(value: float | Fraction, exact: bool) -> str:
    if exact and isinstance(value, Fraction):
        return f"{value} (≈ {float(value):.6f})"
    return f"{float(value):.4f}"


def _odds_json(rules: Ruleset, rule: DiceRule, units: tuple[str, str], odds: BattleOdds[float] | BattleOdds[Fraction],
               exact: bool) -> dict[str, Any]:
    out: dict[str, Any] = {
        "ruleset": rules.name,
        "attacker": units[0],
        "defender": units[1],
        "attacking": odds.attacking,
        "defending": odds.defending,
        "stop_at": odds.stop_at,
        "attacker_wins": float(odds.attacker_wins),
        "expected_attacker_losses": float(odds.expected_attacker_losses),
        "expected_defender_losses": float(odds.expected_defender_losses),
        "ties": rule.ties.value,
        "attack_die_handicap": rule.attack_die_handicap,
        "defence_die_handicap": rule.defence_die_handicap,
        "attacker_survivors": {str(k): float(v) for k, v in odds.attacker_survivors.items()},
        "defender_survivors": {str(k): float(v) for k, v in odds.defender_survivors.items()},
    }
    first = _first_roll(rule, odds)
    if first:
        out["first_roll"] = {f"{la},{ld}": float(p) for (la, ld), p in first.items()}
    if exact:
        if first:
            out["first_roll_exact"] = {f"{la},{ld}": str(p) for (la, ld), p in first.items()}
        out["attacker_wins_exact"] = str(odds.attacker_wins)
        out["expected_attacker_losses_exact"] = str(odds.expected_attacker_losses)
        out["expected_defender_losses_exact"] = str(odds.expected_defender_losses)
        out["attacker_survivors_exact"] = {str(k): str(v) for k, v in odds.attacker_survivors.items()}
        out["defender_survivors_exact"] = {str(k): str(v) for k, v in odds.defender_survivors.items()}
    return out


def _first_roll(rule: DiceRule, odds: BattleOdds[float] | BattleOdds[Fraction]) -> dict[tuple[int, int], Fraction]:
    """Exact outcomes (attacker losses, defender losses) of the blitz's first roll; empty when nothing is rolled.
    Under ties re-rolled, the outcome the roll ends with once no pair ties."""
    if odds.defending < 1 or odds.attacking <= odds.stop_at or odds.attacking < 2:
        return {}
    return dict(roll_odds(rule.attack_dice(odds.attacking), rule.defend_dice(odds.defending), exact=True, rule=rule))


def _print_odds(rules: Ruleset, rule: DiceRule, units: str, odds: BattleOdds[float] | BattleOdds[Fraction],
                exact: bool) -> None:
    a, d, k = odds.attacking, odds.defending, odds.stop_at
    battle = f"{rules.name}, {units}" if units else rules.name
    print(f"{battle}: {a} attacking ({max(0, a - 1)} may fight) against {d} defending, "
          f"attacker rolls up to {rule.attacker_dice_max} dice, defender up to {rule.defender_dice_max}"
          f"{_rule_note(rule)}; blitz stops at {k} {'army' if k == 1 else 'armies'}")
    first = _first_roll(rule, odds)
    if first:
        print("first roll            " + ", ".join(
            f"attacker −{la} defender −{ld}: {float(p) * 100:.2f} %" + (f" = {p}" if exact else "")
            for (la, ld), p in first.items()))
    wins = odds.attacker_wins
    print(f"conquest              {float(wins) * 100:6.2f} %" + (f"   = {wins}" if exact else ""))
    print(f"expected losses       attacker {_number(odds.expected_attacker_losses, exact)}, "
          f"defender {_number(odds.expected_defender_losses, exact)}")
    for title, survivors in (("attacking territory (before moving in)", odds.attacker_survivors),
                             ("target (0 = conquered)", odds.defender_survivors)):
        shown = [(n, p) for n, p in survivors.items() if float(p) >= LISTING_FLOOR]
        print(f"armies left on the {title}:")
        for n, p in shown:
            print(f"  {n:5d}  {float(p) * 100:6.2f} %" + (f"   = {p}" if exact else ""))
        hidden = len(survivors) - len(shown)
        if hidden:
            print(f"  ({hidden} more counts, each below {LISTING_FLOOR * 100:g} %; --json lists them all)")


def _run_table(args: argparse.Namespace, rules: Ruleset, rule: DiceRule, units: str) -> int:
    n = args.table
    cap = MAX_TABLE_EXACT if args.exact else MAX_TABLE
    if not 1 <= n <= cap:
        raise ConquistaError(f"--table N needs N of at least 1 and at most {cap}{_exact_note(args.exact)}, not {n}")
    if args.stop_at > n:
        raise ConquistaError(f"--stop-at {args.stop_at} is more than the table's {n} attacking armies: "
                             f"give --stop-at 1..{n}")
    plot = _plot_path(args.plot) if args.plot else None
    table = odds_table(rule, n, args.stop_at, exact=args.exact)
    if plot is not None:
        _plot(plot, rules.name + (f", {units}" if units else ""), [[float(p) for p in row] for row in table],
              args.stop_at)
        if args.json or args.exact:  # stdout holds the data alone
            print(f"heatmap written to {plot}", file=sys.stderr)
    if args.json:
        cells = [[str(p) if args.exact else float(p) for p in row] for row in table]
        print(json.dumps({"ruleset": rules.name, "attacker": args.attacker, "defender": args.defender, "n": n,
                          "stop_at": args.stop_at,
                          "rows": "attacking 1..N (incl. the army that stays behind)",
                          "columns": "defending 1..N", "attacker_wins": cells}, indent=None))
        return 0
    if args.exact:
        for a, row in enumerate(table, start=1):
            for d, p in enumerate(row, start=1):
                print(f"{a}\t{d}\t{p}")
        return 0
    battle = f"{rules.name}, {units}" if units else rules.name
    print(f"{battle}{_rule_note(rule)}: conquest chance in %, rows ATTACKING (incl. the army that stays behind), "
          f"columns DEFENDING; blitz stops at {args.stop_at}")
    print("A\\D " + "".join(f"{d:>6d}" for d in range(1, n + 1)))
    for a, row in enumerate(table, start=1):
        print(f"{a:>3d} " + "".join(f"{float(p) * 100:6.1f}" for p in row))
    if plot is not None:
        print(f"heatmap written to {plot}")
    return 0


def _plot(path: Path, title: str, table: list[list[float]], stop_at: int) -> None:
    try:
        from matplotlib.figure import Figure
    except ImportError:
        raise ConquistaError("--plot needs matplotlib: pip install 'conquista[plot]'") from None
    n = len(table)
    # The object-oriented Figure needs no pyplot and no display backend: it renders straight to a file.
    fig = Figure(figsize=(7 + n / 15, 6 + n / 15))
    ax = fig.subplots()
    image = ax.imshow(table, origin="lower", cmap="RdYlGn", vmin=0.0, vmax=1.0,
                      extent=(0.5, n + 0.5, 0.5, n + 0.5), aspect="equal")
    fig.colorbar(image, ax=ax, label="chance of conquest")
    ax.set_xlabel("defending armies")
    ax.set_ylabel("attacking armies (incl. the one that stays behind)")
    ax.set_title(f"{title}: blitz conquest chance (stop at {stop_at})")
    if n <= 20:
        for a, row in enumerate(table, start=1):
            for d, p in enumerate(row, start=1):
                ax.text(d, a, f"{p * 100:.0f}", ha="center", va="center", fontsize=7)
    try:
        fig.savefig(path, dpi=120, bbox_inches="tight")
    except (OSError, ValueError) as exc:
        raise ConquistaError(f"cannot write the heatmap to {path}: {exc}") from None
