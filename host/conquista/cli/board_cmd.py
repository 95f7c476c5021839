"""`conquista board calibrate` writes a board profile by tapping the board; `conquista board check` self-tests a
built board (docs/building.md, steps 5 and 6)."""

from __future__ import annotations

import argparse
import time
from pathlib import Path
from typing import Any

from conquista.cli.common import add_map_option
from conquista.cli.program import as_typed
from conquista.cli.web_options import add_web_options
from conquista.errors import BoardToolError, CalibrationError, ConquistaError
from conquista.rules.textdata import load_json, read_utf8

LINGER_S = 3.0        # the end stays served this long, so a phone at the board shows it
MAX_IDLE_ANSWERS = 20  # the simulated builder's answers that change nothing before the session is declared stuck


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = subparsers.add_parser("board", help="the builder's tools: calibrate a profile, self-test, draw the wiring")
    sub = p.add_subparsers(dest="board_command", metavar="ACTION", required=True)
    c = sub.add_parser("calibrate", help="map each sensor and LED by tapping the board; writes a profile")
    c.add_argument("--board", metavar="OUT.toml", required=True, help="the profile to write")
    c.add_argument("--from", dest="base", metavar="PROFILE",
                   help="take strip, pins and counts from this profile (default: the classic-42 reference)")
    c.add_argument("--sensors", metavar="URL", help="the Pico's serial port (default: found by its USB id)")
    c.add_argument("--sim-wiring", type=int, metavar="SEED",
                   help="calibrate a simulated board wired in an order shuffled by SEED")
    c.add_argument("--auto", action="store_true", help="with --sim-wiring: a simulated builder answers")
    add_web_options(c, "port 8080 (or the next free one) on every network of the board; with --sim-wiring only "
                       "when --web is given", what="serve the calibration's page, to follow it on a phone")
    add_map_option(c)
    c.set_defaults(handler=run_calibrate)
    k = sub.add_parser("check", help="self-test a built board: LEDs, every sensor, buttons, encoder")
    k.add_argument("--board", metavar="PROFILE", help="the board's profile (default: the classic-42 reference)")
    k.add_argument("--sensors", metavar="URL", help="the Pico's serial port (default: found by its USB id)")
    k.add_argument("--sim", action="store_true", help="check a simulated board built exactly to the profile")
    k.add_argument("--auto", action="store_true", help="with --sim: a simulated builder taps and presses everything")
    k.add_argument("--timeout", type=float, default=600.0, metavar="S",
                   help="stop waiting for taps after S seconds (default: 600)")
    add_map_option(k)
    k.set_defaults(handler=run_check)
    d = sub.add_parser("diagram", help="draw the board's wiring from its profile (SVG)")
    d.add_argument("--out", metavar="FILE.svg", required=True, help="where to write the drawing")
    d.add_argument("--board", metavar="PROFILE", help="the board's profile (default: the classic-42 reference)")
    d.add_argument("--firmware-config", metavar="PATH",
                   help="the Pico's config.json, for its pins (default: firmware/config.json of this checkout)")
    add_map_option(d)
    d.set_defaults(handler=run_diagram)
    w = sub.add_parser("profile", help="write a built-in profile to a file, to start a board of your own from",
                       description="Writes one of the profiles shipped with conquista (they live in the package "
                       "only, so they are always the ones the program loads by name) to a file you can edit.")
    w.add_argument("--board", metavar="NAME", default="classic-42-touch",
                   help="the built-in profile: classic-42-touch (the reference build: pixel strings and touch "
                   "pads, the default) or classic-42 (the diode-matrix build)")
    w.add_argument("--out", metavar="FILE.toml", required=True, help="where to write it (never overwritten)")
    w.set_defaults(handler=run_profile)
    _register_kit(sub)


