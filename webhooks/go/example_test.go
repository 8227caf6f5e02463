package webhooks_test

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"

	webhooks "github.com/pulumi-integration-platform/pulumi-integration-platform/webhooks/go"
)

// A receiver reads the raw body, checks it, and only then parses it.
func ExampleVerifyHeader() {
	apiKey := "tk_emulator" // in your service: os.Getenv("INTEGRATION_PLATFORM_API_KEY")
	handler := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, 64<<10))
		if err != nil {
			http.Error(w, "body too large", http.StatusRequestEntityTooLarge)
			return
		}
		if err := webhooks.VerifyHeader(body, r.Header, apiKey); err != nil {
			http.Error(w, err.Error(), http.StatusUnauthorized)
			return
		}
		event, err := webhooks.ParsePayload(body)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		fmt.Printf("%s for %s\n", event.Event, event.LinkedAccountID)
		w.WriteHeader(http.StatusNoContent)
	})

	body := `{"linked_account_id":"acme","instance_id":"run-1","workflow_id":"wf_hs_contact_sync",` +
		`"config_id":"acme","event":"Workflow Completed","workflow_name":"Sync contacts","status":"COMPLETED"}`
	for _, signature := range []string{webhooks.Sign([]byte(body), apiKey), strings.Repeat("0", 64)} {
		request := httptest.NewRequest(http.MethodPost, "/webhooks", strings.NewReader(body))
		request.Header.Set(webhooks.SignatureHeader, signature)
		response := httptest.NewRecorder()
		handler.ServeHTTP(response, request)
		if response.Code != http.StatusNoContent {
			fmt.Printf("%d %s\n", response.Code, strings.TrimSpace(response.Body.String()))
		}
	}
	// Output:
	// Workflow Completed for acme
	// 401 webhook signature refused: the signature does not match the body: the body was changed after signing, or it was signed with another API key
}
