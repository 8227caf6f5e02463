// Source: https://github.com/pulumi-integration-platform/pulumi-integration-platform/tree/main/webhooks/java
package io.github.pulumiintegrationplatform.webhooks;

import java.nio.charset.StandardCharsets;
import java.security.InvalidKeyException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Checks the signature of the integration platform's webhook deliveries: {@code x-cobalt-signature}
 * is the hex HMAC-SHA256 of the raw body, keyed with the API key. The Java twin of the npm package's
 * {@code pulumi-integration-platform/webhooks} (same codes, same refusals), with nothing but the JDK:
 * copy this file into your project, or depend on its jar.
 *
 * <p>Check the bytes you received, before any JSON binding: a servlet's
 * {@code request.getInputStream().readAllBytes()}, or Spring's {@code @RequestBody byte[]}. A parsed
 * and re-serialized body is not the text that was signed.
 */
public final class WebhookSignature {
    /** The header that carries a delivery's signature (compare it case-insensitively, as HTTP does). */
    public static final String SIGNATURE_HEADER = "x-cobalt-signature";

    /** Refused: the request has no signature header. */
    public static final String MISSING_SIGNATURE = "missing_signature";
    /** Refused: the header is not 64 hex digits. */
    public static final String MALFORMED_SIGNATURE = "malformed_signature";
    /** Refused: the signature is not the body's under this key. */
    public static final String SIGNATURE_MISMATCH = "signature_mismatch";
    /** Refused: the body given is not the raw bytes (or text) received. */
    public static final String BODY_NOT_RAW = "body_not_raw";
    /** Refused: no API key to check with. */
    public static final String MISSING_KEY = "missing_key";
    /** Every reason a signature can be refused, as {@link Result#getCode()} names it. */
    public static final List<String> CODES =
            List.of(MISSING_SIGNATURE, MALFORMED_SIGNATURE, SIGNATURE_MISMATCH, BODY_NOT_RAW, MISSING_KEY);

    /** The four webhook events, in the platform's words, by the status they report. */
    public static final Map<String, String> EVENTS = Map.of(
            "COMPLETED", "Workflow Completed",
            "ERRORED", "Workflow Errored",
            "STOPPED", "Workflow Stopped",
            "TIMED_OUT", "Workflow Timed Out");

    private static final Pattern HEX_SIGNATURE = Pattern.compile("[0-9a-f]{64}");

    private WebhookSignature() {}

    /** The outcome of {@link #check}: valid, or the code and reason it is not (never the key or the body). */
    public static final class Result {
        private final boolean valid;
        private final String code;
        private final String reason;

        private Result(boolean valid, String code, String reason) {
            this.valid = valid;
            this.code = code;
            this.reason = reason;
        }

        /** Whether the signature holds. */
        public boolean isValid() {
            return valid;
        }

        /** Why it was refused, one of {@link #CODES}; null when valid. */
        public String getCode() {
            return code;
        }

        /** What went wrong and what to do about it, for people; null when valid. */
        public String getReason() {
            return reason;
        }

        @Override
        public String toString() {
            return valid ? "valid" : code + ": " + reason;
        }
    }

    /** Thrown by {@link #verify} when a delivery's signature does not hold. */
    public static final class WebhookSignatureException extends RuntimeException {
        private static final long serialVersionUID = 1L;
        private final String code;

        WebhookSignatureException(String code, String reason) {
            super("webhook signature refused: " + reason);
            this.code = code;
        }

        /** Why it was refused, one of {@link #CODES}. */
        public String getCode() {
            return code;
        }
    }

