//go:build tools

// Package tools pins the Python language host, from the last sdk/v3 release that still contained
// it, as language-nodejs pins the Node.js one (docs/design/languages.md).
package tools

import _ "github.com/pulumi/pulumi/sdk/v3/python/cmd/pulumi-language-python"
