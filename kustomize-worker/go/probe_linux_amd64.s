#include "textflag.h"

// func syscall32(number uintptr) uintptr
TEXT ·syscall32(SB), NOSPLIT, $0-16
	MOVQ number+0(FP), AX
	BYTE $0xCD; BYTE $0x80 // INT $0x80
	MOVQ AX, ret+8(FP)
	RET
