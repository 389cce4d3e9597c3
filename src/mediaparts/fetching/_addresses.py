"""Which IP addresses and host names a fetch may reach, as tables.

The address tables follow the IANA IPv4 and IPv6 Special-Purpose Address Registries
(RFC 6890 and its updates), read 2026-06. Rather than trust `ipaddress`'s `is_private` and
`is_global`, whose lists changed between Python 3.10 and 3.13, the tables are spelled out here,
so every supported Python refuses the same addresses.

IPv6 addresses that carry an IPv4 address (IPv4-mapped, IPv4-compatible, IPv4-translated, 6to4,
Teredo, NAT64) are judged by the IPv4 address inside them too: `::ffff:127.0.0.1` is loopback.
"""

from __future__ import annotations

import ipaddress
from typing import TypeAlias

__all__ = ["IPAddress", "address_reason", "literal_address", "name_reason", "unscoped"]

IPAddress: TypeAlias = "ipaddress.IPv4Address | ipaddress.IPv6Address"

_net = ipaddress.ip_network

# Checked in order; the first match names the reason. (IANA IPv4 Special-Purpose Registry.)
_IPV4: tuple[tuple[ipaddress.IPv4Network | ipaddress.IPv6Network, str], ...] = (
    (_net("0.0.0.0/8"), "unspecified"),  # "this network", RFC 791 and RFC 1122 §3.2.1.3
    (_net("10.0.0.0/8"), "private"),  # RFC 1918
    (_net("100.64.0.0/10"), "shared (CGNAT)"),  # RFC 6598
    (_net("127.0.0.0/8"), "loopback"),  # RFC 1122 §3.2.1.3
    (_net("169.254.0.0/16"), "link-local"),  # RFC 3927
    (_net("172.16.0.0/12"), "private"),  # RFC 1918
    (_net("192.0.0.0/24"), "reserved"),  # IETF protocol assignments, RFC 6890 §2.2.2
    (_net("192.0.2.0/24"), "documentation"),  # TEST-NET-1, RFC 5737
    (_net("192.88.99.0/24"), "reserved"),  # 6to4 relay anycast, deprecated by RFC 7526
    (_net("192.168.0.0/16"), "private"),  # RFC 1918
    (_net("198.18.0.0/15"), "benchmarking"),  # RFC 2544
    (_net("198.51.100.0/24"), "documentation"),  # TEST-NET-2, RFC 5737
    (_net("203.0.113.0/24"), "documentation"),  # TEST-NET-3, RFC 5737
    (_net("224.0.0.0/4"), "multicast"),  # RFC 5771
    (_net("240.0.0.0/4"), "reserved"),  # RFC 1112 §4, with the broadcast 255.255.255.255
)

# IANA IPv6 Special-Purpose Registry. Anything outside 2000::/3 that is not judged by its
# embedded IPv4 address is refused as reserved or unassigned (RFC 4291 §2.4).
_IPV6: tuple[tuple[ipaddress.IPv4Network | ipaddress.IPv6Network, str], ...] = (
    (_net("::/128"), "unspecified"),  # RFC 4291 §2.5.2
    (_net("::1/128"), "loopback"),  # RFC 4291 §2.5.3
    (_net("fe80::/10"), "link-local"),  # RFC 4291 §2.5.6
    (_net("fec0::/10"), "site-local"),  # deprecated by RFC 3879
    (_net("fc00::/7"), "unique-local (private)"),  # RFC 4193
    (_net("ff00::/8"), "multicast"),  # RFC 4291 §2.7
    (_net("64:ff9b:1::/48"), "local-use NAT64 (private)"),  # RFC 8215
    (_net("2001::/23"), "reserved"),  # IETF protocol assignments with Teredo, RFC 2928
    (_net("2001:db8::/32"), "documentation"),  # RFC 3849
    (_net("3fff::/20"), "documentation"),  # RFC 9637
)
_GLOBAL_UNICAST = _net("2000::/3")
_MAPPED = _net("::ffff:0:0/96")  # RFC 4291 §2.5.5.2
_COMPATIBLE = _net("::/96")  # deprecated, RFC 4291 §2.5.5.1
_TRANSLATED = _net("::ffff:0:0:0/96")  # SIIT, RFC 2765 §2.1
_NAT64 = _net("64:ff9b::/96")  # well-known prefix, RFC 6052 §2.1
_NAT64_LOCAL = _net("64:ff9b:1::/48")  # local-use prefix, RFC 8215; the length in use varies

