"""`conquista service`: the unit passes `systemd-analyze verify`, files go under a temporary root only."""

from __future__ import annotations

import os
import pwd
import shutil
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

import pytest

from conquista.cli import main
from conquista.errors import ServiceError
from conquista.service.install import Plan, install, plan_install, status, uninstall
from conquista.service.units import (
    PICO_LINK,
    ServiceOptions,
    device_unit_name,
    systemd_quote,
    udev_rule_text,
    unit_text,
)

ME = pwd.getpwuid(os.getuid()).pw_name


class FakeBuild:
    """Stands in for pip and venv (no test runs them): notes each command and leaves behind what it would make."""

    def __init__(self, fail: str = "") -> None:
        self.commands: list[list[str]] = []
        self.fail = fail

    def __call__(self, command: Sequence[str]) -> subprocess.CompletedProcess[str]:
        words = list(command)
        self.commands.append(words)
        if self.fail and self.fail in " ".join(words):
            return subprocess.CompletedProcess(words, 1, "", f"ERROR: {self.fail} went wrong\n")
        if words[1:4] == ["-m", "pip", "wheel"]:
            wheels = Path(words[words.index("--wheel-dir") + 1])
            wheels.mkdir(parents=True, exist_ok=True)
            (wheels / "conquista-0.1.0-py3-none-any.whl").write_bytes(b"PK")
        elif words[1:3] == ["-m", "venv"]:
            (Path(words[-1]) / "bin").mkdir(parents=True, exist_ok=True)
        elif words[1:4] == ["-m", "pip", "install"]:
            script = Path(words[0]).parent / "conquista"
            script.write_text("#!/bin/sh\n", encoding="utf-8")
            script.chmod(0o755)
        return subprocess.CompletedProcess(words, 0, "", "")


@pytest.fixture(autouse=True)
def fake_build(monkeypatch: pytest.MonkeyPatch) -> FakeBuild:
    import conquista.cli.service_cmd as service_cmd

    fake = FakeBuild()
    monkeypatch.setattr(service_cmd, "BUILD_RUNNER", fake)
    return fake
UNIT = Path("etc/systemd/system/conquista.service")
RULE = Path("etc/udev/rules.d/99-conquista-pico.rules")


def need(tool: str) -> str:
    found = shutil.which(tool)
    if found is None:
        if os.environ.get("CI"):
            pytest.fail(f"{tool} is missing: `make test` installs Debian's systemd package")
        pytest.skip(f"{tool} is not installed (Debian's systemd package; `make test` installs it)")
    return found


def pico_profile(tmp_path: Path) -> Path:
    """The reference profile with the LEDs on the Pico, which any user may run (no rpi-ws281x root)."""
    reference = Path(__file__).resolve().parents[2] / "host" / "conquista" / "data" / "boards" / "classic-42.toml"
    text = reference.read_text(encoding="utf-8").replace('driver = "ws281x"', 'driver = "pico"')
    text = text.replace("data_pin = 18 ", "data_pin = 16 ")
    path = tmp_path / "my board.toml"
    path.write_text(text, encoding="utf-8")
    return path


