package otelmcp_test

import (
	"io"
	"log/slog"

	"github.com/mcpgen/mcpgen/runtime/otelmcp"
)

func slogJSON(w io.Writer) *slog.Logger {
	return slog.New(otelmcp.LogHandler(slog.NewJSONHandler(w, nil)))
}
