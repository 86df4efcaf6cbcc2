# exit 1
# setup: ./build.sh
-n pid$target:a.out:work:ent -c ./trigger
