"""`conquista board kit`: positions, tiles, drilling, parts list and bad input, read back from what it writes."""

from __future__ import annotations

import csv
import itertools
import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conquista.boardtools.kit.build import load_outline
from conquista.boardtools.kit.plan.board import SENSORS, PartKind
from conquista.boardtools.kit.plan.bom import fuse_amps, supply_amps
from conquista.boardtools.kit.plan.placement import Layout, plan_layout
from conquista.boardtools.kit.plan.tiling import OVERLAP, tile
from conquista.cli import main
from conquista.errors import BoardToolError
from conquista.hardware.profile import load_profile, parse_profile
from conquista.rules.mapdata import load_map

pytest.importorskip("shapely")
MAP = load_map(None)
PROFILE = load_profile(None, MAP)              # the diode-matrix build
TOUCH = load_profile("classic-42-touch", MAP)  # the reference build: MPR121 touch pads


def own_map(tmp: Path) -> tuple[Path, Path]:
    """A builder's map of 9 territories in 2 continents, no drawing, and a profile for it."""
    ids = [f"land_{i}" for i in range(9)]
    data = {
        "name": "my-islands",
        "continents": [{"id": "north", "name_en": "North", "name_it": "Nord", "bonus": 2, "territories": ids[:5]},
                       {"id": "south", "name_en": "South", "name_it": "Sud", "bonus": 3, "territories": ids[5:]}],
        "territories": [{"id": t, "name_en": t.replace("_", " ").title(), "name_it": t, "card": "cannon"}
                        for t in ids],
        "links": [{"a": ids[i], "b": ids[i + 1], "sea": i == 4} for i in range(8)] + [
            {"a": ids[0], "b": ids[2], "sea": False}, {"a": ids[5], "b": ids[8], "sea": False}],
    }
    map_path = tmp / "my-islands.json"
    map_path.write_text(json.dumps(data), encoding="utf-8")
    leds, lines = 0, []
    for i, t in enumerate(ids):
        n = 1 + i % 3
        lines.append(f"{t} = {{ leds = {list(range(leds, leds + n))}, cell = [{i // 3}, {i % 3}] }}")
        leds += n
    dice = [[list(range(leds + 7 * d, leds + 7 * d + 7)) for d in range(3)],
            [list(range(leds + 21 + 7 * d, leds + 28 + 7 * d)) for d in range(3)]]
    ring = list(range(leds + 42, leds + 54))
    profile = "\n".join([
        'format = 1', 'name = "my-islands-board"', 'map = "my-islands"',
        "[strip]", 'driver = "pico"', f"length = {leds + 54}", "data_pin = 16", "supply_ma = 1800",
        "[sensors]", 'source = "serial"', "rows = 3", "cols = 3", "debounce_ms = 10",
        "[buttons]", "roll = 5", "cancel = 6", "next = 26", "bounce_ms = 20",
        "[encoder]", "a = 17", "b = 27", "push = 22",
        "[dice]", f"attack = {dice[0]}", f"defence = {dice[1]}",
        "[ring]", f"leds = {ring}", "[territories]", *lines]) + "\n"
    profile_path = tmp / "my-islands.toml"
    profile_path.write_text(profile, encoding="utf-8")
    return map_path, profile_path


def check_layout(layout: Layout) -> None:
    """Every point inside its territory (4 mm from its border) or on its pad, 8 mm apart, the profile's count."""
    from shapely.geometry import Point, box

    route = layout.route
    assert layout.min_spacing() >= min(route.spacing, route.sensor_clear, route.pip_pitch) - 1e-6
    pads = {pad.territory: box(pad.x - pad.width / 2, pad.y - pad.height / 2, pad.x + pad.width / 2,
                               pad.y + pad.height / 2) for pad in layout.pads}
    land = [shape for shape in layout.shapes.values()]
    for pad in pads.values():
        assert not any(pad.intersects(shape) for shape in land)
    for t in layout.profile.game_map.territories:
        own = [p for p in layout.parts if p.territory == t.id]
        assert sum(1 for p in own if p.kind in SENSORS) == 1
        assert sorted(p.led for p in own if p.kind is PartKind.LED) == sorted(layout.profile.territory_leds[t.index])
        for p in own:
            where = pads.get(t.id)
            if where is not None:
                assert where.contains(Point(p.x, p.y)), (t.id, p)
            else:
                assert layout.shapes[t.id].buffer(-route.edge + 1e-6).contains(Point(p.x, p.y)), (t.id, p)
    for p in layout.parts:
        assert 0 <= p.x <= layout.frame.width and 0 <= p.y <= layout.frame.height


