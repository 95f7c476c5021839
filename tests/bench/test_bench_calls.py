"""benchmarks/bench_calls.py counts the calls into product code of one tap: a count that moves only with the code."""

from __future__ import annotations

from benchmarks.bench_calls import board_tap, count_calls, phone_tap


def test_the_count_sees_product_code_only() -> None:
    from conquista.rules.mapdata import load_map

    assert count_calls(lambda: None)["calls"] == 0
    assert count_calls(lambda: sorted(range(100)))["calls"] == 0    # the standard library is not counted
    assert count_calls(load_map)["calls"] > 0


def test_a_board_tap_and_a_phone_tap_are_counted() -> None:
    board, phone = board_tap(), phone_tap()
    assert 0 < board["calls"] < phone["calls"] and board["files"] > 1
    assert phone["status()"] >= 1
