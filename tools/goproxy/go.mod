module pulumi-integration-platform/tools/goproxy

go 1.25.11

// The module zip the go command makes (zip.CreateFromDir), module path escaping and version checks.
require golang.org/x/mod v0.38.0
