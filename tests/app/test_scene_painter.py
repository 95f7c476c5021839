"""The runner's painter repaints only what changed since the last scene; every frame it gives must still be the
frame `paint` makes of that scene from nothing, whatever the order of scenes."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from conquista.app.runner import ScenePainter, paint
from conquista.devices.frames import LedLayout
from conquista.hardware.profile import load_profile
from conquista.rules.mapdata import load_map
from conquista.table.referee_records import Scene

MAP = load_map()
LAYOUT = LedLayout(load_profile(None, MAP))
TERRITORIES = len(MAP.territories)
# A few colours, so that consecutive scenes share most of their LEDs as a game's frames do.
COLOURS = st.sampled_from([(0, 0, 0), (255, 0, 0), (0, 0, 255), (255, 255, 0), (10, 200, 30)])
DIE = st.one_of(st.none(), st.integers(1, 6))
ROW = st.tuples(DIE, DIE, DIE)
SCENES = st.builds(Scene, st.tuples(*[COLOURS] * TERRITORIES), ROW, ROW,
                   st.tuples(*[COLOURS] * LAYOUT.ring_length))


@settings(derandomize=True, max_examples=60)
@given(st.lists(SCENES, min_size=1, max_size=8), st.lists(st.integers(0, 7), max_size=8))
def test_every_frame_is_the_whole_scene_painted_afresh(scenes: list[Scene], repeats: list[int]) -> None:
    painter = ScenePainter(LAYOUT)
    # Scenes shown again in between (the same scene twice, or an earlier one back) are part of the stream too.
    stream = scenes + [scenes[i % len(scenes)] for i in repeats]
    for scene in stream:
        frame = painter.paint(scene)
        assert frame == paint(LAYOUT, scene)
        frame[0:3] = b"\x01\x02\x03"   # a strip that changes the frame it was given changes no later frame


def test_a_frame_of_few_changes_changes_only_those_leds() -> None:
    painter = ScenePainter(LAYOUT)
    dark = Scene(((0, 0, 0),) * TERRITORIES, (None, None, None), (None, None, None),
                 ((0, 0, 0),) * LAYOUT.ring_length)
    painter.paint(dark)
    one_lit = Scene(((255, 0, 0), *dark.territories[1:]), dark.attack_dice, dark.defence_dice, dark.ring)
    frame = painter.paint(one_lit)
    assert LAYOUT.territory_color(frame, 0) == (255, 0, 0)
    assert all(LAYOUT.territory_color(frame, t) == (0, 0, 0) for t in range(1, TERRITORIES))