# Cloud instance-metadata endpoints hand out credentials; they stay refused even with
# allow_private=True. Each row is the provider's documented address, its source beside it
# (read 2026-12-04 unless said; rows first read 2026-11 checked again then).
_METADATA: tuple[tuple[ipaddress.IPv4Network | ipaddress.IPv6Network, str], ...] = (
    # AWS EC2 IMDS (docs.aws.amazon.com/AWSEC2/latest/UserGuide/instancedata-data-retrieval
    # .html), also GCP (cloud.google.com/compute/docs/metadata/overview), Azure IMDS
    # (learn.microsoft.com/azure/virtual-machines/instance-metadata-service), OpenStack
    # (docs.openstack.org/nova/latest/admin/metadata-service.html), Oracle OCI
    # (docs.oracle.com/iaas/Content/Compute/Tasks/gettingmetadata.htm), DigitalOcean
    # (docs.digitalocean.com/reference/api/metadata/droplet-properties/), Hetzner
    # (docs.hetzner.cloud/#server-metadata), IBM Cloud VPC (cloud.ibm.com/apidocs/vpc-identity),
    # Akamai/Linode, and Huawei Cloud ECS (OpenStack-compatible).
    (_net("169.254.169.254/32"), "AWS, GCP, Azure, OCI, OpenStack, DigitalOcean, Hetzner, IBM"),
    # ECS task metadata and credentials (docs.aws.amazon.com/AmazonECS/latest/developerguide/
    # task-iam-roles.html).
    (_net("169.254.170.2/32"), "AWS ECS task metadata and credentials"),
    # EKS Pod Identity Agent (docs.aws.amazon.com/eks/latest/userguide/pod-id-agent-setup.html).
    (_net("169.254.170.23/32"), "AWS EKS Pod Identity Agent"),
    # Tencent Cloud CVM (tencentcloud.com/document/product/213/4934).
    (_net("169.254.0.23/32"), "Tencent Cloud CVM metadata"),
    # Scaleway (cloudinit.readthedocs.io/en/latest/reference/datasources/scaleway.html).
    (_net("169.254.42.42/32"), "Scaleway instance metadata"),
    # Alibaba Cloud ECS (alibabacloud.com/help/ecs/user-guide/overview-of-ecs-instance-metadata;
    # cloudinit.readthedocs.io/en/stable/reference/datasources/aliyun.html).
    (_net("100.100.100.200/32"), "Alibaba Cloud ECS metadata"),
    # Its IPv6 twin: "Alibaba Cloud ECS now exposes the metadata service over both IPv4
    # (100.100.100.200) and IPv6 (fd00:100::100:200)" (github.com/canonical/cloud-init/pull/6893,
    # May 2026, adding it to cloud-init's AliYun datasource).
    (_net("fd00:100::100:200/128"), "Alibaba Cloud ECS IPv6 metadata"),
    # Azure WireServer (learn.microsoft.com/azure/virtual-network/what-is-ip-address-168-63-129-16).
    (_net("168.63.129.16/32"), "Azure WireServer"),
    # Oracle Cloud Classic / Cloud@Customer (docs.oracle.com/en/cloud/cloud-at-customer/
    # occ-get-started/retrieve-predefined-instance-metadata.html).
    (_net("192.0.0.192/32"), "Oracle Cloud Classic metadata"),
    # AWS's Nitro services live in fd00:ec2::/32: IMDS at fd00:ec2::254 (the IMDS page above:
    # "IPv6 http://[fd00:ec2::254]/latest/meta-data/"), EKS Pod Identity at fd00:ec2::23, the
    # DNS resolver, NTP and time sync beside them (EC2 user guide, "Amazon DNS server" and
    # "Set the time"). No HTTP service there is a legitimate fetch target: the whole /32.
    (_net("fd00:ec2::/32"), "AWS IPv6 instance services"),
    # GCP metadata server for IPv6-only instances (cloud.google.com/compute/docs/
    # ip-addresses/configure-ipv6-address; dual-stack VMs reach it over IPv4 only).
    (_net("fd20:ce::254/128"), "GCP IPv6 metadata"),
    # Oracle OCI IMDS over IPv6 (the OCI page above; Oracle's OCI SDK instance-principals
    # signer uses it).
    (_net("fd00:c1::a9fe:a9fe/128"), "Oracle OCI IPv6 metadata"),
    # OpenStack Nova: "Starting with the Victoria release the metadata service is accessible
    # over IPv6 at the link-local address fe80::a9fe:a9fe" (the OpenStack page above).
    (_net("fe80::a9fe:a9fe/128"), "OpenStack IPv6 metadata"),
    # Scaleway (169.254.42.42 above) and Akamai/Linode (169.254.169.254) serve metadata on
    # these IPv6 twins too (cloud-init datasource docs, "Scaleway" and "Akamai").
    (_net("fd00:42::42/128"), "Scaleway IPv6 metadata"),
    (_net("fd00:a9fe:a9fe::1/128"), "Akamai/Linode IPv6 metadata"),
)
# GCP's names (the GCP page above) and IBM Cloud VPC's (cloud.ibm.com/apidocs/vpc-identity:
# "the service's hostname http://api.metadata.cloud.ibm.com"), refused from the URL alone.
_METADATA_NAMES = frozenset(
    {"metadata.google.internal", "metadata.goog", "api.metadata.cloud.ibm.com"}
)

