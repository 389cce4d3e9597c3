"""Real local servers for the fetching tests: HTTP/1.1 keep-alive, optionally over TLS.

The TLS certificates are made here with the `cryptography` package (a throw-away CA and a
leaf for `tls.test` and 127.0.0.1), or with the `openssl` command when `cryptography` is
absent; `tls_files` skips the test when neither is there.
"""

from __future__ import annotations

import contextlib
import datetime
import importlib.util
import ipaddress
import shutil
import ssl
import subprocess
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

TLS_NAME = "tls.test"


@dataclass
class KeepAlive:
    """A server on 127.0.0.1 that keeps connections open and records who asked what."""

    port: int = 0
    scheme: str = "http"
    peers: list[tuple[str, int]] = field(default_factory=list)  # each request's client address
    cookies: list[str | None] = field(default_factory=list)
    authorizations: list[str | None] = field(default_factory=list)
    redirect: str | None = None  # answer every request with a 302 to this URL

    def url(self, host: str, path: str = "/x") -> str:
        return f"{self.scheme}://{host}:{self.port}{path}"


@contextlib.contextmanager
def keep_alive(context: ssl.SSLContext | None = None) -> Iterator[KeepAlive]:
    """Serve `ok` over HTTP/1.1 (or HTTPS with `context`), keeping connections alive."""
    state = KeepAlive(scheme="https" if context else "http")

    class Handle(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"  # the default, HTTP/1.0, closes every connection

        def log_message(self, format: str, *args: object) -> None:
            pass

        def do_GET(self) -> None:
            state.peers.append(self.client_address[:2])
            state.cookies.append(self.headers.get("Cookie"))
            state.authorizations.append(self.headers.get("Authorization"))
            if state.redirect is not None:
                self.send_response(302)
                self.send_header("Location", state.redirect)
                self.send_header("Content-Length", "0")
                self.end_headers()
                return
            self.send_response(200)
            self.send_header("Content-Length", "2")
            self.end_headers()
            self.wfile.write(b"ok")

    httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handle)
    httpd.daemon_threads = True
    if context is not None:
        httpd.socket = context.wrap_socket(httpd.socket, server_side=True)
    state.port = httpd.server_address[1]
    thread = threading.Thread(target=httpd.serve_forever, args=(0.05,), daemon=True)
    thread.start()
    try:
        yield state
    finally:
        httpd.shutdown()
        httpd.server_close()
        thread.join(5)


@dataclass(frozen=True)
class TLSFiles:
    """A CA certificate to trust and the server's certificate chain and key, as PEM files."""

    ca: Path
    chain: Path
    key: Path

    def server_context(self) -> ssl.SSLContext:
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(self.chain, self.key)
        return context

    def client_context(self) -> ssl.SSLContext:
        return ssl.create_default_context(cafile=str(self.ca))


def _with_cryptography(folder: Path) -> TLSFiles:
    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID

    now = datetime.datetime.now(datetime.timezone.utc)
    ca_key, key = ec.generate_private_key(ec.SECP256R1()), ec.generate_private_key(ec.SECP256R1())
    ca_name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "mediaparts test CA")])
    ca_ski = x509.SubjectKeyIdentifier.from_public_key(ca_key.public_key())
    ca = (
        x509.CertificateBuilder()
        .subject_name(ca_name)
        .issuer_name(ca_name)
        .public_key(ca_key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(hours=1))
        .not_valid_after(now + datetime.timedelta(days=1))
        .add_extension(x509.BasicConstraints(ca=True, path_length=0), critical=True)
        .add_extension(
            x509.KeyUsage(
                digital_signature=True,
                content_commitment=False,
                key_encipherment=False,
                data_encipherment=False,
                key_agreement=False,
                key_cert_sign=True,
                crl_sign=True,
                encipher_only=False,
                decipher_only=False,
            ),
            critical=True,
        )
        .add_extension(ca_ski, critical=False)
        .sign(ca_key, hashes.SHA256())
    )
    san = [x509.DNSName(TLS_NAME), x509.IPAddress(ipaddress.ip_address("127.0.0.1"))]
    leaf = (
        x509.CertificateBuilder()
        .subject_name(x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, TLS_NAME)]))
        .issuer_name(ca_name)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(hours=1))
        .not_valid_after(now + datetime.timedelta(days=1))
        .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
        .add_extension(x509.SubjectAlternativeName(san), critical=False)
        .add_extension(x509.ExtendedKeyUsage([ExtendedKeyUsageOID.SERVER_AUTH]), critical=False)
        .add_extension(
            x509.AuthorityKeyIdentifier.from_issuer_subject_key_identifier(ca_ski),
            critical=False,
        )
        .sign(ca_key, hashes.SHA256())
    )
    files = TLSFiles(folder / "ca.pem", folder / "chain.pem", folder / "key.pem")
    files.ca.write_bytes(ca.public_bytes(serialization.Encoding.PEM))
    files.chain.write_bytes(leaf.public_bytes(serialization.Encoding.PEM))
    files.key.write_bytes(
        key.private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption(),
        )
    )
    return files


def _with_openssl(folder: Path, openssl: str) -> TLSFiles:
    files = TLSFiles(folder / "ca.pem", folder / "chain.pem", folder / "key.pem")
    ca_key, csr, extensions = folder / "ca-key.pem", folder / "leaf.csr", folder / "leaf.ext"
    new_key = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-days", "1"]
    ca_extensions = ["basicConstraints=critical,CA:TRUE", "keyUsage=critical,keyCertSign,cRLSign"]
    add_extensions = [arg for ext in ca_extensions for arg in ("-addext", ext)]
    extensions.write_text(
        f"subjectAltName=DNS:{TLS_NAME},IP:127.0.0.1\nextendedKeyUsage=serverAuth\n"
        "basicConstraints=critical,CA:FALSE\nauthorityKeyIdentifier=keyid\n",
        encoding="ascii",
    )
    commands = [
        [openssl, "req", "-x509", *new_key, "-keyout", str(ca_key), "-out", str(files.ca),
         "-subj", "/CN=mediaparts test CA", *add_extensions],
        [openssl, "req", *new_key, "-keyout", str(files.key), "-out", str(csr),
         "-subj", f"/CN={TLS_NAME}"],
        [openssl, "x509", "-req", "-in", str(csr), "-CA", str(files.ca), "-CAkey", str(ca_key),
         "-CAcreateserial", "-out", str(files.chain), "-days", "1", "-extfile", str(extensions)],
    ]  # fmt: skip
    for command in commands:
        subprocess.run(command, check=True, capture_output=True)
    return files


def tls_files(folder: Path) -> TLSFiles:
    """Make a throw-away CA and server certificate in `folder`; skip when nothing can."""
    if importlib.util.find_spec("cryptography") is not None:
        return _with_cryptography(folder)
    openssl = shutil.which("openssl")
    if openssl is None:
        pytest.skip("making a TLS certificate needs the cryptography package or openssl")
    return _with_openssl(folder, openssl)
