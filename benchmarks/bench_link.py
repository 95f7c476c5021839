"""The Pico link's figures: bytes per key event, host decoding speed, and the scan tick's cost under MicroPython.

Targets (issue 5): <= 12 bytes per key event on the wire; host decoding >= 20,000 frames/s. The scan tick is a
relative figure to watch (tick cost / a bare method call, same runtime), measured under the real MicroPython
WebAssembly build (installed by `make test`), where the firmware's interpreter overheads resemble the Pico's.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "firmware"))

from conquista.link import codec  # noqa: E402
from conquista.link.frames import StreamDecoder  # noqa: E402
from conquista.link.session import LinkSession  # noqa: E402

MPY_MJS = ROOT / "build/micropython-wasm/node_modules/@micropython/micropython-webassembly-pyscript/micropython.mjs"


def key_stream(n: int) -> bytes:
    out = bytearray(codec.encode_frame(codec.T_HELLO, 0, bytes([1, 0, 1, 0, 6, 7, 10, 1])))
    out += codec.encode_frame(codec.T_SNAPSHOT, 0, bytes([0, 0, 42, 0, 0, 0, 0, 0, 0]))
    for i in range(n):
        key = (i % 42) | (codec.KEY_DOWN if i % 84 < 42 else 0)
        out += codec.encode_frame(codec.T_KEY, (i + 1) & 0xFF, bytes([key, (i >> 8) & 0xFF, i & 0xFF]))
    return bytes(out)


def best_rate(fn: object, frames: int, repeat: int = 5) -> float:
    best = float("inf")
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()  # type: ignore[operator]
        best = min(best, time.perf_counter() - t0)
    return frames / best


def main() -> int:
    ok = True
    key_bytes = len(codec.encode_frame(codec.T_KEY, 1, bytes([5 | codec.KEY_DOWN, 0x12, 0x34])))
    print(f"bytes per key event on the wire: {key_bytes} (target <= 12)")
    ok &= key_bytes <= 12

    n = 20_000
    # Only keys 0..41 alternate down/up in a way the session accepts: press all, release all, repeat.
    stream = key_stream(n)
    chunks = [stream[i : i + 64] for i in range(0, len(stream), 64)]  # USB full-speed packets are 64 bytes

    def decode_only() -> None:
        dec = StreamDecoder()
        for c in chunks:
            dec.feed(c)

    def full_session() -> None:
        s = LinkSession("bench")
        s.connected(0.0)
        for c in chunks:
            s.receive(c, 0.0)
        assert s.counters().frames == n + 2 and s.counters().gaps == 0, s.counters()

    rate = best_rate(decode_only, n)
    print(f"host decoding (COBS + CRC + split): {rate:,.0f} frames/s (target >= 20,000)")
    ok &= rate >= 20_000
    rate = best_rate(full_session, n)
    print(f"host decoding + protocol session (events built): {rate:,.0f} frames/s (target >= 20,000)")
    ok &= rate >= 20_000

    node = shutil.which("node")
    if os.environ.get("CONQUISTA_SKIP_MICROPYTHON") == "1":
        # benchmarks/run.py found no MicroPython build and has already said how to install it.
        print("scan tick under MicroPython: not measured (CONQUISTA_SKIP_MICROPYTHON=1)")
        return 0 if ok else 1
    if node is None or not MPY_MJS.is_file():
        print("scan tick under MicroPython: not measured (node or the WebAssembly build missing: run make mpy-wasm)")
        return 1
    from conftest import firmware_files  # tests/firmware/conftest.py: the Pico's file layout

    with tempfile.TemporaryDirectory() as tmp:
        manifest = Path(tmp) / "manifest.json"
        manifest.write_text(json.dumps({"files": firmware_files(), "main": str(ROOT / "tests/firmware/tick_bench.py")}))
        proc = subprocess.run(
            [node, str(ROOT / "tests/firmware/mpy_runner.mjs"), str(MPY_MJS), str(manifest)],
            capture_output=True, text=True, check=False, timeout=120,
        )  # fmt: skip
    if proc.returncode != 0:
        print(f"scan tick under MicroPython failed:\n{proc.stderr}")
        return 1
    figures = dict(line.split(" ", 1) for line in proc.stdout.splitlines())
    print(
        f"scan tick (6 x 7 matrix, debounce, no event) under MicroPython/wasm: {float(figures['TICK_US']):.1f} us "
        f"= {float(figures['RATIO']):.0f} x a bare method call (relative figure to watch)"
    )
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
