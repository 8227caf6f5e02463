// Package webhooks checks the signature of the integration platform's webhook deliveries: the
// x-cobalt-signature header is the hex HMAC-SHA256 of the raw body, keyed with the API key. It is
// the Go twin of the npm package's pulumi-integration-platform/webhooks (same codes, same refusals),
// standard library only: add the module, or copy this one file into your project.
//
// Check the bytes you read with io.ReadAll(r.Body), before any JSON decoding: a re-encoded body is
// not the text that was signed.
//
// Source: https://github.com/pulumi-integration-platform/pulumi-integration-platform/tree/main/webhooks/go
package webhooks

import (
	"bytes"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"regexp"
	"strings"
)

// SignatureHeader is the header that carries a delivery's signature.
const SignatureHeader = "x-cobalt-signature"

// Code says why a signature was refused, for programs; Reason says it for people.
type Code string

// The reasons a signature is refused, as the npm package and the Python module name them.
const (
	CodeMissingSignature   Code = "missing_signature"
	CodeMalformedSignature Code = "malformed_signature"
	CodeSignatureMismatch  Code = "signature_mismatch"
	CodeBodyNotRaw         Code = "body_not_raw"
	CodeMissingKey         Code = "missing_key"
)

// Events are the four webhook events, in the platform's words, by the status they report.
var Events = map[string]string{
	"COMPLETED": "Workflow Completed",
	"ERRORED":   "Workflow Errored",
	"STOPPED":   "Workflow Stopped",
	"TIMED_OUT": "Workflow Timed Out",
}

// Result is the outcome of Check: Valid, or the Code and Reason it is not (never the key or the body).
type Result struct {
	Valid  bool
	Code   Code
	Reason string
}

// Error is what Verify returns when a delivery's signature does not hold.
type Error struct {
	Code   Code
	Reason string
}

// Error says why the signature was refused.
func (e *Error) Error() string { return "webhook signature refused: " + e.Reason }

var hexSignature = regexp.MustCompile(`^[0-9a-f]{64}$`)

// Sign returns the x-cobalt-signature value for a body: lower-case hex HMAC-SHA256 keyed with the API key.
func Sign(body []byte, apiKey string) string {
	mac := hmac.New(sha256.New, []byte(apiKey))
	mac.Write(body)
	return hex.EncodeToString(mac.Sum(nil))
}

// Check checks a delivery's signature against its raw body, in constant time. A nil body is refused
// as body_not_raw: it means no body was read (io.ReadAll returns an empty, non-nil slice for none).
func Check(body []byte, signature string, apiKey string) Result {
	return check(body, []string{signature}, apiKey)
}

// CheckHeader is Check with the signature taken from a request's headers; a header sent more than once is refused.
func CheckHeader(body []byte, header http.Header, apiKey string) Result {
	return check(body, header.Values(SignatureHeader), apiKey)
}

// Verify is Check returning an *Error with the reason when the signature fails, and nil when it holds.
func Verify(body []byte, signature string, apiKey string) error {
	return errorOf(Check(body, signature, apiKey))
}

// VerifyHeader is CheckHeader returning an *Error with the reason when the signature fails, and nil when it holds.
func VerifyHeader(body []byte, header http.Header, apiKey string) error {
	return errorOf(CheckHeader(body, header, apiKey))
}

func errorOf(result Result) error {
	if result.Valid {
		return nil
	}
	return &Error{Code: result.Code, Reason: result.Reason}
}