# Names that never leave the machine or the local network.
_LOCAL_SUFFIXES = (
    ("localhost", "loopback"),  # RFC 6761 §6.3
    ("local", "link-local (mDNS)"),  # RFC 6762
    ("home.arpa", "home-network"),  # RFC 8375
    ("internal", "private-use"),  # reserved for private use by ICANN, 2024
)


def literal_address(host: str) -> IPAddress | None:
    """Read a host that is an IP literal, in any spelling a resolver would accept.

    Besides the standard forms this reads the `inet_aton` spellings that `getaddrinfo`
    accepts (`2130706433`, `0x7f.1`, `0177.0.0.1`, `127.1`), brackets, a trailing dot and an
    IPv6 zone (`fe80::1%25eth0`), which is dropped: see `unscoped`.

    Args:
        host: A URL's host, as httpx parsed it.

    Returns:
        The address, without any zone, or None when the host is a name.
    """
    host = host.strip("[]").rstrip(".")
    address, percent, _zone = host.partition("%")
    if percent and ":" in address:
        # RFC 6874 writes the zone as %25<zone>; whatever follows the first % names an
        # interface, never a different address, so it cannot change what the address is.
        host = address
    try:
        return unscoped(ipaddress.ip_address(host))
    except ValueError:
        pass
    parts = host.split(".")
    if not 1 <= len(parts) <= 4:
        return None
    try:
        nums = [_inet_number(p) for p in parts]
    except ValueError:
        return None
    *head, last = nums
    if any(n > 255 for n in head) or last >= 1 << (8 * (4 - len(head))):
        return None
    value = 0
    for n in head:
        value = value << 8 | n
    return ipaddress.IPv4Address(value << (8 * (4 - len(head))) | last)


def unscoped(ip: IPAddress) -> IPAddress:
    """Return the address without its IPv6 zone (`fe80::1%eth0` is `fe80::1`).

    `ipaddress` keeps the zone as part of the value, so `fd00:ec2::254%1` is not equal to
    `fd00:ec2::254` and a set lookup misses it. A zone only picks the interface; the address
    is the same host, so every check judges the address without it.
    """
    if isinstance(ip, ipaddress.IPv6Address) and ip.scope_id is not None:
        return ipaddress.IPv6Address(int(ip))
    return ip


