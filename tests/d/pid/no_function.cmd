# exit 1
# setup: ./build.sh
-n pid$target:a.out:no_such_function:entry -c ./trigger
