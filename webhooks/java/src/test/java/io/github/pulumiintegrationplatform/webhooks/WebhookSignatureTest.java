package io.github.pulumiintegrationplatform.webhooks;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.pulumiintegrationplatform.webhooks.WebhookSignature.Result;
import io.github.pulumiintegrationplatform.webhooks.WebhookSignature.WebhookSignatureException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Tests of the Java signature check: HMAC-SHA256's published vector, every refusal, and real deliveries
 * the emulator signed (../testdata/deliveries.json, or the file WEBHOOK_DELIVERIES names).
 */
class WebhookSignatureTest {
    // RFC 4231, test case 2: HMAC-SHA256 of "what do ya want for nothing?" keyed with "Jefe".
    private static final String VECTOR_KEY = "Jefe";
    private static final String VECTOR_BODY = "what do ya want for nothing?";
    private static final String VECTOR_HEX = "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843";

    private static final String KEY = "tk_test_key_0123456789";
    private static final byte[] BODY =
            "{\"linked_account_id\":\"acme\",\"event\":\"Workflow Completed\"}".getBytes(StandardCharsets.UTF_8);

    /** One recorded delivery: the key it was signed with, the exact body, and its header. */
    private static final class Delivery {
        final String apiKey;
        final String body;
        final String signature;

        Delivery(Map<String, String> fields) {
            apiKey = fields.get("apiKey");
            body = fields.get("body");
            signature = fields.get("signature");
        }
    }

    private static Path deliveriesFile() {
        String named = System.getenv("WEBHOOK_DELIVERIES");
        return named == null || named.isEmpty() ? Path.of("..", "testdata", "deliveries.json") : Path.of(named);
    }

    private static List<Delivery> loadDeliveries() throws IOException {
        List<Delivery> deliveries = new ArrayList<>();
        for (Map<String, String> fields : new StringsJson(Files.readString(deliveriesFile())).arrayOfObjects())
            deliveries.add(new Delivery(fields));
        assertFalse(deliveries.isEmpty(), deliveriesFile() + " holds no deliveries");
        return deliveries;
    }

    /** The body with one byte changed: its middle byte's lowest bit flipped. */
    private static byte[] tampered(byte[] body) {
        byte[] changed = body.clone();
        changed[changed.length / 2] ^= 0x01;
        return changed;
    }

    private static Result refused(Object body, String signature, String key) {
        Result result = WebhookSignature.check(body, signature, key);
        assertFalse(result.isValid(), "the check should have refused");
        return result;
    }

    @Test
    void signsAsRfc4231Case2() {
        assertEquals(VECTOR_HEX, WebhookSignature.sign(VECTOR_BODY, VECTOR_KEY));
        assertEquals(VECTOR_HEX, WebhookSignature.sign(VECTOR_BODY.getBytes(StandardCharsets.US_ASCII), VECTOR_KEY));
        assertTrue(WebhookSignature.check(VECTOR_BODY, VECTOR_HEX, VECTOR_KEY).isValid());
        WebhookSignature.verify(VECTOR_BODY.getBytes(StandardCharsets.US_ASCII), VECTOR_HEX, VECTOR_KEY);
    }

    @Test
    void takesTheHeaderInUpperCaseWithSpaces() {
        String signature = WebhookSignature.sign(BODY, KEY);
        assertTrue(WebhookSignature.check(BODY, "  " + signature.toUpperCase() + " ", KEY).isValid());
    }

    @Test
    void theHeaderName() {
        assertEquals("x-cobalt-signature", WebhookSignature.SIGNATURE_HEADER);
    }

    @Test
    void refusesWithoutAKey() {
        for (String key : new String[] {null, ""}) {
            Result result = refused(BODY, WebhookSignature.sign(BODY, KEY), key);
            assertEquals("missing_key", result.getCode());
            assertTrue(result.getReason().contains("INTEGRATION_PLATFORM_API_KEY"));
        }
    }

    @Test
    void refusesABodyThatIsNotRaw() {
        Map<String, Object> parsed = new LinkedHashMap<>();
        parsed.put("linked_account_id", "acme");
        Object[][] cases = {{parsed, "a LinkedHashMap"}, {null, "null"}, {42, "a Integer"}, {new char[] {'{'}, "a char[]"}};
        for (Object[] c : cases) {
            Result result = refused(c[0], WebhookSignature.sign(BODY, KEY), KEY);
            assertEquals("body_not_raw", result.getCode());
            assertTrue(result.getReason().contains("got " + c[1]), result.getReason());
            assertTrue(result.getReason().contains("@RequestBody byte[]"), result.getReason());
        }
    }

    @Test
    void refusesAMissingSignature() {
        for (String signature : new String[] {null, ""}) {
            Result result = refused(BODY, signature, KEY);
            assertEquals("missing_signature", result.getCode());
            assertEquals("the request has no x-cobalt-signature header", result.getReason());
        }
    }

    @Test
    void refusesAMalformedSignature() {
        for (String signature : new String[] {"abc", "g".repeat(64), "0".repeat(63), "0".repeat(65)})
            assertEquals("malformed_signature", refused(BODY, signature, KEY).getCode(), signature);
    }

    @Test
    void refusesAHeaderSentTwiceAndTakesItSentOnce() {
        String good = WebhookSignature.sign(BODY, KEY);
        Result twice = WebhookSignature.check(BODY, List.of(good, good), KEY);
        assertFalse(twice.isValid());
        assertEquals("malformed_signature", twice.getCode());
        assertEquals("expected one x-cobalt-signature header, got 2", twice.getReason());
        assertTrue(WebhookSignature.check(BODY, List.of(good), KEY).isValid());
        assertEquals("missing_signature", WebhookSignature.check(BODY, List.<String>of(), KEY).getCode());
        WebhookSignatureException thrown = assertThrows(
                WebhookSignatureException.class, () -> WebhookSignature.verify(BODY, List.of(good, good), KEY));
        assertEquals("malformed_signature", thrown.getCode());
    }

