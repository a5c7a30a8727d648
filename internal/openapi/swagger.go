package openapi

import (
	"encoding/json"
	"fmt"

	"github.com/getkin/kin-openapi/openapi2"
	"github.com/getkin/kin-openapi/openapi2conv"
	"gopkg.in/yaml.v3"
)

// swaggerNote says that the description was converted, and by what.
const swaggerNote = "description: Swagger 2.0, converted to OpenAPI 3.0 by kin-openapi's openapi2conv before import"

// fromSwagger converts a Swagger 2.0 description (JSON or YAML) to an
// OpenAPI 3.0 one (JSON), with kin-openapi's converter: a maintained one,
// rather than a copy of its rules here.
func fromSwagger(data []byte) ([]byte, error) {
	if !json.Valid(data) {
		var v any
		if err := yaml.Unmarshal(data, &v); err != nil {
			return nil, err
		}
		b, err := json.Marshal(stringKeys(v))
		if err != nil {
			return nil, err
		}
		data = b
	}
	var doc2 openapi2.T
	if err := json.Unmarshal(data, &doc2); err != nil {
		return nil, fmt.Errorf("reading the Swagger 2.0 description: %w", err)
	}
	doc3, err := openapi2conv.ToV3(&doc2)
	if err != nil {
		return nil, fmt.Errorf("converting the Swagger 2.0 description to OpenAPI 3.0: %w", err)
	}
	return json.Marshal(doc3)
}

// stringKeys is a decoded YAML value with every mapping's keys as text
// (a response code 200 is the key "200"), as JSON needs them.
func stringKeys(v any) any {
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			x[k] = stringKeys(e)
		}
		return x
	case map[any]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[fmt.Sprint(k)] = stringKeys(e)
		}
		return out
	case []any:
		for i, e := range x {
			x[i] = stringKeys(e)
		}
	}
	return v
}