@pytest.fixture(scope="module")
def classic_outline() -> Any:
    return load_outline(PROFILE, None)


def test_the_reference_board_at_its_default_size(classic_outline: Any) -> None:
    layout = plan_layout(TOUCH, classic_outline, (680, 480))
    check_layout(layout)
    pads = {pad.territory for pad in layout.pads}
    assert {"iceland", "great_britain", "madagascar", "new_guinea"} <= pads   # islands too small at 1:2.5
    assert "siberia" not in pads and "brazil" not in pads
    for pad in layout.pads:                       # a padded territory names the board at which it fits inside
        assert pad.fits_at[0] > 680


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(width=st.integers(600, 1000), height=st.integers(450, 700))
def test_positions_hold_at_any_size(classic_outline: Any, width: int, height: int) -> None:
    """The reference build from 600 × 450 mm (below it a 16 mm bullet pitch leaves the Middle East no room)."""
    check_layout(plan_layout(TOUCH, classic_outline, (width, height)))


def test_the_matrix_build_fits_at_the_classic_size_on_either_route(classic_outline: Any) -> None:
    from conquista.boardtools.kit.plan.board import route_for

    for leds in ("string", "single"):
        check_layout(plan_layout(PROFILE, classic_outline, (680, 480), route_for(PROFILE, leds)))


@settings(max_examples=5, deadline=None)
@given(width=st.integers(500, 900), height=st.integers(300, 600))
def test_positions_hold_for_a_builders_own_map(tmp_path_factory: Any, width: int, height: int) -> None:
    map_path, profile_path = own_map(tmp_path_factory.mktemp("own"))
    game_map = load_map(map_path)
    profile = load_profile(profile_path, game_map)
    check_layout(plan_layout(profile, load_outline(profile, None), (width, height)))


@pytest.mark.parametrize("paper", ["a4", "a3"])
@pytest.mark.parametrize("size", [(680, 480), (900, 600), (500, 380)])
def test_the_tiles_cover_the_board_with_overlap(paper: str, size: tuple[int, int]) -> None:
    tiling = tile(size[0], size[1], paper)
    xs = sorted({(t.x, t.x + t.width) for t in tiling.tiles})
    ys = sorted({(t.y, t.y + t.height) for t in tiling.tiles})
    for spans, length in ((xs, size[0]), (ys, size[1])):
        assert spans[0][0] <= 0 and spans[-1][1] >= length
        for (_, end), (start, _) in itertools.pairwise(spans):
            assert end - start >= OVERLAP - 1e-9
    assert len(tiling.tiles) == tiling.rows * tiling.cols


def test_the_supply_and_fuse_rule() -> None:
    assert (supply_amps(3500), fuse_amps(3500)) == (4.0, 4.0)
    for ma in range(100, 40000, 137):
        # The fuse never opens at the referee's limit, and never exceeds the supply it protects.
        assert fuse_amps(ma) * 1000 >= ma * 1.1 - 1e-6 and supply_amps(ma) >= fuse_amps(ma)
        assert supply_amps(ma) * 1000 >= ma + 500


@pytest.fixture(scope="module")
def kit(tmp_path_factory: Any) -> Path:
    out = tmp_path_factory.mktemp("kit") / "classic"
    assert main(["board", "kit", "--board", "classic-42", "--out", str(out)]) == 0
    return out


def test_the_kit_has_every_file_and_no_temporary_folder(kit: Path) -> None:
    names = {p.name for p in kit.iterdir()}
    assert names == {"map.pdf", "map-a4.pdf", "map-a3.pdf", "drill-a4.pdf", "drill-a3.pdf", "drill.svg", "drill.dxf",
                     "wiring.pdf", "wiring-a4.pdf", "wiring-a3.pdf", "schematic.pdf", "positions.json", "bom.csv",
                     "bom.md"}
    assert [p.name for p in kit.parent.iterdir()] == ["classic"]


