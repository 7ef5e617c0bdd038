# AArch64 runtime + kernel runner for qemu tests. (codegen owner fills this in.)
