"""Check the signature of the integration platform's webhook deliveries, in Python.

One file, standard library only: copy it into your project, or put its folder on sys.path.
``x-cobalt-signature`` is the hex HMAC-SHA256 of the raw body, keyed with your API key; this is
the Python twin of the package's ``pulumi-integration-platform/webhooks`` (same codes, same
refusals). Check the bytes you received, before any framework parses them:

    body = request.get_data()                      # Flask; Django: request.body
    verify(body, request.headers.get(SIGNATURE_HEADER), api_key)
    event = parse_payload(body)

Source: https://github.com/pulumi-integration-platform/pulumi-integration-platform/tree/main/webhooks/python
"""

from __future__ import annotations

import hashlib
import hmac
import json
import re
from typing import Any, Dict, NamedTuple, Optional, Sequence, Union

__all__ = [
    "SIGNATURE_HEADER",
    "WEBHOOK_EVENTS",
    "WORKFLOW_RUN_STATUSES",
    "CODES",
    "SignatureCheck",
    "WebhookSignatureError",
    "WebhookPayloadError",
    "sign",
    "check",
    "verify",
    "parse_payload",
]

SIGNATURE_HEADER = "x-cobalt-signature"
"""The header that carries a delivery's signature (compare it case-insensitively, as HTTP does)."""

WEBHOOK_EVENTS = {
    "COMPLETED": "Workflow Completed",
    "ERRORED": "Workflow Errored",
    "STOPPED": "Workflow Stopped",
    "TIMED_OUT": "Workflow Timed Out",
}
"""The four webhook events, in the platform's words, by the status they report."""

WORKFLOW_RUN_STATUSES = tuple(WEBHOOK_EVENTS)
"""How a workflow run ends, as the payload's ``status`` says it."""

CODES = ("missing_signature", "malformed_signature", "signature_mismatch", "body_not_raw", "missing_key")
"""Every reason a signature can be refused, as ``SignatureCheck.code`` and ``WebhookSignatureError.code`` name it."""

# The payload's properties that must be strings; `event` and `status` must also be one of the four.
_STRING_FIELDS = ("linked_account_id", "instance_id", "workflow_id", "config_id", "event", "workflow_name", "status")
_HEX_SIGNATURE = re.compile(r"[0-9a-f]{64}")

RawBody = Union[bytes, bytearray, memoryview, str]
"""What a receiver may check: the bytes as they came off the wire (a str is taken as UTF-8)."""


class SignatureCheck(NamedTuple):
    """The outcome of ``check``: ``valid``, or the ``code`` and ``reason`` it is not (never the key or the body)."""

    valid: bool
    code: Optional[str] = None
    reason: Optional[str] = None


class WebhookSignatureError(Exception):
    """Raised by ``verify`` when a delivery's signature does not hold; ``code`` is one of ``CODES``."""

    def __init__(self, code: str, reason: str) -> None:
        super().__init__(f"webhook signature refused: {reason}")
        self.code = code
        self.reason = reason


class WebhookPayloadError(ValueError):
    """Raised by ``parse_payload`` for a body that is not JSON or not a payload; the message names the property."""


def _raw_bytes(body: RawBody) -> bytes:
    return body.encode("utf-8") if isinstance(body, str) else bytes(body)


def sign(body: RawBody, api_key: str) -> str:
    """The ``x-cobalt-signature`` value for a body: lower-case hex HMAC-SHA256 keyed with the API key."""
    return hmac.new(api_key.encode("utf-8"), _raw_bytes(body), hashlib.sha256).hexdigest()


def _describe(value: Any) -> str:
    if value is None:
        return "None"
    if isinstance(value, (list, tuple)):
        return f"a {type(value).__name__} (parsed JSON?)"
    if isinstance(value, dict):
        return "a dict (parsed JSON?)"
    return f"a {type(value).__name__}"


