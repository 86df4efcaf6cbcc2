# exit 1
# setup: ./build.sh
-e -xerrtags -n pid$target:a.out:lock_first:entry -c ./trigger
