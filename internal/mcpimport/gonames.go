package mcpimport

import (
	"github.com/mcpgen/mcpgen/internal/gonames"
	"github.com/mcpgen/mcpgen/spec"
)

// settleGoNames gives goName: to what the generator would give a Go name
// already taken (tools get-x and get_x are both GetX; a resource "Get X"
// and one "get x" both ReadGetX), through the generator's own plan as the
// OpenAPI importer does (gonames.Settle): wire names are data, Go names
// are derived, and the import must write a spec that generates. It
// returns what loading the spec it leaves reports (nothing when it
// loads), so that the caller need not load it again.
func (im *importer) settleGoNames(root ymap) spec.Diagnostics {
	settled, s, notes, diags, err := gonames.Settle("mcpgen.yaml", root.N)
	if err != nil {
		return spec.Diagnostics{{Message: "settling Go names: " + err.Error()}}
	}
	*root.N = *settled
	for _, n := range notes {
		im.note("%s", n)
	}
	if s == nil {
		return diags // the spec does not load
	}
	return nil
}
