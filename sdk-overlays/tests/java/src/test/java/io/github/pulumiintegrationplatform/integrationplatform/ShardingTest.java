package io.github.pulumiintegrationplatform.integrationplatform;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.pulumiintegrationplatform.integrationplatform.Sharding.StackShard;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Sharding, from the SDK's jar, against the vectors the TypeScript shardOf recorded. */
class ShardingTest {
    /** One vector of contract/shardVectors.json. */
    static final class Vector {
        final String id;
        final int shards;
        final int shard;

        Vector(String id, int shards, int shard) {
            this.id = id;
            this.shards = shards;
            this.shard = shard;
        }
    }

    // The file is the recorder's JSON.stringify: one object per vector, its three keys in this order.
    // A pattern, not a JSON library: the JDK has none, and the tests keep to the SDK's dependencies.
    private static final Pattern VECTOR = Pattern.compile(
        "\\{\\s*\"linkedAccountId\":\\s*\"((?:[^\"\\\\]|\\\\.)*)\",\\s*\"shards\":\\s*(\\d+),\\s*\"shard\":\\s*(\\d+)\\s*\\}");

    static List<Vector> vectors() throws IOException {
        String file = System.getenv().getOrDefault("SHARD_VECTORS", "../../../contract/shardVectors.json");
        String text = Files.readString(Path.of(file), StandardCharsets.UTF_8);
        List<Vector> vectors = new ArrayList<>();
        Matcher m = VECTOR.matcher(text);
        while (m.find()) vectors.add(new Vector(unescape(m.group(1)), Integer.parseInt(m.group(2)), Integer.parseInt(m.group(3))));
        assertTrue(vectors.size() >= 60, file + " has " + vectors.size() + " vectors");
        return vectors;
    }

    /** JSON's string escapes (the recorder writes non-ASCII as itself, so only these occur). */
    private static String unescape(String s) {
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c != '\\') {
                out.append(c);
                continue;
            }
            char e = s.charAt(++i);
            if (e == 'u') {
                out.append((char) Integer.parseInt(s.substring(i + 1, i + 5), 16));
                i += 4;
            } else {
                out.append(e == 'n' ? '\n' : e == 't' ? '\t' : e == 'r' ? '\r' : e);
            }
        }
        return out.toString();
    }

    @Test
    void shardOfAgreesWithEveryVector() throws IOException {
        for (Vector v : vectors()) {
            assertEquals(v.shard, Sharding.shardOf(v.id, v.shards), v.id + " at " + v.shards + " shards");
        }
        assertEquals("integration-platform:shards", Sharding.SHARDS_SETTING);
        assertEquals(1000, Sharding.MAX_SHARDS);
    }

    @ParameterizedTest
    @ValueSource(ints = {0, -1, 1001})
    void shardOfRefusesACountOutOfRange(int shards) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Sharding.shardOf("acme", shards));
        assertEquals("shards must be a whole number from 1 to 1000; got " + shards, e.getMessage());
    }

    @Test
    void stackShardReadsTheCountAndTheStackName() {
        assertEquals(new StackShard(0, 1), Sharding.stackShard(Optional.empty(), "anything"));
        assertEquals(new StackShard(3, 4), Sharding.stackShard(Optional.of(" 4 "), "prod-3"));
        assertEquals(new StackShard(7, 10), Sharding.stackShard(Optional.of("10"), "eu7"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"0", "1001", "two", "-1", "1.5", "", "99999999999999999999"})
    void stackShardRefusesABadCount(String count) {
        IllegalArgumentException e =
            assertThrows(IllegalArgumentException.class, () -> Sharding.stackShard(Optional.of(count), "prod-0"));
        assertEquals("integration-platform:shards must be a whole number from 1 to 1000; got \"" + count + "\"", e.getMessage());
    }

    @ParameterizedTest
    @ValueSource(strings = {"prod", "prod-2", "prod-01", "prod-", "prod-99999999999999999999"})
    void stackShardRefusesAStackNotNamedForItsShard(String stack) {
        IllegalArgumentException e =
            assertThrows(IllegalArgumentException.class, () -> Sharding.stackShard(Optional.of("2"), stack));
        assertEquals("stack \"" + stack + "\" must be named for its shard, from 0 to 1 (integration-platform:shards is 2), "
            + "at the end of its name: e.g. prod-0", e.getMessage());
    }

    @Test
    void inThisShardKeepsTheShardsItemsInTheirOrder() throws IOException {
        List<Vector> atTen = new ArrayList<>();
        for (Vector v : vectors()) if (v.shards == 10) atTen.add(v);
        for (int shard = 0; shard < 10; shard++) {
            List<Vector> want = new ArrayList<>();
            for (Vector v : atTen) if (v.shard == shard) want.add(v);
            assertEquals(want, Sharding.inThisShard(atTen, v -> v.id, new StackShard(shard, 10)));
        }
    }
}
