"""Issue 22: `conquista play` from a normal (not editable) install, on simulated devices, against its targets:
from process start to the board's first frame ≤ 8× a bare interpreter (`python -c pass`, whole process), and
the web app answering its first request ≤ 150 ms after that frame.

The install: a wheel of this checkout (`pip wheel --no-deps`) installed with `--no-deps --no-index` into a venv
under build/bench-play/, which finds the dependencies already in .venv through a path file (so nothing is
downloaded; the editable conquista of .venv stays out, as path files are only read in site directories).

The devices, faked at the libraries' boundary as tests/app does: gpiozero's mock pins (GPIOZERO_PIN_FACTORY), the
simulated Pico (`conquista sim-mcu`, the real firmware code on loopback, one process for all runs) and a stand-in
rpi_ws281x whose show() writes, on a pipe the benchmark reads, one line with the child's CPU time at the first
frame that lights an LED (the check of the devices before the board shows a dark strip first).

The web app's port is bound before the board starts, so a request sent once the frame is seen waits in the
listen queue and is answered as soon as the app serves: that answer's arrival is the second figure.

Rounds interleave the bare interpreter and `play`, so both see the same machine load (printed with the figures).
"""

from __future__ import annotations

import argparse
import os
import select
import shutil
import socket
import statistics
import subprocess
import sys
import sysconfig
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
WORK = ROOT / "build" / "bench-play"
FIRST_FRAME_RATIO_TARGET = 8.0
WEB_AFTER_FRAME_TARGET_MS = 150.0
FRAME_MARK = "first-frame"
FRAME_FD_ENV = "CONQUISTA_BENCH_FRAME_FD"
TIMEOUT_S = 30.0

# The stand-in LED library: the adapter's calls (tests/devices/fakes has the full one); the first lit frame is
# reported once on the pipe named by the environment, with the process's CPU time then.
SHIM = f'''"""rpi_ws281x stand-in written by benchmarks/bench_play_startup.py."""
import os
import time

WS2811_STRIP_GRB = WS2811_STRIP_RGB = WS2811_STRIP_RBG = WS2811_STRIP_GBR = WS2811_STRIP_BRG = \\
    WS2811_STRIP_BGR = 0
_reported = False


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
        global _reported
        if not _reported and any(self.pixels):
            _reported = True
            os.write(int(os.environ["{FRAME_FD_ENV}"]), b"{FRAME_MARK} %.6f\\n" % time.process_time())
'''


@dataclass(frozen=True)
class PlayRun:
    frame_ms: float        # process start to the first lit frame, wall
    frame_cpu_ms: float    # the child's CPU time at that frame
    web_after_ms: float    # that frame to the web app's first answer, wall
    web_cpu_ms: float      # the child's CPU time at that answer (/proc, in clock ticks: 10 ms steps)


def parse_frame_mark(line: bytes) -> float:
    """The child's CPU time in ms from the shim's line, e.g. b"first-frame 0.123456\\n" -> 123.456."""
    words = line.decode("ascii", "replace").split()
    if len(words) != 2 or words[0] != FRAME_MARK:
        raise ValueError(f"expected '{FRAME_MARK} SECONDS' from the LED stand-in, got {line!r}")
    return float(words[1]) * 1000


def cpu_ms_from_stat(stat: str, ticks_per_s: int) -> float:
    """User + system CPU time in ms from a /proc/PID/stat line (fields 14 and 15, counted after the command's
    parenthesised name, which may itself hold spaces or parentheses)."""
    fields = stat.rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) * 1000 / ticks_per_s


def child_cpu_ms(pid: int) -> float:
    return cpu_ms_from_stat(Path(f"/proc/{pid}/stat").read_text(), os.sysconf("SC_CLK_TCK"))


def status_code(head: bytes) -> int:
    """The status of an HTTP response's first line, e.g. b"HTTP/1.0 200 OK" -> 200."""
    parts = head.split(b"\r\n", 1)[0].split()
    if len(parts) < 2 or not parts[0].startswith(b"HTTP/") or not parts[1].isdigit():
        raise ValueError(f"not an HTTP status line: {head[:60]!r}")
    return int(parts[1])


def verdicts(bare_ms: list[float], runs: list[PlayRun]) -> list[tuple[str, float, float, bool]]:
    """(figure, measured, target, met) from the medians: the first frame in bare interpreters, the web app in ms."""
    ratio = statistics.median(r.frame_ms for r in runs) / statistics.median(bare_ms)
    web = statistics.median(r.web_after_ms for r in runs)
    return [("first frame / bare interpreter (×)", ratio, FIRST_FRAME_RATIO_TARGET, ratio <= FIRST_FRAME_RATIO_TARGET),
            ("web app serving after the frame (ms)", web, WEB_AFTER_FRAME_TARGET_MS, web <= WEB_AFTER_FRAME_TARGET_MS)]


