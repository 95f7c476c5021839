"""Issue 13 §2–3: an unfinished game's secrets stay hidden unless --reveal; `sim` seeds from the OS and records the
seed; the data directory and the journal's files are private; no empty game is saved; resuming keeps the seats."""

from __future__ import annotations

import json
import os
import random
import sqlite3
import stat
from collections.abc import Iterator
from pathlib import Path

import pytest

from conquista.cli import main
from conquista.dice.chance import new_game
from conquista.journal import JOURNAL_NAME, GameJournal, open_store
from conquista.rules.mapdata import load_map
from conquista.rules.missions import mission_text
from conquista.rules.rulesets import load_ruleset
from conquista.table.logview import mission_as_it_stands
from tests.journal.helpers import attach, bot_referee, play


@pytest.fixture
def unfinished(tmp_path: Path) -> tuple[Path, list[str]]:
    """A saved unfinished italian game (missions) in which cards were drawn; returns the dir and the missions."""
    import random as _random

    from conquista.dice.sources import SeededDice
    from conquista.table.referee import Referee

    rng = _random.Random(5)
    game = new_game(load_ruleset("italian"), load_map(), 3, rng)
    referee = Referee(game, SeededDice(rng=rng))
    journal = GameJournal(tmp_path)
    attach(journal, referee)
    play(referee, 160)
    assert not referee.game.over and any(referee.game.hands) and referee.game.missions
    journal.close()
    # Both as dealt and as `games show` words them (a destroy mission whose colour is not in play reads as its
    # fallback): neither may show while the game is unfinished.
    dealt = [mission_text(m, game.rules.colours) for m in referee.game.missions]
    return tmp_path, [*dealt, *(mission_as_it_stands(referee.game, p) for p in range(referee.game.players))]


def _no_secret(text: str, missions: list[str]) -> None:
    assert not any(m in text for m in missions), text
    assert "(secret)" not in text and "secret mission of" not in text


def test_replay_and_games_show_hide_an_unfinished_games_secrets(unfinished: tuple[Path, list[str]],
                                                                 capsys: pytest.CaptureFixture[str]) -> None:
    data_dir, missions = unfinished
    d = ["--data-dir", str(data_dir)]
    assert main(["replay", "1", *d]) == 0
    out = capsys.readouterr().out
    _no_secret(out, missions)
    digest = open_store(data_dir).load(1)[1].digest()
    assert "--reveal" in out and digest not in out
    assert main(["replay", "1", "--json", *d]) == 0
    shown = json.loads(capsys.readouterr().out)
    assert shown["state"]["missions"] is None and shown["digest"] is None
    assert all(isinstance(h, int) for h in shown["state"]["hands"]) and isinstance(shown["state"]["deck"], int)
    assert main(["games", *d, "show", "1", "--json"]) == 0
    shown = json.loads(capsys.readouterr().out)
    assert shown["state"]["missions"] is None and shown["digest"] is None and "--reveal" in shown["hidden"]
    assert main(["games", *d, "show", "1"]) == 0
    _no_secret(capsys.readouterr().out, missions)
    # Asked for explicitly, they are shown.
    assert main(["replay", "1", "--reveal", *d]) == 0
    out = capsys.readouterr().out
    assert out.count("secret mission of ") == 3 and f"digest {digest}" in out
    assert main(["games", *d, "show", "1", "--json", "--reveal"]) == 0
    shown = json.loads(capsys.readouterr().out)
    assert len(shown["state"]["missions"]) == 3 and shown["digest"]
    assert main(["games", *d, "show", "1", "--reveal"]) == 0
    out = capsys.readouterr().out
    assert all(m in out for m in missions[3:]) and "hand: " in out


def test_the_reveal_help_says_what_it_shows(capsys: pytest.CaptureFixture[str]) -> None:
    for argv in (["replay", "--help"], ["games", "show", "--help"]):
        with pytest.raises(SystemExit):
            main(argv)
        text = " ".join(capsys.readouterr().out.split())
        assert "--reveal" in text and "mission" in text and "cards in hand" in text


