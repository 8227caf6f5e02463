"""A webhook receiver for the platform's workflow events, with nothing but Python's standard library
and the signature check of webhooks/python. The Python twin of ../receiver.ts: 204 to a signed event
(once per run: a redelivery of a run already taken is answered 204 and not handled again), 401 to a
bad signature, 400 to a body that is not an event, 500 when the handler fails, so the platform retries.

    INTEGRATION_PLATFORM_API_KEY=tk_emulator python receiver.py --port 3000
"""

from __future__ import annotations

import argparse
import os
import sys
import threading
from collections import OrderedDict
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any, Callable, Dict, Optional

# The check is one file, webhooks/python/pulumi_integration_platform_webhooks.py: this finds it in a
# checkout of the repository. In your project, or outside the checkout, copy the file beside this one
# (from https://github.com/pulumi-integration-platform/pulumi-integration-platform/tree/main/webhooks/python).
sys.path.append(str(Path(__file__).resolve().parent.parent.parent.parent / "webhooks" / "python"))
try:
    from pulumi_integration_platform_webhooks import (
        SIGNATURE_HEADER,
        WebhookPayloadError,
        WebhookSignatureError,
        parse_payload,
        verify,
    )
except ImportError:
    sys.exit(
        "receiver.py needs pulumi_integration_platform_webhooks.py beside it: copy it from "
        "https://github.com/pulumi-integration-platform/pulumi-integration-platform/tree/main/webhooks/python"
    )

MAX_BODY_BYTES = 64 * 1024
"""The largest body accepted; the platform's payload is a few hundred bytes."""

REMEMBERED_RUNS = 10_000
"""How many runs' instance_ids are kept to recognise a redelivery; the oldest are forgotten first."""


def create_receiver(
    api_key: str,
    on_event: Callable[[Dict[str, Any]], None],
    port: int = 0,
    host: str = "127.0.0.1",
    on_redelivery: Optional[Callable[[Dict[str, Any]], None]] = None,
) -> ThreadingHTTPServer:
    """An HTTP server that answers 204 to a signed event, 401 to a bad signature and 400 to a bad body.

    ``on_event`` is called once per run; ``on_redelivery``, if given, for each later delivery of a run already taken.
    """
    taken: "OrderedDict[str, None]" = OrderedDict()
    lock = threading.Lock()

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            # The raw bytes, exactly as received: the signature covers them, not a re-serialized dict.
            body = self.read_body()
            if body is None:
                self.answer(413, f"the body is larger than {MAX_BODY_BYTES} bytes, or its length is not given")
                return
            try:
                verify(body, self.headers.get_all(SIGNATURE_HEADER), api_key)
            except WebhookSignatureError as error:
                self.answer(401, str(error))
                return
            try:
                event = parse_payload(body)
            except WebhookPayloadError as error:
                self.answer(400, str(error))
                return
            run = event["instance_id"]
            # Deliveries are handled one at a time, so that a retry racing the first is taken once.
            with lock:
                if run in taken:
                    if on_redelivery:
                        on_redelivery(event)
                    self.answer(204)
                    return
                try:
                    on_event(event)
                except Exception:
                    # A non-2xx answer makes the platform retry the delivery (up to 3 times).
                    self.answer(500)
                    return
                taken[run] = None
                if len(taken) > REMEMBERED_RUNS:
                    taken.popitem(last=False)
            self.answer(204)

        def read_body(self) -> Optional[bytes]:
            """The body as sent, with a content-length or chunked; None when too large or badly framed."""
            if self.headers.get("transfer-encoding", "").lower() == "chunked":
                chunks = []
                size = 0
                while True:
                    try:
                        chunk_size = int(self.rfile.readline(64).split(b";")[0].strip(), 16)
                    except ValueError:
                        return None
                    if chunk_size < 0:
                        return None
                    size += chunk_size
                    if size > MAX_BODY_BYTES:
                        return None
                    if chunk_size == 0:
                        while self.rfile.readline(1024).strip():
                            pass  # trailers end with an empty line
                        return b"".join(chunks)
                    chunks.append(self.rfile.read(chunk_size))
                    self.rfile.readline(2)
            length = self.headers.get("content-length", "")
            if not length.isdigit() or int(length) > MAX_BODY_BYTES:
                return None
            return self.rfile.read(int(length))

        def answer(self, status: int, text: str = "") -> None:
            """Sends the status, with the text as a plain-text body when there is one."""
            self.send_response(status)
            data = f"{text}\n".encode("utf-8") if text else b""
            if data:
                self.send_header("content-type", "text/plain; charset=utf-8")
            if status != 204:  # a 204 has no body, and says no length
                self.send_header("content-length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def log_message(self, format: str, *args: Any) -> None:
            # One line per accepted delivery is printed by on_event; the access log would repeat it.
            pass

    return ThreadingHTTPServer((host, port), Handler)


def print_event(event: Dict[str, Any]) -> None:
    """Prints one line per delivery taken: your service does its work here instead."""
    print(
        f"{event['event']}: workflow {event['workflow_id']} for {event['linked_account_id']} "
        f"(run {event['instance_id']})",
        flush=True,
    )


def print_redelivery(event: Dict[str, Any]) -> None:
    """Prints one line per redelivery of a run already taken, which is answered 204 and not handled again."""
    print(f"{event['event']}: run {event['instance_id']} already taken, redelivery answered 204", flush=True)


def main(argv: Any = None) -> int:
    """Runs the receiver until interrupted; the API key comes from INTEGRATION_PLATFORM_API_KEY."""
    parser = argparse.ArgumentParser(description="Receives the platform's signed workflow events.")
    parser.add_argument("--port", type=int, default=int(os.environ.get("PORT", "3000")), help="0 picks a free one")
    parser.add_argument("--host", default="127.0.0.1")
    options = parser.parse_args(argv)
    api_key = os.environ.get("INTEGRATION_PLATFORM_API_KEY", "")
    if not api_key:
        print("set INTEGRATION_PLATFORM_API_KEY to the API key the platform signs with", file=sys.stderr)
        return 2
    server = create_receiver(api_key, print_event, options.port, options.host, on_redelivery=print_redelivery)
    print(f"webhook receiver listening on http://{options.host}:{server.server_address[1]}/", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