    /** The {@code x-cobalt-signature} value for a body: hex HMAC-SHA256 keyed with the (non-empty) API key. */
    public static String sign(byte[] body, String apiKey) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(apiKey.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
            byte[] digest = mac.doFinal(body);
            StringBuilder hex = new StringBuilder(digest.length * 2);
            for (byte b : digest) {
                hex.append(Character.forDigit((b >> 4) & 0xf, 16)).append(Character.forDigit(b & 0xf, 16));
            }
            return hex.toString();
        } catch (NoSuchAlgorithmException | InvalidKeyException e) {
            // Every JDK has HmacSHA256, and any non-empty key is valid for it.
            throw new IllegalStateException("HmacSHA256 is unavailable", e);
        }
    }

    /** {@link #sign(byte[], String)} of a body given as text, taken as UTF-8. */
    public static String sign(String body, String apiKey) {
        return sign(body.getBytes(StandardCharsets.UTF_8), apiKey);
    }

    /**
     * Checks a delivery's signature against its raw body, in constant time. {@code rawBody} is the
     * body as received, a {@code byte[]} (or a {@code String}, taken as UTF-8); anything else, such as
     * a parsed {@code Map} or JSON node, is refused as {@link #BODY_NOT_RAW}. {@code signature} is the
     * header's value, or null when absent.
     */
    public static Result check(Object rawBody, String signature, String apiKey) {
        if (apiKey == null || apiKey.isEmpty()) {
            return refuse(MISSING_KEY,
                    "no API key to check with: pass the key the platform signs with (INTEGRATION_PLATFORM_API_KEY)");
        }
        if (!(rawBody instanceof byte[] || rawBody instanceof String)) {
            return refuse(BODY_NOT_RAW, "the body must be the raw bytes received (a byte[] or String), got "
                    + describe(rawBody) + ": a parsed and re-serialized JSON body is not the text that was signed; "
                    + "read the body raw (request.getInputStream().readAllBytes(), or @RequestBody byte[] in Spring) "
                    + "and parse it after the check");
        }
        if (signature == null || signature.isEmpty()) {
            return refuse(MISSING_SIGNATURE, "the request has no " + SIGNATURE_HEADER + " header");
        }
        String received = signature.strip().toLowerCase(Locale.ROOT);
        if (!HEX_SIGNATURE.matcher(received).matches()) {
            return refuse(MALFORMED_SIGNATURE, SIGNATURE_HEADER + " must be 64 hex digits (HMAC-SHA256), got "
                    + signature.length() + " characters");
        }
        byte[] body = rawBody instanceof byte[]
                ? (byte[]) rawBody
                : ((String) rawBody).getBytes(StandardCharsets.UTF_8);
        // MessageDigest.isEqual takes the same time wherever the first differing byte is.
        if (!MessageDigest.isEqual(fromHex(sign(body, apiKey)), fromHex(received))) {
            return refuse(SIGNATURE_MISMATCH, "the signature does not match the body: "
                    + "the body was changed after signing, or it was signed with another API key");
        }
        return new Result(true, null, null);
    }

    /**
     * {@link #check(Object, String, String)} with every value of the header as received (a servlet's
     * {@code Collections.list(request.getHeaders(SIGNATURE_HEADER))}): a header sent twice is refused as
     * {@link #MALFORMED_SIGNATURE}, as the other languages' checks refuse it, rather than one copy chosen.
     */
    public static Result check(Object rawBody, List<String> signatures, String apiKey) {
        if (signatures != null && signatures.size() > 1 && apiKey != null && !apiKey.isEmpty()) {
            return refuse(MALFORMED_SIGNATURE, "expected one " + SIGNATURE_HEADER + " header, got " + signatures.size());
        }
        return check(rawBody, signatures == null || signatures.isEmpty() ? null : signatures.get(0), apiKey);
    }

    /** Like {@link #check(Object, List, String)}, but throws a {@link WebhookSignatureException} when it fails. */
    public static void verify(Object rawBody, List<String> signatures, String apiKey) {
        Result result = check(rawBody, signatures, apiKey);
        if (!result.isValid()) throw new WebhookSignatureException(result.getCode(), result.getReason());
    }

    /** Like {@link #check}, but throws a {@link WebhookSignatureException} with the reason when the signature fails. */
    public static void verify(Object rawBody, String signature, String apiKey) {
        Result result = check(rawBody, signature, apiKey);
        if (!result.isValid()) throw new WebhookSignatureException(result.getCode(), result.getReason());
    }

    private static Result refuse(String code, String reason) {
        return new Result(false, code, reason);
    }

    private static String describe(Object value) {
        if (value == null) return "null";
        String type = "a " + value.getClass().getSimpleName();
        return value instanceof Map || value instanceof Iterable ? type + " (parsed JSON?)" : type;
    }

    private static byte[] fromHex(String hex) {
        byte[] bytes = new byte[hex.length() / 2];
        for (int i = 0; i < bytes.length; i++)
            bytes[i] = (byte) Integer.parseInt(hex.substring(2 * i, 2 * i + 2), 16);
        return bytes;
    }
}
