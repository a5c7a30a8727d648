package openapi

import (
	"strconv"
	"strings"

	"github.com/pb33f/libopenapi/datamodel/high/base"
	"gopkg.in/yaml.v3"
)

// pendingDiscriminator is an OpenAPI discriminator seen on a union, settled
// once every named type is converted (see settleDiscriminators).
type pendingDiscriminator struct {
	union    ymap
	property string
	values   map[string]string // component name → its discriminator value (the mapping, inverted)
	where    string
}

// noteDiscriminator records a union's discriminator: propertyName, and
// the mapping from value to schema.
func (c *converter) noteDiscriminator(m ymap, d *base.Discriminator, where string) {
	if d == nil || d.PropertyName == "" {
		return
	}
	p := &pendingDiscriminator{union: m, property: d.PropertyName, values: map[string]string{}, where: where}
	if d.Mapping != nil {
		for value, target := range d.Mapping.FromOldest() {
			comp := strings.TrimPrefix(target, componentPrefix)
			if _, taken := p.values[comp]; taken {
				// Two values for one schema: no const can say that.
				p.values[comp] = ""
				continue
			}
			p.values[comp] = value
		}
	}
	c.discriminators = append(c.discriminators, p)
}

// settleDiscriminators writes each union's OpenAPI discriminator the way
// the spec says it: `discriminator: PROPERTY` on the union, and in every
// variant the property required with its value as a const (the mapping's
// value, else the schema's name, as OpenAPI defines). A variant type that
// is in two unions with different values, is not an object, lacks the
// property or is inline without a const leaves that union to decode by
// trial, with a note.
func (c *converter) settleDiscriminators(types map[string]ymap) {
	compOf := map[string]string{} // type name → component name
	for comp, t := range c.typeNames {
		compOf[t] = comp
	}
	settled := map[string]string{} // "Type.property" → the const it was given
	for _, d := range c.discriminators {
		variants := d.union.Get("oneOf")
		if variants == nil {
			variants = d.union.Get("anyOf")
		}
		if variants == nil {
			continue
		}
		type change struct {
			obj   ymap
			value string
			key   string
		}
		var changes []change
		reason := ""
		for i, v := range variants.Content {
			vm := ymap{N: v}
			if vm.Get("type") != nil && vm.Get("type").Value == "null" {
				continue
			}
			ref := vm.Get("$ref")
			if ref == nil {
				if !hasConst(vm, d.property) {
					reason = "variant " + strconv.Itoa(i+1) + " is inline and its " + d.property + " has no single value"
				}
				continue
			}
			obj, ok := types[ref.Value]
			if !ok || obj.Get("properties") == nil || obj.Get("properties").Kind != yaml.MappingNode {
				reason = ref.Value + " is not an object"
				break
			}
			if (ymap{N: obj.Get("properties")}).Get(d.property) == nil {
				reason = ref.Value + " has no property " + d.property
				break
			}
			comp, isComp := compOf[ref.Value]
			if !isComp {
				reason = ref.Value + " is not a component, so the discriminator gives it no value"
				break
			}
			value, mapped := d.values[comp]
			if !mapped {
				value = comp
			}
			if value == "" {
				reason = "the mapping gives " + ref.Value + " two values"
				break
			}
			key := ref.Value + "." + d.property
			if prev, ok := settled[key]; ok && prev != value {
				reason = ref.Value + " is already told apart by " + d.property + " " + strconv.Quote(prev) + " in another union"
				break
			}
			changes = append(changes, change{obj, value, key})
		}
		if reason != "" {
			c.notes.add("%s: discriminator %s left out (decoded by trying each variant): %s", d.where, d.property, reason)
			continue
		}
		for _, ch := range changes {
			setConst(ch.obj, d.property, ch.value)
			settled[ch.key] = ch.value
		}
		d.union.Set("discriminator", str(d.property))
	}
}

// hasConst reports whether an inline object has the property required with
// one value.
func hasConst(obj ymap, property string) bool {
	props := obj.Get("properties")
	if props == nil {
		return false
	}
	p := (ymap{N: props}).Get(property)
	if p == nil || !isRequired(obj, property) {
		return false
	}
	pm := ymap{N: p}
	e := pm.Get("enum")
	return pm.Get("const") != nil || (e != nil && len(e.Content) == 1)
}

func isRequired(obj ymap, property string) bool {
	if r := obj.Get("required"); r != nil {
		for _, n := range r.Content {
			if n.Value == property {
				return true
			}
		}
	}
	return false
}

// setConst makes a type's property required with one value, keeping its
// description.
func setConst(obj ymap, property, value string) {
	props := ymap{N: obj.Get("properties")}
	p := newMap()
	p.Set("const", str(value))
	if old := props.Get(property); old != nil {
		if d := (ymap{N: old}).Get("description"); d != nil {
			p.Set("description", d)
		}
	}
	props.Set(property, flow(p))
	if isRequired(obj, property) {
		return
	}
	r := obj.Get("required")
	if r == nil {
		r = strList(nil)
		// required reads best right after properties.
		obj.N.Content = append(obj.N.Content, str("required"), r)
	}
	r.Content = append(r.Content, str(property))
}
