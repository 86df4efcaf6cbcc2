# The system call table as C, at build time (no compiler runs at run time):
#   cmake -DIN=syscall_64.tbl -DOUT=ks_syscalls.c -P syscalls.cmake
# Each "<number> <abi> <name>" line of IN becomes { number, "name" }; comments
# and blank lines are skipped.
file(STRINGS "${IN}" lines)
set(body "")
foreach(line IN LISTS lines)
	if(line MATCHES "^[ \t]*#" OR line MATCHES "^[ \t]*$")
		continue()
	endif()
	if(NOT line MATCHES "^([0-9]+)[ \t]+(common|64)[ \t]+([A-Za-z0-9_]+)")
		message(FATAL_ERROR "${IN}: cannot read the line '${line}'")
	endif()
	string(APPEND body "\t{ ${CMAKE_MATCH_1}, \"${CMAKE_MATCH_3}\" },\n")
endforeach()
file(WRITE "${OUT}.tmp" "/* generated from ${IN} by cmake/syscalls.cmake */\n#include \"ks.h\"\n\nconst ks_syscall_t ks_syscalls[] = {\n${body}};\nconst size_t ks_nsyscalls = sizeof(ks_syscalls) / sizeof(ks_syscalls[0]);\n")
configure_file("${OUT}.tmp" "${OUT}" COPYONLY)