def check(body: Any, signature: Union[str, Sequence[str], None], api_key: str) -> SignatureCheck:
    """Checks a delivery's signature against its raw body, in constant time.

    ``body`` is the raw body (bytes, bytearray, memoryview or str); ``signature`` the header's value
    as received: a str, a list of the values when the header came more than once, or None.
    """

    def refuse(code: str, reason: str) -> SignatureCheck:
        return SignatureCheck(False, code, reason)

    if not isinstance(api_key, str) or api_key == "":
        return refuse(
            "missing_key",
            "no API key to check with: pass the key the platform signs with (INTEGRATION_PLATFORM_API_KEY)",
        )
    if not isinstance(body, (bytes, bytearray, memoryview, str)):
        return refuse(
            "body_not_raw",
            f"the body must be the raw bytes received (bytes or str), got {_describe(body)}: "
            "a parsed and re-serialized JSON body is not the text that was signed; read the body raw "
            "(Flask: request.get_data(), Django: request.body, FastAPI: await request.body()) "
            "and parse it after the check",
        )
    try:
        raw = _raw_bytes(body)
    except UnicodeEncodeError:
        return refuse("body_not_raw", "the body is a str that is not valid Unicode text: pass the bytes received")
    if isinstance(signature, (list, tuple)):
        if len(signature) != 1:
            return refuse("malformed_signature", f"expected one {SIGNATURE_HEADER} header, got {len(signature)}")
        signature = signature[0]
    if signature is None or signature == "":
        return refuse("missing_signature", f"the request has no {SIGNATURE_HEADER} header")
    if not isinstance(signature, str):
        return refuse("malformed_signature", f"{SIGNATURE_HEADER} must be a str, got {_describe(signature)}")
    received = signature.strip().lower()
    if not _HEX_SIGNATURE.fullmatch(received):
        return refuse(
            "malformed_signature",
            f"{SIGNATURE_HEADER} must be 64 hex digits (HMAC-SHA256), got {len(signature)} characters",
        )
    # compare_digest takes the same time wherever the first differing byte is.
    if not hmac.compare_digest(bytes.fromhex(sign(raw, api_key)), bytes.fromhex(received)):
        return refuse(
            "signature_mismatch",
            "the signature does not match the body: "
            "the body was changed after signing, or it was signed with another API key",
        )
    return SignatureCheck(True)


def verify(body: Any, signature: Union[str, Sequence[str], None], api_key: str) -> None:
    """Like ``check``, but raises a ``WebhookSignatureError`` with the reason when the signature fails."""
    result = check(body, signature, api_key)
    if not result.valid:
        raise WebhookSignatureError(result.code or "", result.reason or "")


def _no_constant(name: str) -> Any:
    # JSON has no NaN or Infinity, and JavaScript's JSON.parse refuses them: so does this.
    raise ValueError(f"{name} is not JSON")


def parse_payload(body: RawBody) -> Dict[str, Any]:
    """Parses a delivery's raw body into its payload dict, after its signature was checked.

    Raises ``WebhookPayloadError`` naming the first property that does not fit; properties the
    platform may add beyond the seven it documents are kept.
    """
    if not isinstance(body, (bytes, bytearray, memoryview, str)):
        raise WebhookPayloadError(f"webhook body must be the raw bytes received, got {_describe(body)}")
    # Bytes that are not UTF-8 become U+FFFD, as the npm package's (Node's) decoding makes them.
    text = body if isinstance(body, str) else bytes(body).decode("utf-8", errors="replace")
    try:
        parsed = json.loads(text, parse_constant=_no_constant)
    except ValueError as error:
        raise WebhookPayloadError(f"webhook body is not JSON: {error}") from error
    if not isinstance(parsed, dict):
        raise WebhookPayloadError(f"webhook body: (root): expected an object, got {_json_type(parsed)}")
    for name in _STRING_FIELDS:
        if name not in parsed:
            raise WebhookPayloadError(f"webhook body: {name}: expected a string, got nothing")
        if not isinstance(parsed[name], str):
            raise WebhookPayloadError(f"webhook body: {name}: expected a string, got {_json_type(parsed[name])}")
    if parsed["event"] not in WEBHOOK_EVENTS.values():
        expected = ", ".join(WEBHOOK_EVENTS.values())
        raise WebhookPayloadError(f"webhook body: event: expected one of {expected}, got {parsed['event'][:64]!r}")
    if parsed["status"] not in WORKFLOW_RUN_STATUSES:
        expected = ", ".join(WORKFLOW_RUN_STATUSES)
        raise WebhookPayloadError(f"webhook body: status: expected one of {expected}, got {parsed['status'][:64]!r}")
    return parsed


def _json_type(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, (int, float)):
        return "a number"
    if isinstance(value, list):
        return "an array"
    if isinstance(value, dict):
        return "an object"
    return "a string"
