# exit 1
# setup: ./build.sh
-e -xerrtags -n pid$target:a.out:work:ent -c ./trigger
