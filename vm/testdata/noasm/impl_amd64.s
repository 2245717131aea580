//go:build amd64 && !noasm

#include "textflag.h"

TEXT ·which(SB), NOSPLIT, $0-8
	MOVQ $1, ret+0(FP)
	RET
