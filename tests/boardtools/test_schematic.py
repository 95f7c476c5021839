"""The board's netlist (plan/netlist.py), its schematic and its wiring sheet: the electrical-rules check passes on
the netlist generated from each profile and fails on a deliberately broken net (ours and SKiDL's), the schematic
names every net, and the wiring sheet draws a wire for every net."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from conquista.boardtools.diagram import PicoPins
from conquista.boardtools.kit.plan.netlist import Netlist, PinKind, Run, broken, erc, netlist
from conquista.hardware.profile import BoardProfile, StripDriver, load_profile
from conquista.rules.mapdata import load_map

MAP = load_map(None)
PINS = PicoPins([2, 3, 4, 5, 6, 7], [8, 9, 10, 11, 12, 13, 14], 16, 4, 5)
TOUCH = load_profile("classic-42-touch", MAP)
MATRIX = load_profile("classic-42", MAP)


def pico_driven(profile: BoardProfile) -> BoardProfile:
    return replace(profile, strip=replace(profile.strip, driver=StripDriver.PICO, data_pin=16))


PROFILES = {"touch": TOUCH, "matrix": MATRIX, "touch, Pico drives the LEDs": pico_driven(TOUCH)}


def moved(nl: Netlist, node: tuple[str, str], to: str) -> Netlist:
    """`node` taken off its net and put on net `to`."""
    nets = tuple(replace(n, nodes=tuple(x for x in n.nodes if x != node) + ((node,) if n.name == to else ()))
                 for n in nl.nets)
    return replace(nl, nets=nets)


@pytest.mark.parametrize("name", PROFILES)
def test_the_erc_passes_on_the_generated_netlist(name: str) -> None:
    nl = netlist(PROFILES[name], PINS)
    assert erc(nl) == []
    u1 = nl.part("U1")
    assert [p.name for p in u1.pins] == ["1OE", "1A", "1Y", "2OE", "2A", "2Y", "GND", "3Y", "3A", "3OE", "4Y",
                                         "4A", "4OE", "VCC"]
    net_of = nl.net_of()
    assert net_of[("U1", "1")] == "GND" and net_of[("U1", "14")] == "+5V"
    assert {net_of[("C2", "1")], net_of[("C2", "2")]} == {"+5V", "GND"}         # the 100 nF across the shifter
    assert {net_of[("C1", "1")], net_of[("C1", "2")]} == {"+5V", "GND"}         # the bulk capacitor
    assert net_of[("J1", "1")] == net_of[("F1", "1")] and net_of[("F1", "2")] == "+5V"   # the fuse in the + line
    assert net_of[("U1", "3")] == net_of[("R1", "1")] and net_of[("R1", "2")] == net_of[("L0", "1")]


def test_the_touch_netlist_follows_the_profile() -> None:
    nl = netlist(TOUCH, PINS)
    boards = [p for p in nl.parts if p.name == "MPR121 touch board"]
    assert len(boards) == TOUCH.sensors.rows
    pads = [n for n in nl.nets if n.name.startswith("PAD_")]
    assert sorted(n.name[4:] for n in pads) == sorted(t.id for t in MAP.territories)
    net_of = nl.net_of()
    assert [net_of.get((f"B{b}", "ADDR")) for b in range(4)] == [None, "+3V3", "SDA", "SCL"]   # 0x5A-0x5D
    assert net_of[("J2", "36")] == "BUZZER" and net_of[("R2", "2")] == net_of[("BZ1", "1")]   # piezo through 100 Ω


@pytest.mark.parametrize("name", PROFILES)
def test_the_erc_fails_on_a_broken_net(name: str) -> None:
    nl = netlist(PROFILES[name], PINS)
    assert erc(broken(nl, "GND", ("U1", "1"))) == ["U1 pin 1 (1OE) is on no net"]       # /OE left floating
    assert "net +5V: a power input and no power output (a supply) on it" in erc(broken(nl, "+5V", ("F1", "2")))
    # The shifter's output wired straight onto the 3.3 V data line: two outputs fight.
    shorted = erc(moved(nl, ("U1", "3"), "DATA_3V3"))
    assert "net DATA_3V3: 2 outputs and 0 power outputs drive it at once" in shorted
    pads = [n.name for n in nl.nets if n.name.startswith("PAD_")]
    if pads:
        assert erc(broken(nl, pads[0], nl.net(pads[0]).nodes[1])) == [
            f"net {pads[0]}: joins only 1 pin", f"{nl.net(pads[0]).nodes[1][0]} pin "
            f"{nl.net(pads[0]).nodes[1][1]} ({nl.net(pads[0]).nodes[1][1]}) is on no net"]


def skidl_erc(nl: Netlist, folder: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[int, int]:
    """SKiDL's own ERC on the netlist, each part built from its pins: (errors, warnings)."""
    monkeypatch.chdir(folder)            # SKiDL writes its log files into the working directory
    skidl = pytest.importorskip("skidl")
    from skidl.logger import erc_logger

    kinds = {PinKind.INPUT: skidl.Pin.types.INPUT, PinKind.OUTPUT: skidl.Pin.types.OUTPUT,
             PinKind.BIDIR: skidl.Pin.types.BIDIR, PinKind.PASSIVE: skidl.Pin.types.PASSIVE,
             PinKind.POWER_IN: skidl.Pin.types.PWRIN, PinKind.POWER_OUT: skidl.Pin.types.PWROUT,
             PinKind.OPEN: skidl.Pin.types.NOCONNECT}
    circuit = skidl.Circuit()
    with circuit:
        parts = {p.ref: skidl.Part(tool=skidl.SKIDL, name=p.name, ref=p.ref,
                                   pins=[skidl.Pin(num=x.number, name=x.name, func=kinds[x.kind]) for x in p.pins])
                 for p in nl.parts}
        for n in nl.nets:
            net = skidl.Net(n.name)
            for ref, number in n.nodes:
                net += parts[ref].get_pins(number)
        circuit.ERC()
    return erc_logger.error.count, erc_logger.warning.count


