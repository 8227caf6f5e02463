// Tests of the Go signature check: HMAC-SHA256's published vector, every refusal, and real deliveries
// the emulator signed (../testdata/deliveries.json, or the file WEBHOOK_DELIVERIES names).
package webhooks

import (
	"encoding/json"
	"errors"
	"net/http"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"
)

// RFC 4231, test case 2: HMAC-SHA256 of "what do ya want for nothing?" keyed with "Jefe".
const (
	vectorKey  = "Jefe"
	vectorBody = "what do ya want for nothing?"
	vectorHex  = "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"
)

const testKey = "tk_test_key_0123456789"

var testBody = []byte(`{"linked_account_id":"acme","event":"Workflow Completed"}`)

// delivery is one recorded delivery: the key it was signed with, the exact body, and its header.
type delivery struct {
	APIKey    string `json:"apiKey"`
	Body      string `json:"body"`
	Signature string `json:"signature"`
}

func loadDeliveries(t *testing.T) (string, []delivery) {
	t.Helper()
	file := os.Getenv("WEBHOOK_DELIVERIES")
	if file == "" {
		file = filepath.Join("..", "testdata", "deliveries.json")
	}
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatalf("reading the deliveries: %v", err)
	}
	var deliveries []delivery
	if err := json.Unmarshal(data, &deliveries); err != nil {
		t.Fatalf("%s: %v", file, err)
	}
	if len(deliveries) == 0 {
		t.Fatalf("%s holds no deliveries", file)
	}
	return file, deliveries
}

// tampered returns the body with one byte changed: its middle byte's lowest bit flipped.
func tampered(body []byte) []byte {
	changed := append([]byte{}, body...)
	changed[len(changed)/2] ^= 0x01
	return changed
}

func TestSignsAsRFC4231Case2(t *testing.T) {
	if got := Sign([]byte(vectorBody), vectorKey); got != vectorHex {
		t.Fatalf("Sign = %s, want %s", got, vectorHex)
	}
	if err := Verify([]byte(vectorBody), vectorHex, vectorKey); err != nil {
		t.Fatalf("Verify refused the vector: %v", err)
	}
}

func TestTakesTheHeaderInUpperCaseWithSpaces(t *testing.T) {
	if result := Check(testBody, "  "+strings.ToUpper(Sign(testBody, testKey))+" ", testKey); !result.Valid {
		t.Fatalf("refused: %s", result.Reason)
	}
}

func TestTakesAnEmptyBodyButRefusesNil(t *testing.T) {
	if result := Check([]byte{}, Sign(nil, testKey), testKey); !result.Valid {
		t.Fatalf("an empty body was refused: %s", result.Reason)
	}
	result := Check(nil, Sign(nil, testKey), testKey)
	if result.Code != CodeBodyNotRaw || !strings.Contains(result.Reason, "io.ReadAll(r.Body)") {
		t.Fatalf("nil body: %+v", result)
	}
}

func TestRefusals(t *testing.T) {
	good := Sign(testBody, testKey)
	cases := []struct {
		name      string
		body      []byte
		signature string
		key       string
		want      Code
	}{
		{"no key", testBody, good, "", CodeMissingKey},
		{"nil body", nil, good, testKey, CodeBodyNotRaw},
		{"no signature", testBody, "", testKey, CodeMissingSignature},
		{"too short", testBody, "abc", testKey, CodeMalformedSignature},
		{"not hex", testBody, strings.Repeat("g", 64), testKey, CodeMalformedSignature},
		{"one digit too many", testBody, good + "0", testKey, CodeMalformedSignature},
		{"another key", testBody, Sign(testBody, "another key"), testKey, CodeSignatureMismatch},
		{"tampered body", tampered(testBody), good, testKey, CodeSignatureMismatch},
	}
	seen := map[Code]bool{}
	for _, c := range cases {
		result := Check(c.body, c.signature, c.key)
		if result.Valid || result.Code != c.want {
			t.Errorf("%s: got %+v, want code %s", c.name, result, c.want)
		}
		if strings.Contains(result.Reason, testKey) || strings.Contains(result.Reason, "acme") {
			t.Errorf("%s: the reason holds the key or the body: %s", c.name, result.Reason)
		}
		seen[result.Code] = true
	}
	if len(seen) != 5 {
		t.Errorf("the cases cover %d codes, want all 5", len(seen))
	}
}

func TestCheckHeader(t *testing.T) {
	good := Sign(testBody, testKey)
	header := http.Header{}
	if result := CheckHeader(testBody, header, testKey); result.Code != CodeMissingSignature {
		t.Errorf("no header: %+v", result)
	}
	// Go's http server canonicalizes names: the check finds the header however it was spelled.
	header.Set("X-Cobalt-Signature", good)
	if err := VerifyHeader(testBody, header, testKey); err != nil {
		t.Errorf("one header: %v", err)
	}
	header.Add(SignatureHeader, good)
	if result := CheckHeader(testBody, header, testKey); result.Code != CodeMalformedSignature ||
		result.Reason != "expected one x-cobalt-signature header, got 2" {
		t.Errorf("two headers: %+v", result)
	}
}

