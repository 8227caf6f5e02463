//go:build tools

// Package tools pins the oldest Pulumi CLI this project supports, so that CI can build it from
// the module proxy and prove the quickstart on it (docs/guides/the-pulumi-cli.md).
package tools

import _ "github.com/pulumi/pulumi/pkg/v3/cmd/pulumi"
