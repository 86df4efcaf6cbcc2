# exit 1
-x bufsize=7 -n BEGIN
