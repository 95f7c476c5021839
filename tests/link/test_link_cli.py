"""The link's commands: link monitor, sim-mcu (as a real subprocess) and firmware deploy --dry-run."""

from __future__ import annotations

import json
import subprocess
import sys
import threading
import time

import pytest

from conquista.cli import main
from conquista.link.session import Health, HealthEvent, KeyEvent
from conquista.link.source import SerialSensorSource
from conquista_sim.pico import SimulatedPico


def test_link_monitor_prints_json_events_and_counters(capsys: pytest.CaptureFixture[str]) -> None:
    with SimulatedPico(debounce_ms=3) as pico:

        def hand() -> None:
            time.sleep(0.3)
            pico.press(8)  # row 1, col 1
            time.sleep(0.1)
            pico.release(8)

        t = threading.Thread(target=hand)
        t.start()
        assert main(["link", "monitor", pico.url, "--json", "--duration", "0.8"]) == 0
        t.join()
    rows = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    keys = [(r["key"], r["row"], r["col"], r["pressed"]) for r in rows if r["event"] == "key"]
    assert keys == [(8, 1, 1, True), (8, 1, 1, False)]
    assert any(r["event"] == "health" and r["health"] == "ok" for r in rows)
    assert rows[-1]["event"] == "counters" and rows[-1]["frames"] > 0 and rows[-1]["crc_errors"] == 0


def test_link_monitor_names_a_port_that_does_not_answer(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["link", "monitor", "socket://127.0.0.1:9"]) == 2
    err = capsys.readouterr().err
    assert "socket://127.0.0.1:9" in err and err.count("\n") == 1


def test_a_link_with_no_firmware_behind_it_is_an_error_not_a_silent_wait() -> None:
    sensors = SerialSensorSource("loop://")
    with pytest.raises(Exception, match="no conquista firmware answered"):
        sensors.start(wait_ready=0.3)


def test_sim_mcu_serves_the_firmware_and_takes_stdin_commands() -> None:
    proc = subprocess.Popen(
        [sys.executable, "-m", "conquista", "sim-mcu", "--listen", "127.0.0.1:0", "--debounce", "3"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert proc.stdout is not None and proc.stdin is not None
        banner = proc.stdout.readline()
        url = banner.split(" on ")[1].split()[0]
        assert url.startswith("socket://127.0.0.1:")
        with SerialSensorSource(url) as sensors:
            for line in ("bounce 3\n", "press 12\n", "nonsense\n"):
                proc.stdin.write(line)
                proc.stdin.flush()
            deadline = time.monotonic() + 3
            got: list[KeyEvent] = []
            while time.monotonic() < deadline and not got:
                event = sensors.get(timeout=0.1)
                if isinstance(event, KeyEvent):
                    got.append(event)
                else:
                    assert event is None or (isinstance(event, HealthEvent) and event.health is not Health.FAULT)
            assert [(e.key, e.pressed) for e in got] == [(12, True)]  # the bounce on 3 reported nothing
            assert sensors.pressed == frozenset({12})
        proc.stdin.write("quit\n")
        proc.stdin.flush()
        assert proc.wait(timeout=5) == 0
        assert proc.stderr is not None and "cannot understand 'nonsense'" in proc.stderr.read()
    finally:
        proc.kill()
        proc.wait()


def test_sim_mcu_refuses_a_non_loopback_address(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["sim-mcu", "--listen", "0.0.0.0:7000"]) == 2
    assert "loopback" in capsys.readouterr().err


def test_firmware_deploy_dry_run_lists_the_shared_codec(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["firmware", "deploy", "--dry-run"]) == 0
    out = capsys.readouterr().out
    assert ":lib/conquista/link/codec.py" in out and ":cqfw/device.py" in out and ":main.py" in out
    assert "mpremote connect PORT fs cp -r" in out
