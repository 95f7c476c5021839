"""A committed game resumed after a power cut keeps its commitment (issue 9 §2): the secret seed waits in a file only
the board's user can read, the resumed game goes on with the same stream, and at the end the seed is revealed, the
whole game verifies and the file is gone."""

from __future__ import annotations

import re
import stat
from pathlib import Path

import pytest

from conquista.cli import main
from conquista.cli.table_dice import TableDice
from conquista.dice import sources
from conquista.dice.sources import commitment_for
from conquista.journal import JOURNAL_NAME, GameJournal, open_store
from conquista.journal.dice_secret import SECRETS_DIR
from conquista_sim import SimulatedTable

BOTS = ["--bots", "red,blue,yellow", "--think", "0.05"]
KNOWN_SECRET = bytes(range(32))


@pytest.fixture(autouse=True)
def _known_secret(monkeypatch: pytest.MonkeyPatch) -> None:
    """A committed game's secret seed comes from the OS, so which game is played, and whether it is already over
    when the power is cut, would change from run to run (it was, now and then): the dice modules draw a known seed
    instead, so every run cuts the same game at the same point. Only the seed's origin changes: it is still kept,
    committed to and revealed as any other."""
    monkeypatch.setattr(sources.CommittedDice.__init__, "__defaults__", (KNOWN_SECRET,))


def _power_cut_in_a_committed_game(data: Path, seconds: float = 40) -> tuple[str, bytes, int]:
    """A committed game on the simulated board, dropped without closing anything; (commitment, seed, actions)."""
    journal = GameJournal(data)
    journal.seats = ("greedy",) * 3
    dice = TableDice("committed", None, journal, lambda text: None)
    dice.start_new()
    table = SimulatedTable("italian", 3, bots=(0, 1, 2), think_time=0.05, journal=journal, dice=dice.chance)
    # The dice are secret, so how long a game lasts is not known in advance: cut the power early enough that it
    # is still going (a second at a time), after at least one roll.
    for _ in range(int(seconds)):
        table.advance(1.0)
        committed = dice.chance.committed()
        if table.game.turn >= 4 and committed is not None and committed.rolls > 0:
            break
    committed = dice.chance.committed()
    assert committed is not None and committed.rolls > 0 and not table.game.over
    assert committed.secret() == KNOWN_SECRET   # the known game, so the cut lands where it always does
    table.close()          # the board's pins only: the journal is never closed, as when the power goes
    return committed.commitment, committed.secret(), len(table.game.log)


def _mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def test_the_secret_is_kept_private_and_apart_from_the_journal(tmp_path: Path) -> None:
    commitment, seed, _ = _power_cut_in_a_committed_game(tmp_path, 10)
    (kept,) = (tmp_path / SECRETS_DIR).iterdir()
    assert _mode(kept) == 0o600 and _mode(tmp_path / SECRETS_DIR) == 0o700
    assert kept.read_text().strip() == seed.hex()
    # Neither the journal (its file and write-ahead log) nor the saved game's log lines hold the seed.
    for path in tmp_path.glob(JOURNAL_NAME + "*"):
        data = path.read_bytes()
        assert seed not in data and seed.hex().encode() not in data, path
    store = open_store(tmp_path)
    lines = store.log_lines(1)
    store.close()
    assert commitment in lines[0] and not any(seed.hex() in line for line in lines)


def test_a_committed_game_resumed_after_a_power_cut_keeps_its_commitment(tmp_path: Path,
                                                                          capsys: pytest.CaptureFixture[str]) -> None:
    commitment, seed, before = _power_cut_in_a_committed_game(tmp_path)
    # Resumed by a new process, whatever --dice says: the saved game's own stream goes on.
    assert main(["sim", "--demo", "--resume", "--data-dir", str(tmp_path), *BOTS]) == 0
    out = capsys.readouterr().out
    assert f"game 1 goes on with commitment {commitment}" in out
    revealed = re.search(r"committed dice: the seed was ([0-9a-f]{64})", out)
    assert revealed and revealed.group(1) == seed.hex() and commitment_for(seed) == commitment
    store = open_store(tmp_path)
    (game,) = store.games()
    store.close()
    assert game.finished and game.actions > before
    assert not list((tmp_path / SECRETS_DIR).iterdir())          # revealed: the private copy is removed
    # The whole game, before and after the cut, is the committed stream's: deal, card draws and rolls.
    assert main(["dice", "audit", "1", "--data-dir", str(tmp_path), "--verify-seed", seed.hex()]) == 0
    audit = capsys.readouterr().out
    assert "matches the commitment" in audit and audit.rstrip().endswith("PASS")
    assert "committed deal and card draws: the seed deals this game and draws all" in audit


def test_an_unfinished_game_keeps_its_secret_through_a_normal_quit(tmp_path: Path,
                                                                    capsys: pytest.CaptureFixture[str]) -> None:
    commitment, _, _ = _power_cut_in_a_committed_game(tmp_path, 10)
    script = tmp_path / "s.txt"
    script.write_text("wait 1\n")
    # Red is a person who does not move: the bots play up to red's turn and the script quits, the game unfinished.
    for _ in range(2):
        assert main(["sim", "--script", str(script), "--resume", "1", "--data-dir", str(tmp_path),
                     "--bots", "blue,yellow", "--think", "0.05"]) == 0
        out = capsys.readouterr().out
        assert f"game 1 goes on with commitment {commitment}" in out
        assert "the game is not over, so the seed stays secret" in out
        (kept,) = (tmp_path / SECRETS_DIR).iterdir()
        assert _mode(kept) == 0o600


def test_without_its_secret_a_committed_game_cannot_go_on(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _power_cut_in_a_committed_game(tmp_path, 10)
    for kept in (tmp_path / SECRETS_DIR).iterdir():
        kept.unlink()
    script = tmp_path / "s.txt"
    script.write_text("wait 1\n")
    assert main(["sim", "--script", str(script), "--resume", "1", "--data-dir", str(tmp_path), *BOTS]) == 2
    err = capsys.readouterr().err
    assert "game 1 was played with committed dice and its secret seed is not kept" in err and "--new" in err
    # Offered at start-up (nothing asked for), it is passed over and a new game starts.
    from conquista.journal import open_for_play

    warnings: list[str] = []
    start = open_for_play(tmp_path, None, warnings.append)
    assert start.offer is not None
    dice = TableDice("seeded", 3, start.journal, lambda text: None)
    assert dice.game_to_play(start, lambda: None, warnings.append) is None
    assert start.offer is None and "a new game starts" in warnings[-1]
    start.journal.close()


def test_a_wrong_seed_file_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _power_cut_in_a_committed_game(tmp_path, 10)
    (kept,) = (tmp_path / SECRETS_DIR).iterdir()
    kept.write_text("00" * 32 + "\n")
    script = tmp_path / "s.txt"
    script.write_text("wait 1\n")
    assert main(["sim", "--script", str(script), "--resume", "1", "--data-dir", str(tmp_path), *BOTS]) == 2
    assert "the saved committed seed does not give this game's deal" in capsys.readouterr().err