func TestVerifyReturnsAnErrorWithTheCode(t *testing.T) {
	err := Verify(testBody, strings.Repeat("0", 64), testKey)
	var refused *Error
	if !errors.As(err, &refused) || refused.Code != CodeSignatureMismatch {
		t.Fatalf("Verify = %v, want an *Error with %s", err, CodeSignatureMismatch)
	}
	if !strings.HasPrefix(err.Error(), "webhook signature refused: the signature does not match the body") {
		t.Errorf("message: %s", err)
	}
}

func TestTakesEveryDeliveryTheEmulatorSignedAndRefusesItTampered(t *testing.T) {
	file, deliveries := loadDeliveries(t)
	for i, d := range deliveries {
		body := []byte(d.Body)
		if result := Check(body, d.Signature, d.APIKey); !result.Valid {
			t.Errorf("delivery %d of %s was refused: %s", i, file, result.Reason)
		}
		if result := Check(tampered(body), d.Signature, d.APIKey); result.Code != CodeSignatureMismatch {
			t.Errorf("delivery %d tampered: %+v", i, result)
		}
		if result := Check(body, d.Signature, "x"+d.APIKey); result.Code != CodeSignatureMismatch {
			t.Errorf("delivery %d with another key: %+v", i, result)
		}
	}
}

func TestTheDeliveriesHoldEveryEventAndANonASCIIBody(t *testing.T) {
	_, deliveries := loadDeliveries(t)
	events := map[string]bool{}
	nonASCII := false
	for i, d := range deliveries {
		payload, err := ParsePayload([]byte(d.Body))
		if err != nil {
			t.Fatalf("delivery %d: %v", i, err)
		}
		if Events[payload.Status] != payload.Event {
			t.Errorf("delivery %d: status %s with event %s", i, payload.Status, payload.Event)
		}
		events[payload.Event] = true
		nonASCII = nonASCII || utf8.RuneCountInString(payload.WorkflowName) != len(payload.WorkflowName)
	}
	if len(events) != 4 {
		t.Errorf("the deliveries hold %d of the 4 events: %v", len(events), events)
	}
	if !nonASCII {
		t.Error("no delivery with a non-ASCII workflow name")
	}
}

func TestParsePayloadReturnsTheFieldsAndKeepsExtraOnes(t *testing.T) {
	payload, err := ParsePayload([]byte(`{"linked_account_id":"acme","instance_id":"run-1","workflow_id":"wf",` +
		`"config_id":"acme","event":"Workflow Errored","workflow_name":"Sync ✓","status":"ERRORED","added_later":12345678901234567890}`))
	if err != nil {
		t.Fatal(err)
	}
	// A number the platform may add stays exact, as json.Number.
	want := Payload{LinkedAccountID: "acme", InstanceID: "run-1", WorkflowID: "wf", ConfigID: "acme",
		Event: "Workflow Errored", WorkflowName: "Sync ✓", Status: "ERRORED",
		Extra: map[string]any{"added_later": json.Number("12345678901234567890")}}
	if !reflect.DeepEqual(*payload, want) {
		t.Errorf("got %+v, want %+v", *payload, want)
	}
}

func TestParsePayloadNamesWhatDoesNotFit(t *testing.T) {
	valid := `"linked_account_id":"acme","instance_id":"run-1","workflow_id":"wf","config_id":"acme","workflow_name":"Sync"`
	cases := []struct{ body, want string }{
		{`{not json`, "webhook body is not JSON"},
		{`{"a":1} {}`, "webhook body is not JSON: more after the value"},
		{`[]`, "webhook body: (root): expected an object, got an array"},
		{`{}`, "webhook body: linked_account_id: expected a string, got nothing"},
		// encoding/json would take "LINKED_ACCOUNT_ID" for linked_account_id; the payload's names are exact.
		{`{"LINKED_ACCOUNT_ID":"acme"}`, "webhook body: linked_account_id: expected a string, got nothing"},
		{`{"linked_account_id":7}`, "webhook body: linked_account_id: expected a string, got a number"},
		{`{` + valid + `,"event":"Workflow Done","status":"COMPLETED"}`, "webhook body: event: expected one of Workflow Completed"},
		{`{` + valid + `,"event":"Workflow Completed","status":"completed"}`, "webhook body: status: expected one of COMPLETED, ERRORED"},
		{`{` + valid + `,"event":"Workflow Completed","status":null}`, "webhook body: status: expected a string, got null"},
	}
	for _, c := range cases {
		_, err := ParsePayload([]byte(c.body))
		if err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("%s: got %v, want %q", c.body, err, c.want)
		}
	}
}
