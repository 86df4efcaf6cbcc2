# exit 3
-b 8 -q -n BEGIN{exit(3)}
