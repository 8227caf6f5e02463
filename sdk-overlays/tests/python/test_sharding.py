"""pulumi_integration_platform.sharding, as installed from the SDK, against the vectors the TypeScript shardOf recorded."""

import json
import os
from pathlib import Path

import pytest

from pulumi_integration_platform.sharding import (
    MAX_SHARDS,
    SHARDS_SETTING,
    StackShard,
    in_this_shard,
    shard_of,
    stack_shard,
)

VECTORS_FILE = Path(os.environ.get("SHARD_VECTORS", Path(__file__).parents[3] / "contract" / "shardVectors.json"))
VECTORS = json.loads(VECTORS_FILE.read_text(encoding="utf-8"))


def test_reads_every_vector():
    assert len(VECTORS) >= 60
    assert SHARDS_SETTING == "integration-platform:shards"
    assert MAX_SHARDS == 1000


@pytest.mark.parametrize("vector", VECTORS, ids=lambda v: f"{v['linkedAccountId'][:20]!r}/{v['shards']}")
def test_shard_of_agrees_with_the_typescript(vector):
    assert shard_of(vector["linkedAccountId"], vector["shards"]) == vector["shard"]


@pytest.mark.parametrize("shards", [0, MAX_SHARDS + 1, 2.0, True, "2"])
def test_shard_of_refuses_a_count_out_of_range(shards):
    with pytest.raises(ValueError, match=r"^shards must be a whole number from 1 to 1000; got "):
        shard_of("acme", shards)


def test_stack_shard_without_the_key_is_shard_0_of_1():
    assert stack_shard({}, "anything") == StackShard(shard=0, shards=1)


def test_stack_shard_reads_the_count_and_the_number_ending_the_stack_name():
    assert stack_shard({"shards": " 4 "}, "prod-3") == StackShard(3, 4)
    assert stack_shard({"shards": "10"}, "eu7") == StackShard(7, 10)


@pytest.mark.parametrize("count", ["0", "1001", "two", "-1", "1.5", ""])
def test_stack_shard_refuses_a_bad_count(count):
    with pytest.raises(ValueError) as error:
        stack_shard({"shards": count}, "prod-0")
    assert str(error.value) == f'integration-platform:shards must be a whole number from 1 to 1000; got "{count}"'


@pytest.mark.parametrize("stack", ["prod", "prod-2", "prod-01", "prod-"])
def test_stack_shard_refuses_a_stack_not_named_for_its_shard(stack):
    with pytest.raises(ValueError) as error:
        stack_shard({"shards": "2"}, stack)
    assert str(error.value) == (
        f'stack "{stack}" must be named for its shard, from 0 to 1 (integration-platform:shards is 2), '
        "at the end of its name: e.g. prod-0"
    )


def test_in_this_shard_keeps_the_shards_items_in_their_order():
    at_ten = [v for v in VECTORS if v["shards"] == 10]
    items = [{"id": v["linkedAccountId"]} for v in at_ten]
    for shard in range(10):
        mine = in_this_shard(items, lambda item: item["id"], StackShard(shard, 10))
        assert mine == [{"id": v["linkedAccountId"]} for v in at_ten if v["shard"] == shard]