def verify(unit: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([need("systemd-analyze"), "verify", str(unit)], capture_output=True, text=True,
                          check=False, timeout=120)


def test_the_installed_unit_passes_systemd_analyze_verify(tmp_path: Path, capsys: pytest.CaptureFixture[str]
                                                           ) -> None:
    need("systemctl")
    board = pico_profile(tmp_path)
    root = tmp_path / "root"
    code = main(["service", "install", "--root", str(root), "--user", ME, "--board", str(board),
                 "--rules", "classic", "--players", "4"])
    assert code == 0, capsys.readouterr().err
    unit = root / UNIT
    text = unit.read_text(encoding="utf-8")
    result = verify(unit)
    assert (result.returncode, result.stderr) == (0, "")
    assert f"User={ME}\n" in text
    assert "Restart=on-failure\n" in text and "StandardOutput=journal\n" in text
    assert "SupplementaryGroups=dialout" in text
    assert f'--board "{board}"' in text and "--rules classic --players 4" in text
    assert f"--sensors /dev/{PICO_LINK}" in text
    assert f"After={device_unit_name('/dev/' + PICO_LINK)}" in text
    # Boot must not wait for an unplugged Pico (a Wants= on its device unit holds it for the 90 s job timeout);
    # plugging the Pico in starts the service instead.
    assert "Wants=" not in text and "Requires=" not in text and "BindsTo=" not in text
    rule = (root / RULE).read_text(encoding="utf-8")
    assert 'ATTRS{idVendor}=="2e8a", ATTRS{idProduct}=="0005"' in rule
    assert 'TAG+="systemd", ENV{SYSTEMD_WANTS}+="conquista.service"' in rule
    # Enabled: systemctl --root made the boot target want it.
    assert (root / "etc/systemd/system/multi-user.target.wants/conquista.service").is_symlink()
    assert status(root).installed and status(root).enabled == "enabled"


def test_verify_catches_a_broken_unit(tmp_path: Path) -> None:
    # The check can fail: a misspelt key and a missing program are reported.
    options = ServiceOptions(executable=str(tmp_path / "missing" / "conquista"), user=ME)
    unit = tmp_path / "conquista.service"
    unit.write_text(unit_text(options).replace("Restart=on-failure", "Restart=sometimes"), encoding="utf-8")
    result = verify(unit)
    assert result.returncode != 0 or "sometimes" in result.stderr


def test_uninstall_disables_and_removes_both_files(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    need("systemctl")
    root = tmp_path / "root"
    assert main(["service", "install", "--root", str(root), "--user", ME, "--board", str(pico_profile(tmp_path))]) == 0
    assert main(["service", "status", "--root", str(root)]) == 0
    assert main(["service", "uninstall", "--root", str(root)]) == 0
    assert not (root / UNIT).exists() and not (root / RULE).exists()
    assert not (root / "etc/systemd/system/multi-user.target.wants/conquista.service").exists()
    assert main(["service", "status", "--root", str(root)]) == 3
    assert "not installed" in capsys.readouterr().out
    assert uninstall(root) == []


def test_dry_run_prints_everything_and_writes_nothing(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = tmp_path / "root"
    assert main(["service", "install", "--dry-run", "--root", str(root), "--user", ME,
                 "--board", str(pico_profile(tmp_path))]) == 0
    out = capsys.readouterr().out
    assert "[Service]" in out and "SYMLINK+=" in out and "enable conquista.service" in out
    assert not root.exists()


@pytest.mark.parametrize(("args", "culprit"), [
    (["--user", "no-such-user-here"], "no-such-user-here"),
    (["--board", "/nonexistent/board.toml"], "board.toml"),
    (["--rules", "klingon"], "klingon"),
    (["--rules", "classic", "--players", "9"], "--players"),
])
def test_bad_input_is_one_line_and_nothing_is_written(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                      args: list[str], culprit: str) -> None:
    root = tmp_path / "root"
    base = ["service", "install", "--root", str(root), "--user", ME, "--board", str(pico_profile(tmp_path))]
    assert main(base + args) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and culprit in err
    assert not root.exists()


def test_leds_on_a_pwm_pin_need_root(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # The reference board drives its LEDs from GPIO18 (PWM): only root may, so another account is refused.
    assert main(["service", "install", "--dry-run", "--root", str(tmp_path), "--user", "nobody"]) == 2
    assert "strip.data_pin = 18" in capsys.readouterr().err
    assert main(["service", "install", "--dry-run", "--root", str(tmp_path), "--user", "root"]) == 0


def test_a_failing_command_leaves_nothing_behind(tmp_path: Path) -> None:
    root = tmp_path / "root"
    (root / UNIT).parent.mkdir(parents=True)
    (root / UNIT).write_text("# an older unit\n", encoding="utf-8")

    def refuse(command: object) -> subprocess.CompletedProcess[str]:
        return subprocess.CompletedProcess(command, 1, "", "Failed to enable unit: permission denied\n")

    plan = plan_install(root, "[Unit]\n", udev_rule_text())
    with pytest.raises(ServiceError, match=r"permission denied.*nothing was installed"):
        install(plan, run=refuse)
    assert (root / UNIT).read_text(encoding="utf-8") == "# an older unit\n"
    assert not (root / RULE).exists()
    assert [p.name for p in (root / UNIT).parent.iterdir()] == ["conquista.service"]


def test_the_real_system_gets_daemon_reload_and_udev_reload() -> None:
    plan = plan_install(Path("/"), "", "")
    assert plan.commands[0] == ["systemctl", "daemon-reload"]
    assert ["systemctl", "enable", "conquista.service"] in plan.commands
    assert ["udevadm", "control", "--reload-rules"] in plan.commands
    assert isinstance(plan, Plan)


def test_exec_start_words_survive_systemd_parsing() -> None:
    assert systemd_quote("/home/pi/my board.toml") == '"/home/pi/my board.toml"'
    assert systemd_quote("100%") == "100%%"
    assert systemd_quote("$HOME") == "$$HOME"
    assert systemd_quote('say "hi"') == '"say \\"hi\\""'
    assert device_unit_name("/dev/conquista-pico") == "dev-conquista\\x2dpico.device"


def test_in_place_the_unit_runs_the_conquista_of_this_environment(tmp_path: Path,
                                                                   capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["service", "install", "--dry-run", "--in-place", "--root", str(tmp_path / "r"), "--user", ME,
                 "--board", str(pico_profile(tmp_path))]) == 0
    expected = Path(sys.executable).parent / "conquista"
    out = capsys.readouterr().out
    assert f"ExecStart={expected} play" in out and "pip" not in out


def test_the_unit_runs_a_normal_install_built_from_a_wheel(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                          fake_build: FakeBuild) -> None:
    """By default the board gets its own installation: a wheel of the source, installed (not editable) into a
    virtual environment under /opt/conquista that sees the system's packages (lgpio), and the unit runs that."""
    need("systemctl")
    root = tmp_path / "root"
    source = Path(__file__).resolve().parents[2]
    assert main(["service", "install", "--root", str(root), "--user", ME, "--board", str(pico_profile(tmp_path)),
                 "--source", str(source)]) == 0, capsys.readouterr().err
    env = root / "opt" / "conquista"
    wheel, venv, pip_install = fake_build.commands
    assert wheel[1:5] == ["-m", "pip", "wheel", "--no-deps"] and wheel[-1] == str(source)
    assert venv[1:] == ["-m", "venv", "--system-site-packages", str(env)]
    assert pip_install[0] == str(env / "bin" / "python") and pip_install[1:4] == ["-m", "pip", "install"]
    assert pip_install[-1] == str(env / "wheels" / "conquista-0.1.0-py3-none-any.whl")   # the Pico drives the LEDs
    assert "-e" not in pip_install and "--editable" not in pip_install
    text = (root / UNIT).read_text(encoding="utf-8")
    assert f"ExecStart={env / 'bin' / 'conquista'} play" in text
    assert (result := verify(root / UNIT)).returncode == 0, result.stderr


def test_a_board_whose_pi_drives_the_strip_gets_the_pi_extra(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                            fake_build: FakeBuild) -> None:
    assert main(["service", "install", "--dry-run", "--root", str(tmp_path / "r"), "--user", "root"]) == 0
    out = capsys.readouterr().out
    assert "conquista-VERSION-py3-none-any.whl[pi]" in out and "pip wheel --no-deps" in out
    assert fake_build.commands == []                       # a dry run runs nothing
    assert not (tmp_path / "r").exists()


def test_a_failed_build_is_one_line_and_installs_no_unit(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    import conquista.cli.service_cmd as service_cmd

    monkeypatch.setattr(service_cmd, "BUILD_RUNNER", FakeBuild(fail="pip wheel"))
    root = tmp_path / "root"
    assert main(["service", "install", "--root", str(root), "--user", ME,
                 "--board", str(pico_profile(tmp_path))]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "pip wheel went wrong" in err and "was not changed" in err
    assert not (root / UNIT).exists() and not (root / RULE).exists()


def test_a_source_without_pyproject_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["service", "install", "--dry-run", "--root", str(tmp_path / "r"), "--user", ME,
                 "--board", str(pico_profile(tmp_path)), "--source", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "pyproject.toml" in err


def test_installing_on_this_system_needs_root(monkeypatch: pytest.MonkeyPatch,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    import conquista.cli.service_cmd as service_cmd

    def must_not_install(*args: object, **kwargs: object) -> None:
        raise AssertionError("the test tried to write the real /etc")

    monkeypatch.setattr(service_cmd, "install", must_not_install)
    monkeypatch.setattr(service_cmd, "uninstall", must_not_install)
    monkeypatch.setattr(os, "geteuid", lambda: 1000)
    assert main(["service", "install", "--user", "root"]) == 2
    assert main(["service", "uninstall"]) == 2
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 2 and all("run it with sudo" in line for line in err)
