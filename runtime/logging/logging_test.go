package logging

import (
	"encoding/json"
	"log/slog"
	"testing"
)

func TestRank(t *testing.T) {
	for i, l := range levels {
		if l.Rank() != i {
			t.Errorf("%s.Rank() = %d, want %d", l, l.Rank(), i)
		}
	}
	if r := Level("loud").Rank(); r != -1 {
		t.Errorf(`"loud".Rank() = %d, want -1`, r)
	}
	if LevelInfo.Rank() != DefaultRank || Silent != LevelEmergency.Rank()+1 {
		t.Errorf("DefaultRank %d, Silent %d", DefaultRank, Silent)
	}
}

func TestSlogLevel(t *testing.T) {
	for _, c := range []struct {
		in   slog.Level
		want Level
	}{
		{slog.LevelDebug, LevelDebug}, {slog.LevelInfo - 1, LevelDebug},
		{slog.LevelInfo, LevelInfo}, {slog.LevelInfo + 1, LevelInfo},
		{slog.LevelInfo + 2, LevelNotice}, {slog.LevelWarn - 1, LevelNotice},
		{slog.LevelWarn, LevelWarning}, {slog.LevelError - 1, LevelWarning},
		{slog.LevelError, LevelError}, {slog.LevelError + 4, LevelCritical},
		{slog.LevelError + 8, LevelAlert}, {slog.LevelError + 11, LevelAlert},
		{slog.LevelError + 12, LevelEmergency}, {slog.LevelError + 100, LevelEmergency},
	} {
		if got := SlogLevel(c.in); got != c.want {
			t.Errorf("SlogLevel(%v) = %s, want %s", c.in, got, c.want)
		}
	}
}

func TestAppendMessage(t *testing.T) {
	b, err := AppendMessage([]byte("x"), LevelWarning, "db", map[string]int{"n": 1})
	if want := `x{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"warning","logger":"db","data":{"n":1}}}`; err != nil || string(b) != want {
		t.Errorf("got %s, %v; want %s", b, err, want)
	}
	b, err = AppendMessage([]byte("x"), LevelInfo, "", json.RawMessage(`[1]`))
	if want := `x{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":[1]}}`; err != nil || string(b) != want {
		t.Errorf("got %s, %v; want %s", b, err, want)
	}
	if b, err = AppendMessage([]byte("x"), LevelInfo, "", func() {}); err == nil || string(b) != "x" {
		t.Errorf("unencodable data: got %q, %v; want x and an error", b, err)
	}
}

type sink struct {
	from Level
	got  []string
}

func (s *sink) Enabled(l Level) bool { return l.Rank() >= s.from.Rank() }

func (s *sink) Log(l Level, data json.RawMessage) error {
	s.got = append(s.got, string(l)+" "+string(data))
	return nil
}

type loud struct{ encoded *bool }

func (l loud) LogValue() slog.Value { *l.encoded = true; return slog.StringValue("v") }

func TestSlogHandler(t *testing.T) {
	s := &sink{from: LevelNotice}
	log := slog.New(NewSlogHandler(s)).With("a", 1).WithGroup("g")
	var encoded bool
	log.Info("quiet", "x", loud{&encoded})
	log.Warn("said", "b", "c")
	if encoded {
		t.Error("a record below the sink's level was encoded")
	}
	if len(s.got) != 1 || s.got[0] != `warning {"msg":"said","a":1,"g":{"b":"c"}}` {
		t.Errorf("got %q", s.got)
	}
	slog.New(NewSlogHandler(nil)).Error("nowhere") // a nil sink takes records
}
