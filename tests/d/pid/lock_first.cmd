# exit 1
# setup: ./build.sh
-n pid$target:a.out:lock_first:entry -c ./trigger
