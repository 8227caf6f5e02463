"""Tests of the Python signature check: HMAC-SHA256's published vector, every refusal, and real
deliveries the emulator signed (webhooks/testdata/deliveries.json, or the file WEBHOOK_DELIVERIES names).

Run with ``python3 -m pytest webhooks/python``.
"""

import hmac
import json
import os
from pathlib import Path

import pytest

import pulumi_integration_platform_webhooks as webhooks

# RFC 4231, test case 2: HMAC-SHA256 of "what do ya want for nothing?" keyed with "Jefe".
VECTOR_KEY = "Jefe"
VECTOR_BODY = b"what do ya want for nothing?"
VECTOR_HEX = "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"

KEY = "tk_test_key_0123456789"
BODY = b'{"linked_account_id":"acme","event":"Workflow Completed"}'

DELIVERIES_FILE = Path(
    os.environ.get("WEBHOOK_DELIVERIES") or Path(__file__).resolve().parent.parent / "testdata" / "deliveries.json"
)


def load_deliveries():
    """The recorded deliveries: a list of {apiKey, body, signature}."""
    deliveries = json.loads(DELIVERIES_FILE.read_text(encoding="utf-8"))
    assert isinstance(deliveries, list) and deliveries, f"{DELIVERIES_FILE} holds no deliveries"
    return deliveries


