package main

// nativeOnlyCalls are the allowed calls arm64 has under its own names.
var nativeOnlyCalls = []string{"fstatat"}

// foreignBit: arm64 has no second ABI behind its architecture field (32-bit calls carry ARM's,
// which the filter's first check refuses).
const foreignBit = 0