func check(body []byte, signatures []string, apiKey string) Result {
	refuse := func(code Code, reason string) Result { return Result{Code: code, Reason: reason} }
	if apiKey == "" {
		return refuse(CodeMissingKey,
			"no API key to check with: pass the key the platform signs with (INTEGRATION_PLATFORM_API_KEY)")
	}
	if body == nil {
		return refuse(CodeBodyNotRaw,
			"the body must be the raw bytes received, got nil: read them with io.ReadAll(r.Body) "+
				"before any JSON decoding (a re-encoded body is not the text that was signed), and parse them after the check")
	}
	if len(signatures) > 1 {
		return refuse(CodeMalformedSignature, fmt.Sprintf("expected one %s header, got %d", SignatureHeader, len(signatures)))
	}
	if len(signatures) == 0 || signatures[0] == "" {
		return refuse(CodeMissingSignature, fmt.Sprintf("the request has no %s header", SignatureHeader))
	}
	received := strings.ToLower(strings.TrimSpace(signatures[0]))
	if !hexSignature.MatchString(received) {
		return refuse(CodeMalformedSignature, fmt.Sprintf("%s must be 64 hex digits (HMAC-SHA256), got %d characters",
			SignatureHeader, len([]rune(signatures[0]))))
	}
	expected, _ := hex.DecodeString(Sign(body, apiKey))
	given, _ := hex.DecodeString(received)
	// hmac.Equal takes the same time wherever the first differing byte is.
	if !hmac.Equal(expected, given) {
		return refuse(CodeSignatureMismatch, "the signature does not match the body: "+
			"the body was changed after signing, or it was signed with another API key")
	}
	return Result{Valid: true}
}

// Payload is a delivery's body: which run of which workflow, for which linked account and config, ended how.
type Payload struct {
	LinkedAccountID string `json:"linked_account_id"`
	InstanceID      string `json:"instance_id"`
	WorkflowID      string `json:"workflow_id"`
	ConfigID        string `json:"config_id"`
	Event           string `json:"event"`
	WorkflowName    string `json:"workflow_name"`
	Status          string `json:"status"`
	// Extra holds the properties beyond these seven that the platform may add (numbers as json.Number).
	Extra map[string]any `json:"-"`
}

// ParsePayload parses a delivery's raw body after its signature was checked; the error names the
// first property that does not fit. Property names match exactly, unlike encoding/json's struct decoding.
func ParsePayload(body []byte) (*Payload, error) {
	decoder := json.NewDecoder(bytes.NewReader(body))
	decoder.UseNumber()
	var root any
	if err := decoder.Decode(&root); err != nil {
		return nil, fmt.Errorf("webhook body is not JSON: %w", err)
	}
	if _, err := decoder.Token(); err != io.EOF {
		return nil, fmt.Errorf("webhook body is not JSON: more after the value")
	}
	fields, ok := root.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("webhook body: (root): expected an object, got %s", jsonType(root))
	}
	payload := &Payload{Extra: map[string]any{}}
	targets := []struct {
		name string
		to   *string
	}{
		{"linked_account_id", &payload.LinkedAccountID},
		{"instance_id", &payload.InstanceID},
		{"workflow_id", &payload.WorkflowID},
		{"config_id", &payload.ConfigID},
		{"event", &payload.Event},
		{"workflow_name", &payload.WorkflowName},
		{"status", &payload.Status},
	}
	known := map[string]bool{}
	for _, target := range targets {
		known[target.name] = true
		value, present := fields[target.name]
		if !present {
			return nil, fmt.Errorf("webhook body: %s: expected a string, got nothing", target.name)
		}
		text, isString := value.(string)
		if !isString {
			return nil, fmt.Errorf("webhook body: %s: expected a string, got %s", target.name, jsonType(value))
		}
		*target.to = text
	}
	if !isEvent(payload.Event) {
		return nil, fmt.Errorf("webhook body: event: expected one of Workflow Completed, Workflow Errored, "+
			"Workflow Stopped, Workflow Timed Out, got %q", truncate(payload.Event))
	}
	if _, isStatus := Events[payload.Status]; !isStatus {
		return nil, fmt.Errorf("webhook body: status: expected one of COMPLETED, ERRORED, STOPPED, TIMED_OUT, got %q",
			truncate(payload.Status))
	}
	for name, value := range fields {
		if !known[name] {
			payload.Extra[name] = value
		}
	}
	return payload, nil
}

func isEvent(name string) bool {
	for _, event := range Events {
		if event == name {
			return true
		}
	}
	return false
}

func truncate(text string) string {
	if runes := []rune(text); len(runes) > 64 {
		return string(runes[:64])
	}
	return text
}

func jsonType(value any) string {
	switch value.(type) {
	case nil:
		return "null"
	case bool:
		return "a boolean"
	case json.Number:
		return "a number"
	case []any:
		return "an array"
	case map[string]any:
		return "an object"
	default:
		return "a string"
	}
}
