package server_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// The generator of TestGeneratedClient, and the runtime its clients need.
const (
	oapiCodegen        = "github.com/oapi-codegen/oapi-codegen/v2/cmd/oapi-codegen@v2.8.2"
	oapiCodegenRuntime = "github.com/oapi-codegen/runtime v1.8.0"
)

// TestGeneratedClient generates a Go client from openapi.json with
// oapi-codegen, a common generator, in a module of its own, and builds and
// vets it: a document a generator cannot turn into working code fails here.
// It needs the Go module proxy (or a module cache that has both modules).
func TestGeneratedClient(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: generating a client fetches oapi-codegen through the module proxy")
	}
	spec, err := filepath.Abs("openapi.json")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	mod := "module tjclient\n\ngo 1.26\n\nrequire " + oapiCodegenRuntime + "\n"
	if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte(mod), 0o644); err != nil {
		t.Fatal(err)
	}
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command on PATH to generate a client with")
	}
	for _, args := range [][]string{
		{"run", oapiCodegen, "-generate", "types,client", "-package", "tjclient", "-o", "client.go", spec},
		{"build", "./..."},
		{"vet", "./..."},
	} {
		cmd := exec.CommandContext(t.Context(), goTool, args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOWORK=off")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("go %v: %v\n%s", args, err, out)
		}
	}
}
