"""Writing a whole kit: every file into a work folder beside the destination, then moved into place in one
rename, so a failure (a bad input, a full disk, Ctrl-C) never leaves half a kit where the builder looks.

The work folder is visible and named for what it is (`kit-classic-42.incomplete-PID`), removed on any failure,
on Ctrl-C and on SIGTERM/SIGHUP; a SIGKILL cannot be caught, so the next run removes any such folder whose
process is gone. Nothing hidden is ever left beside the kit."""

from __future__ import annotations

import errno
import importlib.util
import os
import shutil
import signal
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from conquista.errors import BoardToolError
from conquista.hardware.profile import BoardProfile

KIT_LIBRARIES = ("shapely", "ezdxf", "matplotlib")
KIT_FILES = ("map.pdf", "map-a4.pdf", "map-a3.pdf", "drill-a4.pdf", "drill-a3.pdf", "drill.svg", "drill.dxf",
             "wiring.pdf", "wiring-a4.pdf", "wiring-a3.pdf", "schematic.pdf", "positions.json", "bom.csv", "bom.md")


@dataclass(frozen=True)
class KitSummary:
    size: tuple[float, float]
    tiles: dict[str, int]          # paper -> pages of map tiles (the index page not counted)
    min_spacing: float
    pads: tuple[str, ...]          # territories whose parts went on a pad in the sea
    files: tuple[str, ...]
    joints: int = 0                # the builder's solder joints, computed (plan/effort.py)
    hours: float = 0.0             # the builder's hours of work, computed
    route: str = ""                # how the board is built: "string" or "single" LEDs, and the sensor
    data_lead: float = 0.0         # mm of 5 V data wire from the level shifter to LED 0 (at most DATA_LEAD_MAX_MM)
    logic_lead: float = 0.0        # mm of 3.3 V data lead from the enclosure to the shifter board (0: in it)


def check_libraries() -> None:
    missing = [name for name in KIT_LIBRARIES if importlib.util.find_spec(name) is None]
    if missing:
        raise BoardToolError(f"board kit needs {', '.join(missing)}: pip install 'conquista[kit]'")


def load_outline(profile: BoardProfile, shapes_path: str | None) -> Any:
    """The map's shapes: a builder's own SVG, else the web map's for the classic world, else the schematic."""
    from conquista.boardtools.kit.plan.outline import schematic_outline, svg_outline
    from conquista.rules.textdata import package_text, read_utf8

    game_map = profile.game_map
    if shapes_path is not None:
        try:
            text = read_utf8(shapes_path)
        except (OSError, ValueError) as exc:
            raise BoardToolError(f"--shapes {shapes_path}: cannot read it ({exc}); give the map's SVG") from None
        return svg_outline(text, shapes_path, game_map)
    from conquista.web.layout import CLASSIC_CELLS

    # The drawn world only for the map it was drawn from (as the web app decides): a builder's map gets a schematic.
    if {t.id for t in game_map.territories} == set(CLASSIC_CELLS) and not game_map.cells:
        return svg_outline(package_text("conquista.web", "static/classic-42.svg"), "classic-42.svg (Natural Earth)",
                           game_map)
    return schematic_outline(game_map)


def _destination(out: Path) -> None:
    if out.exists() and not out.is_dir():
        raise BoardToolError(f"--out {out}: is a file; give a folder for the kit")
    if out.is_dir():
        strangers = sorted(p.name for p in out.iterdir() if p.name not in KIT_FILES)
        if strangers:
            raise BoardToolError(f"--out {out}: holds other files ({strangers[0]}, ...); give a new or empty folder, "
                                 "or a folder an earlier kit was written to")
    parent = out.absolute().parent
    if not parent.is_dir():
        raise BoardToolError(f"--out {out}: the folder {parent} does not exist; create it or choose another --out")
    if not os.access(parent, os.W_OK):
        raise BoardToolError(f"--out {out}: cannot write in {parent}; choose a folder you can write to")


def write_kit(profile: BoardProfile, outline: Any, size: tuple[float, float], papers: Sequence[str], out: Path,
              pins: Any, say: Callable[[str], None], leds: str = "string") -> KitSummary:
    from conquista.boardtools.kit.plan.board import route_for
    from conquista.boardtools.kit.plan.placement import plan_layout
    from conquista.boardtools.kit.plan.tiling import tile

    tilings = [tile(size[0], size[1], paper) for paper in papers]   # an unknown paper fails before any work
    route = route_for(profile, leds)
    _destination(out)
    say(f"laying out {profile.game_map.size} territories on {size[0]:g} × {size[1]:g} mm ...")
    layout = plan_layout(profile, outline, size, route)
    parent = out.absolute().parent
    sweep_leftovers(out)
    work = parent / f"{out.name}{INCOMPLETE}{os.getpid()}"
    try:
        work.mkdir()
    except OSError as exc:
        raise BoardToolError(f"--out {out}: cannot write in {parent} ({exc.strerror}); choose another --out") from None
    try:
        with _signals_end_the_run():
            files, work_done, wires = _write_all(layout, tilings, work, pins, say)
            _move_into_place(work, out)
    except OSError as exc:
        shutil.rmtree(work, ignore_errors=True)
        raise BoardToolError(disk_error(out, exc)) from None
    except BaseException:
        shutil.rmtree(work, ignore_errors=True)
        raise
    return KitSummary(size, {t.paper: len(t.tiles) for t in tilings}, layout.min_spacing(),
                      tuple(pad.territory for pad in layout.pads), files, work_done.joints, work_done.hours,
                      f"{layout.route.leds} LEDs, {layout.route.sensor.value} sensors", wires.data_lead,
                      wires.logic_lead)


