package sariftest

import "testing"

// TestValidate: the validator accepts a minimal SARIF 2.1.0 log and
// rejects logs that break the schema, so the tests using it can fail.
func TestValidate(t *testing.T) {
	good := `{"version":"2.1.0","runs":[{"tool":{"driver":{"name":"gmc"}},"results":[]}]}`
	if err := Validate([]byte(good)); err != nil {
		t.Errorf("a minimal log: %v", err)
	}
	for name, bad := range map[string]string{
		"no version":     `{"runs":[{"tool":{"driver":{"name":"gmc"}}}]}`,
		"wrong version":  `{"version":"1.0","runs":[]}`,
		"tool not named": `{"version":"2.1.0","runs":[{"tool":{"driver":{}}}]}`,
		"result level":   `{"version":"2.1.0","runs":[{"tool":{"driver":{"name":"gmc"}},"results":[{"message":{"text":"x"},"level":"fatal"}]}]}`,
		"not JSON":       `{"version":`,
	} {
		if err := Validate([]byte(bad)); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}