def install(work: Path, source: Path) -> Path:
    """A normal install of the checkout `source` under `work`; returns its venv's bin directory."""
    wheels, venv = work / "wheel", work / "venv"
    shutil.rmtree(wheels, ignore_errors=True)
    shutil.rmtree(venv, ignore_errors=True)
    quiet = {"stdout": subprocess.DEVNULL, "check": True}
    subprocess.run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w",
                    str(wheels), str(source)], **quiet)  # type: ignore[call-overload]
    base = getattr(sys, "_base_executable", sys.executable)
    subprocess.run([base, "-m", "venv", "--without-pip", str(venv)], **quiet)  # type: ignore[call-overload]
    site = Path(subprocess.run([str(venv / "bin" / "python"), "-c", "import sysconfig; print(sysconfig.get_paths()"
                                "['purelib'])"], capture_output=True, text=True, check=True).stdout.strip())
    wheel = next(wheels.glob("conquista-*.whl"))
    # .venv's pip installs into the new venv (--python), its console script included.
    subprocess.run([sys.executable, "-m", "pip", "--python", str(venv / "bin" / "python"), "install", "-q",
                    "--no-deps", "--no-index", str(wheel)], **quiet)  # type: ignore[call-overload]
    # The dependencies from .venv, after the venv's own site-packages (so its conquista wins).
    (site / "zz-conquista-deps.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    return venv / "bin"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def bare_ms(python: Path) -> float:
    started = time.perf_counter()
    subprocess.run([str(python), "-c", "pass"], check=True)
    return (time.perf_counter() - started) * 1000


def play_once(bin_dir: Path, pico_url: str, env: dict[str, str], data: Path) -> PlayRun:
    port = free_port()
    read_end, write_end = os.pipe()
    child_env = {**env, FRAME_FD_ENV: str(write_end)}
    command = [str(bin_dir / "conquista"), "play", "--new", "--data-dir", str(data), "--sensors", pico_url,
               "--web", f"127.0.0.1:{port}"]
    started = time.perf_counter()
    proc = subprocess.Popen(command, env=child_env, pass_fds=(write_end,), stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE)
    os.close(write_end)
    try:
        ready, _, _ = select.select([read_end], [], [], TIMEOUT_S)
        line = os.read(read_end, 200) if ready else b""
        frame_at = time.perf_counter()
        if not line:
            proc.kill()
            raise RuntimeError(f"{' '.join(command)}: no frame (within {TIMEOUT_S:.0f} s): "
                               f"{proc.communicate()[1].decode(errors='replace')[-400:]}")
        cpu = parse_frame_mark(line)
        with socket.create_connection(("127.0.0.1", port), timeout=TIMEOUT_S) as conn:
            conn.sendall(b"GET / HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n")
            head = conn.recv(200)
        answered_at = time.perf_counter()
        web_cpu = child_cpu_ms(proc.pid)
        if status_code(head) != 200:
            raise RuntimeError(f"the web app answered {head[:60]!r}")
    finally:
        os.close(read_end)
        proc.kill()
        proc.wait()
    return PlayRun((frame_at - started) * 1000, cpu, (answered_at - frame_at) * 1000, web_cpu)


def report(side: str, bare: list[float], runs: list[PlayRun]) -> list[tuple[str, float, float, bool]]:
    cpu = statistics.median(r.frame_cpu_ms for r in runs)
    web_cpu = statistics.median(r.web_cpu_ms - r.frame_cpu_ms for r in runs)
    print(f"{side:<9} play, start to first frame        {statistics.median(r.frame_ms for r in runs):7.1f} ms "
          f"({min(r.frame_ms for r in runs):.1f}); its CPU by then {cpu:.1f} ms")
    print(f"{side:<9} play, first frame to web answer   {statistics.median(r.web_after_ms for r in runs):7.1f} ms "
          f"({min(r.web_after_ms for r in runs):.1f}); its CPU meanwhile {web_cpu:.0f} ms (±10)")
    return verdicts(bare, runs)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=11, help="rounds of bare interpreter + play (default 11)")
    parser.add_argument("--baseline", type=Path, metavar="DIR",
                        help="another checkout (e.g. a `git worktree` of an older commit), installed and run in turn")
    args = parser.parse_args(argv)
    WORK.mkdir(parents=True, exist_ok=True)
    (WORK / "shim").mkdir(exist_ok=True)
    (WORK / "shim" / "rpi_ws281x.py").write_text(SHIM)
    started = time.perf_counter()
    sides = {"this": install(WORK / "this", ROOT)}
    if args.baseline is not None:
        sides["baseline"] = install(WORK / "baseline", args.baseline.resolve())
    print(f"normal install of {' and '.join(sides)} in {WORK.relative_to(ROOT)} "
          f"({time.perf_counter() - started:.1f} s)", flush=True)
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONDONTWRITEBYTECODE", "PYTHONPATH")}
    env.update(PYTHONPATH=str(WORK / "shim"), GPIOZERO_PIN_FACTORY="mock", GPIOZERO_MOCK_PIN_CLASS="mockpwmpin")
    pico = subprocess.Popen([str(Path(sys.executable).with_name("conquista")), "sim-mcu"], stdout=subprocess.PIPE,
                            stdin=subprocess.PIPE, text=True)
    bare: list[float] = []
    runs: dict[str, list[PlayRun]] = {side: [] for side in sides}
    try:
        assert pico.stdout is not None
        url = next(w for w in pico.stdout.readline().split() if w.startswith("socket://"))
        with tempfile.TemporaryDirectory(dir=WORK) as tmp:
            python = sides["this"] / "python"
            bare_ms(python)
            for side, bin_dir in sides.items():   # writes the .pyc files, as an installed package has them
                play_once(bin_dir, url, env, Path(tmp) / f"warm-{side}")
            for n in range(args.runs):
                bare.append(bare_ms(python))
                for side, bin_dir in sides.items():
                    runs[side].append(play_once(bin_dir, url, env, Path(tmp) / f"{side}-{n}"))
    finally:
        pico.kill()
        pico.wait()
    load = os.getloadavg()
    print(f"load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f} on {os.cpu_count()} CPUs; {args.runs} rounds, "
          "medians (min)")
    print(f"          bare interpreter, whole process   {statistics.median(bare):7.1f} ms ({min(bare):.1f})")
    missed = False
    for side, side_runs in runs.items():
        for name, value, target, met in report(side, bare, side_runs):
            missed |= side == "this" and not met
            print(f"{side:<9} {name:<40} {value:7.1f}   target ≤ {target:g}   "
                  f"{('ok' if met else 'MISSED') if side == 'this' else ''}")
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main())
