# exit 1
-q -s run.system.d
