# Test registration shared by tests/ and the bindings.

find_package(Python3 REQUIRED COMPONENTS Interpreter)

# dtrace_unittest(NAME DIR MODULE TIMEOUT [VAR=value ...]): a Python unittest
# module run from DIR, labelled integration (it traces for real), with the
# environment given.
function(dtrace_unittest name dir module timeout)
  add_test(NAME ${name} COMMAND ${Python3_EXECUTABLE} -m unittest -v ${module}
           WORKING_DIRECTORY ${dir})
  set_tests_properties(${name} PROPERTIES LABELS integration TIMEOUT ${timeout}
                       ENVIRONMENT "PYTHONDONTWRITEBYTECODE=1;${ARGN}")
endfunction()

# dtrace_fuzzer(NAME SOURCES src... LIBS lib... SEEDS dir...): a libFuzzer
# target (clang builds with -DDTRACE_FUZZ=ON) run for FUZZ_SECONDS over its
# seed corpora, its findings kept in the build tree.
if(DTRACE_FUZZ)
  set(FUZZ_SECONDS 60 CACHE STRING "Seconds each fuzzer runs under ctest")
endif()
function(dtrace_fuzzer name)
  cmake_parse_arguments(F "" "" "SOURCES;LIBS;SEEDS" ${ARGN})
  add_executable(${name} ${F_SOURCES})
  target_link_options(${name} PRIVATE -fsanitize=fuzzer)
  target_link_libraries(${name} PRIVATE ${F_LIBS})
  set(work ${CMAKE_CURRENT_BINARY_DIR}/${name}-corpus)
  file(MAKE_DIRECTORY ${work})
  add_test(NAME fuzz.${name}
    COMMAND ${name} -max_total_time=${FUZZ_SECONDS} -timeout=10 -rss_limit_mb=2048
            -print_final_stats=1 ${work} ${F_SEEDS})
  set_tests_properties(fuzz.${name} PROPERTIES LABELS fuzz TIMEOUT 900)
endfunction()

# dtrace_missing(MESSAGE): a test cannot be registered for lack of a tool.
# With CI=true that is an error (CI must run every test), else a note.
function(dtrace_missing message)
  string(TOLOWER "$ENV{CI}" ci)
  if(ci STREQUAL "true")
    message(FATAL_ERROR "${message} (CI=true: every test must run; scripts/dev setup installs it)")
  endif()
  message(STATUS "${message}")
endfunction()
