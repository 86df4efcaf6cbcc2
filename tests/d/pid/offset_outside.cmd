# exit 1
# setup: ./build.sh
-e -xerrtags -n pid$target:a.out:align_me:b -c ./trigger