def _register_kit(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    k = sub.add_parser("kit", help="write what a builder prints, drills, buys and solders (PDF, SVG, DXF, lists)",
                       description="Writes the printable map (one page at 1:1, and tiled on A4/A3), the base "
                       "plate's drilling (SVG, DXF), the wiring over the map, every part's position (JSON) and the "
                       "parts list (CSV, Markdown), all computed from the board profile and the map.")
    k.add_argument("--profile", "--board", dest="board", metavar="PROFILE",
                   help="the board's profile (default: classic-42-touch, the reference build: bullet pixel strings "
                   "and MPR121 touch pads; classic-42 is the diode-matrix build)")
    k.add_argument("--size", metavar="WxH", default="680x480",
                   help="the board's width and height in mm (default: 680x480, the classic board)")
    k.add_argument("--paper", choices=None, metavar="a4|a3",
                   help="the home printer's paper for the tiled map (default: both, map-a4.pdf and map-a3.pdf)")
    k.add_argument("--out", metavar="DIR", help="the folder to write (default: kit-PROFILE-NAME)")
    k.add_argument("--shapes", metavar="SVG", help="your own drawing of the map: an SVG with a <path "
                   "data-id=\"territory id\"> per territory (default: the world map for the classic territories, "
                   "a schematic for any other map)")
    k.add_argument("--firmware-config", metavar="PATH",
                   help="the Pico's config.json, for its pins (default: firmware/config.json of this checkout)")
    k.add_argument("--leds", choices=("string", "single"), default="string",
                   help="string: pre-wired 12 mm bullet pixel strings pushed into holes (the weekend route, the "
                   "default); single: single WS2812B pixels glued and hand-wired (about three times the joints)")
    add_map_option(k)
    k.set_defaults(handler=run_kit)


KIT_PROFILE = "classic-42-touch"   # the reference build the kit draws when no profile is given


def run_kit(args: argparse.Namespace) -> int:
    from conquista.boardtools.kit.build import check_libraries, load_outline, write_kit
    from conquista.boardtools.kit.plan.board import parse_size
    from conquista.boardtools.kit.plan.effort import TARGET_HOURS, TARGET_JOINTS
    from conquista.boardtools.kit.plan.routes import DATA_LEAD_MAX_MM
    from conquista.boardtools.kit.plan.tiling import PAPERS
    from conquista.hardware.profile import load_profile
    from conquista.rules.mapdata import load_map

    size = parse_size(args.size)
    if args.paper is not None and args.paper.lower() not in PAPERS:
        raise BoardToolError(f"--paper {args.paper}: unknown paper; use {' or '.join(PAPERS)}")
    papers = [args.paper.lower()] if args.paper else list(PAPERS)
    check_libraries()
    profile = load_profile(args.board or KIT_PROFILE, load_map(args.map))
    out = Path(args.out or f"kit-{profile.name}")
    say = _printer()
    outline = load_outline(profile, args.shapes)
    summary = write_kit(profile, outline, size, papers, out, _pico_pins(args.firmware_config), say, args.leds)
    pads = ", ".join(summary.pads) or "none"
    tiles = ", ".join(f"{n} {paper.upper()} pages" for paper, n in summary.tiles.items())
    print(f"wrote {out}/: {len(summary.files)} files; board {size[0]:g} × {size[1]:g} mm, map tiled on {tiles} "
          f"(plus an index page), parts at least {summary.min_spacing:.1f} mm apart; on a pad in the sea: {pads}")
    print(f"the build ({summary.route}): {summary.joints} solder joints, {summary.hours:.1f} hours of work "
          f"(target at most {TARGET_JOINTS} joints and {TARGET_HOURS:g} h; bom.md gives them by task)")
    where = (f"the shifter board near LED 0, fed by a {summary.logic_lead:.0f} mm 3.3 V lead from the enclosure"
             if summary.logic_lead > 0 else "the shifter in the enclosure")
    print(f"data wire: {summary.data_lead:.0f} mm from the level shifter to LED 0's DIN (rule: at most "
          f"{DATA_LEAD_MAX_MM:g} mm): {where}")
    return 0


def run_calibrate(args: argparse.Namespace) -> int:
    from conquista.boardtools.calibration_at_board import CalibrationSession
    from conquista.hardware.profile import ProfileError, SensorKind, parse_profile, read_profile_data
    from conquista.rules.mapdata import load_map

    if args.auto and args.sim_wiring is None:
        raise BoardToolError("--auto plays the builder on the simulated board: add --sim-wiring SEED")
    out = Path(args.board)
    if out.suffix != ".toml":
        raise ProfileError(f"{out}: --board names the profile to write; give it a .toml name")
    game_map = load_map(args.map)
    base_data, base_source = read_profile_data(args.base)
    base = parse_profile(base_data, base_source, game_map)
    if base.sensors.kind is not SensorKind.SERIAL:
        raise ProfileError(f"{base_source}: sensors.source: calibration records the Pico's matrix keys, this "
                           "profile has GPIO sensors; write their pins by hand (hardware/README.md)")
    state_path = out.with_name(out.name + ".calibrating")
    keys = base.sensors.rows * base.sensors.cols
    calibration = _resume(state_path, game_map, base.strip.length, keys)
    say = _printer()
    web = _serve_calibration(args)
    try:
        if calibration.sensor_keys:
            say(f"resuming the calibration saved in {state_path}: "
                f"{len(calibration.sensor_keys) + len(calibration.led_owners)} answers given")
        devices = _open(args, base, game_map)
        session = CalibrationSession(calibration, devices.keys, devices.panel, devices.strip, state_path, say,
                                     watch=web.feed.publish if web else None,
                                     remote=web.feed.commands if web else None)
        try:
            _drive(session, devices.builder)
        except KeyboardInterrupt:
            session.finished("stopped at the terminal; the answers so far are saved", ok=False)
            raise CalibrationError(f"interrupted; the answers so far are saved in {state_path}: run the same "
                                   "command to carry on") from None
        finally:
            devices.close()
        _write_calibrated(out, base_data, base, calibration, session, linger=web is not None and not args.auto)
    finally:
        if web is not None:
            web.stop()
    state_path.unlink(missing_ok=True)
    return 0


def _write_calibrated(out: Path, base_data: Any, base: Any, calibration: Any, session: Any, *, linger: bool) -> None:
    """The profile from the answers; the phone is told the end (and given a moment to show it before the page
    stops being served)."""
    from conquista.boardtools.profile_writer import profile_text, write_profile

    game_map = calibration.game_map
    try:
        territory_leds, attack, defence, ring = calibration.layout()
        text = profile_text(base_data, out.stem, game_map, territory_leds, calibration.cells(base.sensors.cols),
                            attack, defence, ring)
        write_profile(out, text, game_map)
    except (ConquistaError, OSError) as exc:
        session.finished(f"not written: {exc}", ok=False)
        if linger:
            time.sleep(LINGER_S)
        raise
    done = (f"wrote {out}: {game_map.size} sensors, {base.strip.length} LEDs; check it with "
            f"`conquista board check --board {out}`")
    session.finished(done, ok=True)
    print(as_typed(done))
    if linger:
        time.sleep(LINGER_S)


def _serve_calibration(args: argparse.Namespace) -> Any:
    """The calibration's page for a phone, served unless --no-web (on a simulated board only with --web): its
    address and QR code are printed. None when not served."""
    if args.no_web or (args.sim_wiring is not None and not args.web):
        return None
    from conquista.cli.web_options import reserve_web
    from conquista.web.calibration_app import CalibrationFeed, CalibrationService
    from conquista.web.service import qr_text

    address, sock = reserve_web(args, default_host="127.0.0.1" if args.sim_wiring is not None else "0.0.0.0")
    service = CalibrationService(CalibrationFeed(), address, sock)
    url = service.start()
    print(f"follow the calibration on a phone: {url}\n{qr_text(url)}", end="", flush=True)
    return service


def _resume(state_path: Path, game_map: Any, led_count: int, keys: int) -> Any:
    from conquista.boardtools.calibration import Calibration

    if not state_path.exists():
        return Calibration(game_map, led_count, keys)
    try:
        data = load_json(read_utf8(state_path))
    except (OSError, ValueError) as exc:
        raise CalibrationError(f"{state_path}: cannot read the saved calibration ({exc}); delete the file to "
                               "start over") from None
    return Calibration.resume(data, str(state_path), game_map, led_count, keys)


def _printer() -> Any:
    def say(text: str) -> None:
        print(text, flush=True)

    return say


def _drive(session: Any, builder: Any) -> None:
    idle = 0
    while not session.done:
        question = session.ask(time.monotonic())
        if builder is None:
            time.sleep(0.01)
        else:
            builder.answer(question)
        session.pump(time.monotonic())
        idle = idle + 1 if builder is not None and session.ask(time.monotonic()) == question else 0
        if idle > MAX_IDLE_ANSWERS:
            raise CalibrationError(f"the simulated builder's answers to {question.text!r} are not taken")


class _Devices:
    def __init__(self, keys: Any, panel: Any, strip: Any, builder: Any, closers: list[Any]) -> None:
        self.keys, self.panel, self.strip, self.builder = keys, panel, strip, builder
        self._closers = closers

    def close(self) -> None:
        for close in reversed(self._closers):
            close()


def _open(args: argparse.Namespace, base: Any, game_map: Any) -> _Devices:
    if args.sim_wiring is not None:
        from conquista_sim.devices import FakeBoard
        from conquista_sim.wiring import AutoBuilder, shuffled_profile

        hidden, _ = shuffled_profile(args.sim_wiring, game_map, args.base)
        board = FakeBoard(hidden)
        if not args.auto:
            board.close()
            raise BoardToolError("the simulated board has no hands of its own: add --auto")
        return _Devices(board.keys, board.panel, board.strip, AutoBuilder(board), [board.close])
    return _open_real(args, base)


def _open_real(args: argparse.Namespace, base: Any) -> _Devices:
    """The real board: the Pico's raw keys (not mapped to territories: that is what is being found), the buttons,
    the strip as the base profile drives it; opened as `play` opens a board (conquista.app.board)."""
    from conquista.app.board import open_devices
    from conquista.devices.clock import MonotonicClock

    opened = open_devices(base, MonotonicClock(), args.sensors, keys_only=True)
    return _Devices(opened.link, opened.panel, opened.strip, None, [opened.close])


WALK_S = 0.05   # per LED: 150 LEDs walk in 7.5 s, slow enough to see a dark one
COLOUR_S = 2.0  # each colour step, long enough to look along the whole board


def run_check(args: argparse.Namespace) -> int:
    from conquista.boardtools.selftest import SelfTest
    from conquista.devices.clock import MonotonicClock
    from conquista.hardware.profile import load_profile
    from conquista.rules.mapdata import load_map

    if args.auto and not args.sim:
        raise BoardToolError("--auto plays the builder on the simulated board: add --sim")
    if args.timeout <= 0:
        raise BoardToolError(f"--timeout must be a number of seconds above 0, not {args.timeout:g}")
    game_map = load_map(args.map)
    profile = load_profile(args.board, game_map)
    test = SelfTest(profile)
    devices = _open_for_check(args, profile)
    clock = MonotonicClock()
    say = _printer()
    try:
        _colour_steps(test, devices, say)
        say(f"LEDs: lighting the {profile.strip.length} LEDs one by one along the chain; a dark one stops "
            "the chain there (look at the solder joints just before it)")
        for led in range(profile.strip.length):
            devices.strip.show(test.walk_frame(led))
            if devices.builder is None:
                time.sleep(WALK_S)
        devices.strip.show(test.frame())
        say(f"now tap every territory ({game_map.size}), press ROLL, CANCEL, NEXT and the encoder, turn the "
            "encoder both ways; Ctrl-C ends the check")
        if devices.builder is not None:
            devices.builder.run()
        deadline = clock.now() + args.timeout
        while clock.now() < deadline:
            _check_inputs(test, devices, say)
            devices.strip.show(test.frame())
            if test.complete or devices.builder is not None:
                break
            time.sleep(0.01)
    except KeyboardInterrupt:
        say("check ended")
    finally:
        devices.close()
    problems = test.problems()
    for line in problems:
        print(f"problem: {line}")
    if not problems:
        print(f"every LED lit in turn; all {game_map.size} sensors, the {len(test.buttons)} buttons and the "
              "encoder answered")
    return 1 if problems else 0


def _colour_steps(test: Any, devices: Any, say: Any) -> None:
    """Red, green, blue over the whole chain, each named: a colour-order swap is seen before anything else."""
    from conquista.boardtools.selftest import COLOUR_STEPS, colour_fixes

    order = test.profile.strip.color_order
    say(f"colours: the whole chain lights red, then green, then blue (strip.color_order = \"{order}\")")
    for name, rgb in COLOUR_STEPS:
        say(f"{name.upper()}: every LED should be {name} now")
        devices.strip.show(test.colour_frame(rgb))
        if devices.builder is None:
            time.sleep(COLOUR_S)
    for line in colour_fixes(order):
        say(line)


def _check_inputs(test: Any, devices: Any, say: Any) -> None:
    """Every key, territory and panel event since the last call, told to the self-test and named aloud."""
    from conquista.devices.events import Edge, SensorEvent
    from conquista.devices.interfaces import KeyReport

    for event in devices.keys.drain() if devices.keys is not None else []:
        if isinstance(event, KeyReport):
            line = test.key(event.key, event.pressed, event.host_time)
            if line:
                say(line)
    for sensor_event in devices.sensors.poll() if devices.sensors is not None else []:
        if isinstance(sensor_event, SensorEvent) and sensor_event.edge is Edge.PRESS:
            say(test.territory(sensor_event.territory, sensor_event.time))
    for panel_event in devices.panel.poll():
        line = test.panel(panel_event)
        if line:
            say(line)


class _CheckDevices(_Devices):
    def __init__(self, keys: Any, sensors: Any, panel: Any, strip: Any, builder: Any, closers: list[Any]) -> None:
        super().__init__(keys, panel, strip, builder, closers)
        self.sensors = sensors


def _open_for_check(args: argparse.Namespace, profile: Any) -> _CheckDevices:
    from conquista.hardware.profile import SensorKind

    serial = profile.sensors.kind is SensorKind.SERIAL
    if args.sim:
        from conquista_sim.devices import FakeBoard
        from conquista_sim.wiring import CheckBuilder

        board = FakeBoard(profile)
        # Raw keys on a matrix board (to name a key the profile does not know); territory events on a GPIO board.
        return _CheckDevices(board.keys, None if serial else board.sensors, board.panel, board.strip,
                             CheckBuilder(board) if args.auto else None, [board.close])
    if serial:
        real = _open_real(args, profile)
        _refuse_other_firmware(real, profile)
        return _CheckDevices(real.keys, None, real.panel, real.strip, None, real._closers)
    from conquista.app.board import open_devices
    from conquista.devices.clock import MonotonicClock

    opened = open_devices(profile, MonotonicClock(), args.sensors)
    assert opened.sensors is not None   # GPIO sensors: opened, mapped to territories
    return _CheckDevices(None, opened.sensors, opened.panel, opened.strip, None, [opened.close])


def _refuse_other_firmware(devices: _Devices, profile: Any) -> None:
    """The Pico's HELLO against the profile (matrix size, LED count): one line and nothing opened when they
    differ, before a builder chases a wiring fault that is a config.json."""
    from conquista.hardware.firmware_match import firmware_mismatch

    hello = getattr(devices.keys, "firmware", None)
    wrong = None if hello is None else firmware_mismatch(profile, hello.rows, hello.cols, hello.led_count)
    if wrong is not None:
        devices.close()
        raise BoardToolError(wrong)


def run_diagram(args: argparse.Namespace) -> int:
    from conquista.boardtools.diagram import diagram_svg
    from conquista.boardtools.profile_writer import write_atomically
    from conquista.hardware.profile import load_profile
    from conquista.rules.mapdata import load_map

    out = Path(args.out)
    if out.suffix != ".svg":
        raise BoardToolError(f"{out}: --out is an SVG drawing; give it a .svg name")
    profile = load_profile(args.board, load_map(args.map))
    write_atomically(out, diagram_svg(profile, _pico_pins(args.firmware_config)))
    print(f"wrote {out}")
    return 0


def run_profile(args: argparse.Namespace) -> int:
    from conquista.boardtools.profile_writer import write_atomically
    from conquista.hardware.profile import BUILT_IN
    from conquista.rules.textdata import package_text

    if args.board not in BUILT_IN:
        raise BoardToolError(f"--board {args.board}: not a built-in profile; choose one of {', '.join(BUILT_IN)}")
    out = Path(args.out)
    if out.suffix != ".toml":
        raise BoardToolError(f"{out}: --out is a board profile; give it a .toml name")
    if out.exists():
        raise BoardToolError(f"{out}: already exists; give another --out or remove it first")
    write_atomically(out, package_text("conquista.data.boards", f"{args.board}.toml"))
    print(f"wrote {out}: edit it, then pass it as --board {out}")
    return 0


def _pico_pins(path: str | None) -> Any:
    from conquista.boardtools.diagram import PicoPins

    if path is None:
        from conquista_sim.pico import SimulatedPicoError, firmware_dir

        try:
            config = firmware_dir() / "config.json"
        except SimulatedPicoError:
            raise BoardToolError("the firmware's config.json is not in this installation: pass "
                                   "--firmware-config PATH") from None
    else:
        config = Path(path)
    try:
        data = load_json(read_utf8(config))
    except (OSError, ValueError) as exc:
        raise BoardToolError(f"{config}: cannot read the firmware's pins ({exc}); pass --firmware-config with "
                               "the Pico's config.json") from None
    for key in ("row_pins", "col_pins"):
        value = data.get(key) if isinstance(data, dict) else None
        if not isinstance(value, list) or not all(isinstance(v, int) and 0 <= v <= 29 for v in value):
            raise BoardToolError(f"{config}: {key}: must be a list of Pico GP numbers 0-29; fix the file")
    led_pin = data.get("led_pin", 16)
    if not isinstance(led_pin, int) or not 0 <= led_pin <= 29:
        raise BoardToolError(f"{config}: led_pin: must be a Pico GP number 0-29; fix the file")
    i2c = [data.get(key, default) for key, default in (("i2c_sda", 4), ("i2c_scl", 5))]
    for key, value in zip(("i2c_sda", "i2c_scl"), i2c, strict=True):
        if not isinstance(value, int) or not 0 <= value <= 29:
            raise BoardToolError(f"{config}: {key}: must be a Pico GP number 0-29; fix the file")
    return PicoPins(data["row_pins"], data["col_pins"], led_pin, i2c[0], i2c[1])
