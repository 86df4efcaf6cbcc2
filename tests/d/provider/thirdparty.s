# A <sys/sdt.h>-style note of another provider, with an operand longer than
# any buffer: -G must ignore it, not fail on it.
	.text
	.globl f
f:	nop
	ret
	.section .note.stapsdt,"","note"
	.balign 4
	.4byte 992f-991f, 994f-993f, 3
991:	.asciz "stapsdt"
992:	.balign 4
993:	.8byte f
	.8byte 0
	.8byte 0
	.asciz "libfoo"
	.asciz "thing"
	.asciz "-4@_ZN12my_namespace31a_rather_long_mangled_variable_nameE+12(%rip) 8@%rax"
994:	.balign 4
	.section .note.GNU-stack,"",@progbits
