# Not generated: scripts/gen-sdk.sh copies it from sdk-overlays/python, so it survives regeneration.
"""Which linked accounts a stack of a sharded program sets up, as the TypeScript package's sharding does.

Each linked account belongs to one shard, chosen from its id alone by a jump consistent hash, so adding
accounts never moves others, and going from S to S + 1 shards moves only the accounts that land in the
new one. The answers are the TypeScript ``shardOf``'s, tested against the same vectors. Standard library
only: nothing here calls the platform.
"""

import hashlib
import json
import re
from typing import Any, Callable, Iterable, List, NamedTuple, Optional, TypeVar

SHARDS_SETTING = "integration-platform:shards"
"""The stack config key (namespace ``integration-platform``) that says how many shards there are."""

MAX_SHARDS = 1000
"""The most shards: well past what one API key's 20 requests per second can keep busy."""

_MASK = (1 << 64) - 1
# ASCII digits only, as JavaScript's \d: Python's \d would take other scripts' digits too.
_WHOLE_NUMBER = re.compile(r"[0-9]+\Z")
_ENDING_NUMBER = re.compile(r"(?:\A|[^0-9])([0-9]+)\Z")

T = TypeVar("T")


def shard_of(linked_account_id: str, shards: int) -> int:
    """The shard (0 to shards - 1) of a linked account: a jump consistent hash of the first 8 bytes of its id's SHA-256."""
    if isinstance(shards, bool) or not isinstance(shards, int) or shards < 1 or shards > MAX_SHARDS:
        raise ValueError(f"shards must be a whole number from 1 to {MAX_SHARDS}; got {shards}")
    key = int.from_bytes(hashlib.sha256(linked_account_id.encode("utf-8")).digest()[:8], "big")
    bucket, following = -1, 0
    while following < shards:
        bucket = following
        key = (key * 2862933555777941757 + 1) & _MASK
        # In floating point, as the TypeScript does: the same doubles give the same bucket.
        following = int((bucket + 1) * (float(1 << 31) / float((key >> 33) + 1)))
    return bucket


class StackShard(NamedTuple):
    """Where a stack sits among the shards: its shard (0 to shards - 1) and how many there are."""

    shard: int
    shards: int


def stack_shard(config: Optional[Any] = None, stack: Optional[str] = None) -> StackShard:
    """This stack's shard: the count from ``integration-platform:shards``, the shard from the number ending the stack's name."""
    if config is None or stack is None:
        # Imported here: shard_of needs no Pulumi program, and its tests run without one.
        import pulumi

        config = pulumi.Config("integration-platform") if config is None else config
        stack = pulumi.get_stack() if stack is None else stack
    value = config.get("shards")
    if value is None:
        return StackShard(0, 1)
    text = str(value).strip()
    if not _WHOLE_NUMBER.match(text) or not 1 <= int(text) <= MAX_SHARDS:
        raise ValueError(
            f"{SHARDS_SETTING} must be a whole number from 1 to {MAX_SHARDS}; got {json.dumps(text, ensure_ascii=False)}"
        )
    shards = int(text)
    ending = _ENDING_NUMBER.search(stack)
    number = ending.group(1) if ending else None
    if number is None or int(number) >= shards or (len(number) > 1 and number.startswith("0")):
        raise ValueError(
            f"stack {json.dumps(stack, ensure_ascii=False)} must be named for its shard, "
            f"from 0 to {shards - 1} ({SHARDS_SETTING} is {shards}), at the end of its name: e.g. prod-0"
        )
    return StackShard(int(number), shards)


def in_this_shard(
    items: Iterable[T], linked_account_id_of: Callable[[T], str], where: Optional[StackShard] = None
) -> List[T]:
    """The items whose linked account belongs to this stack's shard (see stack_shard), in their order."""
    where = stack_shard() if where is None else where
    return [item for item in items if shard_of(linked_account_id_of(item), where.shards) == where.shard]
