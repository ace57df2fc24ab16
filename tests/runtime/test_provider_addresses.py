"""User-chosen provider URLs reach public addresses only (common/addresses.py)."""
import pytest

from common.addresses import AddressRefused, check_public_url, is_public, public_addresses
from runtime.providers.transport import Transport


@pytest.mark.parametrize("ip, public", [
    ("8.8.8.8", True), ("2606:4700:4700::1111", True),
    ("127.0.0.1", False), ("10.0.0.7", False), ("172.16.3.4", False), ("192.168.1.1", False),
    ("169.254.169.254", False), ("100.64.0.1", False), ("0.0.0.0", False), ("224.0.0.1", False),
    ("::1", False), ("fe80::1%eth0", False), ("fd00::1", False), ("::ffff:127.0.0.1", False), ("::ffff:8.8.8.8", True),
])
def test_which_addresses_are_public(ip, public):
    assert is_public(ip) is public


# Issue #30: IPv6 forms that carry an IPv4 address are judged by that address (``[::127.0.0.1]`` passed before).
@pytest.mark.parametrize("ip, public", [
    ("::127.0.0.1", False), ("::10.0.0.7", False), ("::8.8.8.8", True),             # IPv4-compatible (::/96)
    ("64:ff9b::7f00:1", False), ("64:ff9b::a9fe:a9fe", False), ("64:ff9b::808:808", True),  # NAT64
    ("64:ff9b:1::7f00:1", False),                                                   # local-use NAT64 (RFC 8215)
    ("2002:7f00:1::1", False), ("2002:a00:7::", False), ("2002:808:808::1", True),  # 6to4
    ("2001:0:4136:e378:8000:63bf:80ff:fffe", False),                                # Teredo to 127.0.0.1
    ("::", False), ("::ffff:0:0", False),
])
def test_ipv6_forms_that_embed_ipv4_are_judged_by_the_ipv4_inside(ip, public):
    assert is_public(ip) is public


def test_a_url_whose_host_is_loopback_is_refused_by_name_and_by_number():
    for url in ("http://localhost:8080/v1", "http://127.0.0.1/v1", "http://[::1]/v1", "http://[::127.0.0.1]:8000/v1",
                "http://[64:ff9b::7f00:1]/v1", "http://[2002:7f00:1::1]/v1"):
        with pytest.raises(AddressRefused, match="private or local address"):
            check_public_url(url)
    check_public_url("https://8.8.8.8/v1")  # an address literal needs no lookup


async def test_an_unresolvable_host_is_refused():
    with pytest.raises(AddressRefused, match="does not resolve"):
        await public_addresses("no-such-host.invalid", 443)


async def test_a_public_only_transport_never_connects_to_a_private_address():
    transport = Transport("http://127.0.0.1:9/v1", max_connections=1, timeout=5, public_only=True)
    try:
        with pytest.raises(AddressRefused, match="private or local address"):
            async with transport.post("/chat/completions", {}, b"{}"):
                pass
    finally:
        await transport.aclose()


async def test_a_public_only_transport_checks_a_name_at_each_connection():
    transport = Transport("http://localhost:9/v1", max_connections=1, timeout=5, public_only=True)
    try:
        for _ in range(2):  # no cached answer lets the second attempt through
            with pytest.raises(AddressRefused, match="localhost resolves to"):
                async with transport.post("/chat/completions", {}, b"{}"):
                    pass
    finally:
        await transport.aclose()
