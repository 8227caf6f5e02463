// Command sdkgen writes the package's SDKs from sdk/schema.json with Pulumi's own code generators
// (pkg/codegen at the minimum supported CLI, v3.200.0: the last release that still carries the
// .NET generator). Run by scripts/gen-sdk.sh; the SDKs are never edited by hand.
//
//	sdkgen -schema sdk/schema.json -out sdk nodejs python go dotnet
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
	"sort"

	dotnetgen "github.com/pulumi/pulumi/pkg/v3/codegen/dotnet"
	gogen "github.com/pulumi/pulumi/pkg/v3/codegen/go"
	nodejsgen "github.com/pulumi/pulumi/pkg/v3/codegen/nodejs"
	pythongen "github.com/pulumi/pulumi/pkg/v3/codegen/python"
	"github.com/pulumi/pulumi/pkg/v3/codegen/schema"
)

// tool is the name the generators write into each file's "do not edit" header.
const tool = "pulumi-integration-platform sdkgen"

func main() {
	// The .NET generator downloads the package's logo (or Pulumi's) into the NuGet package; this
	// machine has no internet, and the package has no logo of its own: it gets a plain one drawn here.
	http.DefaultTransport = logoTransport{}
	schemaPath := flag.String("schema", "sdk/schema.json", "the package schema")
	out := flag.String("out", "sdk", "the directory that receives one folder per language")
	flag.Parse()
	languages := flag.Args()
	if len(languages) == 0 {
		languages = []string{"nodejs", "python", "go", "dotnet"}
	}
	if err := run(*schemaPath, *out, languages); err != nil {
		fmt.Fprintf(os.Stderr, "sdkgen: %v\n", err)
		os.Exit(1)
	}
}

func run(schemaPath, out string, languages []string) error {
	text, err := os.ReadFile(schemaPath)
	if err != nil {
		return err
	}
	for _, language := range languages {
		// Each generator records its own options in the package, so each gets a fresh binding.
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
		var files map[string][]byte
		switch language {
		case "nodejs":
			files, err = nodejsgen.GeneratePackage(tool, pkg, nil, nil, false, nil)
		case "python":
			files, err = pythongen.GeneratePackage(tool, pkg, nil, nil)
		case "go":
			files, err = gogen.GeneratePackage(tool, pkg, nil)
		case "dotnet":
			files, err = dotnetgen.GeneratePackage(tool, pkg, nil, nil)
		default:
			return fmt.Errorf("unknown language %q: use nodejs, python, go or dotnet", language)
		}
		if err != nil {
			return fmt.Errorf("generating the %s SDK: %w", language, err)
		}
		// The Python project names a README.md it does not write; the Node.js SDK's is the same text.
		if language == "python" {
			if _, ok := files["README.md"]; !ok {
				files["README.md"] = []byte(fmt.Sprintf("# %s\n\n%s\n", spec.DisplayName, spec.Description))
			}
		}
		if err := write(filepath.Join(out, language), files); err != nil {
			return err
		}
		fmt.Printf("sdkgen: %s: %d files in %s\n", language, len(files), filepath.Join(out, language))
	}
	return nil
}

// write replaces dir's contents with files, so that a file the generator no longer writes is gone.
func write(dir string, files map[string][]byte) error {
	if err := os.RemoveAll(dir); err != nil {
		return err
	}
	names := make([]string, 0, len(files))
	for name := range files {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		path := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(path, files[name], 0o644); err != nil {
			return err
		}
	}
	return nil
}

// logoTransport answers every HTTP request with a plain 64×64 logo, and nothing goes out.
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