def test_a_finished_game_shows_its_secrets(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    journal = GameJournal(tmp_path)
    referee = bot_referee(1)
    attach(journal, referee)
    play(referee, 10_000)
    journal.close()
    assert referee.game.over
    assert main(["games", "--data-dir", str(tmp_path), "show", "1", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["digest"] == referee.game.digest()


def _sim(data_dir: Path, *extra: str) -> None:
    script = data_dir.parent / "script.txt"
    script.write_text("wait 20\n")
    assert main(["sim", "--script", str(script), "--bots", "0,1,2", "--think", "0.1", "--data-dir", str(data_dir),
                 *extra]) == 0


def _seed_and_deal(data_dir: Path, game_id: int) -> tuple[int, str]:
    conn = sqlite3.connect(data_dir / JOURNAL_NAME)
    try:
        seed, deal = conn.execute("SELECT g.seed, a.action FROM games g JOIN actions a ON a.game = g.id "
                                  "WHERE g.id = ? AND a.seq = 0", (game_id,)).fetchone()
    finally:
        conn.close()
    return int(seed), deal


def test_sim_draws_its_seed_from_the_os_and_records_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import time

    monkeypatch.setattr(time, "time", lambda: 1_700_000_000.0)   # the same start time for both games
    _sim(tmp_path / "a")
    _sim(tmp_path / "b")
    (seed_a, deal_a), (seed_b, deal_b) = _seed_and_deal(tmp_path / "a", 1), _seed_and_deal(tmp_path / "b", 1)
    assert seed_a != seed_b and deal_a != deal_b
    # The recorded seed is the one the game was dealt from.
    store = open_store(tmp_path / "a")
    game = store.load(1)[1]
    store.close()
    rebuilt = new_game(game.rules, game.map, game.players, random.Random(seed_a))
    assert rebuilt.log[0] == game.log[0]
    # ... and it is no public information.
    assert str(seed_a) not in json.dumps([g.to_json() for g in open_store(tmp_path / "a").games()])


@pytest.fixture
def permissive_umask() -> Iterator[None]:
    old = os.umask(0)
    try:
        yield
    finally:
        os.umask(old)


def _mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def test_a_new_data_dir_and_the_journal_files_are_private(tmp_path: Path, permissive_umask: None) -> None:
    data_dir = tmp_path / "new" / "conquista"
    journal = GameJournal(data_dir)
    referee = bot_referee(3)
    attach(journal, referee)
    play(referee, 30)
    files = [p for p in data_dir.iterdir()]
    assert {p.name for p in files} >= {JOURNAL_NAME, f"{JOURNAL_NAME}-wal", f"{JOURNAL_NAME}-shm"}
    assert _mode(data_dir) == 0o700 and all(_mode(p) == 0o600 for p in files), [(p, oct(_mode(p))) for p in files]
    journal.close()                              # writes the backup
    files = [p for p in data_dir.iterdir()]
    assert f"{JOURNAL_NAME}.backup" in {p.name for p in files}
    assert all(_mode(p) == 0o600 for p in files), [(p, oct(_mode(p))) for p in files]


def test_an_existing_world_readable_journal_is_made_private(tmp_path: Path, permissive_umask: None) -> None:
    journal = GameJournal(tmp_path)
    referee = bot_referee(3)
    attach(journal, referee)
    play(referee, 5)
    journal.close()
    (tmp_path / JOURNAL_NAME).chmod(0o644)      # as older versions left it
    assert main(["games", "--data-dir", str(tmp_path), "--json"]) == 0
    assert _mode(tmp_path / JOURNAL_NAME) == 0o600


def test_a_failed_play_saves_no_game(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "--data-dir", str(tmp_path), "--new", "--sensors", "socket://127.0.0.1:9"]) == 2
    assert capsys.readouterr().err.count("\n") == 1
    assert main(["games", "--data-dir", str(tmp_path), "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == []


def test_a_sim_quit_before_any_move_saves_no_game(tmp_path: Path) -> None:
    script = tmp_path / "script.txt"
    script.write_text("")                       # quits at once; seat 0 is human so nobody moved
    for _ in range(2):
        assert main(["sim", "--script", str(script), "--seed", "3", "--data-dir", str(tmp_path), "--new"]) == 0
    assert open_store(tmp_path).games() == []
    assert GameJournal(tmp_path).latest_unfinished() is None


def test_a_dealt_but_unplayed_game_of_an_older_journal_is_not_offered(tmp_path: Path) -> None:
    journal = GameJournal(tmp_path)
    referee = bot_referee(3)
    attach(journal, referee)
    play(referee, 3)
    journal.close()
    conn = sqlite3.connect(tmp_path / JOURNAL_NAME)
    with conn:
        conn.execute("DELETE FROM actions WHERE seq > 0")
        conn.execute("UPDATE games SET length = 1")
    conn.close()
    assert GameJournal(tmp_path).latest_unfinished() is None


def test_resuming_without_bots_keeps_the_saved_seats(tmp_path: Path) -> None:
    dealt = new_game(load_ruleset("italian"), load_map(), 3, random.Random(4))   # what `sim --seed 4` deals
    mine = next(dealt.map.id(t) for t in range(dealt.map.size) if dealt.owner[t] == 0)
    script = tmp_path / "script.txt"
    script.write_text("wait 5\n" + f"{mine}\n" * 3 + "wait 5\n")   # seat 0 (human) places 3; bots play around it
    base = ["sim", "--script", str(script), "--think", "0.1", "--data-dir", str(tmp_path)]
    assert main([*base, "--bots", "1,2", "--seed", "4"]) == 0
    (info,) = open_store(tmp_path).games()
    assert info.seats == ("human", "normal", "normal")
    assert main([*base, "--resume", str(info.id), "--seed", "5"]) == 0   # no --bots
    (again,) = open_store(tmp_path).games()
    # All-human seats would have stopped after seat 0's three armies; the bots played on.
    assert again.actions > info.actions + 3 and again.seats == info.seats
    journal = GameJournal(tmp_path)
    journal.resume(info.id)
    assert journal.seats == ("human", "normal", "normal")
    journal.close()
