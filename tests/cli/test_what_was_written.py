"""Commands that write files name the file really written (issue 13 §3)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from conquista.cli import main


def test_plot_without_a_suffix_names_the_png_it_wrote(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # Regression: `--plot DIR`-like names were written to NAME.png while the message said NAME.
    target = tmp_path / "heat"
    assert main(["odds", "--table", "3", "--plot", str(target)]) == 0
    out = capsys.readouterr().out
    assert f"heatmap written to {target}.png" in out
    assert (tmp_path / "heat.png").is_file() and not target.exists()


def test_plot_with_json_keeps_stdout_one_object(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    target = tmp_path / "odds.svg"
    assert main(["odds", "--table", "2", "--json", "--plot", str(target)]) == 0
    captured = capsys.readouterr()
    assert json.loads(captured.out)["n"] == 2
    assert captured.err == f"heatmap written to {target}\n" and target.is_file()


def test_plot_into_a_directory_is_refused_and_writes_nothing(tmp_path: Path,
                                                             capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["odds", "--table", "3", "--plot", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert err == (f"conquista: error: --plot {tmp_path} is a directory; give a picture file, e.g. "
                   f"--plot {tmp_path / 'odds.png'}\n")
    assert list(tmp_path.iterdir()) == []
    assert not Path(f"{tmp_path}.png").exists()
