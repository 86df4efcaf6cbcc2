# exit 1
# setup: ./build.sh
-n pid$target:a.out:align_me:1 -c ./trigger
