// Command tradejournal serves a self-hosted trading journal over HTTP/JSON.
package main

import (
	"os"

	"tradejournal/cmd"
)

func main() {
	os.Exit(cmd.Execute())
}
