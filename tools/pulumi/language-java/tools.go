//go:build tools

// Package tools pins the Java language host and Pulumi's Java SDK generator, both from
// github.com/pulumi/pulumi-java/pkg v1.22.0, the newest release the Go module proxy serves
// (docs/design/languages.md).
package tools

import (
	_ "github.com/pulumi/pulumi-java/pkg/cmd/pulumi-java-gen"
	_ "github.com/pulumi/pulumi-java/pkg/cmd/pulumi-language-java"
)