def test_the_pdfs_have_their_pages_and_sizes(kit: Path) -> None:
    pdfium = pytest.importorskip("pypdfium2")

    def pages(name: str) -> list[tuple[int, int]]:
        return [(round(p.get_width() / 72 * 25.4), round(p.get_height() / 72 * 25.4))
                for p in pdfium.PdfDocument(kit / name)]

    assert pages("map.pdf") == [(680, 480)]
    assert pages("map-a4.pdf") == [(210, 297)] * (1 + len(tile(680, 480, "a4").tiles))
    assert pages("map-a3.pdf") == [(420, 297)] * (1 + len(tile(680, 480, "a3").tiles))
    schematic = pages("schematic.pdf")
    assert len(schematic) >= 3 and set(schematic) == {(297, 210)}
    assert pages("wiring.pdf") == [(680, 480), *schematic, (297, 210)]
    for paper, size in (("a4", (210, 297)), ("a3", (420, 297))):
        assert pages(f"drill-{paper}.pdf") == [size] * len(tile(680, 480, paper).tiles)
        assert pages(f"wiring-{paper}.pdf") == [size] * len(tile(680, 480, paper).tiles) + [(297, 210)] * (
            len(schematic) + 1)
    text = pdfium.PdfDocument(kit / "map-a4.pdf")[3].get_textpage().get_text_range()
    assert "row 1 of 2, column 3 of 4" in text


def test_the_dxf_has_a_hole_per_part(kit: Path) -> None:
    ezdxf = pytest.importorskip("ezdxf")
    positions = json.loads((kit / "positions.json").read_text(encoding="utf-8"))
    doc = ezdxf.readfile(kit / "drill.dxf")
    circles = doc.modelspace().query("CIRCLE")
    by_layer: dict[str, int] = {}
    for c in circles:
        by_layer[c.dxf.layer] = by_layer.get(c.dxf.layer, 0) + 1
    assert by_layer["SWITCH"] == MAP.size
    ring = len(PROFILE.ring)      # the ring board's LEDs sit in its one hole
    assert by_layer["LED"] == PROFILE.strip.length - ring and by_layer["RING"] == 1
    assert by_layer["BUTTON"] == 3 and by_layer["ENCODER"] == 1
    assert len(circles) == MAP.size + PROFILE.strip.length - ring + len(positions["holes"])
    centres = sorted((round(c.dxf.center.x, 1), round(480 - c.dxf.center.y, 1)) for c in circles
                     if c.dxf.layer == "SWITCH")
    assert centres == sorted(tuple(t["switch"]) for t in positions["territories"].values())


def test_positions_json_and_the_bom_follow_the_profile(kit: Path) -> None:
    positions = json.loads((kit / "positions.json").read_text(encoding="utf-8"))
    assert positions["size"] == [680, 480] and positions["profile"] == "classic-42"
    assert positions["min_spacing"] >= 15.0     # bullet pixels' 13.5 mm flanges, the dice pips at 15 mm
    for t in MAP.territories:
        assert [led["index"] for led in positions["territories"][t.id]["leds"]] == list(PROFILE.territory_leds[t.index])
    assert len(positions["dice"]) == 42 and len(positions["ring"]) == 24
    rows = list(csv.DictReader((kit / "bom.csv").open(encoding="utf-8")))
    strings = [r for r in rows if r["part"].startswith("bullet pixel string")]
    assert [r["qty"] for r in strings] == ["2", "1"]           # 84 territory pixels, 42 dice pips: 50 a string
    assert [r["part"] for r in rows if r["part"].startswith("WS2812B ring")] == ["WS2812B ring board, 24 LEDs"]
    qty = {r["part"]: r for r in rows}
    assert qty["tactile switch"]["qty"] == "42" and qty["signal diode 1N4148"]["qty"] == "42"
    assert qty["fuse, slow-blow (T), and panel holder"]["values"].startswith("4 A")
    assert {r["group"] for r in rows} == {"parts", "connectors", "mechanics", "consumables", "tools"}
    assert all(float(r["qty"]) > 0 for r in rows if r["group"] != "connectors" or "Qwiic" not in r["part"])
    bom = (kit / "bom.md").read_text(encoding="utf-8")
    assert "3500 mA" in bom and "## The work, by task" in bom


