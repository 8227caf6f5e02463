// Not generated: scripts/gen-sdk.sh copies it from sdk-overlays/go. The sharding helpers against the
// vectors the TypeScript shardOf recorded (contract/shardVectors.json, or the file SHARD_VECTORS names).

package integrationplatform

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/pulumi/pulumi/sdk/v3/go/common/resource"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
)

type shardVector struct {
	LinkedAccountID string `json:"linkedAccountId"`
	Shards          int    `json:"shards"`
	Shard           int    `json:"shard"`
}

func readVectors(t *testing.T) []shardVector {
	t.Helper()
	file := os.Getenv("SHARD_VECTORS")
	if file == "" {
		file = filepath.Join("..", "..", "..", "contract", "shardVectors.json")
	}
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatalf("reading the shard vectors: %v", err)
	}
	var vectors []shardVector
	if err := json.Unmarshal(data, &vectors); err != nil {
		t.Fatalf("parsing %s: %v", file, err)
	}
	if len(vectors) < 60 {
		t.Fatalf("%s has %d vectors", file, len(vectors))
	}
	return vectors
}

func TestShardOfAgreesWithEveryVector(t *testing.T) {
	for _, v := range readVectors(t) {
		shard, err := ShardOf(v.LinkedAccountID, v.Shards)
		if err != nil || shard != v.Shard {
			t.Errorf("ShardOf(%q, %d) = %d, %v; the TypeScript says %d", v.LinkedAccountID, v.Shards, shard, err, v.Shard)
		}
	}
}

func TestShardOfRefusesACountOutOfRange(t *testing.T) {
	for _, shards := range []int{0, -1, MaxShards + 1} {
		if _, err := ShardOf("acme", shards); err == nil || !strings.HasPrefix(err.Error(), "shards must be a whole number from 1 to 1000; got ") {
			t.Errorf("ShardOf(acme, %d): %v", shards, err)
		}
	}
}

func TestStackShardOfReadsTheCountAndTheStackName(t *testing.T) {
	if got, err := stackShardOf(nil, "anything"); err != nil || got != (Shard{0, 1}) {
		t.Errorf("without the key: %v, %v", got, err)
	}
	four := " 4 "
	if got, err := stackShardOf(&four, "prod-3"); err != nil || got != (Shard{3, 4}) {
		t.Errorf("prod-3 of 4: %v, %v", got, err)
	}
}

func TestStackShardOfRefusesABadCount(t *testing.T) {
	for _, count := range []string{"0", "1001", "two", "-1", "1.5", "", "99999999999999999999"} {
		_, err := stackShardOf(&count, "prod-0")
		want := `integration-platform:shards must be a whole number from 1 to 1000; got "` + count + `"`
		if err == nil || err.Error() != want {
			t.Errorf("count %q: %v", count, err)
		}
	}
}

func TestStackShardOfRefusesAStackNotNamedForItsShard(t *testing.T) {
	two := "2"
	for _, stack := range []string{"prod", "prod-2", "prod-01", "prod-"} {
		_, err := stackShardOf(&two, stack)
		want := `stack "` + stack + `" must be named for its shard, from 0 to 1 (integration-platform:shards is 2), at the end of its name: e.g. prod-0`
		if err == nil || err.Error() != want {
			t.Errorf("stack %q: %v", stack, err)
		}
	}
}

type noResources struct{}

func (noResources) NewResource(args pulumi.MockResourceArgs) (string, resource.PropertyMap, error) {
	return args.Name, args.Inputs, nil
}

func (noResources) Call(args pulumi.MockCallArgs) (resource.PropertyMap, error) {
	return resource.PropertyMap{}, nil
}

// stackShardIn runs StackShard in a mocked program of the stack, with the stack config `config` (JSON).
func stackShardIn(t *testing.T, stack, config string) (Shard, error) {
	t.Helper()
	t.Setenv("PULUMI_CONFIG", config)
	var got Shard
	var failed error
	err := pulumi.RunErr(func(ctx *pulumi.Context) error {
		got, failed = StackShard(ctx)
		return nil
	}, pulumi.WithMocks("project", stack, noResources{}))
	if err != nil {
		t.Fatalf("the program: %v", err)
	}
	return got, failed
}

func TestStackShardReadsTheStacksConfigAndName(t *testing.T) {
	if got, err := stackShardIn(t, "prod-1", `{"integration-platform:shards":"2"}`); err != nil || got != (Shard{1, 2}) {
		t.Errorf("prod-1 of 2: %v, %v", got, err)
	}
	if got, err := stackShardIn(t, "prod", `{}`); err != nil || got != (Shard{0, 1}) {
		t.Errorf("without the key: %v, %v", got, err)
	}
	if _, err := stackShardIn(t, "prod", `{"integration-platform:shards":"2"}`); err == nil || !strings.HasPrefix(err.Error(), `stack "prod" must be named for its shard`) {
		t.Errorf("prod of 2: %v", err)
	}
}

func TestInThisShardKeepsTheShardsItemsInTheirOrder(t *testing.T) {
	var atTen []shardVector
	for _, v := range readVectors(t) {
		if v.Shards == 10 {
			atTen = append(atTen, v)
		}
	}
	for shard := 0; shard < 10; shard++ {
		var want []shardVector
		for _, v := range atTen {
			if v.Shard == shard {
				want = append(want, v)
			}
		}
		got := InThisShard(atTen, func(v shardVector) string { return v.LinkedAccountID }, Shard{shard, 10})
		if !reflect.DeepEqual(got, want) {
			t.Errorf("shard %d of 10: %v, want %v", shard, got, want)
		}
	}
}
