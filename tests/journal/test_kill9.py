"""kill -9 the referee at random moments during ≥ 200 bot games (issue 6).

Each worker runs the referee process (tests/journal/killdriver.py) over and over on its own data directory and
kills it at a random moment. After every kill: every state a frame had shown is in the journal (its digest equals
the digest of replaying the journal's first actions), every game that ended is marked finished with its final
digest, and the restarted referee resumes exactly the state that replaying the journal gives.

The data directories are on tmpfs (/dev/shm) when there is one: kill -9 leaves the page cache intact, so fsync
(free on tmpfs) plays no part in what this test checks, and the games run ~5x faster. Power cuts are the part of
the torn-write tests.
"""

from __future__ import annotations

import os
import random
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from tests.journal.helpers import ROOT, latest_playing, raw_rows, replay_rows

WORKERS = 3
GAMES = 201          # ended games, over all workers
KILL_AFTER_S = (0.0, 0.25)   # after the referee's first line (its start-up, ~0.2 s, is not worth killing)
# Once a worker has its kills and resumes, lives last longer so that games end between kills on a loaded machine too.
CATCH_UP_S = (0.0, 2.0)
TABLE_KILLS = 8      # and a few lives of the whole simulated board (mock pins, strip), several times slower


@dataclass
class Tally:
    games: set[int] = field(default_factory=set)
    kills: int = 0
    resumed: int = 0
    checked: int = 0
    errors: list[str] = field(default_factory=list)


def _digest_of_prefix(data_dir: Path, game_id: int, actions: int) -> tuple[str, int, str]:
    """(digest after the first `actions` actions, actions in the journal, status) from the raw journal."""
    header, rows, status = raw_rows(data_dir, game_id)
    assert len(rows) >= actions, f"game {game_id}: {actions} actions were shown, the journal has {len(rows)}"
    return replay_rows(header, rows[:actions]).digest(), len(rows), status


def _life(data_dir: Path, seed: int, games_left: int, rng: random.Random, tally: Tally,
          table: bool = False, window: tuple[float, float] = KILL_AFTER_S) -> None:
    """Start the referee, kill it at a random moment, check the journal against what it said it had shown."""
    expected = latest_playing(data_dir)
    expected_state = None
    if expected is not None:
        header, rows, _status = raw_rows(data_dir, expected)
        expected_state = (expected, len(rows), replay_rows(header, rows).digest())
    proc = subprocess.Popen([sys.executable, "-m", "tests.journal.killdriver", str(data_dir), str(seed),
                             str(games_left), *(["--table"] if table else [])],
                            cwd=ROOT, stdout=subprocess.PIPE, text=True)
    assert proc.stdout is not None
    lines: list[str] = []
    started = threading.Event()

    def read() -> None:
        for line in proc.stdout or ():
            lines.append(line)
            started.set()
        started.set()

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    started.wait(30)
    time.sleep(rng.uniform(*window) * (4 if table else 1))
    proc.kill()           # SIGKILL: no cleanup, no flush, no close
    proc.wait()
    reader.join()
    tally.kills += proc.returncode == -9
    shown: dict[int, tuple[int, str]] = {}
    for index, line in enumerate(lines):
        kind, game_id_text, actions_text, digest = line.split()
        if game_id_text == "None":
            # A new game is saved with its first action: until then it has no id, and a kill loses only its deal.
            assert kind in ("new", "shown") and int(actions_text) == 1, line
            assert index or expected_state is None, (line, expected_state)
            continue
        game_id, actions = int(game_id_text), int(actions_text)
        if index == 0:
            if kind == "resumed":
                assert (game_id, actions, digest) == expected_state, (line, expected_state)
                tally.resumed += 1
            else:
                assert kind == "new" and expected_state is None, (line, expected_state)
        if kind == "shown":
            shown[game_id] = (actions, digest)
        elif kind == "over":
            on_disk, count, status = _digest_of_prefix(data_dir, game_id, actions)
            assert (on_disk, count, status) == (digest, actions, "finished"), (line, count, status)
            tally.games.add(game_id)
    for game_id, (actions, digest) in shown.items():
        assert _digest_of_prefix(data_dir, game_id, actions)[0] == digest, f"game {game_id} at {actions}"
        tally.checked += 1


MIN_KILLS, MIN_RESUMES, MAX_LIVES = 20, 14, 400   # per worker


def _worker(data_dir: Path, number: int, games: int, tally: Tally) -> None:
    rng = random.Random(number)
    seed = number * 10_000
    lives = 0
    try:
        # How many games fit between kills depends on the machine's speed: go on until this worker has its share
        # of games, kills and resumes alike (a driver that finishes before the kill counts no kill).
        while (len(tally.games) < games or tally.kills < MIN_KILLS or tally.resumed < MIN_RESUMES) \
                and lives < MAX_LIVES:
            seed += 1
            lives += 1
            behind = tally.kills >= MIN_KILLS and tally.resumed >= MIN_RESUMES
            _life(data_dir, seed, max(1, games - len(tally.games)), rng, tally,
                  window=CATCH_UP_S if behind else KILL_AFTER_S)
    except Exception as exc:
        tally.errors.append(f"worker {number}: {type(exc).__name__}: {exc}")


@pytest.fixture
def fast_dir(tmp_path: Path) -> Iterator[Path]:
    shm = Path("/dev/shm")
    if not (shm.is_dir() and os.access(shm, os.W_OK)):
        yield tmp_path
        return
    path = Path(tempfile.mkdtemp(prefix="conquista-kill9-", dir=shm))
    try:
        yield path
    finally:
        shutil.rmtree(path, ignore_errors=True)


def test_kill_9_at_random_moments_loses_nothing_shown(fast_dir: Path) -> None:
    tmp_path = fast_dir
    tallies = [Tally() for _ in range(WORKERS)]
    per_worker = -(-GAMES // WORKERS)
    threads = [threading.Thread(target=_worker, args=(tmp_path / f"w{n}", n, per_worker, tallies[n]))
               for n in range(WORKERS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    errors = [e for t in tallies for e in t.errors]
    assert not errors, errors
    games = sum(len(t.games) for t in tallies)
    kills = sum(t.kills for t in tallies)
    print(f"{games} games, {kills} kills, {sum(t.resumed for t in tallies)} resumes, "
          f"{sum(t.checked for t in tallies)} shown states checked")
    assert games >= 200
    assert kills >= 60 and sum(t.resumed for t in tallies) >= 40


def test_kill_9_on_the_simulated_board(fast_dir: Path) -> None:
    tmp_path = fast_dir
    """The same through the whole simulated board: the journal is wired by SimulatedTable(journal=...)."""
    tally = Tally()
    rng = random.Random(99)
    for life in range(TABLE_KILLS):
        _life(tmp_path, 500 + life, 1_000, rng, tally, table=True)
    print(f"{tally.kills} kills, {tally.resumed} resumes, {tally.checked} shown states checked")
    assert tally.kills == TABLE_KILLS and tally.resumed >= TABLE_KILLS // 2 and tally.checked >= TABLE_KILLS // 2
