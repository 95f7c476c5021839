"""`conquista rules [NAME] [--json]`: list rulesets or print one's resolved parameters."""

from __future__ import annotations

import argparse
import json

from conquista.cli.common import load_rules
from conquista.rules.rulesets import builtin_rulesets, load_ruleset


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = subparsers.add_parser("rules", help="list rulesets, or show one ruleset's parameters")
    p.add_argument("name", nargs="?", help="a ruleset name, or a .toml file that extends one")
    p.add_argument("--json", action="store_true", help="print the fully resolved parameters as JSON")
    p.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    if args.name is None:
        rulesets = [load_ruleset(n) for n in builtin_rulesets()]
        if args.json:
            print(json.dumps({r.name: r.description for r in rulesets}, indent=2))
        else:
            width = max(len(r.name) for r in rulesets)
            for r in rulesets:
                seats = str(r.players_min) if r.players_min == r.players_max else f"{r.players_min}-{r.players_max}"
                print(f"{r.name:<{width}}  {seats:>3} players  {r.description}")
        return 0
    rules = load_rules(args.name)
    if args.json:
        print(json.dumps(rules.to_dict(), indent=2, ensure_ascii=False))
    else:
        for key, value in rules.to_dict().items():
            print(f"{key:<30} {value}")
    return 0
