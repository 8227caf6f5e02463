#!/usr/bin/env bash
# Removes this project's own packages from every cache on the machine that a test could resolve them
# from, so that the next run finds them where a new machine would: nowhere, unless that run builds or
# fetches them itself. A suite that passed only because an earlier run left, say, sdk/go v0.5.0 in the
# Go module cache (issue 66) then fails here, not on a new developer's machine.
#
# Only our packages go: the Go modules under github.com/pulumi-integration-platform/, the Maven group
# io.github.pulumi-integration-platform (in ~/.m2 and in the tests' own repository), pip's cached wheels
# of pulumi_integration_platform*, the plugins resource-integration-platform-* in ~/.pulumi, and the
# tests' venvs and Java SDK mark built from sdk/ (harness/languages.ts); in verify-release's caches too. Pulumi's own modules, Maven
# Central's artifacts and the tools built from Go modules stay: .ci/run installs them itself.
#
# .ci/run runs it before the suites; by hand: `bash scripts/forget-our-packages.sh`. It prints each
# place it emptied, and nothing else.
set -euo pipefail

cache_root="${PULUMI_IP_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/pulumi-integration-platform}"

forget() { # <path>...: removes each that exists (the Go module cache is read-only, even to its owner)
  local place
  for place in "$@"; do
    if [ -e "$place" ] || [ -L "$place" ]; then
      chmod -R u+w "$place" 2>/dev/null || true
      rm -rf "$place"
      echo "forget-our-packages: removed $place"
    fi
  done
}

# The machine's Go module cache, and verify-release's own (scripts/verify-release.ts).
modcaches=("$cache_root/verify-release/gomodcache")
if command -v go >/dev/null 2>&1; then modcaches+=("$(go env GOMODCACHE)"); fi
for modcache in "${modcaches[@]}"; do
  forget "$modcache/github.com/pulumi-integration-platform" "$modcache/cache/download/github.com/pulumi-integration-platform"
done

# Maven's default local repository, the tests' (harness/languages.ts) and verify-release's.
for repository in "$HOME/.m2/repository" "$cache_root/maven" "$cache_root/verify-release/maven"; do
  forget "$repository/io/github/pulumi-integration-platform"
done
# The tests' marks that sdk/java is installed in their repository, and their venvs with sdk/python.
forget "$cache_root"/maven/.sdk-java-* "$cache_root"/python-[0-9]*

if command -v python3 >/dev/null 2>&1 && python3 -m pip --version >/dev/null 2>&1; then
  # pip's own wheel cache, by the name the wheels carry (the SDK, the tools and the emulator).
  if python3 -m pip cache list 'pulumi_integration_platform*' 2>/dev/null | grep -q '\.whl'; then
    python3 -m pip cache remove 'pulumi_integration_platform*' >/dev/null
    echo "forget-our-packages: removed pip's cached pulumi_integration_platform* wheels"
  fi
fi

forget "${PULUMI_HOME:-$HOME/.pulumi}"/plugins/resource-integration-platform-*
