module github.com/pulumi-integration-platform/pulumi-integration-platform/webhooks/go

go 1.22
