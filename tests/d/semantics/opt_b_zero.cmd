# exit 1
-b 0 -n BEGIN
