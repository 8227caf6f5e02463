//go:build tools

// Package tools pins the Node.js language host. Its own Go module (with tags) is not on the
// module proxy, so it is built from the last sdk/v3 release that still contained it; see
// scripts/ensure-pulumi.sh for why that is safe.
package tools

import _ "github.com/pulumi/pulumi/sdk/v3/nodejs/cmd/pulumi-language-nodejs"