def test_the_reference_build_is_a_weekend(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The kit's default, classic-42-touch: bullet strings and MPR121 pads, at most 12 h and 300 joints, said on
    the screen and in bom.md; the former route (single pixels, a diode matrix) is measured by the same model."""
    import re

    assert main(["board", "kit", "--out", str(tmp_path / "ref"), "--paper", "a4"]) == 0
    out = capsys.readouterr().out
    said = re.search(r"\(string LEDs, touch sensors\): (\d+) solder joints, ([\d.]+) hours", out)
    assert said is not None
    lead = re.search(r"data wire: (\d+) mm from the level shifter to LED 0's DIN \(rule: at most 300 mm\)", out)
    assert lead is not None and 0 < int(lead[1]) <= 300
    joints, hours = int(said[1]), float(said[2])
    assert joints <= 300 and hours <= 12.0
    bom = (tmp_path / "ref" / "bom.md").read_text(encoding="utf-8")
    assert f"**{joints} solder joints, {hours:.1f} hours**" in bom
    table = re.findall(r"^\| ([^|*]+) \| (\d+) \| (\d+) \|$", bom, re.M)
    assert len(table) >= 8 and sum(int(j) for _, j, _ in table) == joints
    assert main(["board", "kit", "--board", "classic-42", "--leds", "single", "--out", str(tmp_path / "old"),
                 "--paper", "a4"]) == 0
    old = re.search(r"(\d+) solder joints, ([\d.]+) hours", capsys.readouterr().out)
    assert old is not None and int(old[1]) > 3 * joints and float(old[2]) > 2 * hours


def test_a_builders_own_map_makes_a_whole_kit(tmp_path: Path) -> None:
    map_path, profile_path = own_map(tmp_path)
    out = tmp_path / "kit"
    assert main(["board", "kit", "--map", str(map_path), "--profile", str(profile_path), "--paper", "a3",
                 "--out", str(out)]) == 0
    assert {p.name for p in out.iterdir()} == {"map.pdf", "map-a3.pdf", "drill-a3.pdf", "drill.svg", "drill.dxf",
                                              "wiring.pdf", "wiring-a3.pdf", "schematic.pdf", "positions.json",
                                              "bom.csv", "bom.md"}
    positions = json.loads((out / "positions.json").read_text(encoding="utf-8"))
    assert positions["drawn_from"] == "schematic from the map's links" and len(positions["territories"]) == 9


@pytest.mark.parametrize(("extra", "words"), [
    (["--size", "300x200"], "--size 300x200: too small for the map and the panel below it; give at least --size"),
    (["--size", "big"], "--size big: give the board's width and height in mm as WxH"),
    (["--size", "100000x100000"], "--size 100000x100000: the kit draws boards of at most 2000x2000 mm"),
    (["--size", "1e308x1e308"], "--size 1e308x1e308: the kit draws boards of at most 2000x2000 mm"),
    (["--paper", "letter"], "--paper letter: unknown paper; use a4 or a3"),
])
def test_bad_options_get_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str], extra: list[str],
                                  words: str) -> None:
    assert main(["board", "kit", "--out", str(tmp_path / "k"), *extra]) == 2
    err = capsys.readouterr().err.strip()
    assert words in err and "\n" not in err
    assert not (tmp_path / "k").exists()


def test_an_unwritable_folder_and_a_folder_of_other_files(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["board", "kit", "--out", str(tmp_path / "missing" / "k")]) == 2
    assert "does not exist; create it or choose another --out" in capsys.readouterr().err
    (tmp_path / "notes").mkdir()
    (tmp_path / "notes" / "shopping.txt").write_text("x", encoding="utf-8")
    assert main(["board", "kit", "--out", str(tmp_path / "notes")]) == 2
    assert "holds other files (shopping.txt" in capsys.readouterr().err


def test_a_territory_without_an_outline_is_named(tmp_path: Path) -> None:
    drawing = tmp_path / "mine.svg"
    drawing.write_text('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100">'
                       '<path data-id="alaska" d="M10,10L50,10L50,50Z"/></svg>', encoding="utf-8")
    with pytest.raises(BoardToolError, match="territory 'northwest_territory' has no outline"):
        load_outline(PROFILE, str(drawing))


def test_a_territory_too_small_everywhere_names_the_size_at_which_it_fits(tmp_path: Path) -> None:
    """A drawing all land: land_4 a speck inside land_3, no room in it and no sea wide enough for a pad."""
    map_path, profile_path = own_map(tmp_path)
    profile = load_profile(profile_path, load_map(map_path))
    cells = {i: f"M{(i % 3) * 100},{(i // 3) * 50}h100v50h-100Z" for i in range(9) if i not in (3, 4)}
    cells[3] = "M0,50h200v50h-200Z M148,74h4v2h-4Z"      # a hole for the speck
    cells[4] = "M148,74h4v2h-4Z"
    paths = "".join(f'<path data-id="land_{i}" d="{d}"/>' for i, d in cells.items())
    drawing = tmp_path / "tight.svg"
    drawing.write_text(f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 300 150">{paths}</svg>',
                       encoding="utf-8")
    with pytest.raises(BoardToolError, match=r"territory 'land_4': its 3 parts fit neither inside it nor on a pad"
                                             r" in the sea at --size 500x360; it fits inside itself from --size "
                                             r"\d+x\d+"):
        plan_layout(profile, load_outline(profile, str(drawing)), (500, 360))


def test_the_profile_of_the_own_map_is_valid(tmp_path: Path) -> None:
    map_path, profile_path = own_map(tmp_path)
    import tomllib

    parse_profile(tomllib.loads(profile_path.read_text(encoding="utf-8")), str(profile_path), load_map(map_path))


def test_a_full_disk_is_one_line_and_leaves_nothing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    import errno

    from conquista.boardtools.kit.draw import lists

    def full(*args: object) -> str:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(lists, "bom_md", full)
    assert main(["board", "kit", "--out", str(tmp_path / "k"), "--paper", "a3"]) == 2
    err = capsys.readouterr().err.strip()
    assert "--out" in err and "the disk is full; free some space" in err and "\n" not in err
    assert list(tmp_path.iterdir()) == []


def _kit_process(out: Path) -> Any:
    import subprocess
    import sys

    return subprocess.Popen([sys.executable, "-m", "conquista", "board", "kit", "--out", str(out), "--paper", "a3"],
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)


def _wait_for_work_folder(folder: Path, process: Any) -> None:
    for line in process.stdout:           # the work folder exists once the first file is announced
        if line.startswith("[1/"):
            return
    raise AssertionError("the kit ended before writing")


def test_a_terminated_kit_leaves_no_folder(tmp_path: Path) -> None:
    import signal

    out = tmp_path / "k"
    process = _kit_process(out)
    _wait_for_work_folder(tmp_path, process)
    assert [p.name for p in tmp_path.iterdir()] == [f"k.incomplete-{process.pid}"]
    process.send_signal(signal.SIGTERM)
    assert process.wait(timeout=60) == 130
    assert list(tmp_path.iterdir()) == []


def test_a_killed_kits_folder_is_visible_and_swept_by_the_next_run(tmp_path: Path) -> None:
    import signal

    from conquista.boardtools.kit.build import sweep_leftovers

    out = tmp_path / "k"
    process = _kit_process(out)
    _wait_for_work_folder(tmp_path, process)
    process.send_signal(signal.SIGKILL)
    process.wait(timeout=60)
    left = [p.name for p in tmp_path.iterdir()]
    assert left == [f"k.incomplete-{process.pid}"] and not left[0].startswith(".")
    sweep_leftovers(out)
    assert list(tmp_path.iterdir()) == []


def test_every_touch_pad_has_its_wire_to_its_board(classic_outline: Any) -> None:
    """The reference route: one wire per pad, to the board its electrode is on, and the I2C cable through all."""
    from conquista.boardtools.kit.plan.routes import routes
    from conquista.hardware.profile import MPR121_ELECTRODES

    wires = routes(plan_layout(TOUCH, classic_outline, (680, 480)))
    assert sorted(t for t, _, _ in wires.pad_wires) == sorted(t.id for t in MAP.territories)
    assert len(wires.controllers) == TOUCH.sensors.rows
    for tid, _, board in wires.pad_wires:
        key = TOUCH.sensors.key_of_territory[MAP.index(tid)]
        assert board == wires.controllers[key // MPR121_ELECTRODES]
    assert wires.i2c[0] == wires.enclosure and set(wires.i2c[1:]) == set(wires.controllers)


@pytest.mark.parametrize(("name", "leds"), [("classic-42-touch", "string"), ("classic-42", "single"),
                                           ("classic-42", "string")])
def test_every_line_of_the_bill_has_an_indicative_price_and_the_total_adds_up(classic_outline: Any, name: str,
                                                                            leds: str) -> None:
    import re

    from conquista.boardtools.kit.draw.lists import bom_md
    from conquista.boardtools.kit.plan.board import route_for
    from conquista.boardtools.kit.plan.bom import bill
    from conquista.boardtools.kit.plan.effort import effort
    from conquista.boardtools.kit.plan.prices import line_price, unit_price
    from conquista.boardtools.kit.plan.routes import routes
    from conquista.boardtools.kit.plan.strings import plan_chain

    profile = load_profile(name, MAP)
    layout = plan_layout(profile, classic_outline, (680, 480), route_for(profile, leds))
    wires = routes(layout)
    chain = plan_chain(layout, wires)
    lines = bill(layout, wires, chain)
    assert [line.part for line in lines if unit_price(line) is None] == []
    assert all(line_price(line) > 0 for line in lines)
    md = bom_md(lines, layout, effort(layout, wires, chain, 8))
    total = re.search(r"\*\*Total for the build: about (\d+) EUR\*\*", md)
    build = sum(line_price(line) for line in lines if line.group != "tools")
    assert total is not None and int(total[1]) == round(build)
    assert "**indicative**" in md and "December 2026" in md
    assert {"connectors", "mechanics"} <= {line.group for line in lines}
    assert any(line.part == "support block" and line.qty >= 1 for line in lines)
    assert any("glands" in line.values for line in lines)


def test_the_touch_drill_template_draws_each_pad_round_its_wire_hole(classic_outline: Any) -> None:
    """The reference route's template outlines the copper of every touch pad, each round its own wire's hole."""
    from matplotlib.path import Path as MplPath

    from conquista.boardtools.kit.draw.drill_pdf import drill_figure

    layout = plan_layout(TOUCH, classic_outline, (680, 480))
    _, ax, _ = drill_figure(layout, tile(680, 480, "a3"))
    pads = [MplPath(line.get_xydata()) for line in ax.lines if line.get_gid() == "touch pad"]
    holes = [p for p in layout.parts if p.kind is PartKind.TOUCH]
    assert len(pads) == len(holes) == MAP.size
    assert all(sum(pad.contains_point((p.x, p.y)) for pad in pads) == 1 for p in holes)


def test_the_data_wire_to_led_0_keeps_the_rule(classic_outline: Any) -> None:
    """The 5 V data wire from the shifter's output to LED 0 stays under 300 mm (it was 604 mm from the enclosure):
    the shifter board sits near LED 0, clear of every hole, and the long lead into it carries 3.3 V; both leads
    are in the parts list."""
    from conquista.boardtools.kit.plan.bom import bill
    from conquista.boardtools.kit.plan.routes import DATA_LEAD_MAX_MM, SHIFTER_BOARD_MM, routes
    from conquista.boardtools.kit.plan.strings import plan_chain

    layout = plan_layout(TOUCH, classic_outline, (680, 480))
    wires = routes(layout)
    led0 = wires.led_at[0]
    assert math_dist(wires.enclosure, led0) > DATA_LEAD_MAX_MM       # the case the shifter board is for
    assert wires.shifter is not None and 0 < wires.data_lead <= DATA_LEAD_MAX_MM
    assert wires.chain[0] == wires.shifter and wires.logic_lead > 0
    half = (SHIFTER_BOARD_MM[0] ** 2 + SHIFTER_BOARD_MM[1] ** 2) ** 0.5 / 2
    assert all(math_dist(wires.shifter, (p.x, p.y)) - p.hole / 2 >= half for p in layout.parts if p.hole > 0)
    leads = [line for line in bill(layout, wires, plan_chain(layout, wires)) if "extension lead" in line.part]
    assert any("shifter board to LED 0" in line.where and "0.3 m" in line.values for line in leads)
    assert any("enclosure to the shifter board" in line.where for line in leads)


@pytest.mark.parametrize("paper", ["a4", "a3"])
def test_the_drill_template_tiles_every_hole_on_the_maps_registration(kit: Path, classic_outline: Any,
                                                                     paper: str) -> None:
    """drill-a4.pdf and drill-a3.pdf: a page per map tile of that paper with the tile's window and the map's own
    registration targets, each page naming its 50 mm scale check, and every drilled hole printed with its
    diameter on the page(s) it is on."""
    import re

    pdfium = pytest.importorskip("pypdfium2")
    from conquista.boardtools.kit.draw.drill_pdf import drilled, map_registration
    from conquista.boardtools.kit.plan.tiling import REG_RADIUS

    layout = plan_layout(PROFILE, classic_outline, (680, 480))
    tiling = tile(680, 480, paper)
    holes = drilled(layout)
    assert len(holes) == sum(1 for p in layout.parts if p.hole > 0) and all(p.hole > 0 for p in holes)
    targets = map_registration(layout, tiling)
    assert targets and all(math_dist(t, (p.x, p.y)) > p.hole / 2 + REG_RADIUS for t in targets for p in holes)
    doc = pdfium.PdfDocument(kit / f"drill-{paper}.pdf")
    tiles = pdfium.PdfDocument(kit / f"map-{paper}.pdf")
    labels = supports = 0
    for number, (page, window) in enumerate(zip(doc, tiling.tiles, strict=True)):
        text = page.get_textpage().get_text_range()
        assert "scale check: this bar is 50 mm" in text
        supports += text.count("support block")
        assert f"row {window.row} of {tiling.rows}, column {window.col} of {tiling.cols}" in text
        # The same window of the board as the map's page for that tile (the map's page 1 is its index).
        shown = re.search(r"board x \d+-\d+, y \d+-\d+ mm", text)
        assert shown is not None and shown[0] in tiles[number + 1].get_textpage().get_text_range()
        labels += len(re.findall(r"Ø\d", text))
    # Every hole's diameter is printed at least once (a hole in an overlap is printed on both pages).
    assert labels >= len(holes)
    assert supports >= sum(1 for p in layout.parts if p.kind is PartKind.SUPPORT) > 0


@pytest.mark.parametrize("paper", ["a4", "a3"])
def test_every_drilled_hole_is_under_its_part_and_the_targets_are_the_maps(kit: Path, classic_outline: Any,
                                                                          paper: str) -> None:
    """The template's circles, read off its drawing: one per drilled part, at that part's place on the map (as
    positions.json gives it) and of its diameter; its registration targets are the map tiles' own."""
    from matplotlib.patches import Circle

    from conquista.boardtools.kit.draw.drill_pdf import drill_figure, drilled, map_registration
    from conquista.boardtools.kit.plan.tiling import REG_RADIUS

    layout = plan_layout(PROFILE, classic_outline, (680, 480))
    tiling = tile(680, 480, paper)
    _, ax, _ = drill_figure(layout, tiling)
    circles = [c for c in ax.patches if isinstance(c, Circle)]
    holes = [(c.get_gid(), *c.center, 2 * c.radius) for c in circles if (c.get_gid() or "").startswith("hole:")]
    assert sorted(holes) == sorted((f"hole:{p.kind.value}:{p.name}", p.x, p.y, p.hole) for p in drilled(layout))
    positions = json.loads((kit / "positions.json").read_text(encoding="utf-8"))
    for tid, spot in positions["territories"].items():
        mine = [h for h in holes if h[0].endswith(f":{tid}")]
        sensor = [h for h in mine if h[0].split(":")[1] in ("switch", "touch")]
        assert len(sensor) == 1 and math_dist(sensor[0][1:3], tuple(spot["switch"])) < 0.075  # positions.json: 0.1 mm
        leds = [h for h in mine if h[0].startswith("hole:led:")]
        assert len(leds) == len(spot["leds"])
        for led in spot["leds"]:
            assert min(math_dist(h[1:3], tuple(led["at"])) for h in leds) < 0.075
    rings = sorted((round(c.center[0], 6), round(c.center[1], 6)) for c in circles if c.radius == REG_RADIUS
                   and not c.get_gid())
    assert rings == sorted((round(x, 6), round(y, 6)) for x, y in map_registration(layout, tiling))


def math_dist(a: tuple[float, float], b: tuple[float, float]) -> float:
    return float(((a[0] - b[0]) ** 2 + (a[1] - b[1]) ** 2) ** 0.5)
