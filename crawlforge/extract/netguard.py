"""Which hosts and addresses a crawler must not fetch: the SSRF classification, without I/O.

A URL host is refused when it is, or (checked by the caller after DNS) resolves to, an address
that is not globally routable: loopback, private, link-local, shared (CGNAT), multicast,
reserved, unspecified, or a cloud metadata endpoint. Hosts are read the way a browser's URL
parser reads them, so ``2130706433``, ``0x7f.1`` and ``0177.0.0.1`` are all 127.0.0.1, and an
IPv6 address that embeds an IPv4 one (``::ffff:169.254.169.254``, 6to4, NAT64) is judged by it.
"""

from __future__ import annotations

import ipaddress
import re

IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address

# Instance-metadata services (AWS, GCP, Azure, Oracle, Alibaba, AWS IPv6).
METADATA_ADDRESSES = frozenset(ipaddress.ip_address(a) for a in (
    "169.254.169.254", "169.254.170.2", "192.0.0.192", "100.100.100.200", "fd00:ec2::254",
))
METADATA_NAMES = frozenset({"metadata", "metadata.google.internal", "instance-data",
                            "instance-data.ec2.internal"})
LOCALHOST_NAMES = frozenset({"localhost", "localhost.localdomain", "ip6-localhost",
                             "ip6-loopback", "localhost6", "localhost6.localdomain6"})
NAT64_PREFIX = ipaddress.ip_network("64:ff9b::/96")
SHARED_NETWORK = ipaddress.ip_network("100.64.0.0/10")
_NUMBER = re.compile(r"0[xX][0-9a-fA-F]*|0[0-7]*|[1-9][0-9]*")


def _ipv4_part(part: str) -> int | None:
    """One part of a WHATWG IPv4 host: decimal, 0x hex or 0-led octal; None if not a number."""
    if not _NUMBER.fullmatch(part):
        return None
    if part[:2].lower() == "0x":
        return int(part[2:] or "0", 16)
    if len(part) > 1 and part[0] == "0":
        return int(part, 8)
    return int(part)


def parse_ipv4(host: str) -> ipaddress.IPv4Address | None:
    """The address of a host written in any IPv4 notation (1 to 4 parts), else None."""
    parts = host.split(".")
    if len(parts) > 1 and parts[-1] == "":
        parts.pop()
    if not 1 <= len(parts) <= 4:
        return None
    numbers = [_ipv4_part(p) for p in parts]
    if None in numbers or any(n > 255 for n in numbers[:-1]):
        return None
    if numbers[-1] >= 256 ** (5 - len(numbers)):
        return None
    value = numbers[-1]
    for index, number in enumerate(numbers[:-1]):
        value += number << (8 * (3 - index))
    return ipaddress.IPv4Address(value)


def parse_host(host: str) -> IPAddress | None:
    """The IP address a URL host names literally (``[::1]``, ``127.1``...), else None."""
    host = host.strip().lower()
    if host.startswith("[") and host.endswith("]"):
        host = host[1:-1]
    if ":" in host:
        try:
            return ipaddress.IPv6Address(host.split("%", 1)[0])
        except ValueError:
            return None
    return parse_ipv4(host)


def embedded_ipv4(ip: ipaddress.IPv6Address) -> ipaddress.IPv4Address | None:
    """The IPv4 address an IPv6 one carries: IPv4-mapped, 6to4, NAT64 or IPv4-compatible."""
    if ip.ipv4_mapped:
        return ip.ipv4_mapped
    if ip.sixtofour:
        return ip.sixtofour
    if ip in NAT64_PREFIX:
        return ipaddress.IPv4Address(int(ip) & 0xFFFFFFFF)
    if int(ip) >> 32 == 0 and int(ip) > 1:  # deprecated ::a.b.c.d
        return ipaddress.IPv4Address(int(ip))
    return None


def address_class(ip: IPAddress) -> str | None:
    """Why an address must not be fetched (``loopback``, ``private``, ``metadata``...),
    or None for a public one."""
    if isinstance(ip, ipaddress.IPv6Address) and (inner := embedded_ipv4(ip)):
        return address_class(inner)
    checks = (
        ("metadata", ip in METADATA_ADDRESSES),
        ("unspecified", ip.is_unspecified),
        ("loopback", ip.is_loopback),
        ("link-local", ip.is_link_local),
        ("multicast", ip.is_multicast),
        ("shared", isinstance(ip, ipaddress.IPv4Address) and ip in SHARED_NETWORK),
        ("private", ip.is_private),
        ("reserved", ip.is_reserved or not ip.is_global),
    )
    return next((name for name, hit in checks if hit), None)


def host_class(host: str) -> str | None:
    """Why a URL host must not be fetched before any DNS lookup: a literal address that
    ``address_class`` refuses, a ``localhost`` name, or a metadata service name."""
    name = host.strip().lower().rstrip(".")
    if name in LOCALHOST_NAMES or name.endswith(".localhost"):
        return "loopback"
    if name in METADATA_NAMES:
        return "metadata"
    ip = parse_host(name)
    return address_class(ip) if ip else None


def parse_networks(cidrs) -> list:
    """Networks from CIDR strings (``127.0.0.1/32``, ``10.0.0.0/8``, ``::1``)."""
    return [ipaddress.ip_network(c.strip(), strict=False) for c in cidrs if c.strip()]


def is_allowed(ip: IPAddress, networks) -> bool:
    """Whether an allow-list network holds ``ip`` (or the IPv4 address it embeds)."""
    candidates = [ip]
    if isinstance(ip, ipaddress.IPv6Address) and (inner := embedded_ipv4(ip)):
        candidates.append(inner)
    return any(c in net for c in candidates for net in networks if c.version == net.version)


def refusal(host: str, addresses=(), allowed=()) -> str | None:
    """A sentence saying why ``host`` (resolved to ``addresses``) is refused, or None to fetch.
    Every address must pass: one private answer is enough to refuse (DNS rebinding)."""
    literal = parse_host(host)
    if literal is not None:
        addresses = [literal]
    elif reason := host_class(host):
        return f"{host} is a local name ({reason})"
    for ip in addresses:
        ip = ipaddress.ip_address(ip) if isinstance(ip, str) else ip
        reason = address_class(ip)
        if reason and not is_allowed(ip, allowed):
            shown = "" if literal is not None and str(ip) == host.strip("[]") else f" ({ip})"
            return f"{host}{shown} is not a public address ({reason})"
    return None


def guard_settings(settings) -> list | None:
    """The allow-list networks of a settings object (Scrapy's, or anything with ``getbool`` and
    ``getlist``), or None when the guard is off."""
    if settings.getbool("CRAWLFORGE_ALLOW_PRIVATE_NETWORKS"):
        return None
    return parse_networks(settings.getlist("CRAWLFORGE_ALLOWED_NETWORKS"))
