"""The builder's path works from the docs alone (issue 21 §4): every command docs/building.md gives is one the CLI
takes, in an order that works (the profile is written before it is used, the flashing tool is installed by the
install step, the account that runs the board is the one its LED pin needs), its wiring picture is what the
command it names draws today, and the README and docs/playing.md name every ruleset the board ships."""

from __future__ import annotations

import re
import shlex
import shutil
import subprocess
import tomllib
from pathlib import Path

import pytest

from conquista.cli import build_parser, main
from conquista.rules.rulesets import builtin_rulesets

ROOT = Path(__file__).resolve().parents[2]
BUILDING = ROOT / "docs" / "building.md"
TEXT = BUILDING.read_text(encoding="utf-8")
COMMAND = re.compile(r"\s*(?:sudo )?(?:\.venv/bin/)?conquista ([^`\n#]*)")


def commands() -> list[str]:
    """Every `conquista …` of the guide, from its code blocks and its inline code, without comments."""
    blocks = re.findall(r"```\n(.*?)```", TEXT, flags=re.DOTALL)
    inline = re.findall(r"`([^`\n]+)`", re.sub(r"```.*?```", "", TEXT, flags=re.DOTALL))
    found = []
    for piece in [*"\n".join(blocks).splitlines(), *inline]:
        command = COMMAND.match(piece)   # a line or a span that starts with the command
        if command and command.group(1).strip():
            found.append(command.group(1).strip())
    return found


def test_the_guide_gives_commands() -> None:
    assert len(commands()) >= 15


@pytest.mark.parametrize("command", commands())
def test_every_command_in_the_guide_is_one_the_cli_takes(command: str) -> None:
    words = [w for w in shlex.split(command.replace('"$USER"', "pi")) if "…" not in w]
    parser = build_parser(words[0])
    try:
        args = parser.parse_args(words)
    except SystemExit as exc:
        pytest.fail(f"`conquista {command}` is refused: exit {exc.code}")
    assert getattr(args, "handler", None) is not None, f"`conquista {command}` names no action"


def test_no_placeholder_is_left_to_guess() -> None:
    assert re.findall(r"<[a-z][^>\n]*>", TEXT) == []      # e.g. `git clone <this repository>`


def test_the_profile_is_written_before_it_is_used() -> None:
    written = TEXT.index("conquista board calibrate --board my-board.toml")
    used = [m.start() for m in re.finditer(r"conquista (?:play|board check|service install)[^\n`]*my-board\.toml",
                                           TEXT)]
    assert used and min(used) > written


def test_the_install_step_installs_the_flashing_tool() -> None:
    assert ".venv/bin/pip install -e '.[pi]'" in TEXT and "conquista firmware deploy" in TEXT
    extras = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["optional-dependencies"]
    assert any(dependency.startswith("mpremote") for dependency in extras["pi"])


def test_the_boot_service_runs_a_pwm_strip_as_root() -> None:
    """Step 4: rpi-ws281x on GPIO18 needs root; step 7 must not install the reference build as a plain user."""
    installs = [line for line in TEXT.splitlines() if "conquista service install" in line and "--user" in line]
    assert any("--user root" in line and "GPIO18" in line for line in installs), installs


def test_the_level_shifter_enable_pin_goes_to_ground() -> None:
    row = next(line for line in TEXT.splitlines() if line.startswith("| 1 | 1OE"))
    assert "**ground**" in row


def test_the_wiring_picture_is_what_the_command_draws(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    command = re.search(r"`conquista (board diagram --out (docs/img/[\w.-]+\.svg))`", TEXT)
    assert command, "building.md shows the wiring picture with the command that made it"
    picture = command.group(2)
    assert f"]({picture.removeprefix('docs/')})" in TEXT
    out = tmp_path / "wiring.svg"
    assert main(["board", "diagram", "--out", str(out)]) == 0
    capsys.readouterr()
    assert out.read_text(encoding="utf-8") == (ROOT / picture).read_text(encoding="utf-8"), \
        f"regenerate it: conquista {command.group(1)}"


def test_make_run_installs_only_the_runtime(tmp_path: Path) -> None:
    if shutil.which("make") is None:
        pytest.skip("no make on this machine")
    plan = subprocess.run(["make", "-n", "run", f"VENV={tmp_path / 'venv'}"], cwd=ROOT, capture_output=True,
                          text=True, check=True).stdout
    assert "pip install -q -e ." in plan and "[dev]" not in plan, plan


def test_the_readme_names_every_ruleset() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme.split("## Rulesets", 1)[1].split("\n## ", 1)[0]
    assert [name for name in builtin_rulesets() if f"`{name}`" not in section] == []


def test_playing_md_names_the_set_up_menus_rulesets_in_order() -> None:
    from conquista.app.setup import menu_options

    playing = (ROOT / "docs" / "playing.md").read_text(encoding="utf-8")
    listed = re.search(r"\*\*1\. The rules\.\*\*[^(]*\(([^)]*)\)", playing)
    assert listed
    names = re.findall(r"[a-z]+(?:-[a-z0-9]+)*", listed.group(1).split(", in that order")[0])
    assert names == [option.name for option in menu_options()]