def _inet_number(text: str) -> int:
    # inet_aton(3): a leading 0x means hexadecimal, a leading 0 octal, else decimal.
    if text[:2].lower() == "0x":
        return int(text[2:] or "0", 16)
    if len(text) > 1 and text.startswith("0"):
        return int(text, 8)
    if not text.isdigit():
        raise ValueError(text)
    return int(text)


def embedded_ipv4(ip: IPAddress) -> tuple[ipaddress.IPv4Address, ...]:
    """Return the IPv4 addresses an IPv6 address carries (none for an IPv4 address)."""
    if isinstance(ip, ipaddress.IPv4Address):
        return ()
    found: list[ipaddress.IPv4Address] = []
    low32 = ipaddress.IPv4Address(int(ip) & 0xFFFFFFFF)
    if ip.ipv4_mapped is not None:
        found.append(ip.ipv4_mapped)
    elif (ip in _COMPATIBLE and int(ip) > 1) or ip in _TRANSLATED or ip in _NAT64:
        found.append(low32)
    elif ip in _NAT64_LOCAL:
        # RFC 6052 §2.2: the IPv4 bits follow the prefix and skip bits 64-71; the prefix
        # length is the operator's choice, so try every length the /48 allows.
        packed = ip.packed
        for length in (48, 56, 64, 96):
            index = [i for i in range(length // 8, 16) if i != 8][:4]
            found.append(ipaddress.IPv4Address(bytes(packed[i] for i in index)))
    if ip.sixtofour is not None:  # 2002::/16, RFC 3056 §2
        found.append(ip.sixtofour)
    if ip.teredo is not None:  # 2001::/32, RFC 4380 §4: (server, client)
        found.extend(ip.teredo)
    return tuple(found)


def address_reason(ip: IPAddress, *, allow_private: bool) -> str | None:
    """Say why a fetch may not reach this address, or None when it may.

    Args:
        ip: The address a URL names or a host name resolved to.
        allow_private: Allow loopback, private and other non-public addresses; cloud-metadata
            addresses stay refused.

    Returns:
        What the address is ("loopback address", "private address (10.0.0.1, embedded)"),
        or None.
    """
    ip = unscoped(ip)  # every check below sees the address without its zone
    inner = embedded_ipv4(ip)
    if _metadata(ip):
        return "cloud-metadata address"
    for v4 in inner:
        if _metadata(v4):
            return f"cloud-metadata address ({v4}, embedded)"
    if allow_private:
        return None
    reason = _table_reason(ip)
    if reason is not None:
        return f"{reason} address"
    for v4 in inner:
        reason = _table_reason(v4)
        if reason is not None:
            return f"{reason} address ({v4}, embedded)"
    return None


def _metadata(ip: IPAddress) -> bool:
    return any(ip in net for net, _provider in _METADATA)


def _table_reason(ip: IPAddress) -> str | None:
    if isinstance(ip, ipaddress.IPv4Address):
        return next((label for net, label in _IPV4 if ip in net), None)
    reason = next((label for net, label in _IPV6 if ip in net), None)
    if reason is not None:
        return reason
    if ip in _MAPPED or ip in _NAT64:
        return None  # judged by the IPv4 address inside
    if ip not in _GLOBAL_UNICAST:
        return "reserved"
    return None


def name_reason(host: str, *, allow_private: bool) -> str | None:
    """Say why a fetch may not reach this host name, or None when only its addresses can tell.

    Args:
        host: A host name, any case, with or without a trailing dot.
        allow_private: Allow names that only resolve locally; metadata names stay refused.
    """
    host = host.rstrip(".").lower()
    if host in _METADATA_NAMES:
        return "cloud-metadata name"
    if allow_private:
        return None
    for suffix, reason in _LOCAL_SUFFIXES:
        if host == suffix or host.endswith("." + suffix):
            return f"{reason} name"
    return None