def tampered(raw: bytes) -> bytes:
    """The body with one byte changed: its middle byte's lowest bit flipped."""
    changed = bytearray(raw)
    changed[len(changed) // 2] ^= 0x01
    return bytes(changed)


def refusal(body, signature, key):
    """The code and reason of a refused check, failing the test when it holds."""
    result = webhooks.check(body, signature, key)
    assert not result.valid, "the check should have refused"
    return result.code, result.reason


def test_signs_as_rfc_4231_case_2():
    assert webhooks.sign(VECTOR_BODY, VECTOR_KEY) == VECTOR_HEX
    assert webhooks.sign(VECTOR_BODY.decode(), VECTOR_KEY) == VECTOR_HEX
    assert webhooks.check(VECTOR_BODY, VECTOR_HEX, VECTOR_KEY) == webhooks.SignatureCheck(True, None, None)
    webhooks.verify(bytearray(VECTOR_BODY), VECTOR_HEX, VECTOR_KEY)
    webhooks.verify(memoryview(VECTOR_BODY), VECTOR_HEX, VECTOR_KEY)


def test_takes_the_header_in_upper_case_with_spaces_and_as_a_one_item_list():
    signature = webhooks.sign(BODY, KEY)
    assert webhooks.check(BODY, f"  {signature.upper()} ", KEY).valid
    assert webhooks.check(BODY, [signature], KEY).valid


def test_the_header_name():
    assert webhooks.SIGNATURE_HEADER == "x-cobalt-signature"


@pytest.mark.parametrize("key", ["", None, b"bytes-key"])
def test_refuses_without_a_key(key):
    code, reason = refusal(BODY, webhooks.sign(BODY, KEY), key)
    assert code == "missing_key"
    assert "INTEGRATION_PLATFORM_API_KEY" in reason


@pytest.mark.parametrize(
    "body, described",
    [
        (json.loads(BODY), "a dict"),
        ([1, 2], "a list"),
        (None, "None"),
        (42, "a int"),
    ],
)
def test_refuses_a_body_that_is_not_raw(body, described):
    code, reason = refusal(body, webhooks.sign(BODY, KEY), KEY)
    assert code == "body_not_raw"
    assert described in reason
    assert "request.get_data()" in reason


def test_refuses_a_str_body_that_is_not_unicode_text():
    code, _ = refusal("\ud800", "0" * 64, KEY)
    assert code == "body_not_raw"


@pytest.mark.parametrize("signature", [None, ""])
def test_refuses_a_missing_signature(signature):
    code, reason = refusal(BODY, signature, KEY)
    assert code == "missing_signature"
    assert "x-cobalt-signature" in reason


@pytest.mark.parametrize("signature", ["abc", "g" * 64, "0" * 63, "0" * 65, [], ["0" * 64, "0" * 64], b"0" * 64])
def test_refuses_a_malformed_signature(signature):
    code, _ = refusal(BODY, signature, KEY)
    assert code == "malformed_signature"


def test_refuses_a_signature_made_with_another_key_or_for_another_body():
    assert refusal(BODY, webhooks.sign(BODY, "another key"), KEY)[0] == "signature_mismatch"
    assert refusal(tampered(BODY), webhooks.sign(BODY, KEY), KEY)[0] == "signature_mismatch"


def test_no_reason_contains_the_key_or_the_body():
    signature = webhooks.sign(BODY, KEY)
    cases = [
        (BODY, signature, ""),
        (json.loads(BODY), signature, KEY),
        (BODY, None, KEY),
        (BODY, "x" * 64, KEY),
        (BODY, webhooks.sign(BODY, "other"), KEY),
    ]
    codes = set()
    for body, sig, key in cases:
        code, reason = refusal(body, sig, key)
        codes.add(code)
        assert KEY not in reason and BODY.decode() not in reason and "acme" not in reason, reason
    assert codes == set(webhooks.CODES)


def test_verify_raises_with_the_code():
    with pytest.raises(webhooks.WebhookSignatureError) as raised:
        webhooks.verify(BODY, "0" * 64, KEY)
    assert raised.value.code == "signature_mismatch"
    assert str(raised.value).startswith("webhook signature refused: the signature does not match the body")


def test_compares_in_constant_time(monkeypatch):
    calls = []
    original = hmac.compare_digest

    def spy(a, b):
        calls.append((a, b))
        return original(a, b)

    monkeypatch.setattr(webhooks.hmac, "compare_digest", spy)
    assert webhooks.check(VECTOR_BODY, VECTOR_HEX, VECTOR_KEY).valid
    assert len(calls) == 1


def test_takes_every_delivery_the_emulator_signed_and_refuses_it_tampered():
    deliveries = load_deliveries()
    for i, delivery in enumerate(deliveries):
        raw = delivery["body"].encode("utf-8")
        key, signature = delivery["apiKey"], delivery["signature"]
        assert webhooks.check(raw, signature, key).valid, f"delivery {i} of {DELIVERIES_FILE} was refused"
        assert webhooks.check(delivery["body"], signature, key).valid, f"delivery {i} refused as a str"
        assert webhooks.check(tampered(raw), signature, key).code == "signature_mismatch", f"delivery {i} tampered"
        other = "x" + key
        assert webhooks.check(raw, signature, other).code == "signature_mismatch", f"delivery {i}, another key"


def test_the_deliveries_hold_every_event_and_a_non_ascii_body():
    payloads = [webhooks.parse_payload(d["body"].encode("utf-8")) for d in load_deliveries()]
    assert {p["event"] for p in payloads} == set(webhooks.WEBHOOK_EVENTS.values())
    for payload in payloads:
        assert webhooks.WEBHOOK_EVENTS[payload["status"]] == payload["event"]
    assert any(not p["workflow_name"].isascii() for p in payloads), "no delivery with a non-ASCII workflow name"


def test_parse_payload_returns_the_fields_and_keeps_extra_ones():
    payload = {
        "linked_account_id": "acme",
        "instance_id": "run-1",
        "workflow_id": "wf",
        "config_id": "acme",
        "event": "Workflow Errored",
        "workflow_name": "Sync ✓",
        "status": "ERRORED",
        "added_later": 1,
    }
    assert webhooks.parse_payload(json.dumps(payload).encode()) == payload
    assert webhooks.parse_payload(json.dumps(payload, ensure_ascii=False)) == payload


@pytest.mark.parametrize(
    "body, message",
    [
        (b"{not json", "webhook body is not JSON"),
        (b"\xff\xfe", "webhook body is not JSON"),
        (b'{"a": NaN}', "webhook body is not JSON"),
        (b"[]", "webhook body: (root): expected an object, got an array"),
        (b"{}", "webhook body: linked_account_id: expected a string, got nothing"),
        (None, "webhook body must be the raw bytes received, got None"),
    ],
)
def test_parse_payload_refuses_what_is_not_a_payload(body, message):
    with pytest.raises(webhooks.WebhookPayloadError) as raised:
        webhooks.parse_payload(body)
    assert str(raised.value).startswith(message)


@pytest.mark.parametrize(
    "change, message",
    [
        ({"instance_id": 7}, "webhook body: instance_id: expected a string, got a number"),
        ({"workflow_name": None}, "webhook body: workflow_name: expected a string, got null"),
        ({"event": "Workflow Done"}, "webhook body: event: expected one of Workflow Completed, "),
        ({"status": "completed"}, "webhook body: status: expected one of COMPLETED, ERRORED, STOPPED, TIMED_OUT"),
    ],
)
def test_parse_payload_names_the_property_that_does_not_fit(change, message):
    payload = {
        "linked_account_id": "acme",
        "instance_id": "run-1",
        "workflow_id": "wf",
        "config_id": "acme",
        "event": "Workflow Completed",
        "workflow_name": "Sync",
        "status": "COMPLETED",
        **change,
    }
    with pytest.raises(webhooks.WebhookPayloadError) as raised:
        webhooks.parse_payload(json.dumps(payload))
    assert str(raised.value).startswith(message)
