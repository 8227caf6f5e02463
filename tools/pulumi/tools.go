//go:build tools

// Package tools pins the Pulumi CLI so that `go build` can produce it from the module proxy.
package tools

import _ "github.com/pulumi/pulumi/pkg/v3/cmd/pulumi"
