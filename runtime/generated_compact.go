package runtime

import (
	"bytes"
	"encoding/json"
)

// compactSchema returns a schema constant of generated code in compact form.
// The generator writes schemas indented, to read well in review; clients
// must still receive the compact bytes, so registration compacts them once.
// Invalid JSON is returned as is: it fails where the schema is compiled.
func compactSchema(s json.RawMessage) json.RawMessage {
	if bytes.IndexByte(s, '\n') < 0 {
		return s
	}
	b := bytes.NewBuffer(make([]byte, 0, len(s))) // compact is shorter: one allocation
	if err := json.Compact(b, s); err != nil {
		return s
	}
	return b.Bytes()
}
