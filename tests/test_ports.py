"""The test servers' port picker (tests/ports.py): outside the ephemeral range that kernels' sockets draw from."""

import socket

from tests.ports import HIGH, LOW, ephemeral_range, free_port


def test_a_free_port_is_outside_the_ephemeral_range_and_bindable():
    low, high = ephemeral_range()
    ports = {free_port() for _ in range(20)}
    assert all(LOW <= port < HIGH and not low <= port <= high for port in ports), ports
    assert len(ports) > 1  # drawn, not one fixed port that two workers would both try
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", ports.pop()))


def test_a_taken_port_is_never_handed_out(monkeypatch):
    taken = free_port()
    with socket.socket() as held:
        held.bind(("127.0.0.1", taken))
        monkeypatch.setattr("tests.ports.LOW", taken)
        monkeypatch.setattr("tests.ports.HIGH", taken + 2)
        assert free_port() != taken  # the one other port of the range, or the kernel's choice if that is taken too


def test_the_ephemeral_range_is_read_from_the_kernel(tmp_path):
    path = tmp_path / "range"
    path.write_text("40000\t50000\n")
    assert ephemeral_range(path) == (40000, 50000)
    assert ephemeral_range(tmp_path / "missing") == (32768, 60999)
