// Command sdkgen-dotnet writes the .NET SDK from sdk/schema.json with Pulumi's .NET code
// generator, which pkg/codegen carried until v3.200.0 (the minimum supported CLI; it has since
// moved to pulumi-dotnet, which the module proxy does not serve). The other SDKs: tools/sdkgen.
//
//	sdkgen-dotnet -schema sdk/schema.json -out sdk/dotnet
package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"io"
	"net/http"
	"os"
	"path/filepath"

	dotnetgen "github.com/pulumi/pulumi/pkg/v3/codegen/dotnet"
	"github.com/pulumi/pulumi/pkg/v3/codegen/schema"
)

func main() {
	schemaPath := flag.String("schema", "sdk/schema.json", "the package schema")
	out := flag.String("out", "sdk/dotnet", "the directory that receives the .NET SDK")
	flag.Parse()
	// The generator downloads the package's logo (or Pulumi's) into the NuGet package; this
	// machine has no internet, and the package has no logo of its own: it gets a plain one drawn here.
	http.DefaultTransport = logoTransport{}
	if err := run(*schemaPath, *out); err != nil {
		fmt.Fprintf(os.Stderr, "sdkgen-dotnet: %v\n", err)
		os.Exit(1)
	}
}

func run(schemaPath, out string) error {
	text, err := os.ReadFile(schemaPath)
	if err != nil {
		return err
	}
	var spec schema.PackageSpec
	if err := json.Unmarshal(text, &spec); err != nil {
		return fmt.Errorf("%s: %w", schemaPath, err)
	}
	pkg, diags, err := schema.BindSpec(spec, nil, schema.ValidationOptions{})
	if err != nil {
		return fmt.Errorf("binding %s: %w", schemaPath, err)
	}
	if diags.HasErrors() {
		return fmt.Errorf("%s is not a valid package schema: %s", schemaPath, diags.Error())
	}
	files, err := dotnetgen.GeneratePackage("pulumi-integration-platform sdkgen", pkg, nil, nil)
	if err != nil {
		return fmt.Errorf("generating the .NET SDK: %w", err)
	}
	// The folder is replaced whole, so that a file the generator no longer writes is gone.
	if err := os.RemoveAll(out); err != nil {
		return err
	}
	for name, content := range files {
		path := filepath.Join(out, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(path, content, 0o644); err != nil {
			return err
		}
	}
	fmt.Printf("sdkgen-dotnet: %d files in %s\n", len(files), out)
	return nil
}

// logoTransport answers every HTTP request with a plain 64x64 logo, and nothing goes out.
type logoTransport struct{}

func (logoTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	img := image.NewRGBA(image.Rect(0, 0, 64, 64))
	for y := 0; y < 64; y++ {
		for x := 0; x < 64; x++ {
			img.Set(x, y, color.RGBA{R: 0x4d, G: 0x5b, B: 0xd9, A: 0xff})
		}
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		return nil, err
	}
	return &http.Response{StatusCode: http.StatusOK, Status: "200 OK", Body: io.NopCloser(&buf), Header: http.Header{"Content-Type": {"image/png"}}, Request: req}, nil
}
