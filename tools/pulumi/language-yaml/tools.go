//go:build tools

// Package tools pins the YAML language host (github.com/pulumi/pulumi-yaml), at the pkg/v3 it was
// released with (v3.206.0): it does not compile against the pinned CLI's v3.259
// (docs/design/languages.md).
package tools

import _ "github.com/pulumi/pulumi-yaml/cmd/pulumi-language-yaml"
