# a description without predicate or actions takes the default action in a
# string (-n), as illumos: only a file (-s) must give one (err.D_SYNTAX.description_*)
-e -n BEGIN -n tick-1s{trace(1);} -n syscall::read:entry,syscall::write:entry -n END
