"""`conquista service install|status|uninstall`: start `conquista play` at boot (docs/building.md, step 7)."""

from __future__ import annotations

import argparse
import grp
import os
import pwd
import sys
from dataclasses import replace
from pathlib import Path

from conquista.cli.common import add_map_option, players_in_range, rules_help
from conquista.errors import ServiceError
from conquista.service.app_env import APP_DIR, AppEnv, build, extras_for, find_source
from conquista.service.install import Runner, describe, install, plan_install, run_command, status, uninstall
from conquista.service.units import GPIO_GROUP, PICO_LINK, SERIAL_GROUP, ServiceOptions, udev_rule_text, unit_text

# The runner of the build's commands (pip, venv): tests replace it, so that no test runs pip.
BUILD_RUNNER: Runner = run_command

# rpi-ws281x drives SPI (GPIO10) as a member of the gpio group; its PWM and PCM pins need root.
WS281X_WITHOUT_ROOT = frozenset({10})


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = subparsers.add_parser("service", help="start the referee when the board is switched on (systemd)")
    sub = p.add_subparsers(dest="service_command", metavar="ACTION", required=True)
    i = sub.add_parser("install", help="write and enable the systemd unit and the Pico's udev rule")
    i.add_argument("--user", help="the account the referee runs as (default: the user who ran sudo)")
    i.add_argument("--board", metavar="PATH", help="your board profile (default: the classic-42 reference board)")
    i.add_argument("--rules", help=rules_help("its own", for_what=" for `conquista play`"))
    i.add_argument("--players", type=int, help="number of players for `conquista play` (default: its own)")
    add_map_option(i)
    i.add_argument("--dry-run", action="store_true", help="print the files and commands, write nothing")
    i.add_argument("--source", metavar="DIR",
                   help="conquista's source to build the board's installation from (default: the checkout this "
                        "conquista was installed from)")
    i.add_argument("--in-place", action="store_true",
                   help="run this environment's conquista instead of building the board's own installation "
                        f"(/{APP_DIR}) from a wheel")
    for action in (i, sub.add_parser("status", help="is the unit installed, enabled, running; is the Pico there"),
                   sub.add_parser("uninstall", help="disable and remove the unit and the udev rule")):
        # Another root writes an image or a test directory instead of this system.
        action.add_argument("--root", default="/", help=argparse.SUPPRESS)
    p.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    root = Path(args.root).resolve()
    if args.service_command == "status":
        report = status(root)
        print("\n".join(report.lines()))
        return 0 if report.installed else 3
    if args.service_command == "uninstall":
        _need_root(root, "uninstall")
        removed = uninstall(root)
        print("\n".join(f"removed {p}" for p in removed) if removed else "conquista service: not installed")
        return 0
    env = None if args.in_place else AppEnv(root, find_source(args.source))
    options = service_options(args, env)
    if env is not None:
        env = replace(env, extras=extras_for(_pi_drives_the_strip(args)))
    plan = plan_install(root, unit_text(options), udev_rule_text())
    if args.dry_run:
        sys.stdout.write((env.describe() if env is not None else "") + describe(plan))
        return 0
    _need_root(root, "install")
    if env is not None:
        # A normal install, not the editable checkout: built and installed before the unit that runs it is written.
        print(f"building the board's installation in {env.directory} from {env.source}", flush=True)
        build(env, BUILD_RUNNER)
    install(plan)
    for path in plan.files:
        print(f"wrote {path}")
    print(f"enabled: the board starts {options.executable} play at boot as {options.user}; start it now with "
          "`sudo systemctl start conquista`, follow it with `journalctl -u conquista -f`")
    return 0


def _pi_drives_the_strip(args: argparse.Namespace) -> bool:
    from conquista.hardware.profile import StripDriver, load_profile
    from conquista.rules.mapdata import load_map

    board = str(Path(args.board).resolve()) if args.board else None
    return load_profile(board, load_map(args.map)).strip.driver is StripDriver.WS281X


def service_options(args: argparse.Namespace, env: AppEnv | None = None) -> ServiceOptions:
    """The unit's settings, every input checked first: the user, the board profile, the rules, the executable
    (the board's own installation `env`, or with None this environment's conquista)."""
    from conquista.hardware.profile import SensorKind, StripDriver, load_profile
    from conquista.rules.mapdata import load_map
    from conquista.rules.rulesets import load_ruleset

    user = args.user or os.environ.get("SUDO_USER") or pwd.getpwuid(os.getuid()).pw_name
    try:
        account = pwd.getpwnam(user)
    except KeyError:
        raise ServiceError(f"--user: there is no user {user!r} on this system; pass an existing account "
                           "(e.g. --user pi)") from None
    game_map = load_map(args.map)
    board = str(Path(args.board).resolve()) if args.board else None
    profile = load_profile(board, game_map)
    play_args: list[str] = []
    if board:
        play_args += ["--board", board]
    if args.map:
        play_args += ["--map", str(Path(args.map).resolve())]
    if args.rules:
        rules_arg = str(Path(args.rules).resolve()) if args.rules.endswith(".toml") else args.rules
        rules = load_ruleset(rules_arg)
        play_args += ["--rules", rules_arg]
        if args.players is not None:
            players_in_range(rules, args.players)
    if args.players is not None:
        play_args += ["--players", str(args.players)]
    device = f"/dev/{PICO_LINK}" if profile.sensors.kind is SensorKind.SERIAL else None
    if device:
        play_args += ["--sensors", device]
    strip = profile.strip
    if (strip.driver is StripDriver.WS281X and strip.data_pin not in WS281X_WITHOUT_ROOT
            and account.pw_uid != 0):
        raise ServiceError(f"{profile.source}: strip.data_pin = {strip.data_pin}: rpi-ws281x drives that pin only "
                           f"as root; pass --user root, or move the LEDs to GPIO10 (SPI) or to the Pico "
                           "(strip.driver = \"pico\"), see docs/building.md")
    executable = env.executable if env is not None else Path(sys.executable).parent / "conquista"
    if env is None and not os.access(executable, os.X_OK):
        raise ServiceError(f"{executable} is not there: install conquista into its virtual environment "
                           "(`.venv/bin/pip install -e .`) and run this command from it")
    groups = [SERIAL_GROUP] + [g for g in (GPIO_GROUP,) if _group_exists(g)]
    return ServiceOptions(executable=str(executable), user=user, play_args=tuple(play_args), groups=tuple(groups),
                          working_directory=account.pw_dir if os.path.isdir(account.pw_dir) else None,
                          device=device)


def _group_exists(name: str) -> bool:
    try:
        grp.getgrnam(name)
    except KeyError:
        return False
    return True


def _need_root(root: Path, action: str) -> None:
    if root == Path("/") and os.geteuid() != 0:
        raise ServiceError(f"service {action} changes /etc: run it with sudo "
                           f"(sudo {sys.executable.rsplit('/', 1)[0]}/conquista service {action})")
