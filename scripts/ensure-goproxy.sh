#!/usr/bin/env bash
# Prints the path of tools/goproxy (the release's Go module proxy writer, golang.org/x/mod's module zip), built from
# Go modules once and cached in $PULUMI_IP_CACHE_DIR (default ~/.cache/pulumi-integration-platform).
set -euo pipefail
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
ensure_name=ensure-goproxy
. "$repo/scripts/lib/ensure.sh"
go_tool goproxy
