package mcpimport

import (
	"github.com/mcpgen/mcpgen/internal/gonames"
	"github.com/mcpgen/mcpgen/spec"
)

// settleGoNames gives goName: to what the generator would give a Go name
// already taken (tools get-x and get_x are both GetX), through the
// generator's own plan (gen.PlanAPI's Collisions), with the rule the
// OpenAPI importer uses too (internal/gonames): wire names are data, Go
// names are derived, and the import must write a spec that generates. It
// returns the settled document and what loading or planning it still
// reports (nothing when it generates).
func (im *importer) settleGoNames(root ymap) (ymap, spec.Diagnostics) {
	settled, _, notes, diags, err := gonames.Settle("mcpgen.yaml", root.N)
	if err != nil {
		im.note("settling Go names: %v", err)
		return root, nil
	}
	im.res.Notes = append(im.res.Notes, notes...)
	return ymap{N: settled}, diags
}
