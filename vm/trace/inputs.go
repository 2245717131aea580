package trace

import (
	"fmt"

	"github.com/gmc-go/gmc/vm"
)

// Concretize turns a counterexample found with symbolic inputs into one
// that runs concretely: it replays choices on m (a symbolic machine) and
// returns the inputs of the final state (a model of its path condition) and
// the choice sequence without the data choices (vm.ChooseBranch), which is
// the same run's choice sequence on a machine whose Options.Inputs are
// those inputs. Inputs is nil when the run has no symbolic inputs; choices
// are then returned unchanged.
func Concretize(m *vm.Machine, e vm.Entry, choices []int) (inputs map[string]any, concrete []int, err error) {
	if !m.Options().Symbolic {
		return nil, choices, nil // no symbolic inputs (vm.Options.Symbolic)
	}
	s := m.Start(e)
	concrete = make([]int, 0, len(choices))
	for k, i := range choices {
		cs := s.Choices()
		if i < 0 || i >= len(cs) {
			return nil, nil, fmt.Errorf("choice %d at step %d: only %d available", i, k, len(cs))
		}
		if cs[i].Kind != vm.ChooseBranch {
			concrete = append(concrete, i)
		}
		s = m.Step(s, i)
	}
	inputs = s.Inputs()
	if inputs == nil {
		return nil, choices, nil
	}
	return inputs, concrete, nil
}
