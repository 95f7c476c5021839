"""`conquista dice audit LOG|ID [--verify-seed SEED] [--json]`: check the dice of a game log or a saved game.

Exit codes: 0 the log passes every check; 1 a check failed (a roll that is not the committed stream's, or a
statistical test that rejects fair dice); 2 bad input (not a game log, a malformed line, a seed that does not
match the commitment).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from conquista.cli.program import as_typed
from conquista.dice.audit import AuditReport, audit_log, audit_records, parse_records
from conquista.errors import ConquistaError

if TYPE_CHECKING:
    from conquista.dice.audit_seed import SeedCheck
    from conquista.rules.mapdata import GameMap


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = subparsers.add_parser("dice", help="dice tools: audit a game log's rolls")
    actions = p.add_subparsers(dest="dice_command", metavar="ACTION")
    audit = actions.add_parser(
        "audit", help="face counts and chi-square per die colour, roll outcomes against the exact odds, "
                      "and the committed seed",
        description="Audit the dice of a game log. Exit 0 when every check passes, 1 when one fails, "
                    "2 on bad input.")
    audit.add_argument("log", metavar="LOG|ID", help="a game log (JSON Lines), or a saved game's id "
                                                    "(`conquista games` lists them)")
    audit.add_argument("--data-dir", metavar="DIR", help="where saved games are (default: $XDG_DATA_HOME/conquista)")
    audit.add_argument("--verify-seed", metavar="SEED",
                       help="the revealed seed (hex) of committed dice: re-derive and compare the deal, every card "
                            "draw and every roll")
    audit.add_argument("--map", metavar="PATH", help="the map file the game was played on, to replay its deal and "
                                                     "draws (default: the classic 42)")
    audit.add_argument("--json", action="store_true", help="print one JSON object")
    audit.set_defaults(handler=run_audit)
    p.set_defaults(handler=_need_action)


def _need_action(args: argparse.Namespace) -> int:
    raise ConquistaError("choose an action: `conquista dice audit LOG`")


def run_audit(args: argparse.Namespace) -> int:
    game_map = None
    if args.map is not None:
        from conquista.rules.mapdata import load_map

        game_map = load_map(args.map)
    # Where the seed of committed dice is, when neither the log nor --verify-seed gives it.
    no_seed = "the seed is not revealed in the log; pass --verify-seed SEED to check every roll"
    if args.log.isdigit() and not Path(args.log).exists():
        report, status = _audit_saved_game(int(args.log), args.data_dir, args.verify_seed, game_map)
        no_seed = _seed_whereabouts(int(args.log), status, args.data_dir)
    else:
        report = audit_log(args.log, verify_seed=args.verify_seed, game_map=game_map)
    if args.json:
        print(json.dumps(report.to_json(), indent=2))
    else:
        _print_report(report, no_seed)
    return 0 if report.passed else 1


def _seed_whereabouts(game_id: int, status: str, data_dir: str | None) -> str:
    """Why a saved game's audit has no seed: the game is not over (the seed is secret), or it ended without the
    journal keeping the seed (a journal from before seeds were kept, or a disk that refused it then)."""
    from conquista.journal import FINISHED, journal_path
    from conquista.journal.paths import data_dir_option

    if status == FINISHED:
        return (f"the journal kept no seed for this game; the seed was shown when it ended (\"committed dice: the "
                f"seed was …\"): check every roll with "
                f"`conquista dice audit {game_id}{data_dir_option(journal_path(data_dir))} --verify-seed SEED`")
    return f"the game is {status}, so its seed is still secret (it is shown when the game ends)"


def _audit_saved_game(game_id: int, data_dir: str | None, verify_seed: str | None,
                      game_map: GameMap | None) -> tuple[AuditReport, str]:
    """Audit a game of the journal from its rows (the blitz test, which replays a log file, is left out); with the
    game's status."""
    from conquista.journal import FINISHED, JournalStore, journal_path
    from conquista.journal.revealed_seed import read_revealed_seed

    store = JournalStore(journal_path(data_dir), create=False)
    try:
        saved = store.saved_game(game_id)
        lines, status = [saved.header, *saved.actions], saved.status
        kept = read_revealed_seed(store.conn, game_id) if status == FINISHED else None
        if kept is not None:   # the seed revealed at the game's end, kept by the journal: checked as a log's is
            lines.append(json.dumps({"meta": "dice_reveal", "seed": kept}))
    finally:
        for warning in store.warnings:   # a damaged game audited from the backup's copy says so
            sys.stderr.write(f"conquista dice audit: {as_typed(warning)}\n")
        store.close()
    where = f"{store.path}, game {game_id}"
    return audit_records(parse_records(lines, where), where, verify_seed, game_map=game_map), status


