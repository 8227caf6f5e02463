//go:build tools

// Package tools pins the Go language host, from sdk/v3 v3.60.0, the last release that still contained it (v3.68 no longer does),
// as language-nodejs pins the Node.js one (docs/design/languages.md).
package tools

import _ "github.com/pulumi/pulumi/sdk/v3/go/pulumi-language-go"
