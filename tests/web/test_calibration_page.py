"""The calibration's page (`conquista board calibrate` serves it): the page, its live views over the WebSocket and
by polling, a phone's presses queued for the calibration (never applied by the server), and the command line's
address and QR code."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from conquista.cli import main
from conquista.web.calibration_app import MAX_QUEUED, CalibrationFeed, create_calibration_app
from tests.boardtools.calibrating import SteppedCalibration

ORIGIN = {"origin": "http://testserver"}


@pytest.fixture
def feed() -> CalibrationFeed:
    return CalibrationFeed()


def test_the_page_links_the_shared_style_and_its_script(feed: CalibrationFeed) -> None:
    with TestClient(create_calibration_app(feed, ["testserver"])) as client:
        page = client.get("/")
        assert page.status_code == 200 and "Calibrating the board" in page.text
        assert '/static/style.css' in page.text and '/static/calibrate.js' in page.text
        assert "content-security-policy" in page.headers
        for name in ("calibrate.js", "calibrate.css", "style.css"):
            assert client.get(f"/static/{name}").status_code == 200
        assert client.get("/", headers={"host": "evil.example"}).status_code == 400


def test_each_view_reaches_the_page_live_and_by_polling(tmp_path: Path, feed: CalibrationFeed) -> None:
    cal = SteppedCalibration(tmp_path, watch=feed.publish, remote=feed.commands)
    with TestClient(create_calibration_app(feed, ["testserver"])) as client:
        assert client.get("/api/calibration").json() == {"phase": "starting"}
        with client.websocket_connect("/ws", headers=ORIGIN) as ws:
            assert ws.receive_json() == {"phase": "starting"}
            cal.session.ask(0.0)      # published by the calibration's thread (here: the test's), not the server's
            view = ws.receive_json()
            assert view["target"] == "Alaska" and view["sensors"] == {"done": 0, "total": 42}
            worker = threading.Thread(target=cal.answer)
            worker.start()
            worker.join()
            view = ws.receive_json()
            assert view["target"] == "Northwest Territory" and view["history"][0]["ok"]
        assert client.get("/api/calibration").json()["target"] == "Northwest Territory"
    cal.close()


def test_a_press_is_queued_for_the_calibration_and_taken_there(tmp_path: Path, feed: CalibrationFeed) -> None:
    cal = SteppedCalibration(tmp_path, watch=feed.publish, remote=feed.commands)
    cal.answer(2)
    with TestClient(create_calibration_app(feed, ["testserver"])) as client:
        assert client.post("/api/press", content="cancel", headers=ORIGIN).json() == {"ok": True}
        assert len(cal.calibration.sensor_keys) == 2          # only queued: the server changed nothing
        cal.wait(0.1)                                          # the calibration's loop takes it, like CANCEL
        assert len(cal.calibration.sensor_keys) == 1
        assert client.get("/api/calibration").json()["target"] == "Northwest Territory"
        refused = client.post("/api/press", content="format-disk", headers=ORIGIN)
        assert refused.status_code == 400 and "unknown command" in refused.json()["error"]
        assert client.post("/api/press", content="next").status_code == 403     # no Origin: not from the page
        assert client.post("/api/press", content="next", headers={"origin": "http://evil.example"}).status_code \
            == 403
    cal.close()


def test_a_flood_of_presses_is_refused_not_queued(feed: CalibrationFeed) -> None:
    assert all(feed.press("next") == "" for _ in range(MAX_QUEUED))
    assert "too many" in feed.press("cancel")
    assert feed.commands() == ["next"] * MAX_QUEUED and feed.commands() == []


def test_a_socket_from_another_site_is_refused(feed: CalibrationFeed) -> None:
    with TestClient(create_calibration_app(feed, ["testserver"])) as client, pytest.raises(WebSocketDisconnect), \
            client.websocket_connect("/ws", headers={"origin": "http://evil.example"}) as ws:
        ws.receive_json()


def test_calibrate_prints_the_pages_address_and_qr_code(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "b.toml"
    assert main(["board", "calibrate", "--board", str(out), "--sim-wiring", "2", "--auto",
                 "--web", "127.0.0.1:0"]) == 0
    printed = capsys.readouterr().out
    first = printed.splitlines()[0]
    assert first.startswith("follow the calibration on a phone: http://127.0.0.1:") and first.endswith("/")
    assert "▀" in printed.splitlines()[2] and out.exists()
    # On a simulated board nobody stands at, the page is served only when asked for.
    assert main(["board", "calibrate", "--board", str(out), "--sim-wiring", "2", "--auto"]) == 0
    assert "follow the calibration" not in capsys.readouterr().out


def test_a_busy_port_is_one_line_before_the_board_is_opened(tmp_path: Path,
                                                            capsys: pytest.CaptureFixture[str]) -> None:
    import socket

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen(1)
        port = taken.getsockname()[1]
        assert main(["board", "calibrate", "--board", str(tmp_path / "b.toml"), "--sim-wiring", "2", "--auto",
                     "--web", f"127.0.0.1:{port}"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and str(port) in err and "busy" in err
    assert list(tmp_path.iterdir()) == []
