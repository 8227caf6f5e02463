//go:build tools

// Package tools pins versitygw, the S3-compatible server the tests use as Pulumi's self-managed
// (s3://) backend, so that `go build` can produce it from the module proxy (scripts/ensure-s3.sh).
package tools

import _ "github.com/versity/versitygw/cmd/versitygw"
