"""Issue 22 §5: `make test-fast` runs the rules and bots tests against the compiled core; this proves it is the one
running there (elsewhere the pure sources run, and this test is skipped)."""

from __future__ import annotations

import os

import pytest

import conquista.bots.greedy
import conquista.bots.simulate
import conquista.rules.combat
import conquista.rules.engine


@pytest.mark.skipif(not os.environ.get("CONQUISTA_EXPECT_COMPILED"), reason="only under `make test-fast`")
def test_the_compiled_modules_are_the_ones_imported() -> None:
    for module in (conquista.rules.engine, conquista.rules.combat, conquista.bots.greedy, conquista.bots.simulate):
        assert module.__file__ is not None and module.__file__.endswith(".so"), module.__file__
