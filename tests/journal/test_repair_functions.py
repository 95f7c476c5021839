"""The repair works on what it is given (a connection, the journal's and the backup's paths, a warning sink) and
returns what it found: no store needed, so the store and the repair do not import each other."""

from __future__ import annotations

from pathlib import Path

from conquista.journal import JOURNAL_NAME, GameJournal
from conquista.journal.integrity import connect, game_ids, read_game, transaction
from conquista.journal.repair import from_backup, restore_salvage, set_damaged_file_aside
from conquista.journal.schema import SCHEMA, SCHEMA_VERSION
from tests.journal.helpers import attach, bot_referee, play


def _journal_with_a_game(data_dir: Path) -> Path:
    journal = GameJournal(data_dir)
    referee = bot_referee(3)
    attach(journal, referee)
    play(referee, 40)
    journal.close()
    return data_dir / JOURNAL_NAME


def test_a_game_the_backup_does_not_hold_is_refused_by_name(tmp_path: Path) -> None:
    warnings: list[str] = []
    game, refused = from_backup(tmp_path / JOURNAL_NAME, tmp_path / "none.backup", 5, "a bad checksum",
                                warnings.append)
    assert game is None and "game 5" in refused and "refused" in refused and warnings == []


def test_a_damaged_file_is_set_aside_and_its_whole_games_written_into_a_new_one(tmp_path: Path) -> None:
    path = _journal_with_a_game(tmp_path)
    backup = path.with_name(path.name + ".backup")
    warnings: list[str] = []
    old = connect(path, isolation_level=None)
    before = read_game(old, 1)
    salvage = set_damaged_file_aside(old, path, backup, "a page is damaged", warnings.append)
    assert sorted(salvage.whole) == [1] and salvage.broken == {}
    assert path.with_name(path.name + ".damaged").exists() and path.stat().st_size == 0
    new = connect(path, isolation_level=None)
    try:
        with transaction(new):
            for statement in SCHEMA.split(";"):
                if statement.strip():
                    new.execute(statement)
            new.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")   # the header checksums' version
        restore_salvage(new, path, backup, salvage, warnings.append)
        assert game_ids(new) == [1] and read_game(new, 1) == before
    finally:
        new.close()
    assert len(warnings) == 1 and "kept as" in warnings[0]
