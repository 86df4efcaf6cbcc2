# exit 1
# setup: ./build.sh
-n pid$target:a.out:align_me:b -c ./trigger