INCOMPLETE = ".incomplete-"      # the work folder: <out><INCOMPLETE><pid>
PREVIOUS = ".previous-"          # an earlier kit set aside while the new one moves in


def disk_error(out: Path, exc: OSError) -> str:
    """One line for a write that failed: a full disk says so, anything else names the error."""
    if exc.errno in (errno.ENOSPC, errno.EDQUOT):
        return f"--out {out}: the disk is full; free some space (a kit takes about 10 MB) or choose another --out"
    where = f" ({exc.filename})" if exc.filename else ""
    return f"--out {out}: cannot write the kit{where}: {exc.strerror or exc}; choose another --out"


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def sweep_leftovers(out: Path) -> None:
    """Remove the work folders of earlier runs that were killed (their process is gone) beside `out`."""
    parent = out.absolute().parent
    for marker in (INCOMPLETE, PREVIOUS):
        for folder in parent.glob(f"{out.name}{marker}*"):
            pid = folder.name.rsplit("-", 1)[-1]
            if pid.isdigit() and int(pid) != os.getpid() and not _alive(int(pid)):
                shutil.rmtree(folder, ignore_errors=True)


class _signals_end_the_run:
    """SIGTERM and SIGHUP raise KeyboardInterrupt while the kit is written, so the work folder is removed as on
    Ctrl-C (their default kills the process with no cleanup at all). Only in the main thread, where Python
    delivers signals."""

    SIGNALS = tuple(getattr(signal, name) for name in ("SIGTERM", "SIGHUP") if hasattr(signal, name))

    def __enter__(self) -> None:
        import threading

        self.saved: list[tuple[int, Any]] = []
        if threading.current_thread() is not threading.main_thread():
            return
        for sig in self.SIGNALS:
            self.saved.append((sig, signal.signal(sig, _interrupt)))

    def __exit__(self, *exc: object) -> None:
        for sig, handler in self.saved:
            signal.signal(sig, handler)


def _interrupt(signum: int, frame: object) -> None:
    raise KeyboardInterrupt(f"signal {signum}")


def _write_all(layout: Any, tilings: Sequence[Any], work: Path, pins: Any,
               say: Callable[[str], None]) -> tuple[tuple[str, ...], Any, Any]:
    from conquista.boardtools.kit.draw.drill import drill_svg, write_dxf
    from conquista.boardtools.kit.draw.lists import bom_csv, bom_md, positions_json
    from conquista.boardtools.kit.draw.map_pdf import write_map
    from conquista.boardtools.kit.draw.schematic_pdf import write_schematic
    from conquista.boardtools.kit.draw.wiring_pdf import wiring_netlist, write_wiring
    from conquista.boardtools.kit.plan.bom import bill
    from conquista.boardtools.kit.plan.effort import effort
    from conquista.boardtools.kit.plan.routes import routes
    from conquista.boardtools.kit.plan.strings import plan_chain

    wires = routes(layout)
    chain = plan_chain(layout, wires)
    lines = bill(layout, wires, chain)
    pages = max((len(t.tiles) for t in tilings), default=0)
    work_done = effort(layout, wires, chain, pages)
    steps: list[tuple[str, Callable[[Path], object]]] = [
        ("positions.json", lambda p: p.write_text(positions_json(layout), encoding="utf-8")),
        ("bom.csv", lambda p: p.write_text(bom_csv(lines), encoding="utf-8")),
        ("bom.md", lambda p: p.write_text(bom_md(lines, layout, work_done), encoding="utf-8")),
        ("drill.svg", lambda p: p.write_text(drill_svg(layout), encoding="utf-8")),
        ("drill.dxf", lambda p: write_dxf(p, layout)),
        ("map.pdf", lambda p: write_map(p, layout)),
        *((f"map-{t.paper}.pdf", _tiles_step(layout, t)) for t in tilings),
        *((f"drill-{t.paper}.pdf", _drill_step(layout, t)) for t in tilings),
        ("wiring.pdf", lambda p: write_wiring(p, layout, wires, pins)),
        *((f"wiring-{t.paper}.pdf", _wiring_step(layout, wires, pins, t)) for t in tilings),
        ("schematic.pdf", lambda p: write_schematic(p, wiring_netlist(layout, wires, pins), layout.profile.name)),
    ]
    for number, (name, step) in enumerate(steps, start=1):
        say(f"[{number}/{len(steps)}] {name}")
        step(work / name)
    return tuple(name for name, _ in steps), work_done, wires


def _tiles_step(layout: Any, tiling: Any) -> Callable[[Path], object]:
    from conquista.boardtools.kit.draw.map_pdf import write_tiles

    return lambda p: write_tiles(p, layout, tiling)


def _wiring_step(layout: Any, wires: Any, pins: Any, tiling: Any) -> Callable[[Path], object]:
    from conquista.boardtools.kit.draw.wiring_pdf import write_wiring_tiles

    return lambda p: write_wiring_tiles(p, layout, wires, pins, tiling)


def _drill_step(layout: Any, tiling: Any) -> Callable[[Path], object]:
    from conquista.boardtools.kit.draw.drill_pdf import write_drill_tiles

    return lambda p: write_drill_tiles(p, layout, tiling)


def _move_into_place(work: Path, out: Path) -> None:
    """The finished kit replaces the destination in one rename; an earlier kit there is set aside first and
    removed only once the new one is in place."""
    old: Path | None = None
    if out.exists():
        old = out.with_name(f"{out.name}{PREVIOUS}{os.getpid()}")
        shutil.rmtree(old, ignore_errors=True)
        out.rename(old)
    try:
        work.rename(out)
    except OSError:
        if old is not None:
            old.rename(out)
        raise
    if old is not None:
        shutil.rmtree(old, ignore_errors=True)
    os.chmod(out, 0o755)
