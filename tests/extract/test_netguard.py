"""crawlforge.extract.netguard: the SSRF classification of hosts and addresses."""

import ipaddress

import pytest

from crawlforge.extract.netguard import (
    address_class,
    host_class,
    is_allowed,
    parse_host,
    parse_networks,
    refusal,
)

LOOPBACK_SPELLINGS = ["127.0.0.1", "2130706433", "0x7f000001", "017700000001", "0177.0.0.1",
                      "0x7f.1", "127.1", "127.0.0.1.", "[::ffff:127.0.0.1]", "[::ffff:7f00:1]",
                      "[2002:7f00:1::]", "[::127.0.0.1]"]


@pytest.mark.parametrize("host", LOOPBACK_SPELLINGS)
def test_every_ipv4_notation_of_loopback_is_127_0_0_1(host):
    assert host_class(host) == "loopback"
    assert refusal(host) is not None


@pytest.mark.parametrize("host, expected", [
    ("169.254.169.254", "metadata"), ("[::ffff:a9fe:a9fe]", "metadata"),
    ("[64:ff9b::a9fe:a9fe]", "metadata"), ("[fd00:ec2::254]", "metadata"),
    ("2852039166", "metadata"), ("metadata.google.internal", "metadata"),
    ("10.0.0.1", "private"), ("172.16.5.4", "private"), ("192.168.1.1", "private"), ("[fc00::1]", "private"),
    ("100.64.0.1", "shared"), ("169.254.1.1", "link-local"), ("[fe80::1]", "link-local"),
    ("224.0.0.1", "multicast"), ("[ff02::1]", "multicast"), ("0.0.0.0", "unspecified"), ("[::]", "unspecified"),
    ("[::1]", "loopback"), ("localhost", "loopback"), ("LocalHost.", "loopback"), ("api.localhost", "loopback"),
])
def test_non_public_hosts_are_classified(host, expected):
    assert host_class(host) == expected


@pytest.mark.parametrize("host", ["8.8.8.8", "[2606:4700::1111]", "[::ffff:8.8.8.8]", "example.com",
                                  "1.2.3.4.5", "256.1", "localhost.example.com"])
def test_public_or_name_hosts_are_not_refused_before_dns(host):
    assert host_class(host) is None


def test_parse_host_reads_whatwg_ipv4_forms():
    assert parse_host("0xA9.0376.43518") == ipaddress.ip_address("169.254.169.254")
    assert parse_host("0x100000000") is None  # too large for one part
    assert parse_host("example.com") is None


def test_a_name_resolving_to_loopback_is_refused():
    assert refusal("intranet.example", ["127.0.0.1"]) == "intranet.example (127.0.0.1) is not a public address (loopback)"


def test_one_private_answer_among_public_ones_is_enough_to_refuse():
    assert refusal("rebind.example", ["93.184.216.34", "10.0.0.7"]) is not None
    assert refusal("example.com", ["93.184.216.34"]) is None


def test_allow_list_admits_only_its_networks():
    allowed = parse_networks(["127.0.0.1/32", " ", "fd00::/8"])
    assert refusal("127.0.0.1", allowed=allowed) is None
    assert refusal("[::ffff:127.0.0.1]", allowed=allowed) is None
    assert refusal("127.0.0.2", allowed=allowed) == "127.0.0.2 is not a public address (loopback)"
    assert refusal("169.254.169.254", allowed=allowed) is not None
    assert refusal("localhost", allowed=allowed) == "localhost is a local name (loopback)"
    assert is_allowed(ipaddress.ip_address("fd12::1"), allowed)


def test_public_address_has_no_class():
    assert address_class(ipaddress.ip_address("93.184.216.34")) is None