@pytest.mark.parametrize("name", ["touch", "matrix"])
def test_skidl_erc_passes_on_the_generated_netlist_and_fails_on_a_broken_one(
        name: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    nl = netlist(PROFILES[name], PINS)
    assert skidl_erc(nl, tmp_path, monkeypatch) == (0, 0)
    assert skidl_erc(broken(nl, "GND", ("U1", "1")), tmp_path, monkeypatch)[1] >= 1        # unconnected /OE
    assert skidl_erc(moved(nl, ("U1", "3"), "DATA_3V3"), tmp_path, monkeypatch)[0] >= 1    # output against output


def texts(fig: Any) -> set[str]:
    return {t.get_text() for ax in fig.axes for t in ax.texts}


def wire_nets(fig: Any) -> set[str]:
    """The nets a figure draws a wire for: its lines tagged net:NAME."""
    return {line.get_gid()[4:] for ax in fig.axes for line in ax.lines if (line.get_gid() or "").startswith("net:")}


@pytest.mark.parametrize("name", ["touch", "matrix"])
def test_the_schematic_names_every_net_and_pin(name: str) -> None:
    from conquista.boardtools.kit.draw.schematic_pdf import schematic_figures

    nl = netlist(PROFILES[name], PINS)
    figures = schematic_figures(nl, "test")
    shown = set().union(*(texts(fig) for fig, _ in figures))
    assert {n.name for n in nl.nets} <= shown
    assert {p.ref for p in nl.parts} <= shown
    assert all(fig.get_size_inches().round(2).tolist() == [11.69, 8.27] for fig, _ in figures)   # A4 landscape


@pytest.fixture(scope="module")
def outline() -> Any:
    pytest.importorskip("shapely")
    from conquista.boardtools.kit.build import load_outline

    return load_outline(TOUCH, None)


@pytest.mark.parametrize("name", ["touch", "matrix"])
def test_the_wiring_sheet_draws_a_wire_for_every_net(name: str, outline: Any) -> None:
    """Every net of the schematic is drawn as a wire on wiring.pdf, and every net that leaves its place (a lead,
    a feed, the I2C cable, a pad's wire, a row or column, a panel wire) on the board page itself."""
    from conquista.boardtools.kit.draw.wiring_pdf import wiring_figures, wiring_netlist
    from conquista.boardtools.kit.plan.placement import plan_layout
    from conquista.boardtools.kit.plan.routes import routes

    profile = PROFILES[name]
    layout = plan_layout(profile, outline, (680, 480))
    wires = routes(layout)
    nl = wiring_netlist(layout, wires, PINS)
    assert nl == netlist(profile, PINS, wires.shifter is not None)
    figures = wiring_figures(layout, wires, PINS)
    drawn = set().union(*(wire_nets(fig) for fig in figures))
    assert {n.name for n in nl.nets} - drawn == set()
    board = wire_nets(figures[0])
    assert {n.name for n in nl.nets if set(n.runs) - {Run.LOCAL}} - board == set()
