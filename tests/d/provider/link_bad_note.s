# A damaged .note.stapsdt: the first note's name size is huge, so a reader
# that stops at a note which does not fit (gelf_getnote) never sees the
# stale site after it.  -G must refuse the object, not pass it unchecked.
	.text
	.globl f
f:	nop
	ret
	.section .note.stapsdt,"","note"
	.balign 4
	.4byte 0xfffffff0, 994f-993f, 3
	.asciz "stapsdt"
993:	.8byte f
	.8byte 0
	.8byte 0
	.asciz "linkp"
	.asciz "stop"
	.asciz ""
994:	.balign 4
	.4byte 992f-991f, 996f-995f, 3
991:	.asciz "stapsdt"
992:	.balign 4
995:	.8byte f
	.8byte 0
	.8byte 0
	.asciz "linkp"
	.asciz "go"
	.asciz "-4@%eax"
996:	.balign 4
	.section .note.GNU-stack,"",@progbits
