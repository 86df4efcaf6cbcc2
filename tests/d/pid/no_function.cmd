# exit 1
# setup: ./build.sh
-e -xerrtags -n pid$target:a.out:no_such_function:entry -c ./trigger
