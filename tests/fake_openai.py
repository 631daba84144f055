"""A loopback OpenAI-compatible chat server for client tests: real HTTP, scripted behaviour.

`responder(request_json, n)` decides each reply: return (status, body_dict, headers), or bytes
as the body to send them as they are. Every request is recorded, so tests can assert the
request shape the client sent.
"""

from __future__ import annotations

import datetime
import json
import ssl
import threading
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

from openai.types.chat import ChatCompletion

Reply = tuple[int, dict[str, Any] | bytes, dict[str, str]]


def chat_reply(text: str, prompt_tokens: int = 11, completion_tokens: int = 7) -> Reply:
    body = {
        "id": "chatcmpl-test",
        "object": "chat.completion",
        "created": 0,
        "model": "fake-model",
        "choices": [{"index": 0, "finish_reason": "stop",
                     "message": {"role": "assistant", "content": text}}],
        "usage": {"prompt_tokens": prompt_tokens, "completion_tokens": completion_tokens,
                  "total_tokens": prompt_tokens + completion_tokens},
    }
    return 200, body, {}


def tool_call_reply(calls: list[tuple[str, str]], text: str | None = None,
                    prompt_tokens: int = 11, completion_tokens: int = 7) -> Reply:
    """An assistant message calling tools, as the chat completions API sends it: `calls` are
    (function name, raw arguments JSON text); ids are `call_0`, `call_1`, ..."""
    tool_calls = [{"id": f"call_{i}", "type": "function",
                   "function": {"name": name, "arguments": arguments}}
                  for i, (name, arguments) in enumerate(calls)]
    status, body, headers = chat_reply(text or "", prompt_tokens, completion_tokens)
    body["choices"][0]["finish_reason"] = "tool_calls"
    body["choices"][0]["message"] = {"role": "assistant", "content": text,
                                     "tool_calls": tool_calls}
    # Through the SDK's own response type: the body is what a real server sends.
    real = ChatCompletion.model_validate(body).model_dump(mode="json", exclude_none=True)
    real["choices"][0]["message"].setdefault("content", None)
    return status, real, headers


def error_reply(status: int, message: str, headers: dict[str, str] | None = None) -> Reply:
    return status, {"error": {"message": message, "type": "test", "code": status}}, headers or {}


class FakeOpenAIServer:
    """Context manager: starts on 127.0.0.1 with a free port, stops on exit."""

    def __init__(self, responder: Callable[[dict[str, Any], int], Reply],
                 tls: ssl.SSLContext | None = None) -> None:
        """`tls`: serve HTTPS with this server context (see `self_signed_tls`)."""
        self.responder = responder
        self.scheme = "https" if tls else "http"
        self.requests: list[dict[str, Any]] = []
        self.headers: list[dict[str, str]] = []
        self.paths: list[str] = []   # request targets as sent (absolute when sent to a proxy)
        self._lock = threading.Lock()
        server = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"   # keep-alive, as real endpoints (every reply has
            disable_nagle_algorithm = True  # its Content-Length)

            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length", 0))
                payload = json.loads(self.rfile.read(length) or b"{}")
                with server._lock:
                    server.requests.append(payload)
                    server.headers.append(dict(self.headers))
                    server.paths.append(self.path)
                    n = len(server.requests)
                status, body, headers = server.responder(payload, n)
                data = body if isinstance(body, bytes) else json.dumps(body).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                for key, value in headers.items():
                    self.send_header(key, value)
                self.end_headers()
                self.wfile.write(data)

            def log_message(self, *args: object) -> None:
                pass

        self._httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        if tls is not None:
            self._httpd.socket = tls.wrap_socket(self._httpd.socket, server_side=True)
        self._thread = threading.Thread(target=self._httpd.serve_forever, daemon=True)

    @property
    def base_url(self) -> str:
        host, port = self._httpd.server_address[:2]
        return f"{self.scheme}://localhost:{port}/v1" if self.scheme == "https" \
            else f"http://{host}:{port}/v1"

    def __enter__(self) -> FakeOpenAIServer:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._httpd.shutdown()
        self._httpd.server_close()
        self._thread.join(timeout=5)


def self_signed_tls(folder: Path) -> tuple[ssl.SSLContext, Path]:
    """A server TLS context for `localhost` with a self-signed certificate, and the
    certificate's PEM file (what a client must trust to accept it)."""
    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import NameOID

    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "localhost")])
    now = datetime.datetime.now(datetime.UTC)
    certificate = (
        x509.CertificateBuilder().subject_name(name).issuer_name(name)
        .public_key(key.public_key()).serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(minutes=5))
        .not_valid_after(now + datetime.timedelta(days=1))
        .add_extension(x509.SubjectAlternativeName([x509.DNSName("localhost")]), critical=False)
        .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
        .sign(key, hashes.SHA256())
    )
    cert_file, key_file = folder / "server.pem", folder / "server.key"
    cert_file.write_bytes(certificate.public_bytes(serialization.Encoding.PEM))
    key_file.write_bytes(key.private_bytes(serialization.Encoding.PEM,
                                           serialization.PrivateFormat.PKCS8,
                                           serialization.NoEncryption()))
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(cert_file, key_file)
    return context, cert_file
