"""Tests of receiver.py as it runs: started as `python receiver.py --port 0`, it takes the deliveries the
emulator signed (webhooks/testdata/deliveries.json, or the file WEBHOOK_DELIVERIES names) once each,
and refuses a tampered one with 401.

Run with ``python3 -m pytest examples/webhook-receiver/python``.
"""

import http.client
import json
import os
import queue
import subprocess
import sys
import threading
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent.parent
sys.path.append(str(REPO / "webhooks" / "python"))
import pulumi_integration_platform_webhooks as webhooks  # noqa: E402

DELIVERIES_FILE = Path(os.environ.get("WEBHOOK_DELIVERIES") or REPO / "webhooks" / "testdata" / "deliveries.json")
DELIVERIES = json.loads(DELIVERIES_FILE.read_text(encoding="utf-8"))
KEY = DELIVERIES[0]["apiKey"] if DELIVERIES else ""
"""The receiver's key: the first recorded delivery's, so that the deliveries signed with it are genuine."""


class Receiver:
    """receiver.py running in a process of its own, with its output lines as they come."""

    def __init__(self, key: str = KEY):
        env = {**os.environ, "INTEGRATION_PLATFORM_API_KEY": key, "PYTHONDONTWRITEBYTECODE": "1"}
        self.process = subprocess.Popen(
            [sys.executable, str(HERE / "receiver.py"), "--port", "0"],
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            env=env,
            text=True,
            encoding="utf-8",
        )
        self.lines: "queue.Queue[str]" = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()
        first = self.line()
        assert first.startswith("webhook receiver listening on http://127.0.0.1:"), first
        self.port = int(first.rsplit(":", 1)[1].strip("/"))

    def _read(self):
        for line in self.process.stdout:
            self.lines.put(line.rstrip("\n"))

    def line(self, timeout: float = 10) -> str:
        """The next line the receiver printed; fails the test after `timeout` seconds without one."""
        try:
            return self.lines.get(timeout=timeout)
        except queue.Empty:
            pytest.fail(f"the receiver printed nothing in {timeout} s")

    def post(self, body, signature=None, chunked=False):
        """Posts a body to /webhooks; returns the status and the answer's text."""
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=10)
        headers = {"content-type": "application/json"}
        if signature is not None:
            headers[webhooks.SIGNATURE_HEADER] = signature
        if chunked:
            parts = iter([body[:10], body[10:]])
            connection.request("POST", "/webhooks", body=parts, headers=headers, encode_chunked=True)
        else:
            connection.request("POST", "/webhooks", body=body, headers=headers)
        response = connection.getresponse()
        text = response.read().decode("utf-8")
        connection.close()
        return response.status, text

    def stop(self):
        """Ends the process."""
        self.process.terminate()
        self.process.wait(timeout=10)


@pytest.fixture(scope="module")
def receiver():
    running = Receiver()
    yield running
    running.stop()


def payload(**change):
    """A payload's bytes, as the platform writes one."""
    fields = {
        "linked_account_id": "acme",
        "instance_id": "run-made-in-the-test",
        "workflow_id": "wf_hs_contact_sync",
        "config_id": "acme",
        "event": "Workflow Completed",
        "workflow_name": "Sync contacts",
        "status": "COMPLETED",
        **change,
    }
    return json.dumps(fields, ensure_ascii=False, separators=(",", ":")).encode("utf-8")


def test_takes_each_delivery_the_emulator_signed_once(receiver):
    signed_with_key = [d for d in DELIVERIES if d["apiKey"] == KEY]
    assert signed_with_key, f"{DELIVERIES_FILE} holds no deliveries"
    for delivery in signed_with_key:
        body = delivery["body"].encode("utf-8")
        assert receiver.post(body, delivery["signature"]) == (204, "")
        event = json.loads(body)
        expected = (
            f"{event['event']}: workflow {event['workflow_id']} for {event['linked_account_id']} "
            f"(run {event['instance_id']})"
        )
        assert receiver.line() == expected
    # A redelivery of a run already taken is answered 204, and not handled again.
    first = signed_with_key[0]
    assert receiver.post(first["body"].encode("utf-8"), first["signature"]) == (204, "")
    run = json.loads(first["body"])["instance_id"]
    assert receiver.line() == f"{json.loads(first['body'])['event']}: run {run} already taken, redelivery answered 204"


def test_refuses_a_tampered_delivery_with_401(receiver):
    delivery = DELIVERIES[0]
    body = bytearray(delivery["body"].encode("utf-8"))
    body[len(body) // 2] ^= 0x01
    status, text = receiver.post(bytes(body), delivery["signature"])
    assert status == 401
    assert text.startswith("webhook signature refused: the signature does not match the body")


def test_refuses_a_delivery_without_a_signature_with_401(receiver):
    status, text = receiver.post(payload())
    assert (status, text) == (401, "webhook signature refused: the request has no x-cobalt-signature header\n")


def test_takes_a_chunked_delivery_with_a_non_ascii_name(receiver):
    body = payload(instance_id="run-chunked", workflow_name="Synchronisation été ✓")
    assert receiver.post(body, webhooks.sign(body, KEY), chunked=True) == (204, "")
    assert receiver.line() == "Workflow Completed: workflow wf_hs_contact_sync for acme (run run-chunked)"


def test_answers_400_to_a_signed_body_that_is_not_an_event(receiver):
    body = payload(status="DONE")
    status, text = receiver.post(body, webhooks.sign(body, KEY))
    assert status == 400
    assert text.startswith("webhook body: status: expected one of COMPLETED")


def test_answers_413_to_a_body_too_large_before_reading_it(receiver):
    # Only the headers are sent: the receiver answers from the declared length, and reads nothing.
    connection = http.client.HTTPConnection("127.0.0.1", receiver.port, timeout=10)
    connection.putrequest("POST", "/webhooks")
    connection.putheader("content-length", str(64 * 1024 + 1))
    connection.putheader(webhooks.SIGNATURE_HEADER, "0" * 64)
    connection.endheaders()
    response = connection.getresponse()
    assert response.status == 413
    assert response.read().startswith(b"the body is larger than 65536 bytes")
    connection.close()


def test_will_not_start_without_a_key():
    result = subprocess.run(
        [sys.executable, str(HERE / "receiver.py"), "--port", "0"],
        env={**os.environ, "INTEGRATION_PLATFORM_API_KEY": "", "PYTHONDONTWRITEBYTECODE": "1"},
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert result.returncode == 2
    assert "set INTEGRATION_PLATFORM_API_KEY" in result.stderr
