"""The small messages a newcomer meets (issue 30 items 8, 9, 10): `play` without a board points to `sim`, the help
of --rules names the rulesets, a one-size ruleset says its size once, `long` alone says what it needs, `make run`
shows no setuptools banner, and `firmware deploy` without mpremote says what to install and nothing else."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from conquista.cli import main
from conquista.errors import ConquistaError
from conquista.rules.rulesets import SHIPPED_RULESETS, builtin_rulesets
from conquista_sim import SimulatedTable
from conquista_sim.terminal import names_for, parse_command

ROOT = Path(__file__).resolve().parents[2]


def test_play_without_a_board_points_to_sim(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setitem(sys.modules, "rpi_ws281x", None)   # a computer without the Pi's LED library
    assert main(["play", "--no-web", "--new", "--data-dir", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "pip install 'conquista[pi]'" in err and "`conquista sim`" in err


@pytest.mark.parametrize("command", ["sim", "play", "simulate", "odds"])
def test_the_help_of_rules_names_every_ruleset(command: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main([command, "--help"])
    help_text = " ".join(capsys.readouterr().out.split())
    for name in builtin_rulesets():
        assert re.search(rf"[ :]{re.escape(name)}[,)]", help_text), (name, help_text)


def test_the_rulesets_the_help_names_are_the_packages() -> None:
    assert sorted(SHIPPED_RULESETS) == builtin_rulesets()


def test_a_ruleset_for_one_number_of_players_says_it_once(tmp_path: Path,
                                                          capsys: pytest.CaptureFixture[str]) -> None:
    script = tmp_path / "s.txt"
    script.write_text("quit\n")
    assert main(["sim", "--rules", "french-1976-duel", "--players", "3", "--script", str(script)]) == 2
    err = capsys.readouterr().err
    assert "is for 2 players, not 3" in err and "2–2" not in err


def test_long_alone_says_it_takes_a_territory() -> None:
    with SimulatedTable("italian", 3, seed=1) as table:
        with pytest.raises(ConquistaError) as info:
            parse_command("long", names_for(table))
    message = str(info.value)
    assert "territory" in message and "did you mean" not in message and "Congo" not in message


def test_make_run_builds_without_setuptools_banner(tmp_path: Path) -> None:
    """The editable build's "same name as your package" banner is filtered for make's builds: the plan sets the
    filter, and the filter silences setuptools' warning (its text as setuptools words it)."""
    if shutil.which("make") is None:
        pytest.skip("no make on this machine")
    plan = subprocess.run(["make", "-n", "run", f"VENV={tmp_path / 'venv'}"], cwd=ROOT, capture_output=True,
                          text=True, check=True).stdout
    (build,) = [line for line in plan.splitlines() if "pip install -q -e ." in line]
    setting = re.match(r'PYTHONWARNINGS="([^"]+)" ', build)
    assert setting is not None, build
    banner = ("Editable installation.\\n!!\\n\\n  ****\\n  Please be careful with folders in your working directory "
              "with the same\\n  name as your package as they may take precedence during imports.")
    warned = subprocess.run([sys.executable, "-c", f"import warnings; warnings.warn('{banner}', UserWarning)"],
                            env={**os.environ, "PYTHONWARNINGS": setting.group(1)}, capture_output=True, text=True,
                            check=True)
    assert warned.stderr == ""
    loud = subprocess.run([sys.executable, "-c", f"import warnings; warnings.warn('{banner}', UserWarning)"],
                          env={**os.environ, "PYTHONWARNINGS": "default"}, capture_output=True, text=True, check=True)
    assert "same" in loud.stderr    # the check above can fail


def test_deploy_without_mpremote_says_what_to_install(monkeypatch: pytest.MonkeyPatch,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setitem(sys.modules, "mpremote", None)   # not installed
    assert main(["firmware", "deploy", "--port", os.devnull]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "pip install 'conquista[pi]'" in err
    assert "MicroPython" not in err and "No module named" not in err
