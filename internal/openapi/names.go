package openapi

import (
	"crypto/sha256"
	"encoding/hex"
	"strconv"
	"strings"

	"github.com/mcpgen/mcpgen/internal/naming"
)

// maxToolName is MCP's limit on a tool name (and the spec's).
const maxToolName = 64

// snake turns an operationId (listPetsByOwner, repos/get-content) into
// snake_case: list_pets_by_owner, repos_get_content.
func snake(s string) string {
	words := naming.Words(s)
	for i, w := range words {
		words[i] = strings.ToLower(w)
	}
	return strings.Join(words, "_")
}

// shorten keeps a name within max characters: a longer one becomes its
// first characters, "_" and 8 hex digits of the SHA-256 of the whole name,
// so the same operation always gets the same name and two long names that
// share a prefix still differ.
func shorten(name string, max int) string {
	if len(name) <= max {
		return name
	}
	sum := sha256.Sum256([]byte(name))
	suffix := "_" + hex.EncodeToString(sum[:4])
	return strings.TrimRight(name[:max-len(suffix)], "_") + suffix
}

// nameSet hands out names unique both as written and as Go identifiers
// (list_pets and listPets would both be ListPets in Go).
type nameSet struct {
	used map[string]bool
	max  int
}

func newNameSet(max int) *nameSet { return &nameSet{used: map[string]bool{}, max: max} }

// take reserves name (already within max), adding _2, _3… on a collision.
// It returns the name given and whether it had to change it.
func (ns *nameSet) take(name string) (string, bool) {
	if k := naming.Exported(name); !ns.used[k] {
		ns.used[k] = true
		return name, false
	}
	for i := 2; ; i++ {
		suffix := "_" + strconv.Itoa(i)
		cand := shorten(name, ns.max-len(suffix)) + suffix
		if k := naming.Exported(cand); !ns.used[k] {
			ns.used[k] = true
			return cand, true
		}
	}
}
