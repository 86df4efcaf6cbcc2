# exit 1
# setup: ./build.sh
-e -xerrtags -n pid$target:a.out:align_me:1 -c ./trigger
