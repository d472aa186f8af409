"""Where a phone on the same network can reach this machine."""
from __future__ import annotations

import ipaddress
import re
import socket
from pathlib import Path

FIB_TRIE = Path("/proc/net/fib_trie")


def fib_trie_addresses(text: str) -> list[str]:
    """Linux lists each local address as '|-- ADDR' followed by '/32 host LOCAL'."""
    found = []
    for match in re.finditer(r"\|-- ([0-9.]+)\n\s+/32 host LOCAL", text):
        found.append(match.group(1))
    return found


def resolver_addresses() -> list[str]:
    try:
        return [info[4][0] for info in socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET)]
    except OSError:
        return []


def reachable(address: str) -> bool:
    ip = ipaddress.ip_address(address)
    return not (ip.is_loopback or ip.is_link_local or ip.is_unspecified or ip.is_multicast)


def local_addresses(fib_text: str | None = None, resolved: list[str] | None = None) -> list[str]:
    """Every non-loopback IPv4 address of this machine, private (home Wi-Fi) ones first."""
    if fib_text is None:
        try:
            fib_text = FIB_TRIE.read_text()
        except OSError:
            fib_text = ""
    candidates = fib_trie_addresses(fib_text) + (resolver_addresses() if resolved is None else resolved)
    unique = sorted({a for a in candidates if reachable(a)},
                    key=lambda a: (not ipaddress.ip_address(a).is_private, ipaddress.ip_address(a)))
    return unique


def urls(port: int, addresses: list[str] | None = None, scheme: str = "http") -> list[str]:
    return [f"{scheme}://{address}:{port}/" for address in (local_addresses() if addresses is None else addresses)]
