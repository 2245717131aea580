package httptestonly

import (
	"net/http"
	"testing"
)

func TestTwo(t *testing.T) {
	if Two() != 2 || http.StatusOK != 200 {
		t.Fatal("two")
	}
}