    @Test
    void refusesASignatureMadeWithAnotherKeyOrForAnotherBody() {
        assertEquals("signature_mismatch", refused(BODY, WebhookSignature.sign(BODY, "another key"), KEY).getCode());
        assertEquals("signature_mismatch", refused(tampered(BODY), WebhookSignature.sign(BODY, KEY), KEY).getCode());
    }

    @Test
    void noReasonContainsTheKeyOrTheBody() {
        String signature = WebhookSignature.sign(BODY, KEY);
        Object[][] cases = {
            {BODY, signature, ""},
            {Map.of("linked_account_id", "acme"), signature, KEY},
            {BODY, null, KEY},
            {BODY, "x".repeat(64), KEY},
            {BODY, WebhookSignature.sign(BODY, "other"), KEY},
        };
        Set<String> codes = new HashSet<>();
        for (Object[] c : cases) {
            Result result = refused(c[0], (String) c[1], (String) c[2]);
            codes.add(result.getCode());
            assertFalse(result.getReason().contains(KEY) || result.getReason().contains("acme"), result.getReason());
        }
        assertEquals(new HashSet<>(WebhookSignature.CODES), codes);
    }

    @Test
    void verifyThrowsWithTheCode() {
        WebhookSignatureException thrown = assertThrows(
                WebhookSignatureException.class, () -> WebhookSignature.verify(BODY, "0".repeat(64), KEY));
        assertEquals("signature_mismatch", thrown.getCode());
        assertTrue(thrown.getMessage().startsWith("webhook signature refused: the signature does not match the body"));
    }

    @Test
    void takesEveryDeliveryTheEmulatorSignedAndRefusesItTampered() throws IOException {
        List<Delivery> deliveries = loadDeliveries();
        for (int i = 0; i < deliveries.size(); i++) {
            Delivery d = deliveries.get(i);
            byte[] raw = d.body.getBytes(StandardCharsets.UTF_8);
            Result result = WebhookSignature.check(raw, d.signature, d.apiKey);
            assertTrue(result.isValid(), "delivery " + i + " of " + deliveriesFile() + " was refused: " + result);
            assertTrue(WebhookSignature.check(d.body, d.signature, d.apiKey).isValid(), "delivery " + i + " as a String");
            assertEquals("signature_mismatch", WebhookSignature.check(tampered(raw), d.signature, d.apiKey).getCode(),
                    "delivery " + i + " tampered");
            assertEquals("signature_mismatch", WebhookSignature.check(raw, d.signature, "x" + d.apiKey).getCode(),
                    "delivery " + i + " with another key");
        }
    }

    @Test
    void theDeliveriesHoldEveryEventAndANonAsciiBody() throws IOException {
        Set<String> events = new HashSet<>();
        boolean nonAscii = false;
        for (Delivery d : loadDeliveries()) {
            for (String event : WebhookSignature.EVENTS.values())
                if (d.body.contains("\"event\":\"" + event + "\"")) events.add(event);
            nonAscii |= d.body.chars().anyMatch(c -> c > 0x7f);
        }
        assertEquals(new HashSet<>(WebhookSignature.EVENTS.values()), events);
        assertTrue(nonAscii, "no delivery with a non-ASCII body");
    }

    /** Just enough JSON for the deliveries file: an array of objects whose values are strings. */
    private static final class StringsJson {
        private final String text;
        private int at;

        StringsJson(String text) {
            this.text = text;
        }

        List<Map<String, String>> arrayOfObjects() {
            List<Map<String, String>> items = new ArrayList<>();
            expect('[');
            if (peek() == ']') return items;
            do {
                items.add(object());
            } while (next(',', ']'));
            return items;
        }

        private Map<String, String> object() {
            Map<String, String> fields = new LinkedHashMap<>();
            expect('{');
            if (peek() == '}') {
                at++;
                return fields;
            }
            do {
                String name = string();
                expect(':');
                fields.put(name, string());
            } while (next(',', '}'));
            return fields;
        }

        private String string() {
            expect('"');
            StringBuilder out = new StringBuilder();
            for (char c = text.charAt(at++); c != '"'; c = text.charAt(at++)) {
                if (c != '\\') {
                    out.append(c);
                    continue;
                }
                char escaped = text.charAt(at++);
                switch (escaped) {
                    case 'n': out.append('\n'); break;
                    case 't': out.append('\t'); break;
                    case 'r': out.append('\r'); break;
                    case 'b': out.append('\b'); break;
                    case 'f': out.append('\f'); break;
                    case 'u': out.append((char) Integer.parseInt(text.substring(at, at + 4), 16)); at += 4; break;
                    default: out.append(escaped); // \" \\ \/
                }
            }
            return out.toString();
        }

        /** Consumes `more` (true) or `end` (false), failing on anything else. */
        private boolean next(char more, char end) {
            char c = peek();
            at++;
            if (c == more) return true;
            if (c == end) return false;
            throw new IllegalArgumentException("expected " + more + " or " + end + " at " + at);
        }

        private void expect(char c) {
            if (peek() != c) throw new IllegalArgumentException("expected " + c + " at " + at);
            at++;
        }

        private char peek() {
            while (Character.isWhitespace(text.charAt(at))) at++;
            return text.charAt(at);
        }
    }
}
