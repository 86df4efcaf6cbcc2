# exit 1
-q -s run.copyout_fault.d