def _print_report(report: AuditReport, no_seed: str) -> None:
    sources = ", ".join(f"{name} {count}" for name, count in report.rolls_by_source.items()) or "none"
    print(f"{report.where}: ruleset {report.ruleset_name}, dice source {report.source or 'not recorded'}, "
          f"{report.rolls} rolls ({sources})")
    if report.tests_run:
        print(f"tests run: {report.tests_run}; a test fails below p = {report.threshold:.2g} "
              f"(alpha {report.alpha:g} shared among them)")
    else:
        print("tests run: none (each test needs more rolls than the log holds)")
    print()
    print("faces           " + "".join(f"{face:>8d}" for face in range(1, 7)) + "     dice  chi-square  p-value")
    for f in report.faces:
        stat = f"{f.chi_square:10.2f}  {f.p_value:7.4f}" if f.tested else "  (too few dice to test)"
        print(f"{f.colour + ' dice':<16}" + "".join(f"{n:>8d}" for n in f.counts) + f"  {f.dice:7d}  {stat}")
    print()
    print("battle rolls against the exact odds (outcome = armies lost by attacker/defender):")
    for c in report.combinations:
        stat = (f"chi-square {c.chi_square:.2f}, df {c.df}, p = {c.p_value:.4f}" if c.tested
                else "too few rolls to test")
        print(f"  {c.label}, {c.rolls} rolls: {stat}")
        for o in c.outcomes:
            void = "" if o.attacker_losses or o.defender_losses else "  a tie, rolled again"
            print(f"      {o.attacker_losses}/{o.defender_losses}  observed {o.observed:7d}  expected "
                  f"{o.expected:10.1f}  (p = {o.probability}){void}")
    loss = report.attacker_losses
    print(f"attacker losses: {loss.observed} observed, {loss.expected:.1f} ± {loss.sd:.1f} expected"
          + (f" (z = {loss.z:+.2f}, p = {loss.p_value:.4f})" if loss.tested else " (too few rolls to test)"))
    battles = report.battles
    if battles is not None:
        if battles.tested:
            print(f"blitzes: {battles.observed} conquests in {battles.battles}, {battles.expected:.1f} ± "
                  f"{battles.sd:.1f} expected from the exact odds (z = {battles.z:+.2f}, p = {battles.p_value:.4f})")
        else:
            print(f"blitzes: not tested ({battles.note})")
    print()
    if report.seed is not None:
        _print_seed(report.seed, report.where)
    elif report.commitment is not None:
        print(f"committed dice: {as_typed(no_seed)}")
    failures = report.failures()
    if failures:
        print("FAIL: " + "; ".join(failures))
    elif report.tests_run == 0 and report.seed is None:
        # A PASS here would vouch for dice nothing was checked against.
        print(f"NOTHING TO TEST: {report.rolls} rolls are too few for any test of fair dice"
              + ("" if report.commitment is None else ", and no seed was given to check them against"))
    else:
        print("PASS")


def _print_seed(seed: SeedCheck, where: str) -> None:
    if seed.first_mismatch is None:
        print(f"committed dice: the seed ({seed.seed_from}) matches the commitment and gives all "
              f"{seed.rolls_checked} committed rolls")
    else:
        print(f"committed dice: {seed.mismatches} of {seed.rolls_checked} rolls differ from the seed's stream; "
              f"the first: {seed.first_mismatch.describe(where)}")
    if seed.not_checked:
        print(f"committed deal and card draws: not checked ({seed.not_checked})")
    elif seed.first_chance_mismatch is None:
        print(f"committed deal and card draws: the seed deals this game and draws all {seed.draws_checked} cards")
    else:
        print(f"committed deal and card draws: {seed.chance_mismatches} differ from the seed's stream; "
              f"the first: {seed.first_chance_mismatch.describe(where)}")
