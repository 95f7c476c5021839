"""Start-up: a command imports only what it uses. Which modules load is checked here; how fast is for
benchmarks/bench_startup.py (no timing in unit tests)."""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

import pytest

from conquista.cli import COMMANDS, build_parser, command_in

# Heavy or hardware libraries, and the layers a light command has no use for.
NEVER_FOR_LIGHT_COMMANDS = ("rich", "gpiozero", "serial", "sqlite3", "conquista_sim", "conquista.table",
                            "conquista.devices", "conquista.link", "conquista.journal", "conquista.app")


def modules_after(code: str) -> set[str]:
    """The modules a fresh interpreter holds after running `code` (with SystemExit from argparse swallowed)."""
    script = (f"import sys\ntry:\n    {code}\nexcept SystemExit:\n    pass\n"
              "sys.stdout.flush()\nsys.stderr.write('\\n'.join(sorted(sys.modules)))\n")
    proc = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True, timeout=60)
    return set(proc.stderr.split("\n"))


def loaded(modules: set[str], prefix: str) -> bool:
    return prefix in modules or any(m.startswith(prefix + ".") for m in modules)


def test_help_loads_no_subcommand_module() -> None:
    modules = modules_after("from conquista.cli import main; main(['--help'])")
    assert {m for m in modules if m.startswith("conquista")} == {"conquista", "conquista.cli", "conquista.errors"}
    assert not [p for p in NEVER_FOR_LIGHT_COMMANDS if loaded(modules, p)]


def test_odds_loads_only_its_own_module_and_the_rules_it_needs() -> None:
    modules = modules_after("from conquista.cli import main; main(['odds', '6', '3'])")
    commands = {m for m in modules if m.startswith("conquista.cli.")}
    assert commands == {"conquista.cli.odds_cmd"}
    assert "conquista.rules.odds" in modules
    assert not [p for p in NEVER_FOR_LIGHT_COMMANDS if loaded(modules, p)]


def test_simulated_table_without_sensors_loads_no_serial_link() -> None:
    modules = modules_after("from conquista_sim import SimulatedTable; SimulatedTable('italian', 3, seed=1).close()")
    assert "conquista_sim.table" in modules
    assert not [p for p in ("serial", "conquista.link", "conquista_sim.linked", "conquista_sim.pico")
                if loaded(modules, p)]


def test_the_simulated_table_shows_its_first_frame_before_gpiozero_loads() -> None:
    # gpiozero's mock pins cost a fifth of `sim --menu`'s start (issue 22): they open at the first hand on a pin.
    table = "from conquista_sim import SimulatedTable\n    table = SimulatedTable('italian', 3, seed=1)\n"
    modules = modules_after(table + "    assert table.board.strip.shown\n    table.close()")
    assert "conquista_sim.table" in modules
    assert not loaded(modules, "gpiozero")
    pressed = modules_after(table + "    table.press('roll')\n    table.close()")
    assert loaded(pressed, "gpiozero")


def test_importing_the_simulator_package_loads_no_table() -> None:
    modules = modules_after("import conquista_sim.fake_machine")
    assert not loaded(modules, "conquista_sim.table") and not loaded(modules, "conquista")


def test_a_plain_simulate_run_loads_no_json_and_no_log_writer() -> None:
    run = "from conquista.cli import main; main(['simulate', '--rules', 'classic', '--games', '1', '--seed', '3'"
    plain = modules_after(run + "])")
    assert "conquista.bots.simulate" in plain
    assert [m for m in ("json", "conquista.rules.gamelog", *NEVER_FOR_LIGHT_COMMANDS) if loaded(plain, m)] == []
    assert "json" in modules_after(run + ", '--json'])")


