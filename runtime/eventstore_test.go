package runtime_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/mcpgen/mcpgen/runtime"
)

func TestMemoryEventStore(t *testing.T) {
	ctx := context.Background()
	es := runtime.NewMemoryEventStore(2)
	data := []byte("e1")
	for i, d := range []string{"e1", "e2", "e3"} {
		copy(data, d)
		if err := es.Append(ctx, "s", "1", i+1, data); err != nil {
			t.Fatal(err)
		}
	}
	es.Append(ctx, "s", "2", 1, []byte("other stream"))
	es.Append(ctx, "t", "1", 1, []byte("other session"))
	for _, tc := range []struct {
		session, stream string
		after           int
		want            []runtime.StoredEvent
	}{
		{"s", "1", 0, []runtime.StoredEvent{{Index: 2, Data: []byte("e2")}, {Index: 3, Data: []byte("e3")}}}, // e1 evicted
		{"s", "1", 2, []runtime.StoredEvent{{Index: 3, Data: []byte("e3")}}},
		{"s", "1", 3, nil},
		{"s", "2", 0, []runtime.StoredEvent{{Index: 1, Data: []byte("other stream")}}},
		{"s", "9", 0, nil},
		{"x", "1", 0, nil},
	} {
		t.Run(fmt.Sprint(tc.session, tc.stream, tc.after), func(t *testing.T) {
			got, err := es.After(ctx, tc.session, tc.stream, tc.after)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
	es.SessionClosed(ctx, "s")
	if got, _ := es.After(ctx, "s", "1", 0); got != nil {
		t.Errorf("after SessionClosed: %v", got)
	}
	if got, _ := es.After(ctx, "t", "1", 0); len(got) != 1 {
		t.Errorf("another session lost its events: %v", got)
	}
	// The oldest streams of a session go first.
	for i := range 300 {
		es.Append(ctx, "u", fmt.Sprint(i), 1, []byte("x"))
	}
	if got, _ := es.After(ctx, "u", "0", 0); got != nil {
		t.Errorf("stream 0 of 300 kept: %v", got)
	}
	if got, _ := es.After(ctx, "u", "299", 0); len(got) != 1 {
		t.Errorf("the newest stream lost: %v", got)
	}
}
