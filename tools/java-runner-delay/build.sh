#!/usr/bin/env bash
# Builds the measuring aid of Agent.java (never shipped; BENCHMARKS.md, "Java's runner loop") into
# $1/java-runner-delay.jar, with ASM beside it, and prints the -javaagent option to give the JVMs.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
out="$(mkdir -p "${1:?usage: build.sh <out dir>}" && cd "$1" && pwd)"
asm_version=9.8
asm="$HOME/.m2/repository/org/ow2/asm/asm/$asm_version/asm-$asm_version.jar"
[ -f "$asm" ] || mvn -q dependency:get -Dartifact="org.ow2.asm:asm:$asm_version" >&2
cp "$asm" "$out/asm.jar"
rm -rf "$out/classes" && mkdir -p "$out/classes"
javac --release 11 -cp "$out/asm.jar" -d "$out/classes" "$here/src/runnerdelay/Agent.java"
printf 'Premain-Class: runnerdelay.Agent\nClass-Path: asm.jar\n' >"$out/manifest.txt"
jar --create --file "$out/java-runner-delay.jar" --manifest "$out/manifest.txt" -C "$out/classes" .
echo "-javaagent:$out/java-runner-delay.jar"
