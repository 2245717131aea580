// Package sariftest validates SARIF logs against the SARIF 2.1.0 JSON
// schema, for the tests of the packages that write them. The schema,
// sarif-2.1.0-rtm.5.json, is SchemaStore's 2.1.0 schema as shipped in the
// npm package @microsoft/jest-sarif 1.0.0-beta.0 (MIT licence), file
// lib/schemas/sarif-2.1.0-rtm.5.json, unchanged.
package sariftest

import (
	"bytes"
	_ "embed"
	"fmt"
	"sync"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

//go:embed sarif-2.1.0-rtm.5.json
var schemaJSON []byte

var compiled = sync.OnceValues(func() (*jsonschema.Schema, error) {
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(schemaJSON))
	if err != nil {
		return nil, err
	}
	c := jsonschema.NewCompiler()
	c.AssertFormat()
	if err := c.AddResource("sarif-2.1.0.json", doc); err != nil {
		return nil, err
	}
	return c.Compile("sarif-2.1.0.json")
})

// Validate reports whether data is JSON that follows the SARIF 2.1.0
// schema (nil) or why not.
func Validate(data []byte) error {
	sch, err := compiled()
	if err != nil {
		return fmt.Errorf("the SARIF schema: %v", err)
	}
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		return fmt.Errorf("not JSON: %v", err)
	}
	if err := sch.Validate(inst); err != nil {
		return fmt.Errorf("does not follow the SARIF 2.1.0 schema: %v", err)
	}
	return nil
}
