// Not generated: scripts/gen-sdk.sh copies it from sdk-overlays/go, so it survives regeneration.

package integrationplatform

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi/config"
)

// ShardsSetting is the stack config key (namespace integration-platform) that says how many shards there are.
const ShardsSetting = "integration-platform:shards"

// MaxShards is the most shards: well past what one API key's 20 requests per second can keep busy.
const MaxShards = 1000

// Go's \d is ASCII only, as JavaScript's: the TypeScript's patterns, unchanged.
var (
	wholeNumber  = regexp.MustCompile(`^\d+$`)
	endingNumber = regexp.MustCompile(`(?:^|\D)(\d+)$`)
)

// ShardOf is the shard (0 to shards - 1) of a linked account: a jump consistent hash of the first 8 bytes of its id's SHA-256.
func ShardOf(linkedAccountID string, shards int) (int, error) {
	if shards < 1 || shards > MaxShards {
		return 0, fmt.Errorf("shards must be a whole number from 1 to %d; got %d", MaxShards, shards)
	}
	sum := sha256.Sum256([]byte(linkedAccountID))
	key := binary.BigEndian.Uint64(sum[:8])
	bucket, next := -1, 0
	for next < shards {
		bucket = next
		// uint64 arithmetic wraps at 2^64, as the TypeScript's mask does.
		key = key*2862933555777941757 + 1
		// In floating point, as the TypeScript does: the same doubles give the same bucket.
		next = int(float64(bucket+1) * (float64(uint64(1)<<31) / float64((key>>33)+1)))
	}
	return bucket, nil
}

// Shard is where a stack sits among the shards: its shard (0 to Shards - 1) and how many there are.
type Shard struct {
	Shard  int
	Shards int
}

// StackShard is this stack's shard: the count from integration-platform:shards, the shard from the number ending the stack's name.
func StackShard(ctx *pulumi.Context) (Shard, error) {
	// Try, not Get: a key set to "" is a bad count, an absent one means one shard.
	text, err := config.Try(ctx, ShardsSetting)
	if err != nil {
		return stackShardOf(nil, ctx.Stack())
	}
	return stackShardOf(&text, ctx.Stack())
}

// stackShardOf reads the count (nil when the key is not set) and the stack's name; errors say what to fix.
func stackShardOf(setting *string, stack string) (Shard, error) {
	if setting == nil {
		return Shard{Shard: 0, Shards: 1}, nil
	}
	text := strings.TrimSpace(*setting)
	shards, err := strconv.Atoi(text)
	if !wholeNumber.MatchString(text) || err != nil || shards < 1 || shards > MaxShards {
		return Shard{}, fmt.Errorf("%s must be a whole number from 1 to %d; got %s", ShardsSetting, MaxShards, quoted(text))
	}
	match := endingNumber.FindStringSubmatch(stack)
	if match != nil {
		number := match[1]
		shard, err := strconv.Atoi(number)
		if err == nil && shard < shards && (len(number) == 1 || number[0] != '0') {
			return Shard{Shard: shard, Shards: shards}, nil
		}
	}
	return Shard{}, fmt.Errorf(
		"stack %s must be named for its shard, from 0 to %d (%s is %d), at the end of its name: e.g. prod-0",
		quoted(stack), shards-1, ShardsSetting, shards)
}

// quoted writes a string as JSON.stringify does in the TypeScript's messages (no HTML escapes).
func quoted(text string) string {
	var out bytes.Buffer
	encoder := json.NewEncoder(&out)
	encoder.SetEscapeHTML(false)
	_ = encoder.Encode(text)
	return strings.TrimSuffix(out.String(), "\n")
}

// InThisShard is the items whose linked account belongs to the shard where (see StackShard), in their order.
func InThisShard[T any](items []T, linkedAccountIDOf func(T) string, where Shard) []T {
	var mine []T
	for _, item := range items {
		// where comes from StackShard, whose count is always in range: an error cannot happen.
		if shard, err := ShardOf(linkedAccountIDOf(item), where.Shards); err == nil && shard == where.Shard {
			mine = append(mine, item)
		}
	}
	return mine
}
