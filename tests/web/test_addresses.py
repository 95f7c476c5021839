"""The address phones are shown and the Host names the server takes, on a board with and without a default route
(a board on its own Wi-Fi, with no internet, has none)."""

from __future__ import annotations

import socket
from typing import Any

import pytest
from starlette.testclient import TestClient

from conquista.web import service
from conquista.web.server import create_app
from tests.web.helpers import make_board


def no_route(self: socket.socket, address: Any) -> None:
    raise OSError(101, "Network is unreachable")


def host_name_resolves_to(*addresses: str) -> Any:
    def getaddrinfo(host: str, port: object, family: int = 0, *rest: object) -> list[Any]:
        return [(socket.AF_INET, socket.SOCK_DGRAM, 17, "", (a, 0)) for a in addresses]
    return getaddrinfo


@pytest.fixture
def own_wifi(monkeypatch: pytest.MonkeyPatch) -> None:
    """No default route; the host name is 127.0.1.1 (Debian's /etc/hosts); the interfaces: lo, a link-local
    address, the access point's 192.168.4.1."""
    monkeypatch.setattr(socket.socket, "connect", no_route)
    monkeypatch.setattr(socket, "getaddrinfo", host_name_resolves_to("127.0.1.1"))
    monkeypatch.setattr(service, "_interface_addresses", lambda: ["127.0.0.1", "169.254.7.7", "192.168.4.1"])


def test_without_a_default_route_the_board_shows_its_wifi_address(own_wifi: None) -> None:
    assert service.lan_address() == "192.168.4.1"
    assert service.board_addresses() == ["192.168.4.1", "169.254.7.7"]   # private first, link-local last


def test_without_any_address_but_loopback_it_says_127_0_0_1(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(socket.socket, "connect", no_route)
    monkeypatch.setattr(socket, "getaddrinfo", host_name_resolves_to("127.0.1.1"))
    monkeypatch.setattr(service, "_interface_addresses", lambda: ["127.0.0.1"])
    assert service.lan_address() == "127.0.0.1"


def test_the_host_name_s_address_counts_too(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(socket.socket, "connect", no_route)
    monkeypatch.setattr(socket, "getaddrinfo", host_name_resolves_to("127.0.1.1", "10.0.0.7"))
    monkeypatch.setattr(service, "_interface_addresses", lambda: [])
    assert service.lan_address() == "10.0.0.7"


def test_phones_reaching_any_of_the_board_s_addresses_are_served(own_wifi: None) -> None:
    hosts = service.allowed_hosts("0.0.0.0", service.lan_address())
    assert {"192.168.4.1", "169.254.7.7", "127.0.0.1", "localhost"} <= set(hosts)
    board = make_board(record=False)
    app, _hub = create_app(board.companion, hosts)
    board.step()
    with TestClient(app, base_url="http://192.168.4.1:8080") as client:
        assert client.get("/api/public").status_code == 200
        assert client.get("/api/public", headers={"host": "169.254.7.7:8080"}).status_code == 200
        assert client.get("/api/public", headers={"host": "rebind.example"}).status_code == 400


def test_bound_to_one_address_only_that_one_and_this_machine(own_wifi: None) -> None:
    assert service.allowed_hosts("192.168.4.1", "192.168.4.1") == ["127.0.0.1", "192.168.4.1", "localhost"]


def test_the_interfaces_are_read_without_extra_libraries() -> None:
    found = service._interface_addresses()
    assert all(socket.inet_aton(a) for a in found)   # dotted quads (none on a system without SIOCGIFADDR)