def test_simulate_json_still_prints_one_json_object(capsys: pytest.CaptureFixture[str]) -> None:
    import json

    from conquista.cli import main

    assert main(["simulate", "--rules", "classic", "--games", "2", "--seed", "3", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["games"] == 2 and report["rules"] == "classic"


def registered_help(parser: argparse.ArgumentParser) -> dict[str, str | None]:
    subparsers = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return {choice.dest: choice.help for choice in subparsers._choices_actions}


def test_the_command_table_matches_what_each_module_registers() -> None:
    full = registered_help(build_parser(every_command=True))
    listed = registered_help(build_parser(None))
    assert list(full) == list(COMMANDS) == list(listed)
    assert full == listed == {name: help_text for name, (_, help_text) in COMMANDS.items()}


@pytest.mark.parametrize(("argv", "command"), [
    (["--help"], None), ([], None), (["odds", "6", "3"], "odds"), (["--version"], None),
    (["sim", "--demo", "--rules", "classic"], "sim"), (["-h", "dice"], None), (["dice", "-h"], "dice"),
])
def test_command_in(argv: list[str], command: str | None) -> None:
    assert command_in(argv) == command


def test_top_level_help_lists_every_command_even_before_a_command(capsys: pytest.CaptureFixture[str]) -> None:
    from conquista.cli import main

    with pytest.raises(SystemExit):
        main(["--help", "odds"])
    listing = capsys.readouterr().out
    assert all(f"    {name}" in listing for name in COMMANDS)


def test_a_command_parses_its_own_options(capsys: pytest.CaptureFixture[str]) -> None:
    from conquista.cli import main

    assert main(["odds", "6", "3", "--json"]) == 0
    assert '"attacking": 6' in capsys.readouterr().out


def test_the_collector_waits_for_the_start_up_and_runs_again_after(monkeypatch: pytest.MonkeyPatch) -> None:
    import gc

    import conquista.cli.odds_cmd
    from conquista.cli import main

    during: list[bool] = []
    real = conquista.cli.odds_cmd.run

    def run(args: argparse.Namespace) -> int:
        during.append(gc.isenabled())      # a command without a first frame runs with the collector
        return real(args)

    monkeypatch.setattr(conquista.cli.odds_cmd, "run", run)
    assert gc.isenabled()
    assert main(["odds", "6", "3"]) == 0
    assert during == [True] and gc.isenabled()
    assert main(["sim", "--rules", "nonesuch"]) == 2     # a start that fails gives the collector back too
    assert gc.isenabled()
    gc.disable()                                          # and one that found it off leaves it off
    try:
        main(["odds", "6", "3"])
        assert not gc.isenabled()
    finally:
        gc.enable()


# An LED library stand-in that, at the first frame which lights an LED, writes the modules loaded by then (and
# whether the collector runs) to the file $FIRST_FRAME_MODULES, and ends the process.
FIRST_FRAME_STRIP = '''import gc, os, sys
DATACLASS = "dataclass "


def dataclasses_made():
    """The project's classes made by dataclass itself (a frozen_record's __init__ is compiled under its own name)."""
    for name, module in list(sys.modules.items()):
        if name.startswith("conquista"):
            for value in list(vars(module).values()):
                if isinstance(value, type) and value.__module__ == name and "__dataclass_fields__" in vars(value):
                    init = vars(value).get("__init__")
                    if not getattr(getattr(init, "__code__", None), "co_filename", "").startswith("<frozen_record"):
                        yield f"{DATACLASS}{name}.{value.__qualname__}"
WS2811_STRIP_GRB = WS2811_STRIP_RGB = WS2811_STRIP_RBG = WS2811_STRIP_GBR = WS2811_STRIP_BRG = WS2811_STRIP_BGR = 0


class PixelStrip:
    def __init__(self, num, *args):
        self.pixels = [0] * num

    def begin(self):
        pass

    def setPixelColor(self, n, color):
        self.pixels[n] = color

    def numPixels(self):
        return len(self.pixels)

    def show(self):
        if any(self.pixels):
            with open(os.environ["FIRST_FRAME_MODULES"], "w") as out:
                out.write("\\n".join([f"gc={gc.isenabled()}", *sorted(sys.modules), *dataclasses_made()]))
            os._exit(0)
'''

# What `play` must not load before its first frame: the hardware and web libraries, the journal (with --new), the
# link (the Pi drives this strip), and what only parsing or hashing a file the package ships would load.
NOT_BEFORE_THE_FIRST_FRAME = ("gpiozero", "serial", "sqlite3", "starlette", "uvicorn", "segno", "rich",
                              "conquista.link", "conquista.journal.writer", "conquista.journal.store",
                              "conquista.web.companion", "conquista_sim", "tomllib", "json", "hashlib", "_hashlib",
                              "logging", "zipfile", "importlib.resources")


def test_play_shows_its_first_frame_before_the_journal_link_web_and_gpio_load(tmp_path: Path) -> None:
    import os

    (tmp_path / "strip").mkdir()
    (tmp_path / "strip" / "rpi_ws281x.py").write_text(FIRST_FRAME_STRIP)
    seen = tmp_path / "modules.txt"
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    env.update(PYTHONPATH=str(tmp_path / "strip"), FIRST_FRAME_MODULES=str(seen))
    proc = subprocess.run([sys.executable, "-m", "conquista", "play", "--new", "--data-dir", str(tmp_path / "data"),
                           "--web", "127.0.0.1:0"], env=env, capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0 and seen.exists(), proc.stderr
    collecting, *names = seen.read_text().split("\n")
    modules = {name for name in names if not name.startswith("dataclass ")}
    assert {"conquista.app.board", "conquista.table.referee", "conquista.table.setup_menu"} <= modules
    assert [name for name in NOT_BEFORE_THE_FIRST_FRAME if loaded(modules, name)] == []
    assert collecting == "gc=False"             # the collector waits for the first frame (start_up_done)
    assert not (tmp_path / "data").exists()     # --new: the journal is opened just after that frame
    # The records built before the first frame are frozen_records (dataclass compiles six methods for each):
    # only these are made by dataclass itself.
    made = {name.removeprefix("dataclass ") for name in names if name.startswith("dataclass ")}
    assert made == DATACLASSES_BEFORE_THE_FIRST_FRAME


# The dataclasses `play` makes before its first frame, and why each is not a frozen_record.
DATACLASSES_BEFORE_THE_FIRST_FRAME = {
    "conquista.rules.battle.DiceRule", "conquista.rules.missions.Mission",          # compiled by `make fast`
    "conquista.rules.tournament.TournamentStatus",
    "conquista.app.board.BoardDevices",
}


@pytest.mark.parametrize("columns", ["100", "37", "0", "wide", None])
def test_help_is_as_wide_as_argparse_makes_it(columns: str | None, monkeypatch: pytest.MonkeyPatch) -> None:
    import shutil

    from conquista.cli import help_width

    if columns is None:
        monkeypatch.delenv("COLUMNS", raising=False)
    else:
        monkeypatch.setenv("COLUMNS", columns)
    assert help_width() == shutil.get_terminal_size().columns - 2
    play = next(a for a in build_parser("play")._actions if isinstance(a, argparse._SubParsersAction)).choices["play"]
    ours = play.format_help()
    play.formatter_class = argparse.HelpFormatter          # argparse's own, which asks shutil
    assert ours == play.format_help()


def test_registering_options_loads_no_shutil() -> None:
    modules = modules_after("from conquista.cli import build_parser\n    build_parser('play')")
    assert "shutil" not in modules
