package telemetry

import (
	"fmt"
	"io"
	"log/slog"
	"os"
)

// NewLogger returns a JSON or text slog logger at the given level name.
func NewLogger(format, level string) *slog.Logger {
	var lvl slog.Level
	_ = lvl.UnmarshalText([]byte(level))
	opts := &slog.HandlerOptions{Level: lvl}
	if format == "json" {
		return slog.New(slog.NewJSONHandler(os.Stderr, opts))
	}
	return slog.New(slog.NewTextHandler(os.Stderr, opts))
}

// NewLoggerTo is NewLogger writing to w, refusing a format or level it does not know.
func NewLoggerTo(w io.Writer, format, level string) (*slog.Logger, error) {
	var lvl slog.Level
	if err := lvl.UnmarshalText([]byte(level)); err != nil {
		return nil, fmt.Errorf("--log-level (FRAY_LOG_LEVEL) %q: not debug, info, warn or error", level)
	}
	opts := &slog.HandlerOptions{Level: lvl}
	switch format {
	case "json":
		return slog.New(slog.NewJSONHandler(w, opts)), nil
	case "text":
		return slog.New(slog.NewTextHandler(w, opts)), nil
	}
	return nil, fmt.Errorf("--log-format (FRAY_LOG_FORMAT) %q: not text or json", format)
}
