// Not generated: scripts/gen-sdk.sh copies it from sdk-overlays/java, so it survives regeneration.

package io.github.pulumiintegrationplatform.integrationplatform;

import com.pulumi.Context;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Which linked accounts a stack of a sharded program sets up, as the TypeScript package's sharding does. */
public final class Sharding {
    /** The stack config key (namespace {@code integration-platform}) that says how many shards there are. */
    public static final String SHARDS_SETTING = "integration-platform:shards";

    /** The most shards: well past what one API key's 20 requests per second can keep busy. */
    public static final int MAX_SHARDS = 1000;

    // Java's \d is ASCII only, as JavaScript's: the TypeScript's patterns, unchanged.
    private static final Pattern WHOLE_NUMBER = Pattern.compile("^\\d+$");
    private static final Pattern ENDING_NUMBER = Pattern.compile("(?:^|\\D)(\\d+)$");

    private Sharding() {}

    /** Where a stack sits among the shards: its shard (0 to shards - 1) and how many there are. */
    public static final class StackShard {
        private final int shard;
        private final int shards;

        /** A stack's place: shard {@code shard} of {@code shards}. */
        public StackShard(int shard, int shards) {
            this.shard = shard;
            this.shards = shards;
        }

        /** This stack's shard, 0 to shards - 1. */
        public int shard() {
            return shard;
        }

        /** How many shards the workspace is split into. */
        public int shards() {
            return shards;
        }

        @Override
        public boolean equals(Object other) {
            return other instanceof StackShard && ((StackShard) other).shard == shard && ((StackShard) other).shards == shards;
        }

        @Override
        public int hashCode() {
            return Objects.hash(shard, shards);
        }

        @Override
        public String toString() {
            return "StackShard[shard=" + shard + ", shards=" + shards + "]";
        }
    }

    /** The shard (0 to shards - 1) of a linked account: a jump consistent hash of the first 8 bytes of its id's SHA-256. */
    public static int shardOf(String linkedAccountId, int shards) {
        if (shards < 1 || shards > MAX_SHARDS) {
            throw new IllegalArgumentException("shards must be a whole number from 1 to " + MAX_SHARDS + "; got " + shards);
        }
        byte[] digest;
        try {
            digest = MessageDigest.getInstance("SHA-256").digest(linkedAccountId.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            // Every Java platform must provide SHA-256 (MessageDigest's documentation).
            throw new IllegalStateException(e);
        }
        long key = 0;
        for (int i = 0; i < 8; i++) key = (key << 8) | (digest[i] & 0xff);
        int bucket = -1;
        int next = 0;
        while (next < shards) {
            bucket = next;
            // long arithmetic wraps at 2^64, as the TypeScript's mask does; >>> reads the key unsigned.
            key = key * 2862933555777941757L + 1;
            // In floating point, as the TypeScript does: the same doubles give the same bucket.
            next = (int) Math.floor((bucket + 1) * (2147483648.0 / ((double) (key >>> 33) + 1)));
        }
        return bucket;
    }

    /** This stack's shard, from its config ({@code integration-platform:shards}) and the number ending its name. */
    public static StackShard stackShard(Context ctx) {
        return stackShard(ctx.config("integration-platform").get("shards"), ctx.stackName());
    }

    /** The shard of the stack {@code stack} when the shard count's setting is {@code shardsSetting}; shard 0 of 1 when it is empty. */
    public static StackShard stackShard(Optional<String> shardsSetting, String stack) {
        if (shardsSetting.isEmpty()) return new StackShard(0, 1);
        String text = shardsSetting.get().strip();
        int shards = WHOLE_NUMBER.matcher(text).matches() ? upTo(new BigInteger(text), MAX_SHARDS + 1) : -1;
        if (shards < 1 || shards > MAX_SHARDS) {
            throw new IllegalArgumentException(
                SHARDS_SETTING + " must be a whole number from 1 to " + MAX_SHARDS + "; got " + quoted(text));
        }
        Matcher ending = ENDING_NUMBER.matcher(stack);
        if (ending.find()) {
            String number = ending.group(1);
            int shard = upTo(new BigInteger(number), shards);
            if (shard < shards && (number.length() == 1 || number.charAt(0) != '0')) return new StackShard(shard, shards);
        }
        throw new IllegalArgumentException("stack " + quoted(stack) + " must be named for its shard, from 0 to " + (shards - 1)
            + " (" + SHARDS_SETTING + " is " + shards + "), at the end of its name: e.g. prod-0");
    }

    /** The items whose linked account belongs to the shard {@code where} (see stackShard), in their order. */
    public static <T> List<T> inThisShard(List<T> items, Function<T, String> linkedAccountIdOf, StackShard where) {
        List<T> mine = new ArrayList<>();
        for (T item : items) {
            if (shardOf(linkedAccountIdOf.apply(item), where.shards()) == where.shard()) mine.add(item);
        }
        return mine;
    }

    /** The number, or {@code limit} when it is that or more (the text of a number may be any length). */
    private static int upTo(BigInteger number, int limit) {
        return number.compareTo(BigInteger.valueOf(limit)) >= 0 ? limit : number.intValue();
    }

    /** A string as JSON.stringify writes it in the TypeScript's messages. */
    private static String quoted(String text) {
        StringBuilder out = new StringBuilder("\"");
        for (char c : text.toCharArray()) {
            switch (c) {
                case '"': out.append("\\\""); break;
                case '\\': out.append("\\\\"); break;
                case '\n': out.append("\\n"); break;
                case '\r': out.append("\\r"); break;
                case '\t': out.append("\\t"); break;
                case '\b': out.append("\\b"); break;
                case '\f': out.append("\\f"); break;
                default:
                    if (c < 0x20) out.append(String.format("\\u%04x", (int) c));
                    else out.append(c);
            }
        }
        return out.append('"').toString();
    }
}
